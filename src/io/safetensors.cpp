// The safetensors reader; see tempcert/safetensors.hpp. Our own code, small
// and fuzzed (fuzz/fuzz_safetensors.cpp): Debian has no library for it.
#include "tempcert/safetensors.hpp"
#include "../model/json_source.hpp"
#include "tempcert/error.hpp"

#include <algorithm>
#include <limits>

namespace tempcert {

namespace {

struct FloatLayout {
    int exponent_bits, mantissa_bits;
};

// IEEE-style binary formats: sign, biased exponent, fraction.
const std::map<std::string, FloatLayout> &float_layouts() {
    static const std::map<std::string, FloatLayout> m{
        {"F64", {11, 52}}, {"F32", {8, 23}}, {"F16", {5, 10}}, {"BF16", {8, 7}}};
    return m;
}

const std::map<std::string, std::size_t> &widths() {
    static const std::map<std::string, std::size_t> m{
        {"F64", 8}, {"F32", 4}, {"F16", 2}, {"BF16", 2}, {"I64", 8}, {"I32", 4}, {"I16", 2},
        {"I8", 1},  {"U64", 8}, {"U32", 4}, {"U16", 2},  {"U8", 1},  {"BOOL", 1}};
    return m;
}

std::uint64_t little_endian(const unsigned char *b, std::size_t width) {
    std::uint64_t v = 0;
    for (std::size_t k = width; k-- > 0;)
        v = (v << 8) | b[k];
    return v;
}

// m * 2^e exactly.
Rational dyadic(std::uint64_t m, long e) {
    Integer num(m);
    if (e >= 0) return Rational(num << static_cast<unsigned>(e));
    return Rational(num, Integer(1) << static_cast<unsigned>(-e));
}

Rational decode_float(FloatLayout L, std::uint64_t bits, const std::string &source,
                      const std::string &where) {
    const std::uint64_t mantissa = bits & ((std::uint64_t(1) << L.mantissa_bits) - 1);
    const std::uint64_t exponent =
        (bits >> L.mantissa_bits) & ((std::uint64_t(1) << L.exponent_bits) - 1);
    const bool negative = (bits >> (L.mantissa_bits + L.exponent_bits)) & 1;
    const long bias = (1L << (L.exponent_bits - 1)) - 1;
    if (exponent == (std::uint64_t(1) << L.exponent_bits) - 1)
        throw InputError(source, where,
                         mantissa ? "NaN: expected a finite number"
                                  : "an infinity: expected a finite number");
    Rational v = exponent == 0 ? dyadic(mantissa, 1 - bias - L.mantissa_bits) // subnormal or zero
                               : dyadic(mantissa | (std::uint64_t(1) << L.mantissa_bits),
                                        static_cast<long>(exponent) - bias - L.mantissa_bits);
    return negative ? Rational(-v) : v;
}

std::size_t checked_size(const OJson &v, const std::string &source, const std::string &where) {
    auto i = json_integer(v);
    if (!i || *i < 0 || *i > Integer(std::numeric_limits<std::size_t>::max() / 2))
        throw InputError(source, where,
                         "expected a non-negative integer, got " + json_type_name(v));
    return static_cast<std::size_t>(*i);
}

TensorInfo read_info(const OJson &v, const std::string &source, const std::string &where) {
    if (!v.is_object())
        throw InputError(source, where, "expected an object with dtype, shape and data_offsets");
    for (auto it = v.begin(); it != v.end(); ++it)
        if (it.key() != "dtype" && it.key() != "shape" && it.key() != "data_offsets")
            throw InputError(source, where + "." + it.key(),
                             "unknown field: expected only dtype, shape and data_offsets");
    for (const char *k : {"dtype", "shape", "data_offsets"})
        if (!v.contains(k)) throw InputError(source, where, std::string("missing field ") + k);
    TensorInfo t;
    if (!v["dtype"].is_string() || !dtype_width(v["dtype"].get<std::string>()))
        throw InputError(source, where + ".dtype",
                         "expected one of F64 F32 F16 BF16 I64 I32 I16 I8 U64 U32 U16 U8 BOOL");
    t.dtype = v["dtype"].get<std::string>();
    if (!v["shape"].is_array()) throw InputError(source, where + ".shape", "expected an array");
    for (std::size_t k = 0; k < v["shape"].size(); ++k)
        t.shape.push_back(
            checked_size(v["shape"][k], source, where + ".shape[" + std::to_string(k) + "]"));
    const OJson &off = v["data_offsets"];
    if (!off.is_array() || off.size() != 2)
        throw InputError(source, where + ".data_offsets", "expected [begin, end]");
    t.begin = checked_size(off[0], source, where + ".data_offsets[0]");
    t.end = checked_size(off[1], source, where + ".data_offsets[1]");
    return t;
}

// Element count x width must equal the byte range; products are checked.
void check_size(const TensorInfo &t, const std::string &source, const std::string &where) {
    std::size_t count = 1;
    for (std::size_t d : t.shape) {
        if (d != 0 && count > std::numeric_limits<std::size_t>::max() / d)
            throw InputError(source, where + ".shape", "element count overflows");
        count *= d;
    }
    std::size_t w = dtype_width(t.dtype);
    if (count > std::numeric_limits<std::size_t>::max() / w)
        throw InputError(source, where + ".shape", "byte size overflows");
    if (t.end < t.begin || t.end - t.begin != count * w)
        throw InputError(source, where + ".data_offsets",
                         "covers " + std::to_string(t.end - std::min(t.begin, t.end)) +
                             " bytes, expected " + std::to_string(count) + " elements x " +
                             std::to_string(w) + " bytes (" + t.dtype + ")");
}

void check_layout(const SafetensorsFile &f) {
    std::vector<std::pair<std::size_t, std::string>> order;
    for (const auto &[name, t] : f.tensors)
        order.emplace_back(t.begin, name);
    std::sort(order.begin(), order.end());
    std::size_t at = 0;
    for (const auto &[begin, name] : order) {
        const TensorInfo &t = f.tensors.at(name);
        std::string where = "tensor \"" + name + "\"";
        if (t.begin != at)
            throw InputError(f.source, where + ".data_offsets",
                             "begins at byte " + std::to_string(t.begin) + ", expected " +
                                 std::to_string(at) +
                                 " (tensors must be contiguous from 0, without overlap)");
        check_size(t, f.source, where);
        at = t.end;
    }
    if (at != f.data.size())
        throw InputError(f.source, "data",
                         "the tensors cover " + std::to_string(at) + " bytes of a " +
                             std::to_string(f.data.size()) + "-byte buffer: expected exactly");
}

// The row-major index of element k, as "[i, j]".
std::string index_text(const TensorInfo &t, std::size_t k) {
    std::vector<std::size_t> idx(t.shape.size());
    for (std::size_t d = t.shape.size(); d-- > 0;) {
        idx[d] = k % t.shape[d];
        k /= t.shape[d];
    }
    std::string s = "[";
    for (std::size_t d = 0; d < idx.size(); ++d)
        s += (d ? ", " : "") + std::to_string(idx[d]);
    return s + "]";
}

} // namespace

std::size_t TensorInfo::elements() const {
    std::size_t count = 1;
    for (std::size_t d : shape)
        count *= d;
    return count;
}

std::size_t dtype_width(const std::string &dtype) {
    auto it = widths().find(dtype);
    return it == widths().end() ? 0 : it->second;
}

Rational decode_element(const std::string &dtype, const unsigned char *bytes,
                        const std::string &source, const std::string &where) {
    std::size_t w = dtype_width(dtype);
    std::uint64_t bits = little_endian(bytes, w);
    auto fl = float_layouts().find(dtype);
    if (fl != float_layouts().end()) return decode_float(fl->second, bits, source, where);
    if (dtype == "BOOL") {
        if (bits > 1) throw InputError(source, where, "expected a BOOL byte 0 or 1");
        return Rational(static_cast<long>(bits));
    }
    if (dtype[0] == 'U') return Rational(Integer(bits));
    // Two's complement of width w.
    if (w < 8 && (bits >> (8 * w - 1))) return Rational(Integer(bits) - (Integer(1) << (8 * w)));
    if (w == 8 && (bits >> 63)) return Rational(Integer(bits) - (Integer(1) << 64));
    return Rational(Integer(bits));
}

SafetensorsFile parse_safetensors(std::string bytes, const std::string &source) {
    if (bytes.size() < 8)
        throw InputError(source, "header length",
                         "the file has " + std::to_string(bytes.size()) +
                             " bytes: expected an 8-byte header length first");
    std::uint64_t n = little_endian(reinterpret_cast<const unsigned char *>(bytes.data()), 8);
    if (n > kMaxSafetensorsHeader)
        throw InputError(source, "header length",
                         "the header claims " + std::to_string(n) +
                             " bytes: expected at most 100000000");
    if (n > bytes.size() - 8)
        throw InputError(source, "header length",
                         "the header claims " + std::to_string(n) + " bytes but only " +
                             std::to_string(bytes.size() - 8) + " follow");
    std::string header = bytes.substr(8, n);
    if (header.empty() || header[0] != '{')
        throw InputError(source, "header", "expected a JSON object starting with '{'");
    OJson doc = parse_json_strict(header, source + " (header)");
    if (!doc.is_object()) throw InputError(source, "header", "expected a JSON object");
    SafetensorsFile f;
    f.source = source;
    for (auto it = doc.begin(); it != doc.end(); ++it) {
        if (it.key() == "__metadata__") {
            if (!it.value().is_object())
                throw InputError(source, "__metadata__", "expected an object of strings");
            for (auto m = it.value().begin(); m != it.value().end(); ++m) {
                if (!m.value().is_string())
                    throw InputError(source, "__metadata__." + m.key(),
                                     "expected a string, got " + json_type_name(m.value()));
                f.metadata[m.key()] = m.value().get<std::string>();
            }
            continue;
        }
        f.tensors[it.key()] = read_info(it.value(), source, "tensor \"" + it.key() + "\"");
    }
    f.data = bytes.substr(8 + n);
    check_layout(f);
    return f;
}

SafetensorsFile read_safetensors(const std::string &path, const Limits &limits) {
    return parse_safetensors(read_text_file(path, limits.max_file_bytes, &limits), path);
}

std::vector<Rational> tensor_values(const SafetensorsFile &f, const std::string &name) {
    auto it = f.tensors.find(name);
    if (it == f.tensors.end())
        throw InputError(f.source, "tensor \"" + name + "\"", "missing: expected this tensor");
    const TensorInfo &t = it->second;
    std::size_t w = dtype_width(t.dtype), count = (t.end - t.begin) / w;
    std::vector<Rational> out;
    out.reserve(count);
    const auto *base = reinterpret_cast<const unsigned char *>(f.data.data()) + t.begin;
    for (std::size_t k = 0; k < count; ++k)
        out.push_back(decode_element(t.dtype, base + k * w, f.source,
                                     "tensor \"" + name + "\" element " + index_text(t, k)));
    return out;
}

} // namespace tempcert
