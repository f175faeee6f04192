// The task splitter alone: for an alphabet of k symbols,
// length n and R ranks, the tasks prefix_split_length makes, the largest
// task, and how a dynamic hand-out (each free rank takes the next task)
// balances them. A certified sweep visits every node, so the cost is
// modelled per node: a node of length d costs d (its newest position
// attends over d positions); the words above the split are walked by every
// rank before the tasks. Prints a Markdown table for bench/RESULTS.md.
//
//   tempcert_split_sim [k n]...   (default: 2 16, 2 24, 2 32, 4 8, 4 12, 4 16)
#include "../../src/eval/prefix_walk.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <queue>
#include <utility>
#include <vector>

namespace {

// Nodes of lengths from..to below one node, each weighted by its length.
double subtree_cost(double k, std::size_t from, std::size_t to, std::size_t base) {
    double cost = 0, count = 1;
    for (std::size_t d = from; d <= to; ++d) {
        count *= k;
        cost += count * static_cast<double>(d + base);
    }
    return cost;
}

void simulate(std::size_t k, std::size_t n) {
    const std::size_t split = tempcert::detail::prefix_split_length(k, n);
    const double tasks = std::pow(static_cast<double>(k), static_cast<double>(split));
    const double top = subtree_cost(static_cast<double>(k), 1, split, 0);
    const double task = subtree_cost(static_cast<double>(k), 1, n - split, split);
    const double words = (std::pow(double(k), double(n) + 1) - k) / (double(k) - 1);
    const double task_words = words / tasks - 1; // below one root, minus the top's share
    for (int ranks : {1, 2, 64, 1024}) {
        // dynamic hand-out of equal tasks: the least-loaded rank takes the next
        std::priority_queue<double, std::vector<double>, std::greater<>> load;
        for (int r = 0; r < ranks; ++r)
            load.push(0.0);
        const auto count = static_cast<long long>(tasks);
        for (long long t = 0; t < count; ++t) {
            double l = load.top();
            load.pop();
            load.push(l + task);
        }
        double most = 0;
        while (!load.empty()) {
            most = std::max(most, load.top());
            load.pop();
        }
        const double serial = top + tasks * task, span = top + most;
        const double mean = tasks * task / ranks;
        std::printf("| %zu | %zu | %zu | %.0f | %.3g | %d | %.3f | %.1f | %.1f%% |\n", k, n, split,
                    tasks, task_words, ranks, most / mean, serial / span,
                    100.0 * serial / span / ranks);
    }
}

} // namespace

int main(int argc, char **argv) {
    std::vector<std::pair<std::size_t, std::size_t>> runs;
    for (int i = 1; i + 1 < argc; i += 2)
        runs.emplace_back(std::strtoul(argv[i], nullptr, 10),
                          std::strtoul(argv[i + 1], nullptr, 10));
    if (runs.empty()) runs = {{2, 16}, {2, 24}, {2, 32}, {4, 8}, {4, 12}, {4, 16}};
    std::printf("| k | n | split | tasks | words per task | ranks | largest load / mean | "
                "speed-up | efficiency |\n|---|---|---|---|---|---|---|---|---|\n");
    for (auto [k, n] : runs)
        if (k >= 2 && n >= 1) simulate(k, n);
    return 0;
}
