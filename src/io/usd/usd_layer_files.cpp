#include "io/usd/usd_layer_files.h"

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <fstream>
#include <sys/stat.h>

#include "io/usd/crate_reader.h"
#include "io/usd/usda_parser.h"
#include "rigscope/core/error.h"

namespace rigscope::usd {

namespace {

// More files than any production stage composes for one asset; past it the stage is refused
// rather than read without end (each file is also charged to the budget).
constexpr std::size_t kMaxLayerFiles = 4096;

bool starts_with(const std::string& s, const char* prefix, std::size_t n) { return s.size() >= n && s.compare(0, n, prefix, n) == 0; }

std::string folder_of(const std::string& path) {
    const auto slash = path.find_last_of('/');
    return slash == std::string::npos ? std::string() : path.substr(0, slash + 1);
}

std::string lower_extension(const std::string& name) {
    const auto dot = name.find_last_of('.');
    std::string ext = dot == std::string::npos ? "" : name.substr(dot);
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return ext;
}

// The real path of an existing file or folder, else the path as given.
std::string real_or(const std::string& path) {
    char* r = realpath(path.empty() ? "." : path.c_str(), nullptr);
    if (!r) return path;
    std::string out = r;
    std::free(r);
    return out;
}

}  // namespace

std::string normalize_path(const std::string& path) {
    const bool absolute = !path.empty() && path[0] == '/';
    std::vector<std::string> parts;
    std::size_t at = 0;
    while (at <= path.size()) {
        std::size_t next = path.find('/', at);
        if (next == std::string::npos) next = path.size();
        const std::string part = path.substr(at, next - at);
        if (part == "..") {
            if (!parts.empty() && parts.back() != "..") parts.pop_back();
            else if (!absolute) parts.push_back("..");
        } else if (!part.empty() && part != ".") {
            parts.push_back(part);
        }
        at = next + 1;
    }
    std::string out = absolute ? "/" : "";
    for (std::size_t i = 0; i < parts.size(); ++i) out += (i ? "/" : "") + parts[i];
    return out.empty() ? "." : out;
}

struct LayerFiles::Package {
    std::string path;   // the package file
    std::string bytes;  // held while the stage is composed: its entries are read from it
    std::vector<PackageEntry> entries;
};

struct LayerFiles::Opened {
    std::unique_ptr<Layer> layer;
    std::string key;   // the file's real path, or package[entry]
    std::string dir;   // the folder its relative asset paths resolve against (inside the package for an entry)
    Package* package = nullptr;
    std::string name;  // for messages
};

LayerFiles::LayerFiles(std::string root_path, std::uint64_t max_memory, bool allow_outside, bool read_files)
    : root_path_(std::move(root_path)), allow_outside_(allow_outside), read_files_(read_files), budget_(root_path_, max_memory) {
    root_dir_ = real_or(folder_of(root_path_).empty() ? "." : folder_of(root_path_));
    if (root_dir_.empty() || root_dir_.back() != '/') root_dir_ += '/';
}

LayerFiles::~LayerFiles() = default;

std::unique_ptr<Layer> LayerFiles::parse(const std::string& name, const std::string& bytes) {
    // The parser charges the bytes and every value to a budget of what is left; what it held is
    // then this load's, less the bytes, which are let go once parsed (a package's are charged as
    // its file, which stays held).
    const std::uint64_t left = budget_.left();
    std::unique_ptr<Layer> layer;
    if (starts_with(bytes, "PXR-USDC", 8)) layer = std::make_unique<Layer>(parse_crate(name, bytes, left));
    else if (starts_with(bytes, "#usda", 5)) layer = std::make_unique<Layer>(parse_usda(name, bytes, left));
    else throw bad_input(name, "not a USD layer (it begins with neither '#usda' nor 'PXR-USDC')");
    budget_.charge(double(layer->held > bytes.size() ? layer->held - bytes.size() : 0), "the layers' values");
    return layer;
}

LayerFiles::Opened& LayerFiles::add(std::unique_ptr<Layer> layer, std::string key, std::string dir, Package* package, std::string name) {
    auto o = std::make_unique<Opened>();
    o->layer = std::move(layer);
    o->key = std::move(key);
    o->dir = std::move(dir);
    o->package = package;
    o->name = std::move(name);
    Opened& ref = *o;
    by_key_[ref.key] = &ref;
    by_layer_[ref.layer.get()] = &ref;
    opened_.push_back(std::move(o));
    return ref;
}

LayerFiles::Opened& LayerFiles::open_package_root(const std::string& path, std::string bytes, const std::string& key, const std::string& what) {
    // A package stays held (charged as its file) while its entries may be read.
    budget_.charge(double(bytes.size()), what);
    auto package = std::make_unique<Package>();
    package->path = path;
    package->bytes = std::move(bytes);
    package->entries = read_package(package->path, package->bytes);
    const PackageEntry& root = package->entries.front();
    const std::string ext = lower_extension(root.name);
    if (ext != ".usda" && ext != ".usdc" && ext != ".usd")
        throw bad_input(package->path, "usdz: the first entry '" + root.name + "' is not a USD layer");
    auto layer = parse(package->path + "[" + root.name + "]", package->bytes.substr(root.offset, root.size));
    layer->path = package->path;
    Package* p = package.get();
    packages_.push_back(std::move(package));
    return add(std::move(layer), key, folder_of(root.name), p, p->path);
}

const Layer& LayerFiles::open_root(std::string bytes) {
    if (starts_with(bytes, "PK\x03\x04", 4)) return *open_package_root(root_path_, std::move(bytes), real_or(root_path_), "the file").layer;
    if (!starts_with(bytes, "PXR-USDC", 8) && !starts_with(bytes, "#usda", 5))
        throw bad_input(root_path_, "not a USD file (neither '#usda' nor 'PXR-USDC' nor a zip at its start)");
    auto layer = parse(root_path_, bytes);
    layer->path = root_path_;
    return *add(std::move(layer), real_or(root_path_), folder_of(root_path_), nullptr, root_path_).layer;
}

LayerFiles::Opened& LayerFiles::open_file(const std::string& path, const std::string& from_name, const std::string& what) {
    const std::string key = real_or(path);
    if (auto it = by_key_.find(key); it != by_key_.end()) return *it->second;
    if (opened_.size() >= kMaxLayerFiles)
        throw bad_input(from_name, what + ": the stage opens more than " + std::to_string(kMaxLayerFiles) + " files");
    struct stat st {};
    if (stat(path.c_str(), &st) != 0) throw bad_input(from_name, what + ", and " + path + " does not exist");
    if (!S_ISREG(st.st_mode)) throw bad_input(from_name, what + ", and " + path + " is not a file");
    // The file is held whole while it is parsed: it must fit in the budget before it is read.
    if (const std::string problem = budget_.check(double(st.st_size), "the file " + path); !problem.empty())
        throw bad_input(from_name, what + ": " + problem);
    std::ifstream in(path, std::ios::binary);
    std::string bytes(static_cast<std::size_t>(st.st_size), '\0');
    if (!in || !in.read(&bytes[0], std::streamsize(bytes.size()))) throw bad_input(from_name, what + ", and " + path + " cannot be read");
    files_read_.emplace_back(path, what + " in " + from_name);
    if (starts_with(bytes, "PK\x03\x04", 4)) return open_package_root(path, std::move(bytes), key, "the file " + path);
    auto layer = parse(path, bytes);
    return add(std::move(layer), key, folder_of(path), nullptr, path);
}

LayerFiles::Opened& LayerFiles::open_entry(Package& package, const std::string& entry, const std::string& from_name, const std::string& what) {
    const std::string key = real_or(package.path) + "[" + entry + "]";
    if (auto it = by_key_.find(key); it != by_key_.end()) return *it->second;
    if (opened_.size() >= kMaxLayerFiles)
        throw bad_input(from_name, what + ": the stage opens more than " + std::to_string(kMaxLayerFiles) + " files");
    for (const auto& e : package.entries) {
        if (e.name != entry) continue;
        const std::string ext = lower_extension(e.name);
        if (ext != ".usda" && ext != ".usdc" && ext != ".usd") throw bad_input(from_name, what + ", and entry " + entry + " is not a USD layer");
        const std::string name = package.path + "[" + entry + "]";
        return add(parse(name, package.bytes.substr(e.offset, e.size)), key, folder_of(entry), &package, name);
    }
    throw bad_input(from_name, what + ", and the package " + package.path + " has no entry " + entry);
}

const Layer& LayerFiles::open(const Layer& from, const std::string& asset, const std::string& what) {
    Opened& src = *by_layer_.at(&from);
    if (asset.empty()) throw bad_input(src.name, what + ": an empty asset path");
    if (asset.find('[') != std::string::npos)
        throw bad_input(src.name, what + ": a path into a package (name[entry]), which rigscope does not resolve");
    if (src.package) {
        // Inside a package: relative to the entry's folder, and never out of the package.
        if (asset[0] == '/') throw bad_input(src.name, what + ": an absolute path inside a package");
        const std::string entry = normalize_path(src.dir + asset);
        if (entry.compare(0, 2, "..") == 0) throw bad_input(src.name, what + ", which leads outside the package");
        return *open_entry(*src.package, entry, src.name, what).layer;
    }
    if (!read_files_) throw bad_input(src.name, what + ": another file, which rigscope does not read here (it reads the input alone)");
    const bool absolute = asset[0] == '/';
    const std::string path = normalize_path(absolute ? asset : (src.dir.empty() ? "./" : src.dir) + asset);
    if (!allow_outside_) {
        // Lexically, then with symlinks resolved (a link inside the folder may point anywhere).
        const std::string lexical = absolute ? path : normalize_path(real_or(src.dir.empty() ? "." : src.dir) + "/" + asset);
        struct stat st {};
        const std::string real = stat(path.c_str(), &st) == 0 ? real_or(path) : lexical;  // a missing file: refused below
        if (absolute || lexical.rfind(root_dir_, 0) != 0 || real.rfind(root_dir_, 0) != 0)
            throw bad_input(src.name, what + ", which is absolute or leads outside the input's folder " + root_dir_ +
                                          " (--allow-outside-uris reads it)");
    }
    return *open_file(path, src.name, what).layer;
}

std::string LayerFiles::name_of(const Layer& layer) const {
    auto it = by_layer_.find(&layer);
    return it == by_layer_.end() ? layer.path : it->second->name;
}

}  // namespace rigscope::usd
