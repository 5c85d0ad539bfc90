// What a job's validate() refuses: its message, or "" when it accepts (tests/run's jobs share it).
#pragma once

#include <catch2/catch.hpp>
#include <string>

#include "rigscope/core/error.h"

namespace rigscope_test {

template <typename Options>
std::string refusal(const Options& o) {
    try {
        o.validate();
    } catch (const rigscope::Error& e) {
        CHECK(e.code() == rigscope::kExitUsage);
        return e.what();
    }
    return "";
}

}  // namespace rigscope_test
