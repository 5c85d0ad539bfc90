#include "io/plain/plain_file.h"

#include <charconv>
#include <cmath>
#include <fstream>
#include <sys/stat.h>

#include "rigscope/core/error.h"

namespace rigscope::plain {

std::uint64_t file_size(const std::string& path) {
    struct stat st {};
    if (stat(path.c_str(), &st) != 0) throw bad_input(path, "no such file");
    if (S_ISDIR(st.st_mode)) throw bad_input(path, "is a directory, not a file");
    if (st.st_size == 0) throw bad_input(path, "empty file");
    return static_cast<std::uint64_t>(st.st_size);
}

std::vector<char> read_whole(const std::string& path, LoadBudget& budget) {
    const std::uint64_t size = file_size(path);
    budget.charge(double(size), "the file");
    std::ifstream in(path, std::ios::binary);
    if (!in) throw bad_input(path, "cannot open the file");
    std::vector<char> bytes(static_cast<std::size_t>(size));
    in.read(bytes.data(), static_cast<std::streamsize>(size));
    if (static_cast<std::uint64_t>(in.gcount()) != size) throw bad_input(path, "could not read the whole file");
    return bytes;
}

std::string file_stem(const std::string& path) {
    const std::size_t slash = path.find_last_of('/');
    std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
    const std::size_t dot = name.find_last_of('.');
    if (dot != std::string::npos && dot > 0) name.resize(dot);
    return name;
}

namespace {
void skip_blanks(std::string_view& s) {
    std::size_t i = 0;
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r')) ++i;
    s.remove_prefix(i);
}
}  // namespace

bool parse_double(std::string_view& s, double& out) {
    skip_blanks(s);
    const char* b = s.data();
    const char* e = b + s.size();
    if (b != e && *b == '+') ++b;  // from_chars takes no leading '+'; exporters write one
    const auto r = std::from_chars(b, e, out);
    if (r.ec != std::errc()) {
        if (r.ec == std::errc::result_out_of_range && r.ptr != b) {
            out = HUGE_VAL;  // 1e400: a number, but not a finite one (the caller refuses it)
            s.remove_prefix(static_cast<std::size_t>(r.ptr - s.data()));
            return true;
        }
        return false;
    }
    s.remove_prefix(static_cast<std::size_t>(r.ptr - s.data()));
    return true;
}

bool parse_long(std::string_view& s, long long& out) {
    skip_blanks(s);
    const char* b = s.data();
    const char* e = b + s.size();
    if (b != e && *b == '+') ++b;
    const auto r = std::from_chars(b, e, out);
    if (r.ec != std::errc()) return false;
    s.remove_prefix(static_cast<std::size_t>(r.ptr - s.data()));
    return true;
}

Scene static_scene(const std::string& path, const std::string& format, std::vector<Mesh> meshes, const std::string& vertex_ids) {
    Scene scene;
    scene.source = path;
    scene.format = format;
    scene.units_note = format + ": no units in the file; its numbers are taken as they are";
    scene.vertex_ids = vertex_ids;
    for (Mesh& m : meshes) {
        Node n;
        n.name = m.name;
        n.mesh = static_cast<int>(scene.meshes.size());
        m.node = static_cast<int>(scene.nodes.size());
        scene.nodes.push_back(std::move(n));
        scene.meshes.push_back(std::move(m));
    }
    return scene;
}

void check_finite(const std::string& path, const std::string& what, const std::vector<Eigen::Vector3f>& positions) {
    for (std::size_t v = 0; v < positions.size(); ++v)
        if (!positions[v].allFinite())
            throw bad_input(path, what + ": vertex " + std::to_string(v) + " is not a finite number (NaN or infinite)");
}

}  // namespace rigscope::plain
