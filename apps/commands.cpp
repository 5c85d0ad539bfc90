#include "commands.h"

#include <algorithm>
#include <vector>

namespace rigscope::cli {

namespace {

std::vector<std::pair<int, AddCommand>>& registry() {
    static std::vector<std::pair<int, AddCommand>> all;  // function-local: safe during static init
    return all;
}

}  // namespace

bool register_command(int order, AddCommand add) {
    registry().emplace_back(order, add);
    return true;
}

void add_registered_commands(CLI::App& app, Runner& run) {
    auto all = registry();
    std::sort(all.begin(), all.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    for (const auto& [order, add] : all) add(app, run);
}

}  // namespace rigscope::cli
