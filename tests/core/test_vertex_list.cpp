#include <catch2/catch.hpp>

#include "rigscope/core/error.h"
#include "rigscope/core/vertex_list.h"

using rigscope::parse_vertex_list;

namespace {

int exit_code_of(const std::string& spec, std::size_t count) {
    try {
        parse_vertex_list(spec, count);
    } catch (const rigscope::Error& e) {
        return e.code();
    }
    return 0;
}

}  // namespace

TEST_CASE("vertex list: ids and inclusive ranges in the order written", "[vertex_list]") {
    CHECK(parse_vertex_list("12,40,100..103", 200) == std::vector<std::uint32_t>{12, 40, 100, 101, 102, 103});
    CHECK(parse_vertex_list("5", 6) == std::vector<std::uint32_t>{5});
    CHECK(parse_vertex_list(" 3 , 1..2 ", 6) == std::vector<std::uint32_t>{3, 1, 2});
    CHECK(parse_vertex_list("7..7", 8) == std::vector<std::uint32_t>{7});
}

TEST_CASE("vertex list: a repeated id keeps its first place", "[vertex_list]") {
    CHECK(parse_vertex_list("4,1..5,2", 10) == std::vector<std::uint32_t>{4, 1, 2, 3, 5});
}

TEST_CASE("vertex list: malformed or out-of-range lists are usage errors", "[vertex_list]") {
    for (const char* bad : {"", " ", ",", "1,", ",1", "a", "1..", "..3", "3..1", "-1", "+1", "1.5", "1...3", "1..2..3",
                            "0x10", "99999999999999999999999"})
        CHECK(exit_code_of(bad, 100) == rigscope::kExitUsage);
    CHECK(exit_code_of("100", 100) == rigscope::kExitUsage);
    CHECK(exit_code_of("90..100", 100) == rigscope::kExitUsage);
    CHECK(exit_code_of("0", 0) == rigscope::kExitUsage);
    CHECK(exit_code_of("99", 100) == 0);
}

TEST_CASE("vertex list: the message names the id and the count", "[vertex_list]") {
    try {
        parse_vertex_list("1,625", 625);
        FAIL("no error");
    } catch (const rigscope::Error& e) {
        const std::string m = e.what();
        CHECK(m.find("625") != std::string::npos);
        CHECK(m.find("0..624") != std::string::npos);
    }
}
