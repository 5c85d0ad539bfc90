// The memory budget of one load (LoadOptions::max_memory, issue 43 item 4). Every reader charges
// what it is about to hold, before it allocates it, to one running total, and a load past the
// limit is refused with one message whatever the format: "<what> would take N MiB, past the
// memory limit of L MiB with M MiB held already". Below the run layer the message names the limit, not the
// option that sets it: the CLI and the Python module add that (name_memory_option).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "rigscope/io/load.h"  // kMemoryLimitPhrase

namespace rigscope {

// The refusal's text: `bytes` for `what` on top of `held`, against `limit`.
std::string over_budget_message(double bytes, std::string_view what, std::uint64_t limit, std::uint64_t held);

class LoadBudget {
public:
    // source: the file the load reads, which an error names.
    LoadBudget(std::string source, std::uint64_t limit) : source_(std::move(source)), limit_(limit) {}

    // Adds `bytes` held for `what`, or throws bad input naming the source. A double, so that a
    // count read from a file times an element size can never wrap around before the check.
    void charge(double bytes, std::string_view what);
    // The same for a reader whose errors carry more than the file (a line and column, a record):
    // empty when `bytes` fit (and are charged), else the message, nothing charged.
    std::string try_charge(double bytes, std::string_view what);
    // The message try_charge would give, without charging: for a size a file claims, checked
    // before the reader trusts it enough to read it.
    std::string check(double bytes, std::string_view what) const;
    // Gives back what a reader no longer holds (a file's bytes once parsed).
    void release(std::uint64_t bytes) { held_ -= bytes < held_ ? bytes : held_; }

    std::uint64_t held() const { return held_; }
    std::uint64_t limit() const { return limit_; }
    std::uint64_t left() const { return limit_ - held_; }
    const std::string& source() const { return source_; }

private:
    std::string source_;
    std::uint64_t limit_;
    std::uint64_t held_ = 0;
};

}  // namespace rigscope
