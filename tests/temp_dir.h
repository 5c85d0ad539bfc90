// A fresh folder of its own for a test (mkdtemp), removed with everything in it at the end. Fixed
// names under /tmp raced when ctest ran cases in parallel processes, or two checkouts ran their
// suites at once: one process rewrote a file while another read it.
#pragma once

#include <stdlib.h>

#include <filesystem>
#include <string>
#include <system_error>

#include <catch2/catch.hpp>

namespace rigscope_test {

struct TempDir {
    std::string path;
    explicit TempDir(const std::string& prefix = "rigscope_test") {
        std::string tmpl = (std::filesystem::temp_directory_path() / (prefix + "_XXXXXX")).string();
        REQUIRE(mkdtemp(tmpl.data()) != nullptr);
        path = tmpl;
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    ~TempDir() {
        std::error_code ec;
        std::filesystem::remove_all(path, ec);
    }
    std::string file(const std::string& name) const { return path + "/" + name; }
};

}  // namespace rigscope_test
