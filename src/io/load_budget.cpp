#include "io/load_budget.h"

#include <cstdio>

#include "rigscope/core/error.h"

namespace rigscope {

namespace {
// Sizes as people read them: MiB, whole from 10 and with one decimal below; KiB or bytes for
// what is less than 0.1 MiB (the last small array that tipped a running total over).
std::string mib(double bytes) {
    char text[64];
    const double m = bytes / 1048576.0;
    if (m >= 0.1)
        std::snprintf(text, sizeof text, m >= 10 ? "%.0f MiB" : "%.1f MiB", m);
    else if (bytes >= 1024)
        std::snprintf(text, sizeof text, "%.0f KiB", bytes / 1024);
    else
        std::snprintf(text, sizeof text, "%.0f bytes", bytes);
    return text;
}
}  // namespace

std::string name_memory_option(const std::string& message, const char* option) {
    if (message.find(kMemoryLimitPhrase) == std::string::npos) return message;
    return message + " (set by " + option + ")";
}

std::string over_budget_message(double bytes, std::string_view what, std::uint64_t limit, std::uint64_t held) {
    std::string s = std::string(what) + " would take " + mib(bytes) + ", " + std::string(kMemoryLimitPhrase) + " of " + mib(double(limit));
    if (held > 0) s += " with " + mib(double(held)) + " held already";
    return s;
}

std::string LoadBudget::check(double bytes, std::string_view what) const {
    if (!(bytes >= 0) || bytes > double(limit_ - held_)) return over_budget_message(bytes, what, limit_, held_);
    return {};
}

std::string LoadBudget::try_charge(double bytes, std::string_view what) {
    std::string problem = check(bytes, what);
    if (problem.empty()) held_ += static_cast<std::uint64_t>(bytes);
    return problem;
}

void LoadBudget::charge(double bytes, std::string_view what) {
    std::string problem = try_charge(bytes, what);
    if (!problem.empty()) throw bad_input(source_, problem);
}

}  // namespace rigscope
