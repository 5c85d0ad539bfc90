// The buffers step of a glTF load (cgltf's load_buffers): each buffer from the GLB's binary
// chunk, a data URI or a file beside the glTF (never outside its folder unless allowed), every
// byte charged to the load's budget; and the images, which need only exist.
#include "io/gltf/gltf_document.h"

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sys/stat.h>

#include "rigscope/core/huge_pages.h"

namespace rigscope::gltf {

namespace {

int base64_value(unsigned char c) {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+' || c == '-') return 62;
    if (c == '/' || c == '_') return 63;
    return -1;
}

// Decodes base64; false on a character outside the alphabet, or anything but whitespace and at
// most two '=' after the padding starts (junk there would otherwise be silently dropped).
bool decode_base64(const std::string& in, std::size_t from, Bytes& out) {
    out.clear();
    out.reserve((in.size() - from) * 3 / 4);
    std::uint32_t acc = 0;
    int bits = 0;
    for (std::size_t i = from; i < in.size(); ++i) {
        unsigned char c = static_cast<unsigned char>(in[i]);
        if (c == '=') {
            int pads = 0;
            for (; i < in.size(); ++i) {
                if (in[i] == '=') ++pads;
                else if (in[i] != '\n' && in[i] != '\r' && in[i] != ' ') return false;
            }
            return pads <= 2;
        }
        if (c == '\n' || c == '\r' || c == ' ') continue;
        int v = base64_value(c);
        if (v < 0) return false;
        acc = (acc << 6) | static_cast<std::uint32_t>(v);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out.push_back(static_cast<std::uint8_t>((acc >> bits) & 0xFF));
        }
    }
    return true;
}

std::string percent_decode(const std::string& s) {
    std::string out;
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '%' && i + 2 < s.size() && std::isxdigit(static_cast<unsigned char>(s[i + 1])) &&
            std::isxdigit(static_cast<unsigned char>(s[i + 2]))) {
            out.push_back(static_cast<char>(std::stoi(s.substr(i + 1, 2), nullptr, 16)));
            i += 2;
        } else {
            out.push_back(s[i]);
        }
    }
    return out;
}

// Whether `file` (a URI made into a path) stays inside `dir`: lexically (no leading '/', no ".."
// climbing above the folder) and once symlinks are resolved (a link inside the folder may point
// anywhere). A file that does not exist yet is judged lexically; reading it then fails anyway.
bool inside_folder(const std::string& dir, const std::string& uri) {
    if (uri.empty() || uri[0] == '/' || uri[0] == '\\') return false;
    int depth = 0;
    std::size_t at = 0;
    while (at <= uri.size()) {
        std::size_t next = uri.find_first_of("/\\", at);
        if (next == std::string::npos) next = uri.size();
        const std::string part = uri.substr(at, next - at);
        if (part == "..") {
            if (--depth < 0) return false;
        } else if (!part.empty() && part != ".") {
            ++depth;
        }
        at = next + 1;
    }
    char* real_dir = realpath(dir.empty() ? "." : dir.c_str(), nullptr);
    char* real_file = realpath((dir + uri).c_str(), nullptr);
    bool inside = true;
    if (real_dir && real_file) {
        std::string d = real_dir;
        if (d.back() != '/') d += '/';
        inside = std::string(real_file).rfind(d, 0) == 0;
    }
    std::free(real_dir);
    std::free(real_file);
    return inside;
}

// Where a GLB's bytes are split when read in two (Document::read_into): after its header, its
// first chunk and the next chunk's header, so that a binary chunk second in the file (as every
// exporter writes it) starts the second part; the whole file for anything else.
std::uint64_t glb_split(std::ifstream& f, std::uint64_t size) {
    std::uint8_t head[20];
    if (size < 20 || !f.read(reinterpret_cast<char*>(head), 20)) return size;
    std::uint32_t magic, first_len;
    std::memcpy(&magic, head, 4);
    std::memcpy(&first_len, head + 12, 4);
    if (magic != 0x46546C67) return size;  // "glTF"
    return std::min<std::uint64_t>(size, 20 + std::uint64_t(first_len) + 8);
}

// False for what is not a readable regular file; too_big is the file's size when it holds more
// than `limit` bytes (a URI may name a directory, a device or a huge unrelated file), else 0.
// With `rest`, a GLB is read in two parts (glb_split): `out` up to the split, `rest` after it.
bool read_file(const std::string& path, Bytes& out, std::uint64_t limit, std::uint64_t& too_big,
               Bytes* rest = nullptr) {
    too_big = 0;
    struct stat st {};
    if (stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return false;
    if (static_cast<std::uint64_t>(st.st_size) > limit) {
        too_big = static_cast<std::uint64_t>(st.st_size);
        return false;
    }
    std::ifstream f(path, std::ios::binary);
    if (!f) return false;
    f.seekg(0, std::ios::end);
    std::streamoff size = f.tellg();
    if (size < 0 || static_cast<std::uint64_t>(size) > limit) return false;
    f.seekg(0);
    const std::uint64_t split = rest ? glb_split(f, static_cast<std::uint64_t>(size)) : static_cast<std::uint64_t>(size);
    f.clear();
    f.seekg(0);
    if (split < static_cast<std::uint64_t>(size)) {
        out.resize(static_cast<std::size_t>(split));
        if (!f.read(reinterpret_cast<char*>(out.data()), static_cast<std::streamsize>(split))) return false;
        const std::size_t n = static_cast<std::size_t>(static_cast<std::uint64_t>(size) - split);
        rest->reserve(n);
        detail::advise_huge(rest->data(), n);  // 2 MB pages: far fewer faults
        rest->resize(n);  // not zero-filled (Bytes): read over at once
        return static_cast<bool>(f.read(reinterpret_cast<char*>(rest->data()), static_cast<std::streamsize>(n)));
    }
    out.reserve(static_cast<std::size_t>(size));
    detail::advise_huge(out.data(), static_cast<std::size_t>(size));  // 2 MB pages: far fewer faults
    out.resize(static_cast<std::size_t>(size));  // not zero-filled (Bytes): read over at once
    return size == 0 || static_cast<bool>(f.read(reinterpret_cast<char*>(out.data()), size));
}

}  // namespace

bool Document::read_into(const std::string& file, Bytes& out, const std::string& what,
                         Bytes* rest) const {
    std::uint64_t too_big = 0;
    if (read_file(file, out, budget_.left(), too_big, rest)) return true;
    if (too_big) check_fits(double(too_big), what);
    return false;
}

void Document::load_buffers(Bytes bin_chunk, bool has_bin, bool allow_outside_uris) {
    const json& buffers = array(root_, "buffers", "");
    for (std::size_t i = 0; i < buffers.size(); ++i) {
        const std::string where = "buffers[" + std::to_string(i) + "]";
        const json& b = buffers[i];
        if (!b.is_object()) fail(where + ": expected an object");
        double declared = number(b, "byteLength", where, -1);
        if (declared < 0) fail(where + ": missing byteLength");
        check_fits(declared, where + " (byteLength " + number_text(declared) + ")");
        Bytes data;
        if (is_meshopt_fallback(b)) {
            buffers_.emplace_back();  // room for meshopt's fallback: never read, never allocated
            continue;
        }
        if (!b.contains("uri")) {
            if (i != 0 || !has_bin) fail(where + ": no uri and no GLB binary chunk");
            data = std::move(bin_chunk);
        } else {
            std::string uri = string(b, "uri", where);
            if (uri.rfind("data:", 0) == 0) {
                auto comma = uri.find(',');
                if (comma == std::string::npos || uri.substr(0, comma).find(";base64") == std::string::npos)
                    fail(where + ": malformed data URI (expected data:...;base64,...)");
                if (!decode_base64(uri, comma + 1, data)) fail(where + ": malformed data URI (invalid base64)");
            } else {
                if (uri.find("://") != std::string::npos) fail(where + ": external URI '" + uri + "' is not a local file");
                if (!allow_outside_uris && !inside_folder(dir_, percent_decode(uri)))
                    fail(where + ": URI '" + uri + "' is absolute or leads outside the file's folder (--allow-outside-uris reads it)");
                std::string file = dir_ + percent_decode(uri);
                struct stat st {};
                if (stat(file.c_str(), &st) != 0) fail(where + ": buffer file '" + uri + "' not found");
                if (!read_into(file, data, where + " (buffer file '" + uri + "')"))
                    fail(where + ": cannot read buffer file '" + uri + "'");
                files_read.emplace_back(file, where + " of " + path_);
            }
            charge(data.size(), where);
        }
        if (data.size() < static_cast<std::size_t>(declared))
            fail(where + ": holds " + std::to_string(data.size()) + " bytes, byteLength says " + std::to_string(static_cast<std::uint64_t>(declared)));
        buffers_.push_back(std::move(data));
    }

}

void Document::check_images(bool allow_outside_uris) {
    // Images are not needed for geometry: a missing one is only worth a warning.
    const json& images = array(root_, "images", "");
    for (std::size_t i = 0; i < images.size(); ++i) {
        if (!images[i].is_object() || !images[i].contains("uri") || !images[i]["uri"].is_string()) continue;
        std::string uri = images[i]["uri"].get<std::string>();
        if (uri.rfind("data:", 0) == 0 || uri.find("://") != std::string::npos) continue;
        if (!allow_outside_uris && !inside_folder(dir_, percent_decode(uri)))
            fail("images[" + std::to_string(i) + "]: URI '" + uri + "' is absolute or leads outside the file's folder (--allow-outside-uris reads it)");
        struct stat st {};
        if (stat((dir_ + percent_decode(uri)).c_str(), &st) != 0)
            warnings.push_back({WarningKind::Skipped, path_ + ": image '" + uri + "' not found (ignored: rigscope needs geometry only)"});
    }
}

}  // namespace rigscope::gltf
