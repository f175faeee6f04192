// Word enumeration in the fixed order every command uses, so that witnesses
// (the first word attaining a minimum) are the same whichever command or
// method found them.
#include "tempcert/enumerate.hpp"
#include "tempcert/error.hpp"

#include <limits>

namespace tempcert {

std::uint64_t count_words(std::size_t k, std::size_t n) {
    const std::uint64_t cap = std::numeric_limits<std::uint64_t>::max();
    std::uint64_t total = 0, layer = 1;
    for (std::size_t len = 1; len <= n; ++len) {
        if (layer > cap / k) return cap;
        layer *= k;
        if (total > cap - layer) return cap;
        total += layer;
    }
    return total;
}

void check_word_budget(std::size_t k, std::size_t n, std::uint64_t max_words) {
    std::uint64_t c = count_words(k, n);
    if (c > max_words)
        throw LimitError(
            "enumerating every word of length 1.." + std::to_string(n) + " over " +
            std::to_string(k) + " symbols visits " +
            (c == std::numeric_limits<std::uint64_t>::max() ? std::string("more than 2^64")
                                                            : std::to_string(c)) +
            " words, more than the limit " + std::to_string(max_words) + " (--max-words)");
}

void for_each_word(std::size_t k, std::size_t n, const std::function<bool(const Word &)> &visit) {
    for (std::size_t len = 1; len <= n; ++len) {
        Word w(len, 0);
        for (;;) {
            if (!visit(w)) return;
            std::size_t i = len;
            while (i > 0 && static_cast<std::size_t>(w[i - 1]) + 1 == k)
                w[--i] = 0;
            if (i == 0) break;
            ++w[i - 1];
        }
    }
}

} // namespace tempcert
