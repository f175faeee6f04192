// Attention masks: which key positions a query may attend to, in one place.
// Positions are numbered 1..n, with 0 the BOS position
// when the model has one; the mask's rule applies to it like to the others
// (a causal query sees BOS, a strict-future one never does, and the BOS
// query under a future mask sees every position).
#pragma once

#include "tempcert/model.hpp"

#include <cstddef>
#include <vector>

namespace tempcert {

// Whether query position i may attend to key position j (0: BOS).
bool mask_allows(Mask mask, std::size_t i, std::size_t j);

// The allowed key positions of query i in a word of length n, increasing,
// from 0 when the model has BOS, else from 1.
std::vector<std::size_t> allowed_positions(Mask mask, std::size_t i, std::size_t n, bool bos);

// Keys before the query only (causal, strict): a position's values depend
// only on the symbols up to it, whatever follows.
bool looks_backward(Mask mask);
// The mask allows some key before the query, after it, or the query itself.
bool sees_before(Mask mask);
bool sees_after(Mask mask);
bool includes_self(Mask mask);
// Some query has no allowed key (the strict masks: the first query of a
// strict mask, BOS's included, and the last of a strict-future one).
bool can_be_empty(Mask mask);

// N: the most allowed positions of any query over lengths 1..n.
std::size_t max_allowed(Mask mask, std::size_t n, bool bos);

} // namespace tempcert
