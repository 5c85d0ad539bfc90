#include "rigscope/run/output_names.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

#include "rigscope/core/error.h"
#include "rigscope/io/output.h"

namespace rigscope {

namespace {

std::string extension_of(const std::string& path) {
    const auto slash = path.find_last_of('/');
    const auto dot = path.find_last_of('.');
    if (dot == std::string::npos || (slash != std::string::npos && dot < slash) || dot + 1 == path.size()) return "";
    std::string ext = path.substr(dot + 1);
    for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return ext;
}

std::string folder_of(const std::string& path) {
    const auto slash = path.find_last_of('/');
    return slash == std::string::npos ? "." : path.substr(0, slash == 0 ? 1 : slash);
}

}  // namespace

std::string named_format(const std::string& path) {
    const std::string ext = extension_of(path);
    if (ext == "csv" || ext == "json" || ext == "xml" || ext == "html") return ext;
    if (ext == "htm") return "html";
    if (ext == "glb" || ext == "gltf") return "gltf";
    if (ext == "usd" || ext == "usda" || ext == "usdc" || ext == "usdz") return "usd";
    for (const char* read : {"fbx", "dae", "obj", "ply", "pc2", "mdd"})
        if (ext == read) return ext;
    return "";
}

void refuse_other_format_extension(const std::string& option, const std::string& path, const std::string& format) {
    if (path.empty() || path == "-" || open_descriptor_of(path) >= 0) return;
    const std::string named = named_format(path);
    if (named.empty() || named == format) return;
    const std::string want = format == "gltf" ? "glb" : format == "text" ? "txt" : format;
    throw Error(kExitUsage, option + " " + path + ": the extension ." + extension_of(path) + " says " + named + " but " + option + " writes " +
                                format + ": name it ." + want);
}

void refuse_misnamed_output(const std::string& option, const std::string& path) {
    if (option == "--junit" || option == "junit=") refuse_other_format_extension(option, path, "xml");
    else if (option == "--json" || option == "json=") refuse_other_format_extension(option, path, "json");
    else if (option == "--html" || option == "html=") refuse_other_format_extension(option, path, "html");
}

void refuse_unwritable_output(const std::string& option, const std::string& path) {
    if (path.empty() || path == "-" || open_descriptor_of(path) >= 0) return;
    struct stat st {};
    if (stat(path.c_str(), &st) == 0) {
        if (S_ISDIR(st.st_mode)) throw Error(kExitCannotWrite, option + " " + path + ": is a directory");
        if (!S_ISREG(st.st_mode)) return;  // a device or FIFO is written in place
    }
    const std::string dir = folder_of(path);
    struct stat ds {};
    if (stat(dir.c_str(), &ds) != 0)
        throw Error(kExitCannotWrite, option + " " + path + ": cannot write: folder '" + dir + "' does not exist (make it first)");
    if (!S_ISDIR(ds.st_mode)) throw Error(kExitCannotWrite, option + " " + path + ": cannot write: '" + dir + "' is not a folder");
    // A probe, as the output's own temporary will be made: access() would pass a read-only mount
    // and anything run as root.
    std::string templ = (dir == "/" ? std::string() : dir) + "/.rigscope-probe-XXXXXX";
    std::vector<char> buf(templ.begin(), templ.end());
    buf.push_back('\0');
    const int fd = mkstemp(buf.data());
    if (fd < 0) {
        const int err = errno;
        throw Error(kExitCannotWrite, option + " " + path + ": cannot write in folder '" + dir + "': " + std::strerror(err));
    }
    close(fd);
    unlink(buf.data());
}

}  // namespace rigscope
