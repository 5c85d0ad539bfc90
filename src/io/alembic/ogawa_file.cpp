#include "io/alembic/ogawa_file.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rigscope/core/error.h"

namespace rigscope::abc {

namespace {
constexpr std::uint64_t kDataBit = 1ull << 63;
constexpr std::uint64_t kHeader = 16;
}  // namespace

OgawaFile::OgawaFile(const std::string& path, LoadBudget& budget) : path_(path), budget_(budget) {
    fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ < 0) throw bad_input(path, std::strerror(errno));
    struct stat st {};
    if (::fstat(fd_, &st) != 0) {
        ::close(fd_);
        throw bad_input(path, std::strerror(errno));
    }
    size_ = static_cast<std::uint64_t>(st.st_size);
    unsigned char h[kHeader] = {};
    const std::uint64_t got = size_ < kHeader ? size_ : kHeader;
    if (got > 0 && ::pread(fd_, h, got, 0) != static_cast<ssize_t>(got)) {
        ::close(fd_);
        throw bad_input(path, "cannot read the Alembic header");
    }
    // Alembic's older HDF5 back end: its own library reads it, rigscope reads Ogawa alone.
    if (got >= 8 && std::memcmp(h, "\x89HDF\r\n\x1a\n", 8) == 0) {
        ::close(fd_);
        throw bad_input(path, "an HDF5 Alembic archive, which rigscope does not read: convert it to Ogawa with Alembic's "
                              "abcconvert (abcconvert -toOgawa in.abc out.abc)");
    }
    if (got < 5 || std::memcmp(h, "Ogawa", 5) != 0) {
        ::close(fd_);
        throw bad_input(path, size_ < 5 ? "truncated Alembic header (" + std::to_string(size_) + " bytes)"
                                        : std::string("not an Alembic archive (no Ogawa or HDF5 signature)"));
    }
    if (got < kHeader) {
        ::close(fd_);
        throw bad_input(path, "truncated Alembic header (" + std::to_string(size_) + " bytes)");
    }
    if (h[5] != 0xff) {
        ::close(fd_);
        throw bad_input(path, "an Alembic archive that was not closed by its writer (Ogawa frozen flag unset): it is incomplete");
    }
    const unsigned version = unsigned(h[6]) << 8 | h[7];
    if (version != 1) {
        ::close(fd_);
        throw bad_input(path, "Ogawa version " + std::to_string(version) + " is not read (only 1)");
    }
    std::memcpy(&root_, h + 8, 8);
    if (is_data(root_) || root_ < kHeader || root_ >= size_) {
        ::close(fd_);
        throw bad_input(path, "the Ogawa root group offset " + std::to_string(root_) +
                                  (is_data(root_) ? std::string(" names a data block")
                                   : root_ < kHeader ? std::string(" points into the file header")
                                                     : " is past the end of the " + std::to_string(size_) + "-byte file (truncated?)"));
    }
}

OgawaFile::~OgawaFile() {
    if (fd_ >= 0) ::close(fd_);
}

void OgawaFile::fail(const std::string& problem) const { throw bad_input(path_, problem); }

void OgawaFile::read(std::uint64_t offset, std::uint64_t n, void* out, const std::string& what) const {
    if (offset > size_ || n > size_ - offset)
        fail(what + ": " + std::to_string(n) + " bytes at offset " + std::to_string(offset) + " run past the end of the " +
             std::to_string(size_) + "-byte file (truncated or corrupt)");
    char* dst = static_cast<char*>(out);
    std::uint64_t done = 0;
    while (done < n) {
        const ssize_t r = ::pread(fd_, dst + done, n - done, static_cast<off_t>(offset + done));
        if (r <= 0) fail(what + ": cannot be read (changed since it was opened?)");
        done += static_cast<std::uint64_t>(r);
    }
}

std::vector<std::uint64_t> OgawaFile::group(std::uint64_t pos, const std::string& what) {
    if (pos == 0) return {};
    if (is_data(pos)) fail(what + " is a data block where a group belongs");
    if (pos < kHeader) fail(what + ": group offset " + std::to_string(pos) + " points into the file header");
    std::uint64_t count = 0;
    read(pos, 8, &count, what + "'s group");
    // Each child offset takes 8 bytes of the file: a count past what is left cannot be real.
    if (count > (size_ - pos - 8) / 8)
        fail(what + ": a group of " + std::to_string(count) + " children at offset " + std::to_string(pos) + " runs past the end of the " +
             std::to_string(size_) + "-byte file (truncated or corrupt)");
    budget_.charge(double(count) * 8, what + "'s group of " + std::to_string(count) + " children");
    std::vector<std::uint64_t> children(count);
    if (count) read(pos + 8, count * 8, children.data(), what + "'s group");
    budget_.release(count * 8);  // the caller keeps what it needs and charges that
    return children;
}

DataRef OgawaFile::data(std::uint64_t child, const std::string& what) const {
    if (!is_data(child)) fail(what + " is a group where a data block belongs");
    const std::uint64_t pos = child & ~kDataBit;
    if (pos == 0) return {};
    if (pos < kHeader) fail(what + ": data offset " + std::to_string(pos) + " points into the file header");
    std::uint64_t size = 0;
    read(pos, 8, &size, what);
    if (size > size_ - pos - 8 || pos + 8 > size_)
        fail(what + ": a data block of " + std::to_string(size) + " bytes at offset " + std::to_string(pos) + " runs past the end of the " +
             std::to_string(size_) + "-byte file (truncated or corrupt)");
    return {pos + 8, size};
}

std::vector<char> OgawaFile::bytes(const DataRef& d, const std::string& what) {
    budget_.charge(double(d.size), what);
    std::vector<char> out(d.size);
    if (d.size) read(d.pos, d.size, out.data(), what);
    return out;
}

}  // namespace rigscope::abc
