#include "rigscope/core/morph_channel.h"

#include <algorithm>
#include <numeric>

namespace rigscope {

void morph_channel_weights(const MorphChannel& ch, double w, float* weights) {
    const std::size_t n = std::min(ch.targets.size(), ch.full.size());
    for (std::size_t k = 0; k < n; ++k) weights[ch.targets[k]] = 0.0f;
    if (n == 0) return;
    // The points of the line in increasing full weight, the base mesh (-1) among them at 0, after
    // the negative shapes and before every other; equal full weights keep the file's order.
    std::vector<int> line(n);
    std::iota(line.begin(), line.end(), 0);
    std::stable_sort(line.begin(), line.end(), [&](int a, int b) { return ch.full[a] < ch.full[b]; });
    const std::size_t negatives = std::size_t(std::count_if(ch.full.begin(), ch.full.begin() + long(n), [](double f) { return f < 0; }));
    line.insert(line.begin() + long(negatives), -1);
    const std::size_t base = negatives, last = line.size() - 1;
    auto at = [&](std::size_t i) { return line[i] < 0 ? 0.0 : ch.full[line[i]]; };
    // The segment [a, b] of the line that w falls in, or is extrapolated from, on w's side of 0.
    std::size_t a, b;
    if (w > 0) {
        if (base == last) {
            a = base - 1, b = base;  // only negative shapes: the nearest one, extrapolated through 0
        } else {
            b = base + 1;
            while (b < last && !(at(b) > w)) ++b;
            a = b - 1;
        }
    } else {
        if (base == 0) {
            a = 1, b = 0;  // only positive shapes: the nearest one, extrapolated through 0
        } else {
            b = base - 1;
            while (b > 0 && !(at(b) < w)) --b;
            a = b + 1;
        }
    }
    const double delta = at(b) - at(a);
    if (delta == 0) return;
    const double u = (w - at(a)) / delta;
    if (line[a] >= 0) weights[ch.targets[line[a]]] = float(1 - u);
    if (line[b] >= 0) weights[ch.targets[line[b]]] = float(u);
}

}  // namespace rigscope
