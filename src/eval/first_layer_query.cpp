// One first-layer query: see first_layer_query.hpp.
#include "first_layer_query.hpp"
#include "layer_ops.hpp"
#include "tempcert/real.hpp"

namespace tempcert::detail {

FirstLayerQuery first_layer_query(const Model &m, const Word &w, std::size_t head_index,
                                  std::size_t query, Prec prec) {
    const Head &head = m.layers[0].heads[head_index];
    const bool bos = m.has_bos();
    FirstLayerQuery q;
    q.x = initial_activations(m, w, prec);
    head_keys_values(head, q.x, prec, q.keys, q.values);
    q.query_index = index_of(query, bos);
    q.hard = hard_query(head, query, q.x[q.query_index], q.keys, q.values, w.size(), bos, m.width,
                        1, head_index + 1, prec);
    return q;
}

} // namespace tempcert::detail
