// The loaders read files by path (Assimp and external glTF buffers need one), so each fuzz input
// is written to a file in a private folder before loading. /dev/shm keeps that off the disk.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <unistd.h>

namespace rigscope::fuzz {

inline const std::string& private_dir() {
    static const std::string dir = [] {
        const char* base = std::getenv("RIGSCOPE_FUZZ_TMP");
        std::string templ = std::string(base && *base ? base : (access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp")) +
                            "/rigscope-fuzz-XXXXXX";
        if (!mkdtemp(templ.data())) std::abort();
        return templ;
    }();
    return dir;
}

// Writes the input to <private dir>/input<ext> and returns the path.
inline std::string write_input(const std::uint8_t* data, std::size_t size, const char* ext) {
    const std::string path = private_dir() + "/input" + ext;
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (!f) std::abort();
    if (size && std::fwrite(data, 1, size, f) != size) std::abort();
    std::fclose(f);
    return path;
}

}  // namespace rigscope::fuzz
