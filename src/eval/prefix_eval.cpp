// Prefix-sharing evaluator; see prefix_eval.hpp for when it is exact.
#include "prefix_eval.hpp"
#include "attention_ops.hpp"
#include "layer_ops.hpp"
#include "tempcert/error.hpp"

namespace tempcert::detail {

bool PrefixEvaluator::applies(const Model &m) {
    if (m.features_use_n() || !m.is_rational()) return false;
    for (const auto &layer : m.layers)
        for (const auto &h : layer.heads)
            if (h.mask != Mask::Causal && h.mask != Mask::Strict) return false;
    return true;
}

PrefixEvaluator::PrefixEvaluator(const Model &m, Prec prec, std::optional<std::vector<Real>> beta)
    : m_(m), prec_(prec), beta_(std::move(beta)), bos_(m.has_bos()) {
    for (State *s : {&hard_, &soft_}) {
        s->keys.resize(m.layers.size());
        s->values.resize(m.layers.size());
        for (std::size_t l = 0; l < m.layers.size(); ++l) {
            s->keys[l].resize(m.layers[l].heads.size());
            s->values[l].resize(m.layers[l].heads.size());
        }
    }
    if (bos_) append(m.embedding.at(*m.bos), 0); // BOS: the same in every word
}

namespace {

RealVector initial(const Model &m, const Vector &embedding, std::size_t position, Prec prec) {
    RealVector v(embedding.begin(), embedding.end());
    for (std::size_t k = 0; k < m.positions.size(); ++k) {
        const auto &f = m.positions[k];
        try {
            // features do not read n here (applies()), so any n will do
            v[f.dim] =
                add(v[f.dim], f.expr.eval(Rational(static_cast<long>(position)), Rational(1), prec),
                    prec);
        } catch (const ExprError &err) {
            throw InputError(m.source, "$.positions[" + std::to_string(k) + "].expr",
                             "column " + std::to_string(err.column()) + ": " + err.what());
        }
    }
    return v;
}

} // namespace

void PrefixEvaluator::append(const Vector &embedding, std::size_t position) {
    hard_new_.clear();
    soft_new_.clear();
    RealVector x = initial(m_, embedding, position, prec_);
    RealVector xs = x;
    std::size_t n = position; // the word's length once this position is in
    for (std::size_t l = 0; l < m_.layers.size(); ++l) {
        const Layer &layer = m_.layers[l];
        RealVector half = x, half_s = xs;
        for (std::size_t h = 0; h < layer.heads.size(); ++h) {
            const Head &head = layer.heads[h];
            hard_.keys[l][h].push_back(matvec(head.key, x, prec_));
            hard_.values[l][h].push_back(matvec(head.value, x, prec_));
            QueryTrace q = hard_query(head, position, x, hard_.keys[l][h], hard_.values[l][h], n,
                                      bos_, m_.width, l + 1, h + 1, prec_);
            half = add_vectors(half, q.output, prec_);
            if (beta_) {
                soft_.keys[l][h].push_back(matvec(head.key, xs, prec_));
                soft_.values[l][h].push_back(matvec(head.value, xs, prec_));
                QueryTrace sq = soft_query(head, q, xs, soft_.keys[l][h], soft_.values[l][h], bos_,
                                           m_.width, (*beta_)[l], prec_);
                half_s = add_vectors(half_s, sq.output, prec_);
                soft_new_.push_back(std::move(sq));
            }
            hard_new_.push_back(std::move(q));
        }
        if (layer.ffn) {
            half = apply_ffn(*layer.ffn, half, prec_);
            if (beta_) half_s = apply_ffn(*layer.ffn, half_s, prec_);
        }
        x = std::move(half);
        xs = std::move(half_s);
    }
    hard_out_.clear();
    soft_out_.clear();
    bool read = position > 0 && (m_.output.position != ReadPosition::First || position == 1);
    if (read) {
        auto readout = [&](const RealVector &v) {
            OutputValue o;
            o.position = position;
            o.y = add(dot(m_.output.weights, v, prec_), Real(m_.output.bias), prec_);
            o.accept = is_positive(o.y, prec_);
            return o;
        };
        hard_out_.push_back(readout(x));
        if (beta_) soft_out_.push_back(readout(xs));
    }
}

void PrefixEvaluator::push(int symbol) {
    ++n_;
    append(m_.embedding.at(m_.alphabet[static_cast<std::size_t>(symbol)]), n_);
}

void PrefixEvaluator::pop() {
    for (State *s : {&hard_, &soft_})
        for (auto &layer : s->keys)
            for (auto &head : layer)
                if (!head.empty()) head.pop_back();
    for (State *s : {&hard_, &soft_})
        for (auto &layer : s->values)
            for (auto &head : layer)
                if (!head.empty()) head.pop_back();
    --n_;
}

} // namespace tempcert::detail
