// The checker's judgement of a word against a criterion (proofs/
// certificate.md): on the hard trace (kernel) and the checker's own soft
// trace (check_soft.hpp), from the criteria's definitions.
#pragma once

#include "check_fields.hpp"

namespace tempcert::check {

// Whether the criterion holds on the whole word: True, False (`where` names
// the first failing place), or Unknown (`where` names an undecided place).
Tri judge_word(const Trace &hard, const Trace &soft, const Rational &eps,
               const std::string &criterion, Prec prec, std::string &where);

// A place a counterexample names: a head's query (tv) or a read-out position.
struct Place {
    std::size_t layer = 0, head = 0, query = 0; // tv
    std::size_t position = 0;                   // output, decision
};

// Reads the counterexample's place (its keys depend on the criterion; its
// quantity must be the criterion) and checks that the place exists.
Place read_place(const OJson &cx, const std::string &path, const std::string &criterion,
                 const Trace &hard);

// The claimed hard read-out (output and decision) equals the exact one.
void check_hard_value(const OJson &cx, const std::string &path, const Trace &hard,
                      const Place &place, const std::string &criterion);

// Whether the criterion holds at the place (False: it certainly fails).
// Rejects a claimed value that the checker's enclosure shows false; below
// the precision cap (`at_cap` false) a violation whose enclosure the claimed
// value does not yet contain answers Unknown, so that the precision rises
// until the claim is shown or refuted (a claim that still meets the
// enclosure at the cap stands).
Tri judge_place(const OJson &cx, const std::string &path, const Trace &hard, const Trace &soft,
                const Rational &eps, const std::string &criterion, const Place &place, Prec prec,
                std::string &where, bool at_cap);

} // namespace tempcert::check
