// One first-layer query: see first_layer_query.hpp.
#include "first_layer_query.hpp"
#include "layer_ops.hpp"
#include "tempcert/real.hpp"

namespace tempcert::detail {

std::size_t first_heads_layer(const Model &m) {
    std::size_t l = 0;
    while (l < m.layers.size() && m.layers[l].heads.empty())
        ++l;
    return l;
}

FirstLayerQuery first_layer_query(const Model &m, const Word &w, std::size_t head_index,
                                  std::size_t query, Prec prec) {
    FirstLayerQuery q;
    q.layer = first_heads_layer(m);
    const Head &head = m.layers.at(q.layer).heads.at(head_index);
    const bool bos = m.has_bos();
    q.x = initial_activations(m, w, prec);
    // the layers before: no heads, so x + attention is x (as run_layers)
    for (std::size_t l = 0; l < q.layer; ++l)
        if (m.layers[l].ffn)
            for (auto &v : q.x)
                v = apply_ffn(*m.layers[l].ffn, v, prec);
    head_keys_values(head, q.x, prec, q.keys, q.values);
    q.query_index = index_of(query, bos);
    q.hard = hard_query(head, query, q.x[q.query_index], q.keys, q.values, w.size(), bos, m.width,
                        q.layer + 1, head_index + 1, prec);
    return q;
}

} // namespace tempcert::detail
