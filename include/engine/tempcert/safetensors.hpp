// Reading safetensors files exactly (docs/import.md). Layout: an 8-byte
// little-endian header length N, N bytes of JSON mapping each tensor name to
// {"dtype", "shape", "data_offsets": [begin, end]} (plus an optional
// "__metadata__" object of strings), then the data buffer. Every value is
// decoded to the exact rational it denotes: a float is a dyadic rational, so
// nothing is rounded. NaN and infinities are refused naming the tensor and
// the index. Validation follows the format's reference reader: header at
// most 100,000,000 bytes, offsets contiguous from 0 covering the buffer
// exactly, byte size = element count x dtype width, no duplicate names.
#pragma once

#include "tempcert/limits.hpp"
#include "tempcert/rational.hpp"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace tempcert {

struct TensorInfo {
    std::string dtype;              // F64 F32 F16 BF16 I8..I64 U8..U64 BOOL
    std::vector<std::size_t> shape; // empty for a scalar
    std::size_t begin = 0, end = 0; // byte offsets into the data buffer
    std::size_t elements() const;
};

struct SafetensorsFile {
    std::string source; // file name, for messages
    std::map<std::string, std::string> metadata;
    std::map<std::string, TensorInfo> tensors;
    std::string data; // the buffer after the header
};

constexpr std::size_t kMaxSafetensorsHeader = 100000000;

// Bytes per element of a supported dtype; 0 when the dtype is not supported.
std::size_t dtype_width(const std::string &dtype);

// Parses and validates a whole file held in memory. Throws InputError naming
// `source`, the tensor or header place, and what was expected.
SafetensorsFile parse_safetensors(std::string bytes, const std::string &source);
// Reads `path` (at most limits.max_file_bytes) and parses it.
SafetensorsFile read_safetensors(const std::string &path, const Limits &limits);

// The exact value of one element given its little-endian bytes; throws
// InputError naming `where` for NaN, infinities and BOOL bytes other than
// 0 and 1.
Rational decode_element(const std::string &dtype, const unsigned char *bytes,
                        const std::string &source, const std::string &where);

// All elements of tensor `name` in row-major order, exact. Throws
// InputError when the tensor is absent or an element is not finite.
std::vector<Rational> tensor_values(const SafetensorsFile &f, const std::string &name);

} // namespace tempcert
