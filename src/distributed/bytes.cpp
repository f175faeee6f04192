// A task's result as bytes: see bytes.hpp.
#include "bytes.hpp"

#include <cstring>
#include <stdexcept>

namespace tempcert::detail {

void ByteWriter::number(std::uint64_t v) {
    for (int i = 0; i < 8; ++i)
        out_.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

void ByteWriter::text(std::string_view s) {
    number(s.size());
    out_.append(s);
}

// Symbols as base-128 varints: one byte each below 128.
void ByteWriter::word(const std::vector<int> &w) {
    number(w.size());
    for (int s : w)
        for (auto v = static_cast<std::uint32_t>(s);; v >>= 7) {
            out_.push_back(static_cast<char>((v & 0x7f) | (v >= 0x80 ? 0x80 : 0)));
            if (v < 0x80) break;
        }
}

void ByteWriter::real64(double d) {
    std::uint64_t bits = 0;
    std::memcpy(&bits, &d, sizeof bits);
    number(bits);
}

void ByteWriter::rational(const Rational &q) {
    text(to_string(q));
}

void ByteWriter::numbers(const std::vector<std::size_t> &v) {
    number(v.size());
    for (std::size_t x : v)
        number(x);
}

void ByteWriter::maybe_number(const std::optional<std::size_t> &v) {
    number(v ? 1 : 0);
    if (v) number(*v);
}

std::string_view ByteReader::take(std::size_t bytes) {
    if (bytes > in_.size() - at_) throw std::runtime_error("a task's result ends early");
    std::string_view s = in_.substr(at_, bytes);
    at_ += bytes;
    return s;
}

std::uint64_t ByteReader::number() {
    std::string_view s = take(8);
    std::uint64_t v = 0;
    for (int i = 7; i >= 0; --i)
        v = (v << 8) | static_cast<unsigned char>(s[static_cast<std::size_t>(i)]);
    return v;
}

std::string ByteReader::text() {
    return std::string(take(number()));
}

std::vector<int> ByteReader::word() {
    std::uint64_t size = number();
    if (size > in_.size() - at_) throw std::runtime_error("a task's result ends early");
    std::vector<int> w(size);
    for (auto &s : w) {
        std::uint32_t v = 0;
        for (int shift = 0;; shift += 7) {
            auto byte = static_cast<unsigned char>(take(1)[0]);
            if (shift > 28) throw std::runtime_error("a task's result holds a bad symbol");
            v |= static_cast<std::uint32_t>(byte & 0x7f) << shift;
            if (!(byte & 0x80)) break;
        }
        s = static_cast<int>(v);
    }
    return w;
}

double ByteReader::real64() {
    std::uint64_t bits = number();
    double d = 0;
    std::memcpy(&d, &bits, sizeof d);
    return d;
}

std::vector<std::size_t> ByteReader::numbers() {
    std::uint64_t size = number();
    if (size > (in_.size() - at_) / 8) throw std::runtime_error("a task's result ends early");
    std::vector<std::size_t> v(size);
    for (std::size_t &x : v)
        x = number();
    return v;
}

std::optional<std::size_t> ByteReader::maybe_number() {
    if (!number()) return std::nullopt;
    return number();
}

Rational ByteReader::rational() {
    std::string digits = text(), why;
    auto q = parse_rational(digits, why, digits.size() + 1);
    if (!q)
        throw std::runtime_error("a task's result holds no rational where one was written: " + why);
    return *q;
}

} // namespace tempcert::detail
