// The container layer of glTF 2.0: JSON, buffers (GLB chunk, data URI, external file), buffer
// views and accessors, each checked against its bounds before use. The scene conversion
// (gltf_reader.cpp) reads typed arrays through this and never touches raw bytes.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "io/gltf/gltf_extensions.h"
#include "io/load_budget.h"
#include "rigscope/core/warning.h"

namespace rigscope {
struct Scene;
}

namespace rigscope::gltf {

using nlohmann::json;

// A file's number in a message: exact while it is a whole number a double holds exactly, else as
// JSON writes it (the cast alone is undefined behaviour past 2^64).
std::string number_text(double v);

class Document {
public:
    // Reads a .gltf or .glb file and its buffers; throws rigscope::Error (exit 3). A buffer or
    // image URI that is absolute or leads out of the file's folder is refused unless
    // `allow_outside_uris` (a file from outside must not make rigscope read /etc/passwd).
    Document(const std::string& path, std::uint64_t max_memory, bool allow_outside_uris = false);
    ~Document();  // stops and joins the prefetch's helpers
    Document(const Document&) = delete;
    Document& operator=(const Document&) = delete;

    const json& root() const { return root_; }
    const std::string& path() const { return path_; }

    // Accessor contents converted to floats (normalised integers mapped to [0,1] / [-1,1]),
    // `components` per element; sparse accessors applied. Throws naming the accessor. An
    // accessor the file uses more than once (primitives, targets or samplers may share one) is
    // read once and kept until its last use; every read is charged to the memory budget.
    using Floats = std::shared_ptr<const std::vector<float>>;
    using Uints = std::shared_ptr<const std::vector<std::uint32_t>>;
    Floats floats(int accessor, int* components = nullptr) const;
    // Accessor contents as unsigned integers (indices, joint indices).
    Uints uints(int accessor, int* components = nullptr) const;
    // Moves `u`'s array into `out` where `u` is its only holder (the accessor's last read, not
    // kept for a later one) and empties `u`; false, leaving both, where another holds it. Every
    // Uints is made as a mutable array held as const, so that its last reader may take it
    // rather than copy it (a mesh's indices, its largest array).
    static bool release(Uints& u, std::vector<std::uint32_t>& out);
    // Copies of the above, for callers that keep the data.
    std::vector<float> read_floats(int accessor, int* components = nullptr) const { return *floats(accessor, components); }

    // The load's memory budget (io/load_budget.h) bounds the whole load: the file, its buffers,
    // meshopt's decoded views, every accessor read and whatever the caller builds from them
    // (charged here by the caller). Throws (exit 3) naming `what` when the running total would
    // pass the limit; check_fits throws the same for a size the file claims, without charging.
    void charge(double bytes, const std::string& what) const;
    void check_fits(double bytes, const std::string& what) const;
    std::size_t accessor_count(int accessor) const;
    // `mesh` (a glTF mesh index) will not be read (LoadOptions::mesh): its accessors' uses are
    // dropped from the counts that keep a shared accessor until its last reader, so that one it
    // shares with a read mesh (the bench tube's two meshes share their indices) is freed after
    // that mesh's read, as if the file named it there alone.
    void skip_mesh_accessors(int mesh);

    // Starts converting the accessors of `meshes` (the glTF meshes the reader will read, in the
    // order it reads them) on threads - 1 helper threads, each conversion into its own arrays,
    // so that the reader's reads of them (floats, uints) find them done (gltf_prefetch.cpp).
    // The conversion is a function of the file's bytes alone, and every check, charge, warning
    // and error stays on the reader's thread in its order: the scene, and what a bad file is
    // told, are the same for any thread count. Nothing starts for threads <= 1, or when the
    // arrays together would pass the memory budget's room (they exist before they are charged).
    void prefetch_mesh_accessors(const std::vector<int>& meshes, unsigned threads);
    // Whether the reader read the prefetch's plan as planned: helpers started, every planned
    // accessor's first read in the plan's order, no other accessor read in between. The plan
    // (gltf_prefetch.cpp) restates read_mesh's order of reads; a reader that changes its order
    // still reads the same scene, only converting the accessors itself, so tests hold the two
    // orders together with this (tests/io/test_gltf_threads.cpp).
    bool prefetch_followed_plan() const;
    int accessor_components(int accessor) const;

    // Typed JSON access with errors that name the JSON path ("meshes[0].primitives").
    const json& array(const json& parent, const char* key, const std::string& where) const;  // [] if absent
    int index(const json& obj, const char* key, const std::string& where, std::size_t bound, int fallback = -1) const;
    double number(const json& obj, const char* key, const std::string& where, double fallback) const;
    std::string string(const json& obj, const char* key, const std::string& where, const std::string& fallback = "") const;
    std::size_t size_of(const char* key) const;  // number of entries in a top-level array
    // extensionsUsed as the file lists it (for `info`).
    std::vector<std::string> extensions_used() const;

    [[noreturn]] void fail(const std::string& problem) const;
    std::vector<Warning> warnings;
    // The buffer files read beside the document, as (path, "buffers[i] of FILE"): the run's
    // outputs may not replace one.
    std::vector<std::pair<std::string, std::string>> files_read;

private:
    struct Element {
        const std::uint8_t* base = nullptr;  // null: an accessor without a buffer view (zeros)
        std::size_t stride = 0;
        int component_type = 0;
        int components = 0;
        bool normalized = false;
        std::size_t count = 0;
    };
    // The steps of a load, in order, each in its own file: the container (gltf_container.cpp:
    // `bytes` is the file; a GLB's binary chunk is moved out of it, in place, into bin_chunk),
    // the buffers and images (gltf_buffers.cpp), the accessors (gltf_accessors.cpp, read on
    // demand). read_into: false for what cannot be read; a file past the budget is refused.
    // The file is read in two parts, `bytes` and `rest` (empty but for a GLB, whose binary
    // chunk, second as exporters write it, then starts `rest` and becomes buffer 0 without
    // being moved: the move to the front was a pass over the whole file).
    void parse_container(Bytes& bytes, Bytes& rest, Bytes& bin_chunk, bool& has_bin);
    bool read_into(const std::string& file, Bytes& out, const std::string& what,
                   Bytes* rest = nullptr) const;
    void load_buffers(Bytes bin_chunk, bool has_bin, bool allow_outside_uris);
    void check_images(bool allow_outside_uris);
    Element element(int accessor) const;
    // An accessor's conversion, of its element already checked: the reader's thread and the
    // prefetch's helpers run this (it reads the JSON, the buffers and decoded_, and touches no
    // budget or cache).
    template <typename T, typename Convert>
    std::vector<T> read_element(int accessor, const Element& e, Convert convert, std::vector<T> room = {}) const;
    // The two conversions floats and uints make. `room`: where to put the result if it has the
    // capacity (the prefetch reserves it on the reader's thread, so that the helpers' arrays
    // come from the heap the reader's frees fill, not from a fresh per-thread arena).
    std::vector<float> convert_floats(int accessor, const Element& e, std::vector<float> room = {}) const;
    std::vector<std::uint32_t> convert_uints(int accessor, const Element& e, std::vector<std::uint32_t> room = {}) const;
    // The prefetched conversion of `accessor`, waited for if a helper is converting it; false
    // if there is none (not planned, not started, already taken, or it failed: the caller then
    // converts it itself, failing with the message and in the place it always did).
    bool take_prefetched(int accessor, std::vector<float>& out) const;
    bool take_prefetched(int accessor, std::vector<std::uint32_t>& out) const;

    std::string path_;
    std::string dir_;
    mutable LoadBudget budget_;
    json root_;
    Buffers buffers_;
    template <typename T>
    struct Kept {
        int components = 0;
        std::shared_ptr<const std::vector<T>> data;
    };
    template <typename T, typename Read>
    std::shared_ptr<const std::vector<T>> shared(int accessor, int* components, std::map<int, Kept<T>>& kept, Read read) const;
    void count_accessor_uses();
    mutable std::vector<int> uses_left_;  // per accessor: references in the file not yet read
    mutable std::map<int, Kept<float>> floats_;
    mutable std::map<int, Kept<std::uint32_t>> uints_;
    DecodedAccessors decoded_;  // accessors filled by a decoder (Draco), not from a buffer view
    struct Prefetch;
    struct PrefetchDelete {  // defined beside Prefetch (gltf_prefetch.cpp), which is known only there
        void operator()(Prefetch* p) const;
    };
    std::unique_ptr<Prefetch, PrefetchDelete> prefetch_;  // null unless prefetch_mesh_accessors started helpers
};

// The scene of an opened document, read with `threads` (read_gltf's body, gltf_reader.cpp): the
// tests read the document after it.
// `mesh`: LoadOptions::mesh, the meshes read (the others' entries are left without data).
Scene read_scene(Document& doc, const std::string& path, unsigned threads, const std::string& mesh = "");

}  // namespace rigscope::gltf
