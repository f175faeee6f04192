// Every length at once for multi-layer models by layers (proofs/every-n.md,
// Theorem L).
#pragma once

#include "tempcert/certify.hpp"
#include "tempcert/every_n.hpp"

namespace tempcert::every_n {

// sup_n tight(n) by Theorem L: each layer's need over every length (its
// heads' virtual models' suprema), the lower end the whole model's tight
// bracket at o.n. Throws Undecided, with the reason, outside the scope: a
// layerwise precondition, a counting or uniform head, a virtual model
// out of version 1's and Theorem T's scope or with no constant bound.
EveryNResult tight_every_n_layers(const Model &m, const CertifyOptions &o, const Rational &rel);

// Every head's virtual model, one per BOS value, in layer and head order,
// as the layerwise argument builds them (what certify --every-n's tail
// covers by layers). Throws Undecided, with the reason, outside Theorem
// L's scope.
std::vector<Model> virtual_models(const Model &m, const CertifyOptions &o);

} // namespace tempcert::every_n
