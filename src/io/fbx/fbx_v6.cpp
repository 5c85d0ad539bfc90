// FBX 6.x (binary and ASCII) rewritten into the record tree of FBX 7.x, so that the one scene
// reader (fbx_scene*.cpp) reads both: objects named rather than numbered get ids, a mesh
// Model's inline geometry becomes a Geometry object, a mesh's Shape children become a BlendShape
// deformer with one channel each, Properties60 becomes Properties70, and each Take's inline
// curves become an AnimationStack with its layer, curve nodes and curves. What the 7.x reader
// then checks (arrays, polygons, curves) it checks here too. Field names and key layouts follow
// the FBX SDK 2006-2011 files; ufbx (github.com/ufbx/ufbx) was the reference for the key modes.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <map>
#include <set>

#include "io/fbx/fbx_curve.h"
#include "io/fbx/fbx_document.h"
#include "io/fbx/fbx_records.h"
#include "io/fbx/fbx_v6_keys.h"

namespace rigscope::fbx {

namespace {

// Records whose ASCII 6.x values are one array (binary 6.x files store them as arrays already).
const std::set<std::string> kArrays = {"Vertices", "PolygonVertexIndex", "Indexes", "Weights", "Transform",
                                       "TransformLink", "Matrix", "Normals", "FullWeights"};

class Upgrade {
public:
    explicit Upgrade(RecordFile& file) : file_(file) {}

    void run() {
        const Record* objects = file_.section("Objects");
        if (!objects) throw Malformed("FBX 6: no Objects section");
        names_[std::string("Scene\0\1Model", 12)] = 0;
        std::vector<Record> out;
        Record globals;
        globals.name = "GlobalSettings";
        for (const Record& r : objects->children) {
            if (r.name == "GlobalSettings") {
                globals.children.push_back(properties(r));
                continue;
            }
            if (r.props.empty() || !r.props[0].is_string()) continue;
            object(r, out);
        }
        if (globals.children.empty())
            if (const Record* g = file_.section("GlobalSettings")) globals.children.push_back(properties(*g));
        std::vector<Record> links;
        if (const Record* conns = file_.section("Connections"))
            for (const Record& c : conns->children) connect(c, links);
        for (auto& [geo, model] : mesh_geometry_) link("OO", geo, model, "", links);
        for (const Record& l : extra_links_) links.push_back(l);
        if (const Record* takes = file_.section("Takes"))
            for (const Record& t : takes->children)
                if (t.name == "Take") take(t, out, links);

        std::vector<Record> top;
        for (Record& r : file_.top)
            if (r.name != "Objects" && r.name != "Connections" && r.name != "GlobalSettings" && r.name != "Definitions")
                top.push_back(std::move(r));
        top.push_back(std::move(globals));
        Record objs, conns;
        objs.name = "Objects";
        objs.children = std::move(out);
        conns.name = "Connections";
        conns.children = std::move(links);
        top.push_back(std::move(objs));
        top.push_back(std::move(conns));
        file_.top = std::move(top);
    }

private:
    Prop str(const std::string& s) {
        spend(s.size() + 32);
        file_.text.push_back(s);
        Prop p;
        p.type = 'S';
        p.data = reinterpret_cast<const unsigned char*>(file_.text.back().data());
        p.bytes = std::uint32_t(s.size());
        return p;
    }
    static Prop integer(std::int64_t v) {
        Prop p;
        p.type = 'L';
        p.integer = v;
        p.number = double(v);
        return p;
    }
    static Prop real(double v) {
        Prop p;
        p.type = 'D';
        p.number = v;
        return p;
    }
    template <class T>
    Prop array(char type, const std::vector<T>& v) {
        std::string bytes(v.size() * sizeof(T), '\0');
        if (!v.empty()) std::memcpy(bytes.data(), v.data(), bytes.size());
        Prop p = str(bytes);
        p.type = type;
        p.count = std::uint32_t(v.size());
        return p;
    }
    void spend(std::uint64_t bytes) { charge(file_.budget, double(bytes), "FBX 6's records, rewritten as FBX 7's"); }
    std::int64_t next_id() { return ++id_; }

    // Properties60 { Property: name, type, flags, values } -> Properties70 { P: name, type, "", flags, values }.
    Record properties(const Record& owner) {
        Record p70;
        p70.name = "Properties70";
        const Record* p60 = owner.child("Properties60");
        if (!p60) return p70;
        for (const Record& p : p60->children) {
            if (p.name != "Property" || p.props.size() < 3) continue;
            Record np;
            np.name = "P";
            np.props = {p.props[0], p.props[1], str(""), p.props[2]};
            np.props.insert(np.props.end(), p.props.begin() + 3, p.props.end());
            p70.children.push_back(std::move(np));
        }
        return p70;
    }

    // An ASCII list of numbers as one array ('l' when all are integers, else 'd'); an array
    // record of a binary file is kept as it is.
    Record packed(const Record& r) {
        Record out;
        out.name = r.name;
        if (r.props.size() == 1 && element_size(r.props[0].type)) {
            out.props = r.props;
            return out;
        }
        std::vector<std::int64_t> ints;
        std::vector<double> reals;
        bool integral = true;
        spend(8 * r.props.size());
        for (const Prop& p : r.props) {
            if (p.type != 'L' && p.type != 'D' && p.type != 'I' && p.type != 'F' && p.type != 'Y')
                throw Malformed("FBX 6: '" + r.name + "' holds a value that is no number");
            if (p.type == 'D' || p.type == 'F') integral = false;
            ints.push_back(p.integer);
            reals.push_back(p.number);
        }
        out.props.push_back(integral ? array('l', ints) : array('d', reals));
        return out;
    }

    void copy_children(const Record& from, Record& to, bool geometry) {
        for (const Record& c : from.children) {
            if (c.name == "Properties60" || c.name == "Shape") continue;
            const bool is_geo = c.name == "Vertices" || c.name == "PolygonVertexIndex" || c.name.rfind("LayerElement", 0) == 0 ||
                                c.name == "Layer" || c.name == "GeometryVersion";
            if (is_geo != geometry) continue;
            to.children.push_back(kArrays.count(c.name) ? packed(c) : c);
        }
    }

    void object(const Record& r, std::vector<Record>& out) {
        const std::string full = r.props[0].str();
        const std::int64_t id = next_id();
        if (!names_.emplace(full, id).second) throw Malformed("FBX 6: two objects named '" + object_name(r.props[0]) + "'");
        const std::string cls = r.props.size() > 1 && r.props[1].is_string() ? r.props[1].str() : "";
        Record o;
        o.name = r.name;
        o.props = {integer(id), r.props[0], str(cls)};
        o.children.push_back(properties(r));
        copy_children(r, o, false);
        if (r.name == "Model" && r.child("Vertices")) {
            // The mesh's geometry, inline in its Model, becomes an object of its own.
            const std::int64_t gid = next_id();
            Record g;
            g.name = "Geometry";
            g.props = {integer(gid), str(object_name(r.props[0]) + std::string("\0\1Geometry", 10)), str("Mesh")};
            copy_children(r, g, true);
            mesh_geometry_.emplace_back(gid, id);
            geometry_of_[id] = gid;
            shapes(r, o, gid, out);
            out.push_back(std::move(g));
        }
        kind_[id] = r.name + "/" + cls;
        out.push_back(std::move(o));
    }

    // Shape children of a mesh Model: one BlendShape deformer, a channel per shape (its
    // DeformPercent the model's property of the shape's name), a Shape geometry each.
    void shapes(const Record& model, const Record& converted, std::int64_t geo, std::vector<Record>& out) {
        std::int64_t blend = 0;
        for (const Record& s : model.children) {
            if (s.name != "Shape" || s.props.empty() || !s.props[0].is_string()) continue;
            const std::string name = s.props[0].str();
            if (!blend) {
                blend = next_id();
                Record b;
                b.name = "Deformer";
                b.props = {integer(blend), str(object_name(model.props[0]) + std::string("\0\1Deformer", 10)), str("BlendShape")};
                out.push_back(std::move(b));
                link("OO", blend, geo, "", extra_links_);
            }
            const std::int64_t chan = next_id(), shape = next_id();
            Record c;
            c.name = "Deformer";
            c.props = {integer(chan), str(name + std::string("\0\1SubDeformer", 13)), str("BlendShapeChannel")};
            double percent = 0.0;
            if (const Record* p = find_p(converted.child("Properties70"), name.c_str()); p && p->props.size() > 4)
                percent = p->props[4].number;
            Record dp;
            dp.name = "DeformPercent";
            dp.props = {real(percent)};
            c.children.push_back(std::move(dp));
            out.push_back(std::move(c));
            Record g;
            g.name = "Geometry";
            g.props = {integer(shape), str(name + std::string("\0\1Geometry", 10)), str("Shape")};
            for (const Record& k : s.children)
                if (k.name == "Indexes" || k.name == "Vertices") g.children.push_back(packed(k));
            out.push_back(std::move(g));
            link("OO", chan, blend, "", extra_links_);
            link("OO", shape, chan, "", extra_links_);
            shape_channel_[{converted.props[0].integer, name}] = chan;
        }
    }

    void link(const char* kind, std::int64_t src, std::int64_t dst, const std::string& prop, std::vector<Record>& into) {
        Record c;
        c.name = "C";
        c.props = {str(kind), integer(src), integer(dst)};
        if (!prop.empty()) c.props.push_back(str(prop));
        into.push_back(std::move(c));
    }

    // Connect: "OO", "Class::Source", "Class::Destination"; a skin connected to a mesh Model
    // moves to the Model's geometry, as 7.x files connect it.
    void connect(const Record& c, std::vector<Record>& links) {
        if (c.name != "Connect" || c.props.size() < 3 || !c.props[0].is_string() || c.props[0].str() != "OO" ||
            !c.props[1].is_string() || !c.props[2].is_string())
            return;
        auto s = names_.find(c.props[1].str()), d = names_.find(c.props[2].str());
        if (s == names_.end() || d == names_.end()) return;
        std::int64_t dst = d->second;
        if (kind_[s->second] == "Deformer/Skin" && geometry_of_.count(dst)) dst = geometry_of_[dst];
        link("OO", s->second, dst, "", links);
    }

    // One Take -> AnimationStack, AnimationLayer, and per animated property a curve node and curves.
    void take(const Record& t, std::vector<Record>& out, std::vector<Record>& links) {
        if (t.props.empty() || !t.props[0].is_string()) return;
        const std::int64_t stack = next_id(), layer = next_id();
        Record s;
        s.name = "AnimationStack";
        s.props = {integer(stack), str(t.props[0].str() + std::string("\0\1AnimStack", 11)), str("")};
        Record p70;
        p70.name = "Properties70";
        if (const Record* lt = t.child("LocalTime"); lt && lt->props.size() >= 2 && lt->props[0].type == 'L' && lt->props[1].type == 'L')
            for (int i = 0; i < 2; ++i) {
                Record p;
                p.name = "P";
                p.props = {str(i ? "LocalStop" : "LocalStart"), str("KTime"), str("Time"), str(""), lt->props[i]};
                p70.children.push_back(std::move(p));
            }
        s.children.push_back(std::move(p70));
        out.push_back(std::move(s));
        Record l;
        l.name = "AnimationLayer";
        l.props = {integer(layer), str(std::string("BaseLayer\0\1AnimLayer", 20)), str("")};
        out.push_back(std::move(l));
        link("OO", layer, stack, "", links);
        for (const Record& m : t.children) {
            if (m.name != "Model" || m.props.empty() || !m.props[0].is_string()) continue;
            auto found = names_.find(m.props[0].str());
            if (found == names_.end()) continue;
            const std::int64_t model = found->second;
            for (const Record& ch : m.children) {
                if (ch.name != "Channel" || ch.props.empty() || !ch.props[0].is_string()) continue;
                const std::string name = ch.props[0].str();
                if (name == "Transform") {
                    for (const Record& trs : ch.children) {
                        if (trs.name != "Channel" || trs.props.empty() || !trs.props[0].is_string()) continue;
                        const std::string w = trs.props[0].str();
                        const char* prop = w == "T" ? "Lcl Translation" : w == "R" ? "Lcl Rotation" : w == "S" ? "Lcl Scaling" : nullptr;
                        if (!prop) continue;
                        const Record* axes[3] = {};
                        for (const Record& a : trs.children)
                            if (a.name == "Channel" && !a.props.empty() && a.props[0].is_string()) {
                                const std::string ax = a.props[0].str();
                                if (ax == "X" || ax == "Y" || ax == "Z") axes[ax[0] - 'X'] = &a;
                            }
                        curve_node(model, prop, {"d|X", "d|Y", "d|Z"}, axes, layer, out, links);
                    }
                } else if (auto sc = shape_channel_.find({model, name}); sc != shape_channel_.end()) {
                    const Record* one[3] = {&ch, nullptr, nullptr};
                    curve_node(sc->second, "DeformPercent", {"d|DeformPercent", "", ""}, one, layer, out, links);
                }
            }
        }
    }

    void curve_node(std::int64_t target, const char* prop, std::array<const char*, 3> names, const Record* const* channels,
                    std::int64_t layer, std::vector<Record>& out, std::vector<Record>& links) {
        const std::int64_t node = next_id();
        Record n;
        n.name = "AnimationCurveNode";
        n.props = {integer(node), str(std::string(prop) + std::string("\0\1AnimCurveNode", 15)), str("")};
        Record p70;
        p70.name = "Properties70";
        for (int i = 0; i < 3; ++i) {
            if (!channels[i] || !*names[i]) continue;
            const Record* def = channels[i]->child("Default");
            if (!def || def->props.empty() || def->props[0].is_string()) continue;
            Record p;
            p.name = "P";
            p.props = {str(names[i]), str("Number"), str(""), str("A"), real(def->props[0].number)};
            p70.children.push_back(std::move(p));
        }
        n.children.push_back(std::move(p70));
        out.push_back(std::move(n));
        link("OO", node, layer, "", links);
        link("OP", node, target, prop, links);
        for (int i = 0; i < 3; ++i) {
            if (!channels[i] || !*names[i]) continue;
            const Record* key = channels[i]->child("Key");
            if (!key || key->props.empty()) continue;
            const std::int64_t c = next_id();
            out.push_back(curve(c, *channels[i], *key));
            link("OP", c, node, names[i], links);
        }
    }

    // A channel's Key list as an FBX 7 AnimationCurve (fbx_v6_keys.h reads the keys).
    Record curve(std::int64_t id, const Record& channel, const Record& key) {
        const V6CurveArrays a = read_v6_curve(channel, key);
        spend(56 * a.times.size());
        Record c;
        c.name = "AnimationCurve";
        c.props = {integer(id), str(std::string("\0\1AnimCurve", 11)), str("")};
        auto child = [&](const char* name, Prop p) {
            Record r;
            r.name = name;
            r.props.push_back(p);
            c.children.push_back(std::move(r));
        };
        child("KeyTime", array('l', a.times));
        child("KeyValueFloat", array('d', a.values));
        child("KeyAttrFlags", array('l', a.flags));
        child("KeyAttrDataFloat", array('d', a.data));
        child("KeyAttrRefCount", array('l', a.refs));
        child(kExactWeightsRecord, array('d', a.exact_weights));
        return c;
    }

    RecordFile& file_;
    std::int64_t id_ = 0;
    std::map<std::string, std::int64_t> names_;
    std::map<std::int64_t, std::string> kind_;
    std::map<std::int64_t, std::int64_t> geometry_of_;  // mesh Model -> its Geometry
    std::vector<std::pair<std::int64_t, std::int64_t>> mesh_geometry_;
    std::map<std::pair<std::int64_t, std::string>, std::int64_t> shape_channel_;  // (model, shape) -> channel
    std::vector<Record> extra_links_;
};

}  // namespace

void upgrade_v6(RecordFile& file) { Upgrade(file).run(); }

}  // namespace rigscope::fbx
