// A batch's exit code (set_batch_counts, src/run/batch_run.cpp): the worst file's by the order
// docs/exit_codes.md documents (Exit codes: 0 < 1 < 2 < 5 < 3 < 4 < 6), which is not the numeric order:
// a file that could not be read (3) outranks a mismatch (5), one that could not be written (4)
// outranks both. The expected codes are read off that documented order, by hand.
#include <catch2/catch.hpp>

#include <vector>

#include "rigscope/core/error.h"
#include "rigscope/run/batch.h"

using namespace rigscope;

namespace {

int batch_exit(const std::vector<int>& codes) {
    BatchResult r;
    for (int c : codes) {
        BatchFileResult f;
        f.row.exit_code = c;
        f.row.status = c == 0 ? "pass" : c == 1 ? "fail" : c == 2 ? "not checked" : "error";
        r.files.push_back(f);
    }
    set_batch_counts(r);
    return r.exit_code;
}

}  // namespace

TEST_CASE("a batch exits with its worst file's code by the documented order, not the largest", "[batch]") {
    CHECK(batch_exit({}) == 0);
    CHECK(batch_exit({0, 0}) == 0);
    CHECK(batch_exit({0, 1, 0}) == 1);
    CHECK(batch_exit({1, 2}) == 2);
    // 3 unreadable is worse than 5 mismatch, in either order of the files.
    CHECK(batch_exit({5, 3}) == 3);
    CHECK(batch_exit({3, 5}) == 3);
    // 4 cannot write is worse than 5 and 3.
    CHECK(batch_exit({5, 4, 3}) == 4);
    CHECK(batch_exit({0, 5, 1}) == 5);
    CHECK(batch_exit({6, 4, 5}) == 6);
    // The ranks themselves, in docs/exit_codes.md's order 0 < 1 < 2 < 5 < 3 < 4 < 6.
    const std::vector<int> order{kExitOk, kExitCheckFailed, kExitUsage, kExitMismatch, kExitBadInput, kExitCannotWrite, kExitInternal};
    for (std::size_t i = 1; i < order.size(); ++i) CHECK(batch_exit_rank(order[i - 1]) < batch_exit_rank(order[i]));
}

TEST_CASE("a batch's counts line counts each status", "[batch]") {
    BatchResult r;
    for (const char* s : {"pass", "fail", "pass", "error"}) {
        BatchFileResult f;
        f.row.status = s;
        f.row.exit_code = std::string(s) == "pass" ? 0 : std::string(s) == "fail" ? 1 : 3;
        r.files.push_back(f);
    }
    set_batch_counts(r);
    CHECK(r.counts == "batch: 4 files: 2 pass, 1 fail, 1 error");
    CHECK(r.exit_code == 3);
}
