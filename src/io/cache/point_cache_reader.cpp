#include "rigscope/io/point_cache_reader.h"

#include <algorithm>
#include <cctype>

#include "io/alembic/alembic_reader.h"
#include "mdd_reader.h"
#include "obj_sequence.h"
#include "pc2_reader.h"
#include "rigscope/core/error.h"

namespace rigscope {

namespace {

std::string extension(const std::string& path) {
    const std::size_t slash = path.find_last_of('/'), dot = path.rfind('.');
    if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return "";
    std::string e = path.substr(dot);
    std::transform(e.begin(), e.end(), e.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return e;
}

}  // namespace

bool is_point_cache_file(const std::string& path) {
    const std::string e = extension(path);
    return e == ".pc2" || e == ".mdd" || e == ".abc";
}

std::shared_ptr<const PointCache> open_point_cache(const std::string& path, double fps, const LoadOptions& options) {
    const std::string e = extension(path);
    if (e == ".pc2") return open_pc2(path, fps, options);
    if (e == ".mdd") return open_mdd(path, options);
    if (e == ".abc") return open_alembic_cache(path, options);  // Alembic stores seconds, as MDD
    if (e == ".obj") {
        if (!is_numbered_obj(path)) throw bad_input(path, "an OBJ cache is a numbered sequence, named by one of its files (cloth_0001.obj) or by a pattern "
                                  "(cloth_####.obj): this name has no frame number and no '#'");
        return open_obj_sequence(path, fps, options);
    }
    throw bad_input(path, "not a point cache rigscope reads (.pc2, .mdd, .abc, or a numbered .obj sequence: cloth_0001.obj or cloth_####.obj)");
}

}  // namespace rigscope
