#include "rigscope/io/point_cache_reader.h"

#include <algorithm>
#include <cctype>

#include "io/cache/cache_readers.h"
#include "rigscope/core/error.h"

namespace rigscope {

namespace {
std::string lower_extension(const std::string& path) {
    const auto dot = path.find_last_of('.');
    const auto slash = path.find_last_of('/');
    if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return "";
    std::string ext = path.substr(dot);
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
    return ext;
}

bool has_hashes(const std::string& path) {
    const auto slash = path.find_last_of('/');
    return path.find('#', slash == std::string::npos ? 0 : slash + 1) != std::string::npos;
}
}  // namespace

std::string point_cache_format(const std::string& path) {
    const std::string ext = lower_extension(path);
    if (ext == ".pc2") return "PC2";
    if (ext == ".mdd") return "MDD";
    if (ext == ".obj" && has_hashes(path)) return "OBJ sequence";
    return "";
}

void check_cache_counts(const std::string& path, std::int64_t samples, std::int64_t points, const LoadOptions& options) {
    if (samples < 1) throw bad_input(path, "the cache holds no sample (count " + std::to_string(samples) + ")");
    if (points < 1) throw bad_input(path, "the cache holds no point (count " + std::to_string(points) + ")");
    const std::uint64_t per_sample = static_cast<std::uint64_t>(points) * 12;
    if (per_sample > options.max_memory / 2)
        throw bad_input(path, "a sample of " + std::to_string(points) + " points would need more than the memory limit (--max-memory)");
}

std::shared_ptr<const PointCache> read_point_cache(const std::string& path, double fps, const LoadOptions& options,
                                                   std::vector<std::string>* warnings) {
    std::vector<std::string> ignored;
    const std::string format = point_cache_format(path);
    if (format == "PC2") return read_pc2(path, fps, options);
    if (format == "MDD") return read_mdd(path, options, warnings ? *warnings : ignored);
    if (format == "OBJ sequence") return read_obj_sequence(path, fps, options);
    if (lower_extension(path) == ".obj")
        throw bad_input(path, "an OBJ sequence is named with '#' for its frame digits (cloth_####.obj), not by one of its files");
    throw bad_input(path, "unknown point cache extension '" + lower_extension(path) +
                              "' (rigscope reads .pc2, .mdd and numbered OBJ sequences named like cloth_####.obj)");
}

}  // namespace rigscope
