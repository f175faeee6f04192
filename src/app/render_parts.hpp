// Pieces that several answers' renderings share (src/app/*_outcome.cpp).
#pragma once

#include "tempcert/certificate.hpp"
#include "tempcert/certify.hpp"
#include "tempcert/model.hpp"
#include "tempcert/word.hpp"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace tempcert::app {

// A least gap as text: its exact value or enclosure, "inf" where no
// position competes.
template <class Number> std::string gap_text(const std::optional<Number> &gap) {
    return gap ? to_string(*gap) : std::string("inf");
}

// "model NAME, n <= N, eps = E, criterion C": the claim an answer is about.
inline std::string claim_line(const Model &m, std::size_t n, const Rational &eps, Criterion c) {
    return "model " + m.name + ", n <= " + std::to_string(n) + ", eps = " + to_string(eps) +
           ", criterion " + to_string(c);
}

// A bracket's entries of an answer's JSON, appended in this order: beta_lo
// and beta_hi (15 significant digits, rounded outward), their exact values,
// and the word refuting beta_lo with its violation (null without one).
inline void add_bracket_json(nlohmann::ordered_json &j, const Rational &lo, const Rational &hi,
                             const std::optional<Violation> &lo_witness, const Model &m) {
    j["beta_lo"] = decimal_significant(lo, 15, false);
    j["beta_hi"] = decimal_significant(hi, 15, true);
    j["beta_lo_exact"] = to_string(lo);
    j["beta_hi_exact"] = to_string(hi);
    j["lo_witness"] = lo_witness ? nlohmann::ordered_json(format_word(lo_witness->word, m.alphabet))
                                 : nlohmann::ordered_json(nullptr);
    j["lo_violation"] =
        lo_witness ? violation_json(*lo_witness, m) : nlohmann::ordered_json(nullptr);
}

} // namespace tempcert::app
