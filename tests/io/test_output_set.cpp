// OutputSet (io/output.h): a run's several outputs, all or none. A report and its --junit, a
// batch's files, a glTF per frame: none may take its name while another can still fail.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "../temp_dir.h"
#include "rigscope/core/error.h"
#include "rigscope/io/output.h"

using namespace rigscope;
namespace fs = std::filesystem;

namespace {

std::string read_text(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

std::size_t files_in(const std::string& dir) {
    std::size_t n = 0;
    for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir)) ++n;
    return n;
}

}  // namespace

TEST_CASE("OutputSet: no output takes its name before every one is written, then all do", "[output]") {
    rigscope_test::TempDir dir;
    OutputSet files(std::vector<std::string>{});
    files.add(dir.file("a.txt"), "A");
    OutputFile& b = files.open(dir.file("b.txt"));
    b.write("B");
    CHECK(files.open_if("") == nullptr);  // an option left unset opens nothing
    CHECK_FALSE(fs::exists(dir.file("a.txt")));
    CHECK_FALSE(fs::exists(dir.file("b.txt")));
    files.commit();
    CHECK(read_text(dir.file("a.txt")) == "A");
    CHECK(read_text(dir.file("b.txt")) == "B");
    CHECK(files_in(dir.path) == 2);  // no temporary left behind
}

TEST_CASE("OutputSet: an output refused after another was written leaves neither", "[output]") {
    rigscope_test::TempDir dir;
    const std::string input = dir.file("in.txt");
    std::ofstream(input) << "keep";
    try {
        OutputSet files(std::vector<std::string>{input});
        files.add(dir.file("a.txt"), "A");
        files.open(input);  // the run's own input: refused (exit 2)
        FAIL("an input was opened as an output");
    } catch (const Error& e) {
        CHECK(e.code() == kExitUsage);
    }
    CHECK_FALSE(fs::exists(dir.file("a.txt")));
    CHECK(read_text(input) == "keep");
    CHECK(files_in(dir.path) == 1);  // a.txt's temporary removed with the set
}
