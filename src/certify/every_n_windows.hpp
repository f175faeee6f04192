// The supremum over every length for position-only scores invariant under
// translation (proofs/every-n.md, Theorem T): each query sees one fixed
// profile h(j - i) through a window of offsets, and the supremum over all
// windows is a convergent series (Lemmas T2, T3) or one of finitely many
// finite windows (Lemma T4).
#pragma once

#include "every_n_poly.hpp"
#include "tempcert/certify.hpp"
#include "tempcert/every_n.hpp"

#include <optional>
#include <string>
#include <vector>

namespace tempcert::every_n {

// One head's profile for one query symbol: the query at i scores the key
// at j with s(i, i) + h(j - i).
struct WindowProfile {
    std::size_t head = 0; // 0-based, layer 1
    int symbol = 0;       // the query symbol, an alphabet index
    Poly h;               // in d = j - i
    // two positions can carry different value vectors (then a window with
    // two maximisers is a tie no beta fixes: outside the scope)
    bool values_differ = false;
};

struct WindowPlan {
    std::vector<WindowProfile> profiles;
};

// The plan when the model is in Theorem T's scope; nullopt with `why`
// otherwise (the first condition it fails).
std::optional<WindowPlan> plan_windows(const Model &m, const CertifyOptions &o, std::string &why);

// sup_n tight(n) by Theorem T: the bracket to rel, the lower end refuted by
// a named word. Throws Undecided when a window has several maximisers
// whose values differ, or the maximiser lies past the search's reach.
EveryNResult tight_every_n_windows(const Model &m, const CertifyOptions &o, const Rational &rel,
                                   const WindowPlan &plan);

} // namespace tempcert::every_n
