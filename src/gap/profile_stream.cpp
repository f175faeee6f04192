// See profile_stream.hpp.
#include "profile_stream.hpp"
#include "tempcert/dinterval.hpp"

#include <algorithm>

namespace tempcert {

namespace {

// Visiting more distinct positions than this without a decision gives up:
// the exact path then costs what it always did, plus at most this much.
constexpr std::size_t kMostVisited = 64;

// Sort keys: mpq_get_d truncates toward zero, which is monotone, so a
// smaller key means a smaller value and only equal keys compare exactly.
double key(const Rational &q) {
    return mpq_get_d(q.backend().data());
}

} // namespace

StreamedProfile::StreamedProfile(std::vector<std::vector<const Rational *>> offers)
    : offers_(std::move(offers)), seen_(offers_.size(), 0) {
    struct Keyed {
        double key;
        const Rational *value;
        std::size_t position;
    };
    std::vector<Keyed> all, least; // keys computed once, not per comparison
    for (std::size_t s = 0; s < offers_.size(); ++s) {
        for (const Rational *v : offers_[s])
            all.push_back({key(*v), v, s});
        if (!offers_[s].empty()) least.push_back({key(*offers_[s].front()), offers_[s].front(), s});
    }
    std::sort(all.begin(), all.end(), [](const Keyed &a, const Keyed &b) {
        return a.key != b.key ? a.key > b.key : *a.value > *b.value;
    });
    std::sort(least.begin(), least.end(), [](const Keyed &a, const Keyed &b) {
        return a.key != b.key ? a.key < b.key : *a.value < *b.value;
    });
    for (const Keyed &o : all)
        desc_.push_back({o.value, o.position});
    for (const Keyed &o : least)
        least_.push_back(o.value);
}

bool StreamedProfile::certainly_at_most(const Rational &top, const Rational &beta,
                                        const Rational &eps) {
    if (beta <= 0) return false;
    // positions whose least offer is top must hold it: the maximising set
    const auto forced =
        std::equal_range(least_.begin(), least_.end(), &top,
                         [](const Rational *a, const Rational *b) { return *a < *b; });
    const std::size_t k = static_cast<std::size_t>(forced.second - forced.first);
    // first offer below top; the holders of top just before it
    const auto below = std::partition_point(desc_.begin(), desc_.end(),
                                            [&top](const auto &o) { return *o.first >= top; });
    std::size_t p = offers_.size(); // none
    if (k == 0) {                   // one holder keeps the maximum: the largest gap
        const Rational *p_pred = nullptr;
        for (auto it = below; it != desc_.begin() && *(it - 1)->first == top; --it) {
            const std::size_t s = (it - 1)->second;
            const Rational *pred = nullptr;
            for (const Rational *v : offers_[s])
                if (*v < top) pred = v; // ascending: the last is the largest below
            if (pred && (!p_pred || *pred < *p_pred || (*pred == *p_pred && s < p))) {
                p = s;
                p_pred = pred;
            }
        }
        if (!p_pred) return false;
    }
    const std::size_t outside = offers_.size() - k - (k == 0 ? 1 : 0);
    if (outside == 0) return false;
    const Rational c = Rational(static_cast<long>(k == 0 ? 1 : k)) * eps / (1 - eps);
    const DInterval b = to_dinterval(beta), bound = to_dinterval(c);
    DInterval x = DInterval::point(0);
    std::size_t visited = 0;
    if (++mark_ == 0) { // wrapped: clear the marks once
        std::fill(seen_.begin(), seen_.end(), 0);
        mark_ = 1;
    }
    for (auto it = below; it != desc_.end() && visited < kMostVisited; ++it) {
        const std::size_t s = it->second;
        if (seen_[s] == mark_ || s == p) continue;
        seen_[s] = mark_; // its first offer below top is its largest: its gap
        // every term not yet added is at most this one (gaps increase)
        const DInterval term = exp(-(b * to_dinterval(top - *it->first)));
        const DInterval most = x + term * DInterval::point(static_cast<double>(outside - visited));
        if (less_equal(most, bound) == Tri::True) return true;
        x = x + term;
        ++visited;
        if (less_equal(x, bound) != Tri::True) return false; // the sum alone may exceed c
    }
    return false;
}

} // namespace tempcert
