// The random models' seeds, moved for a hunt: TEMPCERT_HUNT_OFFSET=K makes
// random_model_json(s) and random_deep_model_json(s) the models of seed
// s + K, so the same property tests (engine against brute force, checker
// against engine, filter against MPFI) run on models no earlier run has
// seen (docs/testing.md, Hunting with other seeds). Unset, K is 0: the
// default tier's models. A failure shows the loop's seed s; the model is
// seed s + K's (named "random-S" or "deep-S", S = s + K in its JSON); rerun
// with the same K to see it again. Tests that
// pin a seed's value or count a sample against a threshold may fail under
// another K without a bug: a hunt reads the soundness assertions.
#pragma once

#include <cerrno>
#include <cstdlib>
#include <stdexcept>
#include <string>

namespace tempcert::test {

// A value that is not a whole decimal number up to 2^31 throws, failing
// the test that asked: read as 0, it would rerun the default models under
// the name of a hunt.
inline unsigned hunt_seed(unsigned seed) {
    const char *k = std::getenv("TEMPCERT_HUNT_OFFSET");
    if (!k) return seed;
    char *end = nullptr;
    errno = 0;
    const unsigned long offset = std::strtoul(k, &end, 10);
    if (*k < '0' || *k > '9' || *end != '\0' || errno != 0 || offset > (1ul << 31))
        throw std::invalid_argument(std::string("TEMPCERT_HUNT_OFFSET: expected a whole number "
                                                "from 0 to 2^31, got \"") +
                                    k + "\"");
    return seed + static_cast<unsigned>(offset);
}

} // namespace tempcert::test
