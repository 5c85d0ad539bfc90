// Numbered OBJ sequences (cloth_0001.obj, cloth_0002.obj, ...), as Marvelous Designer, Houdini
// and Blender's OBJ exporter (Animation on) write a simulation out: one file a frame, the frame
// number in the name. Named two ways: by one of its files (every file of that folder differing
// from it only in its trailing digits, as many digits or more: 0999 then 1000), or by a pattern
// whose one run of '#' stands for the digits anywhere in the file name (cloth_####.obj,
// cloth.####.sim.obj: as many digits as '#'s, zero-padded, or more without a leading zero, as
// Houdini's $F4 and Blender's #### write frames past the padding). Numbers are frames at fps.
// Each file is parsed when its frame is read (positions only), so memory holds one or two.
#include "obj_sequence.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>

#include "io/obj/obj_reader.h"
#include "io/plain/plain_file.h"
#include "rigscope/core/error.h"

namespace rigscope {

namespace {

namespace fs = std::filesystem;

bool iequals(const std::string& a, const std::string& b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) { return std::tolower(x) == std::tolower(y); });
}

// A sequence's file names: prefix + frame number + suffix, the number `width` digits zero-padded
// or more digits without a leading zero (another padding is another sequence).
struct Naming {
    std::string prefix, suffix;
    std::size_t width = 0;
    bool pattern = false;  // named by '#'s rather than by one of its files

    // The frame number of a file `name` of the sequence, or -1 for another file.
    long long frame_of(const std::string& name) const {
        if (name.size() < prefix.size() + suffix.size() + width) return -1;
        const std::size_t digits = name.size() - prefix.size() - suffix.size();
        if (name.compare(0, prefix.size(), prefix) != 0 || !iequals(name.substr(prefix.size() + digits), suffix)) return -1;
        const std::string d = name.substr(prefix.size(), digits);
        if (d.size() < width || d.size() > 18 || (d.size() > width && d[0] == '0')) return -1;
        if (!std::all_of(d.begin(), d.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); })) return -1;
        return std::stoll(d);
    }
    std::string file_name(long long frame) const {
        std::string n = std::to_string(frame);
        if (n.size() < width) n.insert(0, width - n.size(), '0');
        return prefix + n + suffix;
    }
};

// A file name's naming: its one run of '#' (a pattern), else the digits that end its stem (one
// file of the sequence). Throws for two runs of '#'; false for a name with neither.
bool naming_of(const std::string& path, const std::string& name, Naming& out) {
    const std::size_t hash = name.find('#');
    if (hash != std::string::npos) {
        const std::size_t end = name.find_first_not_of('#', hash);
        if (end != std::string::npos && name.find('#', end) != std::string::npos)
            throw bad_input(path, "a frame pattern has one run of '#' (cloth_####.obj): this name has several");
        out.prefix = name.substr(0, hash);
        out.suffix = end == std::string::npos ? "" : name.substr(end);
        out.width = (end == std::string::npos ? name.size() : end) - hash;
        out.pattern = true;
        return true;
    }
    const std::size_t dot = name.rfind('.');
    if (dot == std::string::npos) return false;
    std::size_t d = dot;
    while (d > 0 && std::isdigit(static_cast<unsigned char>(name[d - 1]))) --d;
    if (d == dot) return false;
    out.prefix = name.substr(0, d);
    out.suffix = name.substr(dot);
    out.width = dot - d;
    out.pattern = false;
    return true;
}

bool has_obj_extension(const std::string& name) {
    return name.size() >= 4 && iequals(name.substr(name.size() - 4), ".obj");
}

class ObjSequence : public PointCache {
public:
    ObjSequence(const std::string& source, std::vector<double> times, std::size_t points, std::vector<std::string> files,
                std::uint64_t max_memory)
        : PointCache(source, std::move(times), points), files_(std::move(files)), max_memory_(max_memory) {}
    std::vector<std::string> files() const override { return files_; }

    void read(std::size_t sample, Eigen::Vector3f* out) const override {
        const std::string& path = files_[sample];
        LoadBudget budget(path, max_memory_);
        const std::vector<char> data = plain::read_whole(path, budget);
        const ObjFile obj = parse_obj(data.data(), data.size(), path, budget, true);
        if (obj.positions.size() != point_count())
            throw Error(kExitMismatch, path + ": " + std::to_string(obj.positions.size()) + " vertices, the sequence's first file " +
                                           files_.front() + " has " + std::to_string(point_count()));
        plain::check_finite(path, "the cache frame", obj.positions);
        std::copy(obj.positions.begin(), obj.positions.end(), out);
    }

private:
    std::vector<std::string> files_;
    std::uint64_t max_memory_;
};

}  // namespace

bool is_numbered_obj(const std::string& path) {
    const std::string name = fs::path(path).filename().string();
    Naming n;
    return has_obj_extension(name) && naming_of(path, name, n);
}

std::shared_ptr<const PointCache> open_obj_sequence(const std::string& path, double fps, const LoadOptions& options) {
    const fs::path named(path);
    const std::string name = named.filename().string();
    Naming naming;
    if (!has_obj_extension(name) || !naming_of(path, name, naming))
        throw bad_input(path, "no frame number at the end of its name, and no '#' pattern");
    if (!naming.pattern) plain::file_size(path);  // refuses a missing file or a folder by name
    const fs::path dir = named.has_parent_path() ? named.parent_path() : fs::path(".");
    std::map<long long, std::string> frames;
    std::error_code ec;
    for (const fs::directory_entry& e : fs::directory_iterator(dir, ec)) {
        const std::string file = e.path().filename().string();
        const long long n = naming.frame_of(file);
        if (n >= 0) frames[n] = (named.has_parent_path() ? (dir / file).string() : file);
    }
    if (ec) throw bad_input(path, "its folder cannot be listed: " + ec.message());
    if (frames.empty()) {
        if (!naming.pattern) throw bad_input(path, "not found in its folder's listing");
        throw bad_input(path, "no file in " + dir.string() + " matches the pattern (" + naming.prefix + ", then a frame number of " +
                                  std::to_string(naming.width) + " digits or more, zero-padded, then " + naming.suffix + ")");
    }
    std::vector<double> times;
    std::vector<std::string> files;
    long long expect = frames.begin()->first;
    for (const auto& [n, file] : frames) {
        if (n != expect)
            throw bad_input(path, "the sequence has a gap: " + (dir / naming.file_name(expect)).string() + " is missing (frames " +
                                      std::to_string(frames.begin()->first) + " to " + std::to_string(frames.rbegin()->first) + ")");
        ++expect;
        times.push_back(double(n) / fps);
        files.push_back(file);
    }
    // The point count from the first file; every other is checked when it is read.
    LoadBudget budget(files.front(), options.max_memory);
    const std::vector<char> data = plain::read_whole(files.front(), budget);
    const ObjFile first = parse_obj(data.data(), data.size(), files.front(), budget, true);
    if (first.positions.empty()) throw bad_input(files.front(), "no vertices");
    // A run holds two samples, their blend and the positions made from it while it reads the
    // next frame's file: four copies on top of one file being parsed.
    budget.charge(double(first.positions.size()) * 12 * 4, std::to_string(first.positions.size()) + " points a frame, held four times");
    return std::make_shared<ObjSequence>(path, std::move(times), first.positions.size(), std::move(files), options.max_memory);
}

}  // namespace rigscope
