// libFuzzer target: bytes as an ASCII FBX through load_scene (the tokenizer of
// src/io/fbx_ascii_records.cpp, then the scene reader every FBX shares) and a few evaluated
// frames. Seeds are ASCII twins of the corpus and crafted files (scripts/fbx/fbx_write_ascii.py);
// an input without an ASCII FBX header is refused at once, so the target prefixes none: the
// seeds carry their "; FBX 7.4.0 project file" line and the fuzzer keeps what passes.
#include "fuzz_evaluate.h"
#include "fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    rigscope::fuzz::load_and_evaluate(rigscope::fuzz::write_input(data, size, ".fbx"));
    return 0;
}
