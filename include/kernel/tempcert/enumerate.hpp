// Enumeration of all words of length 1..n in a fixed order (length, then
// lexicographic by alphabet index), and its size, checked before work.
#pragma once

#include "tempcert/word.hpp"

#include <cstdint>
#include <functional>

namespace tempcert {

// Number of words of length 1..n over k symbols, saturating at UINT64_MAX.
std::uint64_t count_words(std::size_t k, std::size_t n);

// Throws LimitError naming --max-words when count_words(k, n) > max_words.
void check_word_budget(std::size_t k, std::size_t n, std::uint64_t max_words);

// Calls visit(w) for every word of length 1..n in order; stops early when
// visit returns false.
void for_each_word(std::size_t k, std::size_t n, const std::function<bool(const Word &)> &visit);

} // namespace tempcert
