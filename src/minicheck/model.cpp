// Reading a model and its canonical hash; see model.hpp. Only what the
// evaluation relies on is checked here (shapes, ranges, known keys); the
// hash then binds the rest: a file this reader understood differently from
// the writer's would hash differently and its certificate would be refused.
#include "model.hpp"

#include <openssl/evp.h>

#include <algorithm>
#include <cstdio>
#include <set>

namespace minicheck {
namespace {
constexpr std::size_t kMaxEntries = 4000000;

class Reader {
  public:
    Model read(const Json &doc) {
        only_keys(doc, "$",
                  {"format", "name", "description", "alphabet", "bos", "width", "embedding",
                   "positions", "layers", "output", "max_length", "beta_native"});
        if (text_at(doc, "$", "format") != "tempcert-model/1")
            malformed("$.format", "expected \"tempcert-model/1\"");
        Model m;
        m.name = text_at(doc, "$", "name");
        if (doc.contains("description") && !doc["description"].is_string())
            malformed("$.description", "expected a string");
        read_alphabet(doc, m);
        m.width = count_at(doc, "$", "width");
        if (m.width < 1 || m.width > 100000) unsupported("$.width", "expected 1 to 100000");
        read_embedding(doc, m);
        read_features(doc, m);
        const Json &layers = at(doc, "$", "layers");
        require_array(layers, "$.layers");
        for (std::size_t l = 0; l < layers.size(); ++l)
            m.layers.push_back(layer(layers[l], "$.layers[" + std::to_string(l) + "]", m.width));
        read_output(at(doc, "$", "output"), m);
        if (doc.contains("max_length")) {
            m.max_length = count_at(doc, "$", "max_length");
            if (*m.max_length < 1) malformed("$.max_length", "expected at least 1");
        }
        if (doc.contains("beta_native")) {
            const Json &b = doc["beta_native"];
            if (!b.is_string()) malformed("$.beta_native", "expected an expression in n");
            m.beta_native = Expr::parse(b.get<std::string>(), "$.beta_native");
        }
        return m;
    }

  private:
    std::size_t entries_ = 0;

    Vec vec(const Json &v, const std::string &path, std::size_t size) {
        require_array(v, path);
        if (v.size() != size) malformed(path, "expected " + std::to_string(size) + " numbers");
        if ((entries_ += size) > kMaxEntries)
            unsupported(path, "more than " + std::to_string(kMaxEntries) + " numbers in the model");
        Vec out;
        for (std::size_t i = 0; i < size; ++i)
            out.push_back(number_at(v[i], path + "[" + std::to_string(i) + "]"));
        return out;
    }
    // rows x cols; rows == 0: any number of rows, at least one
    Mat mat(const Json &v, const std::string &path, std::size_t rows, std::size_t cols) {
        require_array(v, path);
        if (rows == 0 && (v.empty() || v.size() > 100000))
            malformed(path, "expected 1 to 100000 rows");
        if (rows != 0 && v.size() != rows)
            malformed(path, "expected " + std::to_string(rows) + " rows");
        Mat out;
        for (std::size_t r = 0; r < v.size(); ++r)
            out.push_back(vec(v[r], path + "[" + std::to_string(r) + "]", cols));
        return out;
    }

    // Symbols are written into words run together or separated by commas
    // (docs/model-format.md): one with a comma, a space or a control
    // character would make a word's spelling ambiguous.
    static bool is_symbol(const std::string &s) {
        return !s.empty() && std::none_of(s.begin(), s.end(), [](char c) {
            return static_cast<unsigned char>(c) <= 0x20 || c == ',' || c == 0x7f;
        });
    }

    static void read_alphabet(const Json &doc, Model &m) {
        const Json &a = at(doc, "$", "alphabet");
        require_array(a, "$.alphabet");
        if (a.empty() || a.size() > 100000) malformed("$.alphabet", "expected 1 to 100000 symbols");
        std::set<std::string> seen;
        for (std::size_t i = 0; i < a.size(); ++i) {
            std::string p = "$.alphabet[" + std::to_string(i) + "]";
            if (!a[i].is_string() || !is_symbol(a[i].get<std::string>()))
                malformed(p,
                          "expected a symbol: text without commas, spaces or control characters");
            if (!seen.insert(a[i].get<std::string>()).second) malformed(p, "a symbol twice");
            m.alphabet.push_back(a[i].get<std::string>());
        }
        const Json &bos = at(doc, "$", "bos");
        if (bos.is_null()) return;
        if (!bos.is_string() || !is_symbol(bos.get<std::string>()) ||
            seen.count(bos.get<std::string>()))
            malformed("$.bos", "expected null or a symbol outside the alphabet");
        m.bos = bos.get<std::string>();
    }

    void read_embedding(const Json &doc, Model &m) {
        const Json &e = at(doc, "$", "embedding");
        std::vector<std::string> symbols = m.alphabet;
        if (m.bos) symbols.push_back(*m.bos);
        require_object(e, "$.embedding");
        if (e.size() != symbols.size())
            malformed("$.embedding", "expected one vector per symbol (and BOS), no other");
        for (const auto &s : symbols)
            m.embedding.push_back(
                vec(at(e, "$.embedding", s.c_str()), "$.embedding." + s, m.width));
    }

    void read_features(const Json &doc, Model &m) {
        if (!doc.contains("positions")) return;
        const Json &ps = doc["positions"];
        require_array(ps, "$.positions");
        for (std::size_t i = 0; i < ps.size(); ++i) {
            std::string p = "$.positions[" + std::to_string(i) + "]";
            only_keys(ps[i], p, {"dim", "expr"});
            std::size_t dim = count_at(ps[i], p, "dim");
            if (dim >= m.width) malformed(p + ".dim", "expected a coordinate below the width");
            const Json &e = at(ps[i], p, "expr");
            if (!e.is_string()) malformed(p + ".expr", "expected an expression");
            m.features.push_back(
                Feature{dim, Expr::parse(e.get<std::string>(), p + ".expr"), p + ".expr"});
            if (m.features.back().expr.uses(Expr::Op::Log))
                unsupported(p + ".expr", "log makes the model irrational; this checker "
                                         "verifies rational models and sqrt of rationals");
        }
    }

    static Kind kind_of(const std::string &s, const std::string &path) {
        if (s == "leftmost") return Kind::Leftmost;
        if (s == "rightmost") return Kind::Rightmost;
        if (s == "average") return Kind::Average;
        malformed(path, "expected leftmost, rightmost or average");
    }
    static Mask mask_of(const std::string &s, const std::string &path) {
        if (s == "none") return Mask::None;
        if (s == "causal") return Mask::Causal;
        if (s == "strict") return Mask::Strict;
        if (s == "future") return Mask::Future;
        if (s == "strict-future") return Mask::StrictFuture;
        malformed(path, "expected none, causal, strict, future or strict-future");
    }

    Layer layer(const Json &v, const std::string &p, std::size_t d) {
        only_keys(v, p, {"heads", "ffn"});
        Layer out;
        const Json &hs = at(v, p, "heads");
        require_array(hs, p + ".heads");
        for (std::size_t i = 0; i < hs.size(); ++i) {
            std::string hp = p + ".heads[" + std::to_string(i) + "]";
            only_keys(hs[i], hp, {"kind", "mask", "query", "key", "value", "output"});
            Head h;
            h.kind_text = text_at(hs[i], hp, "kind");
            h.mask_text = text_at(hs[i], hp, "mask");
            h.kind = kind_of(h.kind_text, hp + ".kind");
            h.mask = mask_of(h.mask_text, hp + ".mask");
            h.query = mat(at(hs[i], hp, "query"), hp + ".query", 0, d);
            h.key = mat(at(hs[i], hp, "key"), hp + ".key", h.query.size(), d);
            h.value = mat(at(hs[i], hp, "value"), hp + ".value", 0, d);
            h.output = mat(at(hs[i], hp, "output"), hp + ".output", d, h.value.size());
            out.heads.push_back(std::move(h));
        }
        const Json &f = at(v, p, "ffn");
        if (!f.is_null()) {
            only_keys(f, p + ".ffn", {"w1", "b1", "w2", "b2"});
            Ffn ffn;
            ffn.w1 = mat(at(f, p + ".ffn", "w1"), p + ".ffn.w1", 0, d);
            std::size_t h = ffn.w1.size();
            ffn.b1 = f.contains("b1") ? vec(f["b1"], p + ".ffn.b1", h) : Vec(h, 0);
            ffn.w2 = mat(at(f, p + ".ffn", "w2"), p + ".ffn.w2", d, h);
            ffn.b2 = f.contains("b2") ? vec(f["b2"], p + ".ffn.b2", d) : Vec(d, 0);
            out.ffn = std::move(ffn);
        }
        if (out.heads.empty() && !out.ffn) malformed(p, "a layer needs a head or an ffn");
        return out;
    }

    void read_output(const Json &o, Model &m) {
        only_keys(o, "$.output", {"position", "kind", "weights", "bias", "classes"});
        if (o.contains("position")) m.position = text_at(o, "$.output", "position");
        if (m.position != "last" && m.position != "first" && m.position != "all")
            malformed("$.output.position", "expected last, first or all");
        std::string kind = o.contains("kind") ? text_at(o, "$.output", "kind") : "linear";
        m.categorical = kind == "categorical";
        if (kind != "linear" && !m.categorical)
            malformed("$.output.kind", "expected linear or categorical");
        if (!m.categorical) {
            if (o.contains("classes")) malformed("$.output.classes", "only for categorical");
            m.weights = vec(at(o, "$.output", "weights"), "$.output.weights", m.width);
            m.bias = o.contains("bias") ? number_at(o["bias"], "$.output.bias") : Q(0);
            return;
        }
        if (o.contains("weights") || o.contains("bias"))
            malformed("$.output", "a categorical read-out has classes, not weights or bias");
        const Json &cs = at(o, "$.output", "classes");
        require_array(cs, "$.output.classes");
        if (cs.size() < 2) malformed("$.output.classes", "expected at least two classes");
        std::set<std::size_t> dims;
        std::set<std::string> labels;
        for (std::size_t i = 0; i < cs.size(); ++i) {
            std::string p = "$.output.classes[" + std::to_string(i) + "]";
            only_keys(cs[i], p, {"dim", "label"});
            std::size_t dim = count_at(cs[i], p, "dim");
            std::string label = text_at(cs[i], p, "label");
            if (dim >= m.width || !dims.insert(dim).second || !labels.insert(label).second)
                malformed(p, "expected a coordinate and a label of its own");
            m.classes.emplace_back(dim, label);
        }
    }
};

Json vec_json(const Vec &v) {
    Json a = Json::array();
    for (const auto &x : v)
        a.push_back(to_text(x));
    return a;
}
Json mat_json(const Mat &m) {
    Json a = Json::array();
    for (const auto &row : m)
        a.push_back(vec_json(row));
    return a;
}

// The canonical form (docs/model-format.md, "Canonical form and hash"): fixed
// key order, numbers as reduced "p/q", expressions fully parenthesised.
std::string canonical(const Model &m) {
    Json doc;
    doc["format"] = "tempcert-model/1";
    doc["name"] = m.name;
    doc["alphabet"] = m.alphabet;
    doc["bos"] = m.bos ? Json(*m.bos) : Json(nullptr);
    doc["width"] = m.width;
    Json emb = Json::object();
    for (std::size_t s = 0; s < m.embedding.size(); ++s)
        emb[s < m.alphabet.size() ? m.alphabet[s] : *m.bos] = vec_json(m.embedding[s]);
    doc["embedding"] = emb;
    Json pos = Json::array();
    for (const auto &f : m.features)
        pos.push_back({{"dim", f.dim}, {"expr", f.expr.render()}});
    doc["positions"] = pos;
    Json layers = Json::array();
    for (const auto &layer : m.layers) {
        Json heads = Json::array();
        for (const auto &h : layer.heads)
            heads.push_back({{"kind", h.kind_text},
                             {"mask", h.mask_text},
                             {"query", mat_json(h.query)},
                             {"key", mat_json(h.key)},
                             {"value", mat_json(h.value)},
                             {"output", mat_json(h.output)}});
        Json ffn = nullptr;
        if (layer.ffn)
            ffn = {{"w1", mat_json(layer.ffn->w1)},
                   {"b1", vec_json(layer.ffn->b1)},
                   {"w2", mat_json(layer.ffn->w2)},
                   {"b2", vec_json(layer.ffn->b2)}};
        layers.push_back({{"heads", heads}, {"ffn", ffn}});
    }
    doc["layers"] = layers;
    if (!m.categorical) {
        doc["output"] = {
            {"position", m.position}, {"weights", vec_json(m.weights)}, {"bias", to_text(m.bias)}};
    } else {
        Json classes = Json::array();
        for (const auto &c : m.classes)
            classes.push_back({{"dim", c.first}, {"label", c.second}});
        doc["output"] = {{"position", m.position}, {"kind", "categorical"}, {"classes", classes}};
    }
    if (m.max_length) doc["max_length"] = *m.max_length;
    if (m.beta_native) doc["beta_native"] = m.beta_native->render();
    return doc.dump();
}

std::string sha256(const std::string &bytes) {
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    if (EVP_Digest(bytes.data(), bytes.size(), digest, &length, EVP_sha256(), nullptr) != 1)
        unsupported("$", "SHA-256 failed");
    std::string hex;
    char buf[3];
    for (unsigned int i = 0; i < length; ++i) {
        std::snprintf(buf, sizeof buf, "%02x", digest[i]);
        hex += buf;
    }
    return hex;
}
} // namespace

Model load_model(const std::string &text) {
    Model m = Reader().read(parse_strict(text));
    m.sha256 = sha256(canonical(m));
    return m;
}

bool mask_allows(Mask m, std::size_t query, std::size_t key) {
    switch (m) {
    case Mask::None:
        return true;
    case Mask::Causal:
        return key <= query;
    case Mask::Strict:
        return key < query;
    case Mask::Future:
        return key >= query;
    case Mask::StrictFuture:
        return key > query;
    }
    return false;
}
} // namespace minicheck
