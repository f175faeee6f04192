// Typed answers to the questions the front doors ask, each with its two
// renderings: to_json, the one schema of --json, the Python module's
// results and (in parts) certificates; to_text, what a person reads. The
// command line parses, asks, renders and exits with exit_code; nothing
// else decides what an answer looks like. (So far: gap and bound.)
#pragma once

#include "tempcert/bounds.hpp"
#include "tempcert/gap.hpp"
#include "tempcert/model.hpp"

#include <nlohmann/json.hpp>

#include <string>

namespace tempcert {

// The least gap of every head over the words of length 1..n, with the
// unique-hard tie check (docs/semantics.md).
struct GapOutcome {
    const Model *model = nullptr; // alive while the outcome is rendered
    std::size_t n = 0;
    GapReport report;
    bool ties() const; // a unique-hard head tied between different values
};

nlohmann::ordered_json to_json(const GapOutcome &g);
std::string to_text(const GapOutcome &g);
int exit_code(const GapOutcome &g); // 1 when ties() (softmax cannot simulate), else 0

// Lemma GT's inverse temperature for N positions, a gap and eps
// (proofs/lemma-gt.md).
struct BoundOutcome {
    std::size_t N = 0;
    Rational gap, eps;
    GapBound bound;
};

nlohmann::ordered_json to_json(const BoundOutcome &b);
std::string to_text(const BoundOutcome &b);

} // namespace tempcert
