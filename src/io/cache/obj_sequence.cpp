// Numbered OBJ sequences (cloth_0001.obj, cloth_0002.obj, ...), as Marvelous Designer, Houdini
// and Blender's OBJ exporter (Animation on) write a simulation out: one file a frame, the frame
// number in the name. The sequence is every file of the named one's folder that differs from it
// only in its trailing digits (as many digits or more: 0999 then 1000); numbers are frames at fps.
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

// name = prefix + digits + extension; false when the stem ends in no digit.
bool split_number(const std::string& name, std::string& prefix, std::string& digits, std::string& ext) {
    const std::size_t dot = name.rfind('.');
    if (dot == std::string::npos) return false;
    ext = name.substr(dot);
    std::size_t d = dot;
    while (d > 0 && std::isdigit(static_cast<unsigned char>(name[d - 1]))) --d;
    if (d == dot) return false;
    prefix = name.substr(0, d);
    digits = name.substr(d, dot - d);
    return true;
}

class ObjSequence : public PointCache {
public:
    ObjSequence(const std::string& source, std::vector<double> times, std::size_t points, std::vector<std::string> files,
                std::uint64_t max_memory)
        : PointCache(source, std::move(times), points), files_(std::move(files)), max_memory_(max_memory) {}

    void read(std::size_t sample, Eigen::Vector3f* out) const override {
        const std::string& path = files_[sample];
        const std::vector<char> data = plain::read_whole(path, max_memory_);
        plain::Budget budget(path, max_memory_);
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
    std::string prefix, digits, ext;
    return split_number(fs::path(path).filename().string(), prefix, digits, ext) && iequals(ext, ".obj");
}

std::shared_ptr<const PointCache> open_obj_sequence(const std::string& path, double fps, const LoadOptions& options) {
    const fs::path named(path);
    std::string prefix, digits, ext;
    if (!split_number(named.filename().string(), prefix, digits, ext)) throw bad_input(path, "no frame number at the end of its name");
    plain::file_size(path);  // refuses a missing file or a folder by name
    const fs::path dir = named.has_parent_path() ? named.parent_path() : fs::path(".");
    std::map<long long, std::string> frames;
    std::error_code ec;
    for (const fs::directory_entry& e : fs::directory_iterator(dir, ec)) {
        std::string p, d, x;
        const std::string name = e.path().filename().string();
        if (!split_number(name, p, d, x) || p != prefix || !iequals(x, ext) || d.size() < digits.size() || d.size() > 18) continue;
        if (d.size() > digits.size() && d[0] == '0') continue;  // another padding: another sequence
        frames[std::stoll(d)] = (named.has_parent_path() ? (dir / name).string() : name);
    }
    if (ec) throw bad_input(path, "its folder cannot be listed: " + ec.message());
    if (frames.empty()) throw bad_input(path, "not found in its folder's listing");
    std::vector<double> times;
    std::vector<std::string> files;
    long long expect = frames.begin()->first;
    for (const auto& [n, file] : frames) {
        if (n != expect) {
            std::string missing = std::to_string(expect);
            if (missing.size() < digits.size()) missing.insert(0, digits.size() - missing.size(), '0');
            throw bad_input(path, "the sequence has a gap: " + (dir / (prefix + missing + ext)).string() + " is missing (frames " +
                                      std::to_string(frames.begin()->first) + " to " + std::to_string(frames.rbegin()->first) + ")");
        }
        ++expect;
        times.push_back(double(n) / fps);
        files.push_back(file);
    }
    // The point count from the first file; every other is checked when it is read.
    const std::vector<char> data = plain::read_whole(files.front(), options.max_memory);
    plain::Budget budget(files.front(), options.max_memory);
    const ObjFile first = parse_obj(data.data(), data.size(), files.front(), budget, true);
    if (first.positions.empty()) throw bad_input(files.front(), "no vertices");
    if (double(first.positions.size()) * 12 * 4 > double(options.max_memory))
        throw bad_input(files.front(), std::to_string(first.positions.size()) + " points a frame pass --max-memory");
    return std::make_shared<ObjSequence>(path, std::move(times), first.positions.size(), std::move(files), options.max_memory);
}

}  // namespace rigscope
