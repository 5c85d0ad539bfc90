#include "suggest.h"

#include <algorithm>

namespace rigscope::cli {

namespace {

// Levenshtein distance, with a swap of two neighbours counting as one edit (the commonest typo).
std::size_t edit_distance(const std::string& a, const std::string& b) {
    std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
    for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
    for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i)
        for (std::size_t j = 1; j <= b.size(); ++j) {
            d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] != b[j - 1])});
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
        }
    return d[a.size()][b.size()];
}

}  // namespace

std::string closest_name(const std::string& typed, const std::vector<std::string>& candidates) {
    std::string best;
    std::size_t best_distance = 0;
    for (const std::string& c : candidates) {
        const std::size_t d = edit_distance(typed, c);
        if (best.empty() || d < best_distance) {
            best = c;
            best_distance = d;
        }
    }
    const std::size_t allowed = std::max<std::size_t>(1, best.size() / 3);
    return !best.empty() && best_distance <= allowed ? best : "";
}

std::string did_you_mean(const std::string& typed, const std::vector<std::string>& candidates) {
    const std::string name = closest_name(typed, candidates);
    return name.empty() ? "" : " (did you mean '" + name + "'?)";
}

}  // namespace rigscope::cli
