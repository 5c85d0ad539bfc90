// OutputSet (io/output.h): a run's several outputs, all or none. A report and its --junit, a
// batch's files, a glTF per frame: none may take its name while another can still fail.
#include <catch2/catch.hpp>
#include <exception>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>
#include <vector>

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

namespace {

// Opens and writes every slot of `files` from `threads` threads, slot k holding "k" and thread t
// taking the slots k = t, t + threads, ... from the last down (so the slots are opened neither in
// order nor by one thread). A slot whose path is `refused` throws there; the first error of any
// thread is rethrown once all are joined.
void write_on_threads(OutputSet& files, const std::vector<std::string>& paths, std::size_t first, unsigned threads) {
    std::vector<std::thread> pool;
    std::vector<std::exception_ptr> errors(threads);
    for (unsigned t = 0; t < threads; ++t)
        pool.emplace_back([&, t] {
            try {
                for (std::size_t k = paths.size(); k-- > 0;) {
                    if (k % threads != t) continue;
                    OutputFile& f = files.open_at(first + k, paths[k]);
                    f.write(std::to_string(k));
                    f.finish();
                }
            } catch (...) {
                errors[t] = std::current_exception();
            }
        });
    for (auto& th : pool) th.join();
    for (auto& e : errors)
        if (e) std::rethrow_exception(e);
}

}  // namespace

TEST_CASE("OutputSet: reserved slots opened on several threads, all renamed at commit", "[output]") {
    rigscope_test::TempDir dir;
    OutputSet files(std::vector<std::string>{});
    files.add(dir.file("head.txt"), "H");  // an ordinary slot before the reserved ones
    std::vector<std::string> paths;
    for (int k = 0; k < 32; ++k) paths.push_back(dir.file("f" + std::to_string(k) + ".txt"));
    const std::size_t first = files.reserve(paths.size());
    CHECK(first == 1);
    write_on_threads(files, paths, first, 4);
    CHECK(files_in(dir.path) == 33);  // 33 temporaries, no file under its name yet
    for (const auto& p : paths) CHECK_FALSE(fs::exists(p));
    // A slot is one file: opening it again, or one never reserved, is a bug, refused.
    CHECK_THROWS_AS(files.open_at(first, dir.file("again.txt")), Error);
    CHECK_THROWS_AS(files.open_at(first + paths.size(), dir.file("past.txt")), Error);
    CHECK(files_in(dir.path) == 33);  // the refused files' temporaries are gone
    files.commit();
    CHECK(read_text(dir.file("head.txt")) == "H");
    for (std::size_t k = 0; k < paths.size(); ++k) CHECK(read_text(paths[k]) == std::to_string(k));
    CHECK(files_in(dir.path) == 33);  // no temporary left behind
}

TEST_CASE("OutputSet: one output of a threaded set failing leaves no file of the set", "[output]") {
    rigscope_test::TempDir dir;
    const std::string input = dir.file("in.txt");
    std::ofstream(input) << "keep";
    std::vector<std::string> paths;
    for (int k = 0; k < 24; ++k) paths.push_back(dir.file("f" + std::to_string(k) + ".txt"));
    paths[13] = input;  // the run's own input, met by one thread among the others' files
    try {
        OutputSet files(std::vector<std::string>{input});
        write_on_threads(files, paths, files.reserve(paths.size()), 3);
        files.commit();
        FAIL("an input was opened as an output");
    } catch (const Error& e) {
        CHECK(e.code() == kExitUsage);
    }
    CHECK(read_text(input) == "keep");
    CHECK(files_in(dir.path) == 1);  // every other file's temporary removed with the set
}

TEST_CASE("OutputSet: a reserved slot never opened fails the commit, which then renames none", "[output]") {
    rigscope_test::TempDir dir;
    {
        OutputSet files(std::vector<std::string>{});
        files.add(dir.file("a.txt"), "A");
        const std::size_t first = files.reserve(2);
        files.open_at(first + 1, dir.file("c.txt")).write("C");
        CHECK_THROWS_AS(files.commit(), Error);  // slot first was never opened: a bug, not a half set
        CHECK_FALSE(fs::exists(dir.file("a.txt")));
        CHECK_FALSE(fs::exists(dir.file("c.txt")));
    }
    CHECK(files_in(dir.path) == 0);
}
