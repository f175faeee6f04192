// Prefix-sharing evaluator; see prefix_eval.hpp for when it is exact.
#include "prefix_eval.hpp"
#include "attention_ops.hpp"
#include "layer_ops.hpp"
#include "tempcert/error.hpp"
#include "tempcert/mask.hpp"

namespace tempcert::detail {

bool PrefixEvaluator::applies(const Model &m) {
    if (m.features_use_n() || !m.is_rational()) return false;
    for (const auto &layer : m.layers)
        for (const auto &h : layer.heads)
            if (!looks_backward(h.mask)) return false;
    return true;
}

PrefixEvaluator::PrefixEvaluator(const Model &m, Prec prec, std::optional<std::vector<Real>> beta,
                                 bool filter)
    : m_(m), prec_(prec), beta_(std::move(beta)), bos_(m.has_bos()), filter_(filter && beta_) {
    if (filter_) {
        for (std::size_t l = 0; l < m.layers.size(); ++l) {
            dheads_.emplace_back();
            for (const auto &h : m.layers[l].heads)
                dheads_.back().push_back(DHead{to_dmatrix(h.query), to_dmatrix(h.key),
                                               to_dmatrix(h.value), to_dmatrix(h.output)});
            const auto &f = m.layers[l].ffn;
            dffn_.push_back(f ? std::optional<DFfn>(DFfn{to_dmatrix(f->w1), to_dmatrix(f->w2),
                                                         to_dvector(f->b1), to_dvector(f->b2)})
                              : std::nullopt);
            dbeta_.push_back(enclose_d((*beta_)[l], prec));
            dkeys_.emplace_back(m.layers[l].heads.size());
            dvalues_.emplace_back(m.layers[l].heads.size());
        }
        if (m.output.kind == ReadKind::Linear) dread_ = to_dvector(m.output.weights);
        dbias_ = to_dinterval(m.output.bias);
    }
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
    check_length(m, position);
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
    const RealVector x0 = filter_ ? x : RealVector{};
    const bool mpfi_soft = beta_ && !filter_;
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
            if (mpfi_soft) {
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
            if (mpfi_soft) half_s = apply_ffn(*layer.ffn, half_s, prec_);
        }
        x = std::move(half);
        xs = std::move(half_s);
    }
    hard_out_.clear();
    soft_out_.clear();
    bool read = position > 0 && (m_.output.position != ReadPosition::First || position == 1);
    if (read) {
        hard_out_.push_back(read_output(m_, x, position, prec_));
        if (mpfi_soft) soft_out_.push_back(read_output(m_, xs, position, prec_));
    }
    if (filter_) append_filtered(x0);
}

// The soft model at the newest position in double intervals: the same
// forward pass as above, with the hard query of each head giving the
// support the tv criterion compares with.
void PrefixEvaluator::append_filtered(const RealVector &x0) {
    tv_d_.clear();
    out_d_.clear();
    DVector x = to_dvector(x0, prec_);
    std::size_t flat = 0;
    for (std::size_t l = 0; l < m_.layers.size(); ++l) {
        const Layer &layer = m_.layers[l];
        DVector half = x;
        for (std::size_t h = 0; h < layer.heads.size(); ++h, ++flat) {
            const DHead &dh = dheads_[l][h];
            auto &keys = dkeys_[l][h];
            auto &values = dvalues_[l][h];
            keys.push_back(matvec(dh.key, x));
            values.push_back(matvec(dh.value, x));
            const QueryTrace &hq = hard_new_[flat];
            if (hq.allowed.empty()) {
                tv_d_.push_back(std::nullopt);
                continue;
            }
            DVector q = matvec(dh.query, x);
            DVector s;
            s.reserve(hq.allowed.size());
            for (std::size_t j : hq.allowed)
                s.push_back(dot(q, keys[index_of(j, bos_)]));
            DSoftmax sm = softmax_filter(s, dbeta_[l]);
            RealVector compare = compared_weights(layer.heads[h].kind, hq);
            std::vector<char> support(compare.size());
            for (std::size_t a = 0; a < compare.size(); ++a)
                support[a] = !compare[a].is_zero();
            tv_d_.push_back(tv_filter(support, sm));
            DVector mix(dh.value.size(), DInterval::point(0));
            for (std::size_t a = 0; a < hq.allowed.size(); ++a) {
                const DVector &v = values[index_of(hq.allowed[a], bos_)];
                for (std::size_t c = 0; c < mix.size(); ++c)
                    mix[c] = add_exact_zero(mix[c], sm.weights[a] * v[c]);
            }
            DVector out = matvec(dh.output, mix);
            for (std::size_t c = 0; c < half.size(); ++c)
                half[c] = add_exact_zero(half[c], out[c]);
        }
        if (dffn_[l]) half = apply_ffn(*dffn_[l], half);
        x = std::move(half);
    }
    // categorical read-outs have no filter: certify_prefix sends them to MPFI
    if (!hard_out_.empty() && m_.output.kind == ReadKind::Linear)
        out_d_.push_back(add_exact_zero(dot(dread_, x), dbias_));
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
    for (auto *d : {&dkeys_, &dvalues_})
        for (auto &layer : *d)
            for (auto &head : layer)
                if (!head.empty()) head.pop_back();
    --n_;
}

} // namespace tempcert::detail
