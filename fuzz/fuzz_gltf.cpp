// libFuzzer target: bytes as a .glb (when they start with the GLB magic) or a .gltf, through
// load_scene and a few evaluated frames. scripts/fuzz.sh builds and runs it.
#include <cstring>
#include <random>
#include <vector>

#include "fuzz_evaluate.h"
#include "fuzz_input.h"

extern "C" std::size_t LLVMFuzzerMutate(std::uint8_t* data, std::size_t size, std::size_t max_size);

namespace {

std::uint32_t u32(const std::uint8_t* p) {
    std::uint32_t v;
    std::memcpy(&v, p, 4);
    return v;
}

void put_u32(std::vector<std::uint8_t>& out, std::uint32_t v) {
    const auto* p = reinterpret_cast<const std::uint8_t*>(&v);
    out.insert(out.end(), p, p + 4);
}

}  // namespace

// A byte inserted into a GLB's JSON chunk breaks the chunk length, so almost every plain
// mutation of a .glb dies at the container check. Mostly mutate one chunk's payload and rewrite
// the lengths instead, so mutations reach the JSON and the binary data; one in four still
// mutates the raw bytes, container included.
extern "C" std::size_t LLVMFuzzerCustomMutator(std::uint8_t* data, std::size_t size, std::size_t max_size, unsigned seed) {
    std::minstd_rand rng(seed);
    if (size < 20 || std::memcmp(data, "glTF", 4) != 0 || rng() % 4 == 0) return LLVMFuzzerMutate(data, size, max_size);
    struct Chunk {
        std::uint32_t type;
        std::vector<std::uint8_t> bytes;
    };
    std::vector<Chunk> chunks;
    for (std::size_t at = 12; at + 8 <= size;) {
        const std::uint64_t len = u32(data + at);
        if (at + 8 + len > size) return LLVMFuzzerMutate(data, size, max_size);
        chunks.push_back({u32(data + at + 4), std::vector<std::uint8_t>(data + at + 8, data + at + 8 + len)});
        at += 8 + len;
    }
    if (chunks.empty()) return LLVMFuzzerMutate(data, size, max_size);
    Chunk& c = chunks[rng() % chunks.size()];
    const std::size_t others = size - c.bytes.size();
    if (max_size <= others) return LLVMFuzzerMutate(data, size, max_size);
    const std::size_t used = c.bytes.size();
    c.bytes.resize(max_size - others);
    c.bytes.resize(LLVMFuzzerMutate(c.bytes.data(), used, c.bytes.size()));
    std::vector<std::uint8_t> out(data, data + 8);
    put_u32(out, 0);
    for (const Chunk& k : chunks) {
        put_u32(out, static_cast<std::uint32_t>(k.bytes.size()));
        put_u32(out, k.type);
        out.insert(out.end(), k.bytes.begin(), k.bytes.end());
    }
    const std::uint32_t total = static_cast<std::uint32_t>(out.size());
    std::memcpy(out.data() + 8, &total, 4);
    if (out.size() > max_size) return LLVMFuzzerMutate(data, size, max_size);
    std::memcpy(data, out.data(), out.size());
    return out.size();
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const bool glb = size >= 4 && std::memcmp(data, "glTF", 4) == 0;
    rigscope::fuzz::load_and_evaluate(rigscope::fuzz::write_input(data, size, glb ? ".glb" : ".gltf"));
    return 0;
}
