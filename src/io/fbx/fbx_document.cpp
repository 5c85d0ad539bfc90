#include "io/fbx/fbx_document.h"

#include <algorithm>

namespace rigscope::fbx {

const Record* find_p(const Record* p70, const char* name) {
    if (!p70) return nullptr;
    for (const Record& p : p70->children)
        if (p.name == "P" && !p.props.empty() && p.props[0].is_string() && p.props[0].str() == name) return &p;
    return nullptr;
}

Document::Document(const RecordFile& file) {
    const Record* objects = file.section("Objects");
    const Record* connections = file.section("Connections");
    if (!objects) throw Malformed("no Objects section");
    for (const Record& r : objects->children) {
        if (r.props.size() < 2 || r.props[0].type != 'L' || !r.props[1].is_string()) continue;
        Object o;
        o.id = r.props[0].integer;
        o.rec = &r;
        o.kind = r.name;
        o.cls = object_class(r);
        o.name = object_name(r.props[1]);
        if (by_id_.count(o.id)) throw Malformed("two objects with id " + std::to_string(o.id));
        by_id_.emplace(o.id, objects_.size());
        objects_.push_back(std::move(o));
    }
    if (connections)
        for (const Record& c : connections->children) {
            if (c.name != "C" || c.props.size() < 3 || !c.props[0].is_string()) continue;
            const std::string kind = c.props[0].str();
            if ((kind != "OO" && kind != "OP") || c.props[1].type != 'L' || c.props[2].type != 'L') continue;
            Link l;
            l.src = c.props[1].integer;
            l.dst = c.props[2].integer;
            if (kind == "OP") {
                if (c.props.size() < 4 || !c.props[3].is_string()) continue;
                l.prop = c.props[3].str();
            }
            if (!by_id_.count(l.src) || (l.dst != 0 && !by_id_.count(l.dst))) continue;
            by_src_.emplace(l.src, links_.size());
            by_dst_.emplace(l.dst, links_.size());
            links_.push_back(std::move(l));
        }
    if (const Record* defs = file.section("Definitions"))
        for (const Record& t : defs->children) {
            if (t.name != "ObjectType" || t.props.empty() || !t.props[0].is_string()) continue;
            if (const Record* pt = t.child("PropertyTemplate"))
                if (const Record* p70 = pt->child("Properties70")) templates_[t.props[0].str()] = p70;
        }
    if (const Record* gs = file.section("GlobalSettings")) globals_ = gs->child("Properties70");
    takes_ = file.section("Takes");
    const Record* creator = file.section("Creator");
    if (!creator)
        if (const Record* header = file.section("FBXHeaderExtension")) creator = header->child("Creator");
    if (creator && !creator->props.empty() && creator->props[0].is_string()) creator_ = creator->props[0].str();
    // SceneInfo's application names: the last application that saved the file wrote its curves.
    if (const Record* header = file.section("FBXHeaderExtension"))
        if (const Record* info = header->child("SceneInfo"))
            for (const char* name : {"LastSaved|ApplicationName", "Original|ApplicationName"})
                if (const Record* p = find_p(info->child("Properties70"), name); p && p->props.size() > 4 && p->props[4].is_string()) {
                    application_ = p->props[4].str();
                    break;
                }
}

bool Document::take_time(const std::string& name, std::int64_t& start, std::int64_t& stop) const {
    if (!takes_) return false;
    for (const Record& t : takes_->children) {
        if (t.name != "Take" || t.props.empty() || !t.props[0].is_string() || object_name(t.props[0]) != name) continue;
        const Record* lt = t.child("LocalTime");
        if (!lt || lt->props.size() < 2 || lt->props[0].type != 'L' || lt->props[1].type != 'L') return false;
        start = lt->props[0].integer;
        stop = lt->props[1].integer;
        return true;
    }
    return false;
}

const Object* Document::find(std::int64_t id) const {
    auto it = by_id_.find(id);
    return it == by_id_.end() ? nullptr : &objects_[it->second];
}

namespace {
template <class Map>
std::vector<std::pair<const Object*, const Link*>> linked(const Document& doc, const Map& map, const std::vector<Link>& links,
                                                          std::int64_t key, bool want_src, const char* kind) {
    std::vector<std::size_t> idx;
    auto range = map.equal_range(key);
    for (auto it = range.first; it != range.second; ++it) idx.push_back(it->second);
    std::sort(idx.begin(), idx.end());
    std::vector<std::pair<const Object*, const Link*>> out;
    for (std::size_t i : idx) {
        const Object* o = doc.find(want_src ? links[i].src : links[i].dst);
        if (o && (!kind || o->kind == kind)) out.emplace_back(o, &links[i]);
    }
    return out;
}
}  // namespace

std::vector<std::pair<const Object*, const Link*>> Document::sources(std::int64_t dst, const char* kind) const {
    return linked(*this, by_dst_, links_, dst, true, kind);
}

std::vector<std::pair<const Object*, const Link*>> Document::destinations(std::int64_t src, const char* kind) const {
    return linked(*this, by_src_, links_, src, false, kind);
}

const Record* Document::property(const Object& o, const char* name) const {
    if (const Record* p = find_p(o.rec->child("Properties70"), name)) return p;
    auto t = templates_.find(o.kind);
    return t == templates_.end() ? nullptr : find_p(t->second, name);
}

namespace {
bool numbers(const Record* p, int n, double* out) {
    if (!p || p->props.size() < std::size_t(4 + n)) return false;
    for (int i = 0; i < n; ++i) {
        const Prop& v = p->props[4 + i];
        if (v.is_string() || element_size(v.type)) return false;
        out[i] = v.number;
    }
    return true;
}
}  // namespace

double Document::number(const Object& o, const char* name, double fallback) const {
    double v;
    return numbers(property(o, name), 1, &v) ? v : fallback;
}

Eigen::Vector3d Document::vec3(const Object& o, const char* name, const Eigen::Vector3d& fallback) const {
    double v[3];
    return numbers(property(o, name), 3, v) ? Eigen::Vector3d(v[0], v[1], v[2]) : fallback;
}

double Document::global_number(const char* name, double fallback) const {
    double v;
    return numbers(find_p(globals_, name), 1, &v) ? v : fallback;
}

}  // namespace rigscope::fbx
