// What an evaluation records (docs/model-format.md, docs/semantics.md): per layer, head and query
// the allowed positions, scores, maximising set, gap, weights and head output, plus the activations
// after each sublayer and the read-outs.
//
// Positions are numbered as the tool prints them: 1..n, with 0 for BOS.
// Activation index t holds position t + (bos ? 0 : 1).
#pragma once

#include "tempcert/real.hpp"

#include <optional>
#include <string>
#include <vector>

namespace tempcert {

struct QueryTrace {
    std::size_t query = 0;            // position number
    std::vector<std::size_t> allowed; // position numbers, increasing
    RealVector scores;                // one per allowed position
    RealVector weights;               // one per allowed position
    RealVector output;                // head contribution W_O sum_j a_j W_V x_j
    // Hard evaluation only:
    std::vector<std::size_t> argmax;      // M, increasing
    std::optional<Real> gap;              // nullopt: +infinity (M = J) or J empty
    std::optional<std::size_t> runner_up; // least position attaining max over J \ M
    bool ties_share_value = true;         // all of M carry the same value vector W_V x_j
    // Soft evaluation only: TV(soft weights, hard weights) where the hard
    // weights are those the tv criterion compares with (docs/semantics.md).
    std::optional<Real> tv;
};

struct HeadTrace {
    std::vector<QueryTrace> queries; // one per position, BOS included
};

struct LayerTrace {
    std::vector<HeadTrace> heads;
    std::vector<RealVector> after_attention; // x^(l-1/2)
    std::vector<RealVector> after_ffn;       // x^(l)
};

struct OutputValue {
    std::size_t position = 0;  // position number read
    Real y;                    // Linear read-outs
    Tri accept = Tri::Unknown; // y > 0
    // Categorical read-outs: the class coordinates' values, and the class
    // holding the strict maximum (nullopt: a tie, "no output"). `decided`
    // is false when intervals cannot tell which (soft evaluation only).
    RealVector classes;
    std::optional<std::size_t> label;
    bool decided = true;
    std::string decoded; // the label, "no output" or "undecided", for messages
};

struct Trace {
    std::size_t n = 0;
    bool bos = false;
    Prec prec = 0; // precision the intervals in this trace were computed at
    std::vector<RealVector> initial;
    std::vector<LayerTrace> layers;
    std::vector<OutputValue> outputs;
    bool width_reached = true; // soft only: every weight narrower than requested
};

} // namespace tempcert
