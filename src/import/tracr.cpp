// Reading Tracr's transformer layout into a tempcert model; see
// tempcert/import.hpp and docs/import.md. Facts about the layout come from
// Tracr's public source (compiler/assemble.py, transformer/model.py,
// transformer/attention.py): residual connections around attention and
// MLP, ReLU, no layer norm, logits q.k / sqrt(key_size), head h owning
// columns hK..(h+1)K-1, position 0 holding BOS.
#include "../model/json_source.hpp"
#include "tempcert/error.hpp"
#include "tempcert/import.hpp"

#include <algorithm>
#include <set>

namespace tempcert {

namespace {

class TracrReader {
  public:
    TracrReader(const SafetensorsFile &f, const Limits &limits) : f_(f), lim_(limits) {}

    Model read() {
        Model m;
        m.source = f_.source;
        if (meta_text("format") != "tracr")
            fail("__metadata__.format", "expected \"tracr\" (a file from tools/export_tracr.py)");
        refuse_unknown_metadata();
        // before decoding anything: the file's weights bound the model's
        std::size_t weights = 0;
        for (const auto &[name, t] : f_.tensors)
            weights += t.elements();
        if (weights > lim_.max_entries)
            throw LimitError(f_.source + ": the file holds " + std::to_string(weights) +
                             " weights, more than the limit " + std::to_string(lim_.max_entries) +
                             " (--max-entries)");
        m.name = f_.metadata.count("name") ? f_.metadata.at("name") : "tracr-model";
        labels_ = string_list("residual_labels");
        d_ = labels_.size();
        if (d_ == 0 || d_ > lim_.max_width)
            fail("__metadata__.residual_labels",
                 "expected 1 to " + std::to_string(lim_.max_width) + " labels (--max-width)");
        m.width = d_;
        read_vocab(m);
        read_positions(m);
        layers_ = meta_count("num_layers", 0, lim_.max_layers, "--max-layers");
        heads_ = meta_count("num_heads", 1, lim_.max_heads, "--max-heads");
        key_ = meta_count("key_size", 1, lim_.max_width, "--max-width");
        causal_ = meta_bool("causal");
        for (std::size_t l = 0; l < layers_; ++l)
            read_layer(m, l);
        read_output(m);
        refuse_unread_tensors();
        m.beta_native = Expr::parse("1/sqrt(" + std::to_string(key_) + ")");
        return m;
    }

  private:
    const SafetensorsFile &f_;
    const Limits &lim_;
    std::vector<std::string> labels_;
    std::size_t d_ = 0, layers_ = 0, heads_ = 0, key_ = 0;
    bool causal_ = false;
    mutable std::set<std::string> read_; // the tensors read so far

    [[noreturn]] void fail(const std::string &place, const std::string &what) const {
        throw InputError(f_.source, place, what);
    }

    const std::string &meta_text(const std::string &key) const {
        auto it = f_.metadata.find(key);
        if (it == f_.metadata.end())
            fail("__metadata__", "missing the key \"" + key + "\" (docs/import.md lists them)");
        return it->second;
    }
    OJson meta_json(const std::string &key) const {
        const std::string &text = meta_text(key);
        try {
            return parse_json_strict(text, f_.source + " (__metadata__." + key + ")");
        } catch (const InputError &e) {
            fail("__metadata__." + key, std::string("expected JSON: ") + e.message());
        }
    }
    // An integer from lo to hi, where hi is the limit `option` sets: beyond
    // it, exit 3 naming the option, as the model loader does.
    std::size_t meta_count(const std::string &key, std::size_t lo, std::size_t hi,
                           const char *option) const {
        auto v = json_integer(meta_json(key));
        if (!v || *v < lo)
            fail("__metadata__." + key,
                 "expected an integer from " + std::to_string(lo) + " to " + std::to_string(hi));
        if (*v > hi)
            throw LimitError(InputError(f_.source, "__metadata__." + key,
                                        v->str() + " is more than the limit " + std::to_string(hi) +
                                            " (" + option + ")")
                                 .message());
        return static_cast<std::size_t>(*v);
    }

    // Every metadata key is one this reader knows (docs/import.md): a key it
    // would ignore may change what the file means.
    void refuse_unknown_metadata() const {
        static const std::set<std::string> known = {
            "format",      "name",       "residual_labels", "vocab",    "bos",    "pad",
            "max_seq_len", "num_layers", "num_heads",       "key_size", "causal", "output"};
        for (const auto &[key, value] : f_.metadata)
            if (!known.count(key))
                fail("__metadata__." + key, "unknown key (docs/import.md lists the keys)");
    }

    // A file is imported whole or not at all: a tensor the metadata does not
    // account for (a layer past num_layers, an unknown name) is refused, so
    // nothing in it, a NaN included, is silently dropped.
    void refuse_unread_tensors() const {
        for (const auto &[name, info] : f_.tensors)
            if (!read_.count(name))
                fail("tensor \"" + name + "\"",
                     "is not part of the model the metadata describes (num_layers = " +
                         std::to_string(layers_) + ", num_heads = " + std::to_string(heads_) +
                         "); refusing to import part of a file");
    }
    bool meta_bool(const std::string &key) const {
        const std::string &t = meta_text(key);
        if (t != "true" && t != "false") fail("__metadata__." + key, "expected true or false");
        return t == "true";
    }
    std::vector<std::string> string_list(const std::string &key) const {
        OJson v = meta_json(key);
        std::vector<std::string> out;
        if (!v.is_array()) fail("__metadata__." + key, "expected a JSON array of strings");
        for (const auto &x : v) {
            if (!x.is_string()) fail("__metadata__." + key, "expected a JSON array of strings");
            out.push_back(x.get<std::string>());
        }
        return out;
    }

    // The first dimension of a tensor as the file declares it (0 when absent
    // or a scalar); tensor() then checks the whole shape against it.
    std::size_t leading_dim(const std::string &name) const {
        auto it = f_.tensors.find(name);
        return it == f_.tensors.end() || it->second.shape.empty() ? 0 : it->second.shape[0];
    }

    // A tensor of exactly `shape`, as exact rationals in row-major order.
    std::vector<Rational> tensor(const std::string &name, std::vector<std::size_t> shape) const {
        auto it = f_.tensors.find(name);
        if (it == f_.tensors.end())
            fail("tensor \"" + name + "\"", "missing: the metadata implies this tensor");
        read_.insert(name);
        if (it->second.shape != shape) {
            auto show = [](const std::vector<std::size_t> &s) {
                std::string t = "[";
                for (std::size_t k = 0; k < s.size(); ++k)
                    t += (k ? " x " : "") + std::to_string(s[k]);
                return t + "]";
            };
            fail("tensor \"" + name + "\"",
                 "has shape " + show(it->second.shape) + ", expected " + show(shape));
        }
        return tensor_values(f_, name);
    }

    void read_vocab(Model &m) {
        OJson vocab = meta_json("vocab");
        if (!vocab.is_object()) fail("__metadata__.vocab", "expected an object token -> row");
        std::string bos = meta_text("bos");
        std::string pad = f_.metadata.count("pad") ? f_.metadata.at("pad") : "";
        if (!pad.empty() && pad == bos)
            fail("__metadata__.pad", "is the BOS token \"" + bos + "\"; expected another token");
        std::size_t rows = leading_dim("token_embed/embeddings");
        std::vector<Rational> e = tensor("token_embed/embeddings", {rows, d_});
        std::vector<std::pair<std::size_t, std::string>> order;
        for (auto it = vocab.begin(); it != vocab.end(); ++it) {
            auto row = json_integer(it.value());
            if (!row || *row < 0 || *row >= rows)
                fail("__metadata__.vocab." + it.key(),
                     "expected a row of token_embed (0 to " + std::to_string(rows) + " - 1)");
            std::size_t r = static_cast<std::size_t>(*row);
            m.embedding[it.key()] = Vector(e.begin() + r * d_, e.begin() + (r + 1) * d_);
            if (it.key() != bos && it.key() != pad) order.emplace_back(r, it.key());
        }
        if (!vocab.contains(bos)) fail("__metadata__.bos", "the BOS token is not in vocab");
        if (pad.size()) m.embedding.erase(pad);
        std::sort(order.begin(), order.end());
        for (const auto &[r, s] : order) {
            if (s.empty() || s.find_first_of(" \t\n\r,") != std::string::npos)
                fail("__metadata__.vocab",
                     "token \"" + s + "\" is not a tempcert symbol (no spaces or commas)");
            m.alphabet.push_back(s);
        }
        if (m.alphabet.empty()) fail("__metadata__.vocab", "no token besides BOS");
        m.bos = bos;
    }

    // Row p of pos_embed is added at position p (0 = BOS): each nonzero
    // entry becomes the feature value * delta(j - p), exactly.
    void read_positions(Model &m) {
        std::size_t len = meta_count("max_seq_len", 1, lim_.max_n, "--max-n");
        m.max_length = len;
        std::vector<Rational> p = tensor("pos_embed/embeddings", {len + 1, d_});
        for (std::size_t row = 0; row <= len; ++row) {
            if (row % 256 == 255) check_budget(lim_); // Ctrl-C, --time-limit
            for (std::size_t c = 0; c < d_; ++c) {
                const Rational &v = p[row * d_ + c];
                if (v == 0) continue;
                m.positions.push_back(PositionalFeature{
                    c, Expr::parse("(" + to_string(v) + ")*delta(j-" + std::to_string(row) + ")")});
            }
        }
    }

    static bool all_zero(const Matrix &a) {
        for (const auto &row : a)
            for (const auto &x : row)
                if (x != 0) return false;
        return true;
    }

    // Columns [c0, c0 + k) of a D x W row-major tensor, transposed: k x D.
    Matrix columns(const std::vector<Rational> &t, std::size_t width, std::size_t c0,
                   std::size_t k) const {
        Matrix out(k, Vector(d_));
        for (std::size_t r = 0; r < d_; ++r)
            for (std::size_t c = 0; c < k; ++c)
                out[c][r] = t[r * width + c0 + c];
        return out;
    }

    void require_zero(const std::string &name, std::size_t size) const {
        for (const auto &x : tensor(name, {size}))
            if (x != 0)
                fail("tensor \"" + name + "\"",
                     "has a nonzero entry: tempcert's attention has no biases (Tracr writes "
                     "none; fold a bias into a constant residual coordinate)");
    }

    void read_attention(Layer &layer, const std::string &p) {
        std::size_t hk = heads_ * key_;
        auto q = tensor(p + "query/w", {d_, hk}), k = tensor(p + "key/w", {d_, hk});
        auto v = tensor(p + "value/w", {d_, hk}), o = tensor(p + "linear/w", {hk, d_});
        for (const char *b : {"query/b", "key/b", "value/b"})
            require_zero(p + b, hk);
        require_zero(p + "linear/b", d_);
        for (std::size_t h = 0; h < heads_; ++h) {
            Head head;
            head.kind = AttnKind::Average;
            head.mask = causal_ ? Mask::Causal : Mask::None;
            head.query = columns(q, hk, h * key_, key_);
            head.key = columns(k, hk, h * key_, key_);
            head.value = columns(v, hk, h * key_, key_);
            head.output.assign(d_, Vector(key_));
            for (std::size_t r = 0; r < key_; ++r)
                for (std::size_t c = 0; c < d_; ++c)
                    head.output[c][r] = o[(h * key_ + r) * d_ + c];
            if (all_zero(head.value) || all_zero(head.output)) continue; // adds nothing
            layer.heads.push_back(std::move(head));
        }
    }

    void read_mlp(Layer &layer, const std::string &p) {
        std::size_t hidden = leading_dim(p + "linear_1/b");
        if (hidden > lim_.max_width)
            fail("tensor \"" + p + "linear_1/b\"", "more hidden units than --max-width");
        auto w1 = tensor(p + "linear_1/w", {d_, hidden}), b1 = tensor(p + "linear_1/b", {hidden});
        auto w2 = tensor(p + "linear_2/w", {hidden, d_}), b2 = tensor(p + "linear_2/b", {d_});
        Ffn f;
        f.w2.assign(d_, Vector());
        for (std::size_t u = 0; u < hidden; ++u) {
            Vector in(d_), out(d_);
            bool live = b1[u] != 0, used = false;
            for (std::size_t c = 0; c < d_; ++c) {
                in[c] = w1[c * hidden + u];
                out[c] = w2[u * d_ + c];
                live = live || in[c] != 0;
                used = used || out[c] != 0;
            }
            if (!live || !used) continue; // ReLU(0) = 0, or an unread unit
            f.w1.push_back(std::move(in));
            f.b1.push_back(b1[u]);
            for (std::size_t c = 0; c < d_; ++c)
                f.w2[c].push_back(out[c]);
        }
        f.b2 = Vector(b2.begin(), b2.end());
        bool bias = std::any_of(f.b2.begin(), f.b2.end(), [](const Rational &x) { return x != 0; });
        if (f.w1.empty() && !bias) return;
        layer.ffn = std::move(f);
    }

    void read_layer(Model &m, std::size_t l) {
        std::string p = "transformer/layer_" + std::to_string(l) + "/";
        Layer layer;
        read_attention(layer, p + "attn/");
        read_mlp(layer, p + "mlp/");
        if (!layer.heads.empty() || layer.ffn) m.layers.push_back(std::move(layer));
    }

    std::size_t coordinate(const std::string &label, const std::string &place) const {
        auto it = std::find(labels_.begin(), labels_.end(), label);
        if (it == labels_.end())
            fail(place, "no residual coordinate is labelled \"" + label + "\"");
        return static_cast<std::size_t>(it - labels_.begin());
    }

    void read_output(Model &m) {
        OJson o = meta_json("output");
        const std::string place = "__metadata__.output";
        if (!o.is_object() || !o.contains("kind") || !o["kind"].is_string())
            fail(place, "expected {\"kind\": \"numerical\" | \"categorical\", ...}");
        m.output.position = ReadPosition::All;
        std::string kind = o["kind"].get<std::string>();
        if (kind != "numerical" && kind != "categorical")
            fail(place + ".kind", "expected numerical or categorical");
        const std::set<std::string> fields = kind == "numerical"
                                                 ? std::set<std::string>{"kind", "label"}
                                                 : std::set<std::string>{"kind", "labels"};
        for (auto it = o.begin(); it != o.end(); ++it)
            if (!fields.count(it.key()))
                fail(place + "." + it.key(), "unknown field of a " + kind + " output");
        if (kind == "numerical") {
            if (!o.contains("label") || !o["label"].is_string())
                fail(place + ".label", "expected the label of the output coordinate");
            m.output.kind = ReadKind::Linear;
            m.output.weights.assign(d_, Rational(0));
            m.output.weights[coordinate(o["label"].get<std::string>(), place + ".label")] = 1;
            return;
        }
        if (!o.contains("labels") || !o["labels"].is_array() || o["labels"].size() < 2)
            fail(place + ".labels", "expected at least two coordinate labels");
        m.output.kind = ReadKind::Categorical;
        std::set<std::string> seen;
        for (const auto &x : o["labels"]) {
            if (!x.is_string()) fail(place + ".labels", "expected strings");
            std::string label = x.get<std::string>();
            std::size_t colon = label.find(':');
            std::string value = colon == std::string::npos ? label : label.substr(colon + 1);
            if (!seen.insert(value).second)
                fail(place + ".labels", "two classes decode to \"" + value + "\"");
            m.output.classes.push_back(OutputClass{coordinate(label, place + ".labels"), value});
        }
    }
};

} // namespace

Model import_tracr(const SafetensorsFile &f, const Limits &limits) {
    return TracrReader(f, limits).read();
}

} // namespace tempcert
