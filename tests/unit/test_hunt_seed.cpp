// TEMPCERT_HUNT_OFFSET moves every random model's seed (hunt_seed.hpp):
// a hunt that believed it ran new models while it ran the old ones would
// report nothing found for nothing searched.
#include "random_deep_model.hpp"
#include "random_model.hpp"

#include <doctest/doctest.h>

#include <cstdlib>
#include <optional>
#include <string>

namespace {

// Sets TEMPCERT_HUNT_OFFSET for one scope and puts back what was there (a
// hunt runs this file with an offset of its own).
class OffsetForScope {
  public:
    explicit OffsetForScope(const char *k) {
        if (const char *v = std::getenv("TEMPCERT_HUNT_OFFSET")) before_ = v;
        setenv("TEMPCERT_HUNT_OFFSET", k, 1);
    }
    ~OffsetForScope() {
        if (before_)
            setenv("TEMPCERT_HUNT_OFFSET", before_->c_str(), 1);
        else
            unsetenv("TEMPCERT_HUNT_OFFSET");
    }
    OffsetForScope(const OffsetForScope &) = delete;
    OffsetForScope &operator=(const OffsetForScope &) = delete;

  private:
    std::optional<std::string> before_;
};

} // namespace

TEST_CASE("TEMPCERT_HUNT_OFFSET=K gives seed s the model of seed s + K") {
    using tempcert::test::random_deep_model_json;
    using tempcert::test::random_model_json;
    std::string first7, deep7, first2, deep2;
    {
        OffsetForScope none("0");
        first7 = random_model_json(7);
        deep7 = random_deep_model_json(7);
        first2 = random_model_json(2);
        deep2 = random_deep_model_json(2);
    }
    CHECK(first7.find("\"random-7\"") != std::string::npos);
    CHECK(deep7.find("\"deep-7\"") != std::string::npos);
    CHECK(first2 != first7);
    CHECK(deep2 != deep7);
    OffsetForScope five("5");
    CHECK(random_model_json(2) == first7);
    CHECK(random_deep_model_json(2) == deep7);
}

TEST_CASE("a TEMPCERT_HUNT_OFFSET that is not a whole number fails the test, not reads as 0") {
    for (const char *bad : {"abc", "12x", "-5", "", " 7", "99999999999"}) {
        CAPTURE(bad);
        OffsetForScope offset(bad);
        CHECK_THROWS_AS(tempcert::test::random_model_json(1), std::invalid_argument);
        CHECK_THROWS_AS(tempcert::test::random_deep_model_json(1), std::invalid_argument);
    }
}
