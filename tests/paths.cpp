// The only test file compiled with the checkout's and the binary's paths (tests/CMakeLists.txt):
// every other test file's command line is then the same in any clone, so ccache serves a fresh
// clone (CI's) from another's objects (scripts/ccache.bash).
#include "corpus.h"

namespace rigscope::test {

std::string source_dir() { return RIGSCOPE_SOURCE_DIR; }
std::string rigscope_binary() { return RIGSCOPE_BINARY; }

}  // namespace rigscope::test
