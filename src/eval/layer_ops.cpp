// Shared forward-pass pieces for hard and soft evaluation; see layer_ops.hpp.
#include "layer_ops.hpp"
#include "tempcert/error.hpp"

#include <algorithm>

namespace tempcert::detail {

RealVector initial_activation(const Model &m, const Vector &embedding, std::size_t j, std::size_t n,
                              Prec prec) {
    check_length(m, n);
    RealVector v(embedding.begin(), embedding.end());
    for (std::size_t k = 0; k < m.positions.size(); ++k) {
        const auto &f = m.positions[k];
        try {
            Real p =
                f.expr.eval(Rational(static_cast<long>(j)), Rational(static_cast<long>(n)), prec);
            v[f.dim] = add(v[f.dim], p, prec);
        } catch (const ExprError &err) {
            throw InputError(m.source, "$.positions[" + std::to_string(k) + "].expr",
                             "column " + std::to_string(err.column()) + ": " + err.what());
        }
    }
    return v;
}

std::vector<RealVector> initial_activations(const Model &m, const Word &w, Prec prec) {
    std::size_t n = w.size();
    std::vector<RealVector> x;
    x.reserve(n + 1);
    if (m.bos) x.push_back(initial_activation(m, m.embedding.at(*m.bos), 0, n, prec));
    for (std::size_t j = 1; j <= n; ++j)
        x.push_back(initial_activation(
            m, m.embedding.at(m.alphabet[static_cast<std::size_t>(w[j - 1])]), j, n, prec));
    return x;
}

RealVector scores(const RealVector &q, const std::vector<RealVector> &keys,
                  const std::vector<std::size_t> &allowed, bool bos, Prec prec) {
    RealVector s;
    s.reserve(allowed.size());
    for (std::size_t j : allowed) {
        const RealVector &k = keys[index_of(j, bos)];
        Real sum(0L);
        for (std::size_t c = 0; c < q.size(); ++c)
            if (!q[c].is_zero() && !k[c].is_zero()) sum = add(sum, mul(q[c], k[c], prec), prec);
        s.push_back(std::move(sum));
    }
    return s;
}

void head_keys_values(const Head &head, const std::vector<RealVector> &x, Prec prec,
                      std::vector<RealVector> &keys, std::vector<RealVector> &values) {
    keys.clear();
    values.clear();
    for (const auto &xt : x) {
        keys.push_back(matvec(head.key, xt, prec));
        values.push_back(matvec(head.value, xt, prec));
    }
}

RealVector head_output(const Head &h, const RealVector &weights,
                       const std::vector<RealVector> &values,
                       const std::vector<std::size_t> &allowed, bool bos, Prec prec) {
    RealVector mix(h.value.size(), Real(0L));
    for (std::size_t a = 0; a < allowed.size(); ++a) {
        if (weights[a].is_zero()) continue;
        const RealVector &v = values[index_of(allowed[a], bos)];
        for (std::size_t c = 0; c < mix.size(); ++c)
            mix[c] = add(mix[c], mul(weights[a], v[c], prec), prec);
    }
    return matvec(h.output, mix, prec);
}

RealVector add_vectors(const RealVector &a, const RealVector &b, Prec prec) {
    RealVector out;
    out.reserve(a.size());
    for (std::size_t c = 0; c < a.size(); ++c)
        out.push_back(add(a[c], b[c], prec));
    return out;
}

// On a box where every hidden unit keeps one phase (pre-activation certainly
// >= 0 or certainly <= 0) the sublayer is the affine map
//   x -> (I + W2 D W1) x + W2 D b1 + b2,   D = diag(active units),
// so it is evaluated through that composed exact matrix: an output whose row
// has zero coefficients on the interval coordinates stays exact (the
// rounding sublayers of docs/ltl.md map a perturbed Boolean back onto 0 or 1).
// This is the same function as the unit-by-unit evaluation on the box, with
// less dependency; when some phase is undecided the unit-by-unit interval
// evaluation is used instead. proofs/softmax-enclosure.md, "Feed-forward".
RealVector apply_ffn(const Ffn &f, const RealVector &x, Prec prec) {
    RealVector pre = matvec(f.w1, x, prec);
    bool exact_input = true;
    for (const auto &v : x)
        exact_input = exact_input && v.is_exact();
    std::vector<char> active(pre.size(), 0);
    bool stable = !exact_input;
    for (std::size_t k = 0; k < pre.size() && stable; ++k) {
        pre[k] = add(pre[k], Real(f.b1[k]), prec);
        if (less(pre[k], Real(0L), prec) == Tri::False)
            active[k] = 1; // certainly >= 0
        else if (less(Real(0L), pre[k], prec) == Tri::False)
            active[k] = 0; // certainly <= 0
        else
            stable = false;
    }
    if (stable) {
        RealVector out;
        out.reserve(x.size());
        for (std::size_t c = 0; c < x.size(); ++c) {
            Vector row(x.size(), Rational(0));
            row[c] = 1;
            Rational offset = f.b2[c];
            for (std::size_t k = 0; k < f.w1.size(); ++k) {
                if (!active[k] || f.w2[c][k] == 0) continue;
                offset += f.w2[c][k] * f.b1[k];
                for (std::size_t i = 0; i < x.size(); ++i)
                    row[i] += f.w2[c][k] * f.w1[k][i];
            }
            out.push_back(add(dot(row, x, prec), Real(offset), prec));
        }
        return out;
    }
    RealVector hidden = matvec(f.w1, x, prec);
    for (std::size_t k = 0; k < hidden.size(); ++k)
        hidden[k] = relu(add(hidden[k], Real(f.b1[k]), prec), prec);
    RealVector out = matvec(f.w2, hidden, prec);
    for (std::size_t c = 0; c < out.size(); ++c)
        out[c] = add(add(x[c], out[c], prec), Real(f.b2[c]), prec);
    return out;
}

std::vector<std::size_t> output_positions(const Model &m, std::size_t n) {
    switch (m.output.position) {
    case ReadPosition::Last:
        return {n};
    case ReadPosition::First:
        return {1};
    case ReadPosition::All:
        break;
    }
    std::vector<std::size_t> all;
    for (std::size_t p = 1; p <= n; ++p)
        all.push_back(p);
    return all;
}

namespace {

// The class whose value is certainly above every other's, if any; with
// exact values a tie at the top is decided as no label.
void decode_classes(OutputValue &o, Prec prec) {
    const RealVector &v = o.classes;
    for (std::size_t k = 0; k < v.size(); ++k) {
        bool above_all = true;
        for (std::size_t i = 0; i < v.size() && above_all; ++i)
            if (i != k && less(v[i], v[k], prec) != Tri::True) above_all = false;
        if (above_all) {
            o.label = k;
            return;
        }
    }
    o.decided = std::all_of(v.begin(), v.end(), [](const Real &r) { return r.is_exact(); });
}

} // namespace

OutputValue read_output(const Model &m, const RealVector &x, std::size_t position, Prec prec) {
    OutputValue o;
    o.position = position;
    if (m.output.kind == ReadKind::Categorical) {
        for (const auto &c : m.output.classes)
            o.classes.push_back(x[c.dim]);
        decode_classes(o, prec);
        o.decoded = !o.decided ? "undecided"
                    : o.label  ? m.output.classes[*o.label].label
                               : "no output";
        o.y = o.classes[0]; // the largest class value, which decision counterexamples cite
        for (std::size_t k = 1; k < o.classes.size(); ++k)
            o.y = max(o.y, o.classes[k], prec);
        return o;
    }
    o.y = add(dot(m.output.weights, x, prec), Real(m.output.bias), prec);
    o.accept = is_positive(o.y, prec);
    return o;
}

std::vector<OutputValue> readouts(const Model &m, const std::vector<RealVector> &x, std::size_t n,
                                  bool bos, Prec prec) {
    std::vector<OutputValue> out;
    for (std::size_t p : output_positions(m, n))
        out.push_back(read_output(m, x[index_of(p, bos)], p, prec));
    return out;
}

void run_layers(const Model &m, Trace &tr, std::vector<RealVector> x, Prec prec,
                const QueryFn &query) {
    tr.initial = x;
    for (std::size_t l = 0; l < m.layers.size(); ++l) {
        const Layer &layer = m.layers[l];
        LayerTrace lt;
        std::vector<RealVector> half = x;
        for (std::size_t h = 0; h < layer.heads.size(); ++h) {
            const Head &head = layer.heads[h];
            std::vector<RealVector> keys, values;
            head_keys_values(head, x, prec, keys, values);
            HeadTrace ht;
            for (std::size_t t = 0; t < x.size(); ++t) {
                QueryTrace q = query(l, h, t, x[t], keys, values);
                half[t] = add_vectors(half[t], q.output, prec);
                ht.queries.push_back(std::move(q));
            }
            lt.heads.push_back(std::move(ht));
        }
        lt.after_attention = half;
        if (layer.ffn)
            for (auto &v : half)
                v = apply_ffn(*layer.ffn, v, prec);
        lt.after_ffn = half;
        x = std::move(half);
        tr.layers.push_back(std::move(lt));
    }
    tr.outputs = readouts(m, x, tr.n, tr.bos, prec);
}

} // namespace tempcert::detail
