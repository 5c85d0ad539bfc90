// Numbered OBJ sequences (Marvelous Designer, Houdini, Blender's OBJ export of an animation):
// cloth_####.obj names cloth_0001.obj, cloth_0002.obj, ... in its folder. Every frame's `v`
// lines are its points; its faces are not read (the base mesh's are used). Frame numbers come
// from the file names, at a step of the smallest gap between them; a file missing from that
// run is refused by name. Each file is parsed once when the cache is opened (counts, numbers)
// and again when its frame is read: the cache never holds more than the frame at hand.
#include <algorithm>
#include <climits>
#include <filesystem>

#include "io/cache/cache_readers.h"
#include "io/obj/obj_reader.h"
#include "io/plain/plain_file.h"
#include "rigscope/core/error.h"

namespace rigscope {

namespace {

// Frame counts past ten million are refused, as a clip's frame list is (docs/robustness.md).
constexpr std::size_t kMaxFiles = 10000000;

class ObjSequenceCache : public PointCache {
public:
    ObjSequenceCache(const std::string& pattern, std::vector<double> times, std::size_t points, std::vector<std::string> files,
                     std::uint64_t max_memory)
        : PointCache(pattern, std::move(times), points), files_(std::move(files)), max_memory_(max_memory) {}

    void read(std::size_t sample, Eigen::Vector3f* out) const override {
        if (sample >= files_.size()) throw internal_error("OBJ sequence " + source() + ": no sample " + std::to_string(sample));
        const ObjFile obj = parse(files_[sample], max_memory_);
        if (obj.positions.size() != point_count())
            throw bad_input(files_[sample], "has " + std::to_string(obj.positions.size()) + " vertices now, " +
                                                std::to_string(point_count()) + " when the sequence was opened");
        std::copy(obj.positions.begin(), obj.positions.end(), out);
    }

    static ObjFile parse(const std::string& file, std::uint64_t max_memory) {
        const std::vector<char> bytes = plain::read_whole(file, max_memory);
        plain::Budget budget(file, max_memory - bytes.size());
        return parse_obj(bytes.data(), bytes.size(), file, budget, /*positions_only=*/true);
    }

private:
    std::vector<std::string> files_;
    std::uint64_t max_memory_;
};

}  // namespace

std::shared_ptr<const PointCache> read_obj_sequence(const std::string& pattern, double fps, const LoadOptions& options) {
    namespace fs = std::filesystem;
    const std::size_t slash = pattern.find_last_of('/');
    const std::string folder = slash == std::string::npos ? "." : pattern.substr(0, slash == 0 ? 1 : slash);
    const std::string name = slash == std::string::npos ? pattern : pattern.substr(slash + 1);
    const std::size_t first = name.find('#');
    std::size_t width = 0;
    while (first + width < name.size() && name[first + width] == '#') ++width;
    const std::string prefix = name.substr(0, first), suffix = name.substr(first + width);
    if (suffix.find('#') != std::string::npos) throw bad_input(pattern, "one run of '#' stands for the frame number; this name has two");
    auto file_of = [&](long long n) {
        std::string digits = std::to_string(n);
        if (digits.size() < width) digits.insert(0, width - digits.size(), '0');
        return (slash == std::string::npos ? std::string() : pattern.substr(0, slash + 1)) + prefix + digits + suffix;
    };

    std::error_code ec;
    if (!fs::is_directory(folder, ec)) throw bad_input(pattern, "no folder '" + folder + "'");
    std::vector<long long> numbers;
    for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
        const std::string f = it->path().filename().string();
        if (f.size() < prefix.size() + suffix.size() + width || f.compare(0, prefix.size(), prefix) != 0 ||
            f.compare(f.size() - suffix.size(), suffix.size(), suffix) != 0)
            continue;
        const std::string digits = f.substr(prefix.size(), f.size() - prefix.size() - suffix.size());
        // Exactly the pattern's width, or wider without a leading zero (frame 10000 of ####).
        if (digits.size() > 15 || !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; })) continue;
        if (digits.size() < width || (digits.size() > width && digits[0] == '0')) continue;
        numbers.push_back(std::stoll(digits));
        if (numbers.size() > kMaxFiles) throw bad_input(pattern, "more than ten million files match");
    }
    if (ec) throw bad_input(pattern, "cannot list folder '" + folder + "': " + ec.message());
    if (numbers.empty()) throw bad_input(pattern, "no file matches (looked in '" + folder + "' for " + prefix + std::string(width, '#') + suffix + ")");
    std::sort(numbers.begin(), numbers.end());
    numbers.erase(std::unique(numbers.begin(), numbers.end()), numbers.end());
    long long step = LLONG_MAX;
    for (std::size_t i = 1; i < numbers.size(); ++i) step = std::min(step, numbers[i] - numbers[i - 1]);
    for (std::size_t i = 1; i < numbers.size(); ++i)
        if (numbers[i] - numbers[i - 1] != step)
            throw bad_input(pattern, "the sequence has a gap: " + file_of(numbers[i - 1] + step) + " is missing (between " +
                                         file_of(numbers[i - 1]) + " and " + file_of(numbers[i]) + ")");

    std::vector<std::string> files;
    std::vector<double> times;
    files.reserve(numbers.size());
    std::size_t points = 0;
    for (std::size_t i = 0; i < numbers.size(); ++i) {
        files.push_back(file_of(numbers[i]));
        times.push_back(static_cast<double>(numbers[i]) / fps);
        const ObjFile obj = ObjSequenceCache::parse(files.back(), options.max_memory);
        if (i == 0) {
            points = obj.positions.size();
            check_cache_counts(pattern, static_cast<std::int64_t>(numbers.size()), static_cast<std::int64_t>(points), options);
        } else if (obj.positions.size() != points) {
            throw bad_input(files.back(), "has " + std::to_string(obj.positions.size()) + " vertices, " + files.front() + " has " +
                                              std::to_string(points) + ": every frame of a sequence has the same points");
        }
    }
    return std::make_shared<ObjSequenceCache>(pattern, std::move(times), points, std::move(files), options.max_memory);
}

}  // namespace rigscope
