// A task's result as bytes, for the ranks of an MPI job (ranks.hpp) to
// hand each other.
#pragma once

#include "tempcert/rational.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tempcert::detail {

// A task's result as bytes: whole numbers, texts, words and doubles, in an
// order the reader repeats. The reader throws std::runtime_error (an
// internal error) on bytes that end early or do not hold what is read.
class ByteWriter {
  public:
    void number(std::uint64_t v);
    void text(std::string_view s);
    void word(const std::vector<int> &w);
    void real64(double d);
    void rational(const Rational &q); // exactly, as its text
    void numbers(const std::vector<std::size_t> &v);
    void maybe_number(const std::optional<std::size_t> &v);
    std::string take() { return std::move(out_); }

  private:
    std::string out_;
};

class ByteReader {
  public:
    explicit ByteReader(std::string_view in) : in_(in) {}
    std::uint64_t number();
    std::string text();
    std::vector<int> word();
    double real64();
    Rational rational();
    std::vector<std::size_t> numbers();
    std::optional<std::size_t> maybe_number();
    bool done() const { return at_ == in_.size(); }

  private:
    std::string_view take(std::size_t bytes);
    std::string_view in_;
    std::size_t at_ = 0;
};

} // namespace tempcert::detail
