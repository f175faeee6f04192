// Importing models from the layouts other tools emit (docs/import.md).
#pragma once

#include "tempcert/model.hpp"
#include "tempcert/safetensors.hpp"

namespace tempcert {

// A Tracr model exported by tools/export_tracr.py (docs/import.md): the
// tensors token_embed/embeddings, pos_embed/embeddings and, per layer l,
// transformer/layer_{l}/attn/{query,key,value,linear}/{w,b} and
// transformer/layer_{l}/mlp/{linear_1,linear_2}/{w,b}; the __metadata__
// keys format, vocab, bos, max_seq_len, num_layers, num_heads, key_size,
// causal, residual_labels and output. The result is exact: every float is
// the dyadic rational it denotes. The hard model is average-hard attention
// on Tracr's scores q.k; beta_native is 1/sqrt(key_size) (Tracr divides
// the logits by sqrt(key_size)). Heads and hidden units that contribute
// nothing (zero value or output weights, zero first-layer rows) are left
// out; the model computes the same function. Throws InputError naming the
// file and the tensor or metadata key.
Model import_tracr(const SafetensorsFile &f, const Limits &limits);

} // namespace tempcert
