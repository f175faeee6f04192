// The precision loop of deciding one word, shared by certify_word and
// certify_word_streamed: from the policy's start, doubling to its cap,
// until `decide` answers True or False. An Undecided thrown at a precision
// is that precision's Unknown, with a "precision" violation naming it.
#pragma once

#include "tempcert/certify.hpp"

#include <functional>

namespace tempcert::detail {

Tri decide_raising_precision(const CertifyOptions &o, const Word &w, Violation &violation,
                             Prec &used, const std::function<Tri(Prec)> &decide);

} // namespace tempcert::detail
