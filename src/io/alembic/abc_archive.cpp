#include "io/alembic/abc_archive.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <sstream>

namespace rigscope::abc {

namespace {

// Nesting deeper than this is refused: real hierarchies are tens deep, and each level is a
// recursion of the reader (a file of a million nested empty groups must not overflow the stack).
constexpr int kMaxDepth = 512;

template <typename T>
T load(const char* p) {
    T v;
    std::memcpy(&v, p, sizeof v);
    return v;
}

// Alembic's acyclic marker: a time per cycle of the largest double / 32.
const double kAcyclicTimePerCycle = std::numeric_limits<double>::max() / 32.0;

}  // namespace

std::string number(double v) {
    std::ostringstream s;
    s.precision(9);
    s << v;
    return s.str();
}

std::string printable(const char* p, std::size_t n) {
    static const char kHex[] = "0123456789abcdef";
    std::string s;
    s.reserve(n);
    for (std::size_t i = 0; i < n; ++i) {
        const unsigned char c = static_cast<unsigned char>(p[i]);
        if (c >= 0x20 && c != 0x7f) {
            s += char(c);
        } else {
            s += "\\x";
            s += kHex[c >> 4];
            s += kHex[c & 15];
        }
    }
    return s;
}

int pod_bytes(int pod) {
    static const int kBytes[] = {1, 1, 1, 2, 2, 4, 4, 8, 8, 2, 4, 8, 0, 0};
    return pod >= 0 && pod <= kWstring ? kBytes[pod] : 0;
}

const char* pod_name(int pod) {
    static const char* kNames[] = {"bool", "uint8", "int8", "uint16", "int16", "uint32", "int32", "uint64", "int64",
                                   "float16", "float32", "float64", "string", "wstring"};
    return pod >= 0 && pod <= kWstring ? kNames[pod] : "unknown";
}

MetaData parse_metadata(const std::string& text) {
    MetaData m;
    std::size_t start = 0;
    while (start < text.size()) {
        std::size_t end = text.find(';', start);
        if (end == std::string::npos) end = text.size();
        const std::string item = text.substr(start, end - start);
        const std::size_t eq = item.find('=');
        if (eq != std::string::npos && eq > 0) m[item.substr(0, eq)] = item.substr(eq + 1);
        start = end + 1;
    }
    return m;
}

double TimeSampling::time(std::uint64_t index) const {
    if (kind == Uniform) return times[0] + time_per_cycle * double(index);
    // Past an acyclic list only in messages (readers check their samples fit the list first).
    if (kind == Acyclic) return index < times.size() ? times[index] : times.back();
    const std::uint64_t n = times.size();
    return times[index % n] + time_per_cycle * double(index / n);
}

std::string TimeSampling::describe() const {
    if (kind == Uniform) return "uniform, " + number(time_per_cycle) + " s a sample from " + number(times[0]) + " s";
    if (kind == Cyclic) return "cyclic, " + std::to_string(times.size()) + " samples every " + number(time_per_cycle) + " s";
    return "acyclic, " + std::to_string(times.size()) + " times";
}

const Property* Property::child(const std::string& n) const {
    for (const Property& c : children)
        if (c.name == n) return &c;
    return nullptr;
}

std::uint32_t Property::stored(std::uint32_t index) const {
    if (index < first_changed) return 0;
    if (first_changed == 0 && last_changed == 0) return 0;
    if (index >= last_changed) return last_changed - first_changed + 1;
    return index - first_changed + 1;
}

std::uint32_t Property::stored_count() const { return samples == 0 ? 0 : stored(samples - 1) + 1; }

Archive::Archive(const std::string& path, LoadBudget& budget) : file_(path, budget) {
    const std::vector<std::uint64_t> root = file_.group(file_.root(), "the archive's root");
    if (root.size() < 6 || !OgawaFile::is_data(root[0]) || !OgawaFile::is_data(root[1]) || OgawaFile::is_data(root[2]) ||
        !OgawaFile::is_data(root[3]) || !OgawaFile::is_data(root[4]) || !OgawaFile::is_data(root[5]))
        file_.fail("an Ogawa file whose root is not an Alembic archive's (versions, top object, metadata, time samplings)");
    auto int32_of = [&](std::uint64_t child, const char* what) {
        const DataRef d = file_.data(child, what);
        if (d.size != 4) file_.fail(std::string(what) + " is not a 4-byte number");
        std::int32_t v = 0;
        file_.read(d.pos, 4, &v, what);
        return v;
    };
    const std::int32_t format = int32_of(root[0], "the archive's format version");
    if (format < 0 || format > 1) file_.fail("Alembic Ogawa format version " + std::to_string(format) + " is not read (0 or 1)");
    const std::int32_t library = int32_of(root[1], "the archive's library version");
    if (library < 9999) file_.fail("Alembic library version " + std::to_string(library) + " is not read (10000 and later)");

    // Time samplings: per sampling the largest sample count written, the time per cycle, the
    // count of times in a cycle and the times, packed.
    const std::vector<char> ts = file_.bytes(file_.data(root[4], "the time samplings"), "the time samplings");
    std::size_t pos = 0;
    while (pos < ts.size()) {
        const std::string what = "time sampling " + std::to_string(samplings_.size());
        if (ts.size() - pos < 16) file_.fail(what + " is truncated");
        TimeSampling s;
        s.max_samples = load<std::uint32_t>(&ts[pos]);
        s.time_per_cycle = load<double>(&ts[pos + 4]);
        const std::uint32_t n = load<std::uint32_t>(&ts[pos + 12]);
        pos += 16;
        if (n < 1 || n > (ts.size() - pos) / 8) file_.fail(what + " claims " + std::to_string(n) + " times, past its block");
        s.times.resize(n);
        std::memcpy(s.times.data(), &ts[pos], std::size_t(n) * 8);
        pos += std::size_t(n) * 8;
        for (double t : s.times)
            if (!std::isfinite(t)) file_.fail(what + " has a time that is not a finite number");
        for (std::size_t i = 1; i < s.times.size(); ++i)
            if (!(s.times[i] > s.times[i - 1])) file_.fail(what + "'s times do not increase (" + number(s.times[i - 1]) + " then " + number(s.times[i]) + " s)");
        if (s.time_per_cycle == kAcyclicTimePerCycle) {
            s.kind = TimeSampling::Acyclic;
        } else {
            if (!std::isfinite(s.time_per_cycle) || !(s.time_per_cycle > 0))
                file_.fail(what + " has a step of " + number(s.time_per_cycle) + " s: a time sampling's step must be positive");
            s.kind = n == 1 ? TimeSampling::Uniform : TimeSampling::Cyclic;
            if (s.kind == TimeSampling::Cyclic && !(s.times.back() - s.times.front() < s.time_per_cycle))
                file_.fail(what + "'s times span more than its cycle of " + number(s.time_per_cycle) + " s");
        }
        samplings_.push_back(std::move(s));
    }
    if (samplings_.empty()) file_.fail("the archive has no time sampling (Alembic writes its default one in every archive)");

    // Indexed metadata: index 0 is the empty set; then strings of up to 255 bytes each.
    indexed_.emplace_back();
    const DataRef md = file_.data(root[5], "the indexed metadata");
    if (md.size > 65536) file_.fail("the indexed metadata block is " + std::to_string(md.size) + " bytes (Alembic writes at most 64 KiB)");
    const std::vector<char> mb = file_.bytes(md, "the indexed metadata");
    for (std::size_t p = 0; p < mb.size();) {
        const std::size_t n = static_cast<unsigned char>(mb[p++]);
        if (n > mb.size() - p) file_.fail("the indexed metadata is truncated");
        indexed_.push_back(parse_metadata(std::string(&mb[p], n)));
        p += n;
    }
    const DataRef am = file_.data(root[3], "the archive metadata");
    if (am.size > 0) top_.meta = parse_metadata(std::string(file_.bytes(am, "the archive metadata").data(), am.size));

    top_.name = "";
    top_.path = "/";
    read_object(top_, root[2], 0);
}

void Archive::visit(std::uint64_t group, const std::string& what, int depth) {
    if (depth > kMaxDepth) file_.fail(what + " is nested more than " + std::to_string(kMaxDepth) + " deep (a cycle of groups?)");
    if (group == 0) return;
    // A group is read as one object or one compound: one reached twice is a cycle (or a group
    // shared by two owners, which Alembic never writes).
    auto it = std::lower_bound(visited_.begin(), visited_.end(), group);
    if (it != visited_.end() && *it == group)
        file_.fail(what + ": group at offset " + std::to_string(group) + " is reached twice (a cycle of groups)");
    visited_.insert(it, group);
}

void Archive::read_object(Object& o, std::uint64_t group, int depth) {
    const std::string what = "object " + o.path;
    visit(group, what, depth);
    const std::vector<std::uint64_t> ch = file_.group(group, what);
    if (ch.empty()) return;
    if (OgawaFile::is_data(ch[0])) file_.fail(what + " has a data block where its properties belong");
    o.props.name = "";
    read_compound(o.props, ch[0], what, depth + 1);
    if (!OgawaFile::is_data(ch.back())) file_.fail(what + " has no block of child headers");
    const DataRef hd = file_.data(ch.back(), what + "'s child headers");
    if (hd.size <= 32) return;  // the hashes alone: no children
    const std::vector<char> b = file_.bytes(hd, what + "'s child headers");
    const std::size_t end = b.size() - 32;  // the last 32 bytes are the properties' and children's hashes
    std::size_t p = 0;
    while (p < end) {
        if (end - p < 4) file_.fail(what + "'s child headers are truncated");
        const std::uint32_t n = load<std::uint32_t>(&b[p]);
        p += 4;
        if (n == 0 || n >= end - p) file_.fail(what + "'s child headers hold a name of " + std::to_string(n) + " bytes, past their block");
        Object c;
        c.name = printable(&b[p], n);
        p += n;
        const unsigned mi = static_cast<unsigned char>(b[p++]);
        if (mi == 0xff) {
            if (end - p < 4) file_.fail(what + "'s child headers are truncated");
            const std::uint32_t m = load<std::uint32_t>(&b[p]);
            p += 4;
            if (m > end - p) file_.fail(what + "'s child '" + c.name + "' has metadata past its block");
            c.meta = parse_metadata(std::string(&b[p], m));
            p += m;
        } else if (mi < indexed_.size()) {
            c.meta = indexed_[mi];
        } else {
            file_.fail(what + "'s child '" + c.name + "' names metadata " + std::to_string(mi) + " of " + std::to_string(indexed_.size()));
        }
        c.path = (o.path == "/" ? "" : o.path) + "/" + c.name;
        o.children.push_back(std::move(c));
    }
    // Child i's group follows the properties: child offset i + 1, before the headers.
    if (o.children.size() + 2 > ch.size())
        file_.fail(what + " lists " + std::to_string(o.children.size()) + " children but holds " + std::to_string(ch.size() - 2));
    for (std::size_t i = 0; i < o.children.size(); ++i) {
        if (OgawaFile::is_data(ch[i + 1])) file_.fail("object " + o.children[i].path + " is a data block where a group belongs");
        read_object(o.children[i], ch[i + 1], depth + 1);
    }
}

void Archive::read_compound(Property& c, std::uint64_t group, const std::string& owner, int depth) {
    const std::string what = owner + (c.name.empty() ? "'s properties" : "'s property " + c.name);
    visit(group, what, depth);
    c.type = Property::Compound;
    c.group = group;
    const std::vector<std::uint64_t> ch = file_.group(group, what);
    if (ch.empty()) return;
    if (!OgawaFile::is_data(ch.back())) file_.fail(what + ": no block of property headers");
    const std::vector<char> b = file_.bytes(file_.data(ch.back(), what + ": the property headers"), what + ": the property headers");
    std::size_t p = 0;
    // A number sized by the header's hint: 1, 2 or 4 bytes.
    auto sized = [&](unsigned hint) -> std::uint32_t {
        const std::size_t n = hint == 0 ? 1 : hint == 1 ? 2 : hint == 2 ? 4 : 0;
        if (n == 0) file_.fail(what + ": a property header with a bad size hint");
        if (b.size() - p < n) file_.fail(what + ": the property headers are truncated");
        std::uint32_t v = 0;
        std::memcpy(&v, &b[p], n);  // little-endian, as the file
        p += n;
        return v;
    };
    while (p < b.size()) {
        if (b.size() - p < 4) file_.fail(what + ": the property headers are truncated");
        const std::uint32_t info = load<std::uint32_t>(&b[p]);
        p += 4;
        Property q;
        const unsigned kind = info & 3;
        q.type = kind == 0 ? Property::Compound : kind == 1 ? Property::Scalar : Property::Array;
        const unsigned hint = (info >> 2) & 3;
        if (q.type != Property::Compound) {
            q.pod = int((info >> 4) & 0xf);
            if (q.pod > kWstring) file_.fail(what + ": a property of unknown data type " + std::to_string(q.pod));
            q.extent = int((info >> 12) & 0xff);
            q.samples = sized(hint);
            if (info & 0x200) {
                q.first_changed = sized(hint);
                q.last_changed = sized(hint);
            } else if (info & 0x800) {
                q.first_changed = q.last_changed = 0;
            } else {
                q.first_changed = 1;
                q.last_changed = q.samples - 1;
            }
            if (info & 0x100) q.sampling = sized(hint);
            if (q.samples > 0 && !(q.first_changed == 0 && q.last_changed == 0) &&
                (q.first_changed == 0 || q.last_changed >= q.samples || q.last_changed + 1 < q.first_changed))
                file_.fail(what + ": a property whose changed samples " + std::to_string(q.first_changed) + ".." +
                           std::to_string(q.last_changed) + " are not within its " + std::to_string(q.samples) + " samples");
            if (q.sampling >= samplings_.size())
                file_.fail(what + ": a property on time sampling " + std::to_string(q.sampling) + " of " + std::to_string(samplings_.size()));
        }
        const std::uint32_t n = sized(hint);
        if (n == 0 || n > b.size() - p) file_.fail(what + ": a property name of " + std::to_string(n) + " bytes, past the headers' block");
        q.name = printable(&b[p], n);
        p += n;
        const unsigned mi = (info >> 20) & 0xff;
        if (mi == 0xff) {
            const std::uint32_t m = sized(hint);
            if (m > b.size() - p) file_.fail(what + ": property " + q.name + " has metadata past the headers' block");
            q.meta = parse_metadata(std::string(b.data() + p, m));
            p += m;
        } else if (mi < indexed_.size()) {
            q.meta = indexed_[mi];
        } else {
            file_.fail(what + ": property " + q.name + " names metadata " + std::to_string(mi) + " of " + std::to_string(indexed_.size()));
        }
        c.children.push_back(std::move(q));
    }
    if (c.children.size() + 1 > ch.size())
        file_.fail(what + ": " + std::to_string(c.children.size()) + " property headers but " + std::to_string(ch.size() - 1) + " property groups");
    for (std::size_t i = 0; i < c.children.size(); ++i) {
        Property& q = c.children[i];
        if (OgawaFile::is_data(ch[i])) file_.fail(what + ": property " + q.name + " is a data block where a group belongs");
        q.group = ch[i];
        if (q.type == Property::Compound) read_compound(q, ch[i], owner, depth + 1);
    }
}

const std::vector<std::uint64_t>& Archive::property_children(const Property& p, const std::string& what) {
    auto it = sample_groups_.find(p.group);
    if (it != sample_groups_.end()) return it->second;
    std::vector<std::uint64_t> ch = file_.group(p.group, what);
    const std::uint64_t need = std::uint64_t(p.stored_count()) * (p.type == Property::Array ? 2 : 1);
    if (ch.size() < need)
        file_.fail(what + " has " + std::to_string(p.samples) + " samples, " + std::to_string(p.stored_count()) + " of them stored, but its group holds " +
                   std::to_string(ch.size()) + " blocks (truncated or corrupt)");
    file_.budget().charge(double(ch.size()) * 8, what + "'s sample table");
    return sample_groups_.emplace(p.group, std::move(ch)).first->second;
}

DataRef Archive::array_sample(const Property& p, std::uint32_t index, const std::string& what, std::uint64_t& elements) {
    if (p.type != Property::Array) file_.fail(what + " is not an array property");
    if (index >= p.samples) file_.fail(what + " has no sample " + std::to_string(index));
    const std::vector<std::uint64_t>& ch = property_children(p, what);
    const std::uint32_t k = p.stored(index);
    const std::string at = what + " at sample " + std::to_string(index);
    const DataRef d = file_.data(ch[2 * k], at);
    const DataRef dims = file_.data(ch[2 * k + 1], at + "'s dimensions");
    const int bytes = pod_bytes(p.pod);
    if (bytes == 0) file_.fail(at + " holds strings, not numbers");
    if (p.extent < 1) file_.fail(at + " has an extent of 0");
    const std::uint64_t element = std::uint64_t(bytes) * std::uint64_t(p.extent);
    if (d.size == 0) {
        elements = 0;
        return d;
    }
    if (d.size < 16) file_.fail(at + " is a block of " + std::to_string(d.size) + " bytes, shorter than its 16-byte key");
    const std::uint64_t payload = d.size - 16;
    if (dims.size == 0) {
        if (payload % element != 0) file_.fail(at + " holds " + std::to_string(payload) + " bytes, not a whole number of " + pod_name(p.pod) + " x" + std::to_string(p.extent));
        elements = payload / element;
    } else {
        if (dims.size % 8 != 0 || dims.size > 64) file_.fail(at + "'s dimensions are a block of " + std::to_string(dims.size) + " bytes");
        std::uint64_t dv[8] = {};
        file_.read(dims.pos, dims.size, dv, at + "'s dimensions");
        double count = 1;
        for (std::uint64_t i = 0; i < dims.size / 8; ++i) count *= double(dv[i]);
        if (count * double(element) != double(payload))
            file_.fail(at + " claims " + number(count) + " elements of " + std::to_string(element) + " bytes, but its block holds " +
                       std::to_string(payload) + " bytes");
        elements = static_cast<std::uint64_t>(count);
    }
    return {d.pos + 16, payload};
}

std::vector<char> Archive::array_bytes(const Property& p, std::uint32_t index, const std::string& what, std::uint64_t& elements) {
    const DataRef d = array_sample(p, index, what, elements);
    return file_.bytes(d, what + " at sample " + std::to_string(index));
}

std::vector<char> Archive::scalar_bytes(const Property& p, std::uint32_t index, const std::string& what) {
    if (p.type != Property::Scalar) file_.fail(what + " is not a scalar property");
    if (index >= p.samples) file_.fail(what + " has no sample " + std::to_string(index));
    const std::vector<std::uint64_t>& ch = property_children(p, what);
    const std::string at = what + " at sample " + std::to_string(index);
    const DataRef d = file_.data(ch[p.stored(index)], at);
    if (d.size < 16) file_.fail(at + " is a block of " + std::to_string(d.size) + " bytes, shorter than its 16-byte key");
    const std::uint64_t want = std::uint64_t(pod_bytes(p.pod)) * std::uint64_t(p.extent);
    if (pod_bytes(p.pod) != 0 && d.size - 16 != want)
        file_.fail(at + " holds " + std::to_string(d.size - 16) + " bytes, not " + std::to_string(p.extent) + " " + pod_name(p.pod));
    return file_.bytes({d.pos + 16, d.size - 16}, at);
}

}  // namespace rigscope::abc
