#include "io/usd/usdz_package.h"

#include <cstdint>
#include <cstring>

#include "rigscope/core/error.h"

namespace rigscope::usd {

namespace {

std::uint32_t u32(const std::string& b, std::size_t at) {
    std::uint32_t v;
    std::memcpy(&v, b.data() + at, 4);
    return v;
}
std::uint16_t u16(const std::string& b, std::size_t at) {
    std::uint16_t v;
    std::memcpy(&v, b.data() + at, 2);
    return v;
}

}  // namespace

std::vector<PackageEntry> read_package(const std::string& path, const std::string& b) {
    auto fail = [&](const std::string& what) { return bad_input(path, "usdz: " + what); };
    // The end-of-central-directory record: 22 bytes and a comment of up to 65535 at the end.
    if (b.size() < 22) throw fail("too small for a zip");
    std::size_t eocd = std::string::npos;
    const std::size_t lowest = b.size() > 22 + 65535 ? b.size() - 22 - 65535 : 0;
    for (std::size_t at = b.size() - 22 + 1; at-- > lowest;)
        if (u32(b, at) == 0x06054b50) {
            eocd = at;
            break;
        }
    if (eocd == std::string::npos) throw fail("no zip end-of-central-directory record");
    const std::size_t count = u16(b, eocd + 10);
    const std::size_t dir_size = u32(b, eocd + 12), dir_at = u32(b, eocd + 16);
    if (count == 0xffff || dir_at == 0xffffffff) throw fail("a zip64 archive (usdz packages are plain zips)");
    if (dir_at > eocd || dir_size > eocd - dir_at) throw fail("the central directory lies outside the file");
    std::vector<PackageEntry> out;
    std::size_t at = dir_at;
    for (std::size_t i = 0; i < count; ++i) {
        if (at + 46 > eocd || u32(b, at) != 0x02014b50) throw fail("central directory entry " + std::to_string(i) + " is broken");
        const std::uint16_t method = u16(b, at + 10);
        const std::uint32_t packed = u32(b, at + 20), size = u32(b, at + 24);
        const std::size_t name_len = u16(b, at + 28), extra_len = u16(b, at + 30), comment_len = u16(b, at + 32);
        const std::size_t local = u32(b, at + 42);
        if (at + 46 + name_len > eocd) throw fail("central directory entry " + std::to_string(i) + " runs past the directory");
        PackageEntry e;
        e.name = b.substr(at + 46, name_len);
        if (method != 0)
            throw fail("entry '" + e.name + "' is compressed (method " + std::to_string(method) + "); usdz entries are stored");
        if (packed != size) throw fail("entry '" + e.name + "' claims " + std::to_string(size) + " bytes stored in " + std::to_string(packed));
        if (local + 30 > b.size() || u32(b, local) != 0x04034b50) throw fail("entry '" + e.name + "' has no local header where the directory says");
        const std::size_t data = local + 30 + u16(b, local + 26) + u16(b, local + 28);
        if (data > b.size() || size > b.size() - data) throw fail("entry '" + e.name + "' (" + std::to_string(size) + " bytes) runs past the end of the file");
        e.offset = data;
        e.size = size;
        out.push_back(std::move(e));
        at += 46 + name_len + extra_len + comment_len;
    }
    if (out.empty()) throw fail("the package holds no files");
    return out;
}

}  // namespace rigscope::usd
