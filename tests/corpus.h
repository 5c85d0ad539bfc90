// Where the tests find ../shared/corpus: RIGSCOPE_CORPUS, else ../shared/corpus beside the
// project's root, so a user without that folder can point the tests at their own copy.
#pragma once

#include <cstdlib>
#include <string>

namespace rigscope::test {

// The checkout's root and the rigscope binary the tests run (tests/paths.cpp).
std::string source_dir();
std::string rigscope_binary();

inline std::string corpus_dir() {
    if (const char* env = std::getenv("RIGSCOPE_CORPUS"); env && *env) return env;
    return source_dir() + "/../shared/corpus";
}

inline std::string corpus(const std::string& relative) { return corpus_dir() + "/" + relative; }

inline std::string bench_dir() {
    if (const char* env = std::getenv("RIGSCOPE_BENCH_DIR"); env && *env) return env;
    return corpus_dir() + "/../bench";
}

}  // namespace rigscope::test
