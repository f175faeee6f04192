// The random models' seeds, moved for a hunt: TEMPCERT_HUNT_OFFSET=K makes
// random_model_json(s) and random_deep_model_json(s) the models of seed
// s + K, so the same property tests (engine against brute force, checker
// against engine, filter against MPFI) run on models no earlier run has
// seen (docs/testing.md, Hunting with other seeds). Unset, K is 0: the
// default tier's models. A failure names the model ("random-S" or "deep-S"
// with S the moved seed); rerun with the same K to see it again. Tests that
// pin a seed's value or count a sample against a threshold may fail under
// another K without a bug: a hunt reads the soundness assertions.
#pragma once

#include <cstdlib>

namespace tempcert::test {

inline unsigned hunt_seed(unsigned seed) {
    const char *k = std::getenv("TEMPCERT_HUNT_OFFSET");
    return seed + (k ? static_cast<unsigned>(std::strtoul(k, nullptr, 10)) : 0u);
}

} // namespace tempcert::test
