// certify_word_streamed (src/certify/certify_streamed.cpp) against
// certify_word, which judges the word's full traces: the same verdict,
// precision and violation (quantity, place, value, text) on random one- and
// multi-layer models, words and betas, under every criterion, on one thread
// and on three.
#include "helpers.hpp"
#include "random_deep_model.hpp"
#include "random_model.hpp"
#include "tempcert/certify.hpp"

#include <doctest/doctest.h>

#include <random>

using namespace tempcert;
using namespace tempcert::test;

TEST_CASE("certify_word_streamed: certify_word's verdict and violation without the traces") {
    std::mt19937 rng(5);
    const char *betas[] = {"1", "3", "10", "40"};
    const Criterion criteria[] = {Criterion::Tv, Criterion::Output, Criterion::Decision};
    int counts[3] = {0, 0, 0}; // False, True, Unknown
    const unsigned seeds = reduced() ? 12 : 40;
    for (unsigned seed = 1; seed <= seeds; ++seed) {
        CAPTURE(seed);
        Model m = load_model_text(seed % 2 ? random_deep_model_json(seed) : random_model_json(seed),
                                  "random", Limits{});
        for (int trial = 0; trial < 4; ++trial) {
            CAPTURE(trial);
            // every fourth word longer than the pass's 64 blocks, on 3 threads
            const bool long_word = trial == 3;
            const std::size_t n =
                long_word ? 65 + seed % 20 : std::uniform_int_distribution<std::size_t>(1, 12)(rng);
            Word w(n);
            for (auto &c : w)
                c = static_cast<int>(
                    std::uniform_int_distribution<std::size_t>(0, m.alphabet.size() - 1)(rng));
            CertifyOptions o;
            o.n = n;
            o.eps = Rational(1, trial % 2 ? 10 : 100);
            o.criterion = criteria[(seed + trial) % 3];
            Run run;
            run.threads = long_word ? 3 : 1;
            o.limits.run = &run;
            const BetaSpec beta = BetaSpec::parse(betas[(seed + trial) % 4], m.layers.size());
            Violation a, b;
            Prec used_a = 0, used_b = 0;
            const Tri want = certify_word(m, w, beta, o, a, used_a);
            const Tri got = certify_word_streamed(m, w, beta, o, b, used_b);
            REQUIRE(got == want);
            CHECK(used_b == used_a);
            ++counts[want == Tri::False ? 0 : want == Tri::True ? 1 : 2];
            if (want == Tri::True) continue;
            CHECK(b.word == a.word);
            CHECK(b.quantity == a.quantity);
            CHECK(b.layer == a.layer);
            CHECK(b.head == a.head);
            CHECK(b.query == a.query);
            CHECK(to_string(b.value) == to_string(a.value));
            CHECK(b.detail == a.detail);
        }
    }
    MESSAGE("refuted " << counts[0] << ", certified " << counts[1] << ", undecided " << counts[2]);
    CHECK(counts[0] >= static_cast<int>(seeds / 2));
    CHECK(counts[1] >= static_cast<int>(seeds / 2));
}
