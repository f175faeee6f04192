// Loader for `tempcert-model/1` (docs/model-format.md): every field, type and shape is
// checked, and the first problem is reported with the file and JSON path.
// Unknown keys are errors (a misspelt "bais" must not silently mean 0).
#include "json_source.hpp"
#include "tempcert/error.hpp"
#include "tempcert/model.hpp"
#include "tempcert/printable.hpp"

#include <algorithm>
#include <cctype>
#include <set>

namespace tempcert {

const char *to_string(AttnKind k) {
    switch (k) {
    case AttnKind::Leftmost:
        return "leftmost";
    case AttnKind::Rightmost:
        return "rightmost";
    case AttnKind::Average:
        return "average";
    }
    return "?";
}
const char *to_string(Mask m) {
    switch (m) {
    case Mask::None:
        return "none";
    case Mask::Causal:
        return "causal";
    case Mask::Strict:
        return "strict";
    case Mask::Future:
        return "future";
    case Mask::StrictFuture:
        return "strict-future";
    }
    return "?";
}
const char *to_string(ReadPosition p) {
    switch (p) {
    case ReadPosition::Last:
        return "last";
    case ReadPosition::First:
        return "first";
    case ReadPosition::All:
        return "all";
    }
    return "?";
}

bool Model::is_rational() const {
    for (const auto &f : positions)
        if (!f.expr.is_rational_form()) return false;
    return true;
}
bool Model::features_use_n() const {
    for (const auto &f : positions)
        if (f.expr.uses_n()) return true;
    return false;
}

namespace {

class ModelReader {
  public:
    ModelReader(std::string file, const Limits &limits) : file_(std::move(file)), lim_(limits) {}

    Model read(const OJson &doc) {
        const std::string root = "$";
        expect_object(doc, root);
        allow_keys(doc, root,
                   {"format", "name", "description", "alphabet", "bos", "width", "embedding",
                    "positions", "layers", "output", "max_length", "beta_native"});
        Model m;
        m.source = file_;
        const OJson &format = need(doc, root, "format");
        if (!format.is_string() || format.get<std::string>() != "tempcert-model/1")
            fail("$.format", "expected \"tempcert-model/1\"");
        m.name = shown_text_field(doc, root, "name");
        if (doc.contains("description") && !doc["description"].is_string())
            fail("$.description", "expected a string");
        read_alphabet(doc, m);
        m.width = size_field(doc, root, "width", 1, lim_.max_width, "--max-width");
        read_embedding(doc, m);
        read_positions(doc, m);
        read_layers(doc, m);
        read_output(doc, m);
        read_native(doc, m);
        check_features(m);
        return m;
    }

  private:
    std::string file_;
    const Limits &lim_;
    std::size_t entries_ = 0;

    [[noreturn]] void fail(const std::string &path, const std::string &what) const {
        throw InputError(file_, path, what);
    }
    // A size past a limit is not malformed input: exit 3, naming the option.
    [[noreturn]] void over_limit(const std::string &path, const std::string &what) const {
        throw LimitError(InputError(file_, path, what).message());
    }
    static std::string key_path(const std::string &path, const std::string &key) {
        return path + "." + key;
    }
    static std::string index_path(const std::string &path, std::size_t i) {
        return path + "[" + std::to_string(i) + "]";
    }
    void expect_object(const OJson &v, const std::string &path) const {
        if (!v.is_object()) fail(path, "expected an object, got " + json_type_name(v));
    }
    void expect_array(const OJson &v, const std::string &path) const {
        if (!v.is_array()) fail(path, "expected an array, got " + json_type_name(v));
    }
    void allow_keys(const OJson &v, const std::string &path,
                    std::initializer_list<const char *> keys) const {
        for (auto it = v.begin(); it != v.end(); ++it) {
            bool known = false;
            for (const char *k : keys)
                known = known || it.key() == k;
            if (!known) {
                std::string list;
                for (const char *k : keys)
                    list += std::string(list.empty() ? "" : ", ") + k;
                fail(key_path(path, it.key()),
                     "unknown key \"" + it.key() + "\"; expected one of " + list);
            }
        }
    }
    const OJson &need(const OJson &v, const std::string &path, const char *key) const {
        if (!v.contains(key)) fail(key_path(path, key), "missing required field");
        return v[key];
    }
    std::string string_field(const OJson &v, const std::string &path, const char *key) const {
        const OJson &s = need(v, path, key);
        if (!s.is_string())
            fail(key_path(path, key), "expected a string, got " + json_type_name(s));
        return s.get<std::string>();
    }
    // A string printed to terminals and written into reports: refused when
    // it holds anything printable() would escape (docs/reliability.md, What reaches a terminal or a
    // report).
    std::string shown_text_field(const OJson &v, const std::string &path, const char *key) const {
        std::string s = string_field(v, path, key);
        if (!is_printable(s))
            fail(key_path(path, key),
                 "expected text without control characters, bidirectional controls or "
                 "non-characters, got \"" +
                     abbreviated(printable(s)) + "\"");
        return s;
    }
    std::size_t size_field(const OJson &v, const std::string &path, const char *key, std::size_t lo,
                           std::size_t hi, const char *option) const {
        const OJson &s = need(v, path, key);
        std::string p = key_path(path, key);
        if (is_big_integer(s)) {
            const auto &digits = s.get_binary();
            std::string text = abbreviated(std::string(digits.begin(), digits.end()));
            if (digits.front() == '-' || option == nullptr)
                fail(p, "expected an integer from " + std::to_string(lo) + " to " +
                            std::to_string(hi) + ", got " + text);
            over_limit(p, text + " is more than the limit " + std::to_string(hi) + " (" + option +
                              ")");
        }
        auto i = json_integer(s);
        if (!i) fail(p, "expected an integer, got " + json_type_name(s));
        if (*i < lo) fail(p, "expected an integer >= " + std::to_string(lo) + ", got " + i->str());
        if (*i > hi && option == nullptr)
            fail(p, "expected an integer <= " + std::to_string(hi) + ", got " + i->str());
        if (*i > hi)
            over_limit(p, i->str() + " is more than the limit " + std::to_string(hi) + " (" +
                              option + ")");
        return static_cast<std::size_t>(*i);
    }
    Rational number(const OJson &v, const std::string &path) const {
        return json_rational(v, file_, path, lim_.max_number_chars);
    }
    Vector vector(const OJson &v, const std::string &path, std::size_t size) {
        expect_array(v, path);
        if (v.size() != size)
            fail(path, "expected a vector of " + std::to_string(size) + " numbers, got " +
                           std::to_string(v.size()));
        count_entries(size, path);
        Vector out;
        out.reserve(size);
        for (std::size_t i = 0; i < size; ++i)
            out.push_back(number(v[i], index_path(path, i)));
        return out;
    }
    // rows == 0 means "any number of rows, at least one".
    Matrix matrix(const OJson &v, const std::string &path, std::size_t rows, std::size_t cols,
                  const char *shape) {
        expect_array(v, path);
        if (rows == 0 && v.empty())
            fail(path,
                 std::string("expected a ") + shape + " matrix with at least one row, got none");
        if (rows == 0 && v.size() > lim_.max_width)
            over_limit(path, "matrix has " + std::to_string(v.size()) +
                                 " rows, more than the limit " + std::to_string(lim_.max_width) +
                                 " (--max-width)");
        if (rows != 0 && v.size() != rows)
            fail(path, std::string("expected a ") + shape + " matrix of " + std::to_string(rows) +
                           " rows, got " + std::to_string(v.size()));
        Matrix out;
        out.reserve(v.size());
        for (std::size_t r = 0; r < v.size(); ++r) {
            std::string rp = index_path(path, r);
            if (!v[r].is_array())
                fail(rp, "expected a row (an array), got " + json_type_name(v[r]));
            if (v[r].size() != cols)
                fail(rp, std::string("expected a ") + shape + " matrix: row of " +
                             std::to_string(cols) + " numbers, got " + std::to_string(v[r].size()));
            out.push_back(vector(v[r], rp, cols));
        }
        return out;
    }
    void count_entries(std::size_t k, const std::string &path) {
        entries_ += k;
        if (entries_ > lim_.max_entries)
            over_limit(path, "the model has more than " + std::to_string(lim_.max_entries) +
                                 " matrix entries (--max-entries)");
    }

    // A symbol: non-empty, no commas, no control characters and no white
    // space, Unicode's included (no-break, ideographic and zero-width
    // spaces, line separators, the byte-order mark), which would make two
    // different symbols print alike (docs/model-format.md).
    static bool is_symbol(const std::string &s) {
        if (s.empty()) return false;
        static const char *const kUnicodeSpaces[] = {
            "\xC2\x85",     "\xC2\xA0",     "\xE1\x9A\x80", "\xE1\xA0\x8E", "\xE2\x80\x80",
            "\xE2\x80\x81", "\xE2\x80\x82", "\xE2\x80\x83", "\xE2\x80\x84", "\xE2\x80\x85",
            "\xE2\x80\x86", "\xE2\x80\x87", "\xE2\x80\x88", "\xE2\x80\x89", "\xE2\x80\x8A",
            "\xE2\x80\x8B", "\xE2\x80\x8C", "\xE2\x80\x8D", "\xE2\x80\xA8", "\xE2\x80\xA9",
            "\xE2\x80\xAF", "\xE2\x81\x9F", "\xE2\x81\xA0", "\xE3\x80\x80", "\xEF\xBB\xBF"};
        for (char c : s) {
            auto u = static_cast<unsigned char>(c);
            if (u < 0x20 || u == 0x7F || c == ' ' || c == ',') return false;
        }
        for (const char *space : kUnicodeSpaces)
            if (s.find(space) != std::string::npos) return false;
        return true;
    }

    void read_alphabet(const OJson &doc, Model &m) {
        const OJson &a = need(doc, "$", "alphabet");
        expect_array(a, "$.alphabet");
        if (a.empty()) fail("$.alphabet", "expected at least one symbol");
        if (a.size() > lim_.max_alphabet)
            over_limit("$.alphabet", "more than " + std::to_string(lim_.max_alphabet) +
                                         " symbols (--max-alphabet)");
        std::set<std::string> seen;
        for (std::size_t i = 0; i < a.size(); ++i) {
            std::string p = index_path("$.alphabet", i);
            if (!a[i].is_string())
                fail(p, "expected a symbol (a string), got " + json_type_name(a[i]));
            std::string s = a[i].get<std::string>();
            if (!is_symbol(s))
                fail(p, "a symbol must be non-empty, without white space (Unicode's too), control "
                        "characters or commas");
            if (!seen.insert(s).second) fail(p, "symbol \"" + s + "\" appears twice");
            m.alphabet.push_back(s);
        }
        const OJson &bos = need(doc, "$", "bos");
        if (bos.is_null()) return;
        if (!bos.is_string())
            fail("$.bos", "expected null or a symbol (a string), got " + json_type_name(bos));
        std::string b = bos.get<std::string>();
        if (!is_symbol(b))
            fail("$.bos", "a symbol must be non-empty, without white space (Unicode's too), "
                          "control characters or commas");
        if (seen.count(b)) fail("$.bos", "the BOS symbol \"" + b + "\" is also in the alphabet");
        m.bos = b;
    }

    void read_embedding(const OJson &doc, Model &m) {
        const OJson &e = need(doc, "$", "embedding");
        expect_object(e, "$.embedding");
        std::vector<std::string> wanted = m.alphabet;
        if (m.bos) wanted.push_back(*m.bos);
        for (const auto &s : wanted)
            if (!e.contains(s)) fail("$.embedding", "missing the vector of symbol \"" + s + "\"");
        for (auto it = e.begin(); it != e.end(); ++it) {
            std::string p = "$.embedding[\"" + it.key() + "\"]";
            if (std::find(wanted.begin(), wanted.end(), it.key()) == wanted.end())
                fail(p, "\"" + it.key() + "\" is neither in the alphabet nor the BOS symbol");
            m.embedding[it.key()] = vector(it.value(), p, m.width);
        }
    }

    void read_positions(const OJson &doc, Model &m) {
        if (!doc.contains("positions")) return;
        const OJson &ps = doc["positions"];
        expect_array(ps, "$.positions");
        for (std::size_t i = 0; i < ps.size(); ++i) {
            std::string p = index_path("$.positions", i);
            expect_object(ps[i], p);
            allow_keys(ps[i], p, {"dim", "expr"});
            PositionalFeature f;
            f.dim = size_field(ps[i], p, "dim", 0, m.width - 1, nullptr); // a coordinate
            const OJson &ex = need(ps[i], p, "expr");
            if (!ex.is_string())
                fail(p + ".expr", "expected an expression (a string), got " + json_type_name(ex));
            try {
                f.expr = Expr::parse(ex.get<std::string>());
            } catch (const ExprError &err) {
                fail(p + ".expr", "column " + std::to_string(err.column()) + ": " + err.what());
            }
            // a table of 10^5 features is held within --max-entries (an
            // expression node counts as one entry) and read within the
            // run's budget (Ctrl-C, --time-limit; docs/reliability.md, Long steps obey Ctrl-C)
            count_entries(f.expr.size(), p);
            if (i % 4096 == 4095) check_budget(lim_);
            m.positions.push_back(std::move(f));
        }
    }

    static bool parse_kind(const std::string &s, AttnKind &k) {
        if (s == "leftmost")
            k = AttnKind::Leftmost;
        else if (s == "rightmost")
            k = AttnKind::Rightmost;
        else if (s == "average")
            k = AttnKind::Average;
        else
            return false;
        return true;
    }
    static bool parse_mask(const std::string &s, Mask &mk) {
        if (s == "none")
            mk = Mask::None;
        else if (s == "causal")
            mk = Mask::Causal;
        else if (s == "strict")
            mk = Mask::Strict;
        else if (s == "future")
            mk = Mask::Future;
        else if (s == "strict-future")
            mk = Mask::StrictFuture;
        else
            return false;
        return true;
    }

    Head read_head(const OJson &h, const std::string &p, std::size_t d) {
        expect_object(h, p);
        allow_keys(h, p, {"kind", "mask", "query", "key", "value", "output"});
        Head head;
        std::string kind = string_field(h, p, "kind");
        if (!parse_kind(kind, head.kind))
            fail(p + ".kind",
                 "unknown kind \"" + kind + "\"; expected leftmost, rightmost or average");
        std::string mask = string_field(h, p, "mask");
        if (!parse_mask(mask, head.mask))
            fail(p + ".mask", "unknown mask \"" + mask +
                                  "\"; expected none, causal, strict, future or strict-future");
        head.query = matrix(need(h, p, "query"), p + ".query", 0, d, "k x d");
        head.key = matrix(need(h, p, "key"), p + ".key", head.query.size(), d, "k x d (as query)");
        head.value = matrix(need(h, p, "value"), p + ".value", 0, d, "d_v x d");
        head.output = matrix(need(h, p, "output"), p + ".output", d, head.value.size(), "d x d_v");
        return head;
    }

    Ffn read_ffn(const OJson &f, const std::string &p, std::size_t d) {
        expect_object(f, p);
        allow_keys(f, p, {"w1", "b1", "w2", "b2"});
        Ffn ffn;
        ffn.w1 = matrix(need(f, p, "w1"), p + ".w1", 0, d, "h x d");
        std::size_t h = ffn.w1.size();
        ffn.b1 = f.contains("b1") ? vector(f["b1"], p + ".b1", h) : Vector(h, Rational(0));
        ffn.w2 = matrix(need(f, p, "w2"), p + ".w2", d, h, "d x h");
        ffn.b2 = f.contains("b2") ? vector(f["b2"], p + ".b2", d) : Vector(d, Rational(0));
        return ffn;
    }

    void read_layers(const OJson &doc, Model &m) {
        const OJson &ls = need(doc, "$", "layers");
        expect_array(ls, "$.layers");
        if (ls.size() > lim_.max_layers)
            over_limit("$.layers", std::to_string(ls.size()) + " layers, more than the limit " +
                                       std::to_string(lim_.max_layers) + " (--max-layers)");
        for (std::size_t l = 0; l < ls.size(); ++l) {
            std::string p = index_path("$.layers", l);
            expect_object(ls[l], p);
            allow_keys(ls[l], p, {"heads", "ffn"});
            Layer layer;
            const OJson &hs = need(ls[l], p, "heads");
            expect_array(hs, p + ".heads");
            if (hs.size() > lim_.max_heads)
                over_limit(p + ".heads", std::to_string(hs.size()) +
                                             " heads, more than the limit " +
                                             std::to_string(lim_.max_heads) + " (--max-heads)");
            for (std::size_t h = 0; h < hs.size(); ++h)
                layer.heads.push_back(read_head(hs[h], index_path(p + ".heads", h), m.width));
            const OJson &f = need(ls[l], p, "ffn");
            if (!f.is_null()) layer.ffn = read_ffn(f, p + ".ffn", m.width);
            if (layer.heads.empty() && !layer.ffn)
                fail(p, "a layer needs at least one head or a feed-forward sublayer");
            m.layers.push_back(std::move(layer));
        }
    }

    void read_native(const OJson &doc, Model &m) {
        if (doc.contains("max_length"))
            m.max_length = size_field(doc, "$", "max_length", 1, lim_.max_n, "--max-n");
        if (!doc.contains("beta_native")) return;
        const OJson &b = doc["beta_native"];
        if (!b.is_string())
            fail("$.beta_native",
                 "expected an expression in n (a string), got " + json_type_name(b));
        try {
            m.beta_native = Expr::parse(b.get<std::string>());
        } catch (const ExprError &err) {
            fail("$.beta_native", "column " + std::to_string(err.column()) + ": " + err.what());
        }
        if (m.beta_native->uses_j())
            fail("$.beta_native", "an inverse temperature may use n but not j");
        // like features, checked at a few n now; --beta native checks each n used
        for (long n = 1; n <= 3; ++n) {
            try {
                Real b = m.beta_native->eval(Rational(0), Rational(n), kPrecStart);
                if (is_positive(b, kPrecStart) == Tri::False)
                    fail("$.beta_native", "not positive at n = " + std::to_string(n));
            } catch (const ExprError &err) {
                fail("$.beta_native",
                     "column " + std::to_string(err.column()) + ": " + message_without_j(err));
            } catch (const Undecided &) {
            }
        }
    }

    void read_classes(const OJson &o, Model &m) {
        const OJson &cs = need(o, "$.output", "classes");
        expect_array(cs, "$.output.classes");
        if (cs.size() < 2) fail("$.output.classes", "expected at least two classes");
        std::set<std::string> labels;
        std::set<std::size_t> dims;
        for (std::size_t i = 0; i < cs.size(); ++i) {
            std::string p = index_path("$.output.classes", i);
            expect_object(cs[i], p);
            allow_keys(cs[i], p, {"dim", "label"});
            OutputClass c;
            c.dim = size_field(cs[i], p, "dim", 0, m.width - 1, nullptr);
            c.label = shown_text_field(cs[i], p, "label");
            if (!labels.insert(c.label).second)
                fail(p + ".label", "label \"" + c.label + "\" appears twice");
            if (!dims.insert(c.dim).second) fail(p + ".dim", "coordinate read by two classes");
            m.output.classes.push_back(std::move(c));
        }
    }

    void read_output(const OJson &doc, Model &m) {
        const OJson &o = need(doc, "$", "output");
        expect_object(o, "$.output");
        allow_keys(o, "$.output", {"position", "kind", "weights", "bias", "classes"});
        std::string pos = o.contains("position") ? string_field(o, "$.output", "position") : "last";
        if (pos == "last")
            m.output.position = ReadPosition::Last;
        else if (pos == "first")
            m.output.position = ReadPosition::First;
        else if (pos == "all")
            m.output.position = ReadPosition::All;
        else
            fail("$.output.position",
                 "expected \"last\", \"first\" or \"all\", got \"" + pos + "\"");
        std::string kind = o.contains("kind") ? string_field(o, "$.output", "kind") : "linear";
        if (kind == "categorical") {
            m.output.kind = ReadKind::Categorical;
            if (o.contains("weights") || o.contains("bias"))
                fail("$.output", "a categorical read-out has classes, not weights or bias");
            read_classes(o, m);
            return;
        }
        if (kind != "linear")
            fail("$.output.kind", "expected \"linear\" or \"categorical\", got \"" + kind + "\"");
        if (o.contains("classes"))
            fail("$.output.classes", "only a categorical read-out has classes");
        m.output.weights = vector(need(o, "$.output", "weights"), "$.output.weights", m.width);
        m.output.bias = o.contains("bias") ? number(o["bias"], "$.output.bias") : Rational(0);
    }

    // Features are evaluated at a few small (j, n) now, so that a domain
    // error that every input meets (log(j) at the BOS position, 1/(j-1) at
    // j = 1) is reported by the loader; evaluation reports the rest.
    void check_features(const Model &m) {
        for (std::size_t i = 0; i < m.positions.size(); ++i) {
            const auto &f = m.positions[i];
            for (long n = 1; n <= 3; ++n)
                for (long j = m.has_bos() ? 0 : 1; j <= n; ++j) {
                    try {
                        (void)f.expr.eval(Rational(j), Rational(n), kPrecStart);
                    } catch (const ExprError &err) {
                        fail(index_path("$.positions", i) + ".expr",
                             "column " + std::to_string(err.column()) + ": " + err.what());
                    } catch (const Undecided &) {
                        // decided later at higher precision, or reported then
                    }
                }
        }
    }
};

} // namespace

void check_length(const Model &m, std::size_t n) {
    if (m.max_length && n > *m.max_length)
        throw InputError(m.source, "$.max_length",
                         "the model is defined for inputs up to length " +
                             std::to_string(*m.max_length) + ", not " + std::to_string(n));
}

std::vector<std::size_t> Readout::coordinates() const {
    std::vector<std::size_t> out;
    if (kind == ReadKind::Categorical) {
        for (const auto &c : classes)
            out.push_back(c.dim);
        std::sort(out.begin(), out.end());
        return out;
    }
    for (std::size_t c = 0; c < weights.size(); ++c)
        if (weights[c] != 0) out.push_back(c);
    return out;
}

Model load_model_text(const std::string &text, const std::string &name_for_errors,
                      const Limits &limits) {
    OJson doc = parse_json_strict(text, name_for_errors, &limits);
    return ModelReader(name_for_errors, limits).read(doc);
}

Model load_model_file(const std::string &path, const Limits &limits) {
    return load_model_text(read_text_file(path, limits.max_file_bytes, &limits), path, limits);
}

} // namespace tempcert
