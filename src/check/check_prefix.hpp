// The checker's own prefix reuse (proofs/certificate.md).
#pragma once

#include "check_fields.hpp"
#include "check_tasks.hpp"
#include "tempcert/beta.hpp"

#include <functional>
#include <optional>

namespace tempcert::check {

// Whether the walk below applies: every head looks backward (causal or
// strict) and neither the features nor beta (when given) read n.
bool prefix_walk_applies(const Model &m, const BetaSpec *beta);

// Visits every word of length 1..n, each extending its parent by one
// position, with traces holding the queries the new position adds (with
// length 1, BOS's too) and, with `outputs`, the word's read-outs (the
// queries keep no scores or weights: neither the gap scan nor judging reads
// them; soft queries use check_soft.hpp's analytic bound up to `fast_below`
// where given); the soft trace is empty
// without betas. visit returns whether to go below the word. The words are
// split into tasks by a fixed prefix length (independent of --threads):
// task 0, the words up to that length, runs first in this thread; then
// ready(count) is called, and tasks 1..count-1 (the words below each prefix
// task 0 let through) run on limits.threads() threads, each task on one
// thread at a time, in depth-first order within it (run_check_tasks:
// under MPI the tasks 1..count-1 are spread over the ranks, and every rank
// holds every task's part of `parts` before walk_words returns). Throws
// Undecided when a hard comparison cannot be decided at
// `prec`.
using WordVisit =
    std::function<bool(std::size_t task, const Word &, const Trace &hard, const Trace &soft)>;
void walk_words(const Model &m, std::size_t n, const std::vector<Real> *betas, Prec prec,
                bool outputs, const Rational *fast_below, const Limits &limits,
                const std::function<void(std::size_t)> &ready, const WordVisit &visit,
                const TaskParts &parts);

// Judges every word of length 1..n, each extending its parent in a
// depth-first walk over the tree of words by one position: for models whose
// every head looks backward (causal, strict) and whose features and beta do
// not read n, a position's hard and soft activations depend only on the
// symbols up to it. A node judges its new position's queries and the word's
// read-outs at the starting precision; what that cannot decide goes to
// `judge_whole` (the whole word at rising precision). Returns nullopt when
// the walk does not apply (or a hard comparison needs more precision than
// the start: irrational features), else the first failure, "" for none.
// `words` counts the words judged.
std::optional<std::string>
judge_words_by_prefix(const Model &m, std::size_t n, const Rational &eps,
                      const std::string &criterion, const BetaSpec &beta, const Limits &limits,
                      const PrecisionPolicy &policy, std::uint64_t &words,
                      const std::function<Tri(const Word &, std::string &)> &judge_whole);

} // namespace tempcert::check
