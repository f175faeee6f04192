// The safetensors reader: exact dyadic values for every float dtype
// (normal, subnormal, -0, the largest finite), integers, and refusal of
// malformed layouts and non-finite values with the tensor named.
#include "tempcert/error.hpp"
#include "tempcert/safetensors.hpp"

#include <doctest/doctest.h>

#include <cstring>

using namespace tempcert;

namespace {

std::string le(std::uint64_t v, std::size_t width) {
    std::string s;
    for (std::size_t k = 0; k < width; ++k)
        s.push_back(static_cast<char>((v >> (8 * k)) & 0xff));
    return s;
}

std::string file(const std::string &header, const std::string &data) {
    return le(header.size(), 8) + header + data;
}

Rational one(const char *dtype, std::uint64_t bits) {
    std::string b = le(bits, dtype_width(dtype));
    return decode_element(dtype, reinterpret_cast<const unsigned char *>(b.data()), "t", "x");
}

Rational pow2(long e) {
    return e >= 0 ? Rational(Integer(1) << e) : Rational(Integer(1), Integer(1) << -e);
}

std::string error_of(const std::string &bytes) {
    try {
        parse_safetensors(bytes, "m.safetensors");
    } catch (const InputError &e) {
        return e.message();
    }
    return "";
}

} // namespace

TEST_CASE("float32 0.1 is the dyadic rational it denotes") {
    float f = 0.1f;
    std::uint32_t bits;
    std::memcpy(&bits, &f, 4);
    // Python: Fraction(numpy.float32(0.1).item()) == 13421773/134217728
    CHECK(one("F32", bits) == Rational(13421773, 134217728));
}

TEST_CASE("every float dtype: zero, -0, subnormals, largest finite, one") {
    CHECK(one("F32", 0x80000000u) == 0);
    CHECK(one("F32", 0x00000001u) == pow2(-149));
    CHECK(one("F32", 0x3f800000u) == 1);
    CHECK(one("F32", 0x7f7fffffu) == Rational((Integer(1) << 24) - 1) * pow2(104));
    CHECK(one("F64", 0x0000000000000001ull) == pow2(-1074));
    CHECK(one("F64", 0x8000000000000000ull) == 0);
    CHECK(one("F64", 0x7fefffffffffffffull) == Rational((Integer(1) << 53) - 1) * pow2(971));
    CHECK(one("F64", 0xbff8000000000000ull) == Rational(-3, 2));
    CHECK(one("F16", 0x0001) == pow2(-24));
    CHECK(one("F16", 0x7bff) == 65504);
    CHECK(one("F16", 0x3555) == Rational(1365, 4096)); // nearest half to 1/3
    CHECK(one("F16", 0x8000) == 0);
    CHECK(one("BF16", 0x0001) == pow2(-133));
    CHECK(one("BF16", 0x7f7f) == Rational(255) * pow2(120));
    CHECK(one("BF16", 0xbf80) == -1);
}

TEST_CASE("integers and booleans") {
    CHECK(one("I8", 0xff) == -1);
    CHECK(one("I16", 0x8000) == -32768);
    CHECK(one("I64", 0x8000000000000000ull) == -Rational(Integer(1) << 63));
    CHECK(one("U64", 0xffffffffffffffffull) == Rational((Integer(1) << 64) - 1));
    CHECK(one("U8", 200) == 200);
    CHECK(one("BOOL", 1) == 1);
    CHECK_THROWS_AS(one("BOOL", 2), InputError);
}

TEST_CASE("NaN and infinities are refused naming the tensor and index") {
    CHECK_THROWS_AS(one("F32", 0x7fc00000u), InputError);
    CHECK_THROWS_AS(one("F16", 0xfc00), InputError);
    CHECK_THROWS_AS(one("BF16", 0x7f80), InputError);
    auto f = parse_safetensors(file(R"({"w":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}})",
                                    le(0x3f800000u, 4) + le(0x7f800000u, 4)),
                               "m.safetensors");
    try {
        tensor_values(f, "w");
        FAIL("expected an error");
    } catch (const InputError &e) {
        CHECK(e.message().find("m.safetensors") != std::string::npos);
        CHECK(e.message().find("\"w\" element [1]") != std::string::npos);
        CHECK(e.message().find("infinity") != std::string::npos);
    }
}

TEST_CASE("a well-formed file reads with its metadata and shapes") {
    std::string h = R"({"__metadata__":{"format":"tracr"},)"
                    R"("b":{"dtype":"F16","shape":[],"data_offsets":[8,10]},)"
                    R"("a":{"dtype":"F32","shape":[1,2],"data_offsets":[0,8]}})";
    auto f = parse_safetensors(file(h, le(0x3f000000u, 4) + le(0xc0000000u, 4) + le(0x3c00, 2)),
                               "m.safetensors");
    CHECK(f.metadata.at("format") == "tracr");
    CHECK(f.tensors.at("a").shape == std::vector<std::size_t>{1, 2});
    CHECK(tensor_values(f, "a") == std::vector<Rational>{Rational(1, 2), Rational(-2)});
    CHECK(tensor_values(f, "b") == std::vector<Rational>{Rational(1)});
}

TEST_CASE("malformed layouts are refused with the place named") {
    CHECK(error_of("abc").find("8-byte header length") != std::string::npos);
    CHECK(error_of(le(200000000, 8)).find("at most 100000000") != std::string::npos);
    CHECK(error_of(le(50, 8) + "{}").find("only 2 follow") != std::string::npos);
    CHECK(error_of(file("[1]", "")).find("JSON object") != std::string::npos);
    CHECK(error_of(file("{\"a\":", "")).find("header") != std::string::npos);
    // gap, overlap, size mismatch, buffer not covered, duplicate names
    CHECK(error_of(file(R"({"a":{"dtype":"U8","shape":[1],"data_offsets":[1,2]}})", "xx"))
              .find("expected 0") != std::string::npos);
    CHECK(error_of(file(R"({"a":{"dtype":"U8","shape":[2],"data_offsets":[0,2]},)"
                        R"("b":{"dtype":"U8","shape":[2],"data_offsets":[1,3]}})",
                        "xxx"))
              .find("without overlap") != std::string::npos);
    CHECK(error_of(file(R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,4]}})", "xxxx"))
              .find("expected 2 elements x 4 bytes") != std::string::npos);
    CHECK(error_of(file(R"({"a":{"dtype":"U8","shape":[1],"data_offsets":[0,1]}})", "xy"))
              .find("cover 1 bytes of a 2-byte buffer") != std::string::npos);
    CHECK(error_of(file(R"({"a":{"dtype":"U8","shape":[1],"data_offsets":[0,1]},)"
                        R"("a":{"dtype":"U8","shape":[1],"data_offsets":[1,2]}})",
                        "xy"))
              .find("duplicate") != std::string::npos);
    CHECK(error_of(file(R"({"a":{"dtype":"F8_E4M3","shape":[1],"data_offsets":[0,1]}})", "x"))
              .find("expected one of") != std::string::npos);
    CHECK(error_of(file(R"({"a":{"dtype":"U8","shape":[1],"data_offsets":[0,1],"x":1}})", "x"))
              .find("unknown field") != std::string::npos);
    CHECK(error_of(file(R"({"a":{"dtype":"U8","shape":[-1],"data_offsets":[0,1]}})", "x"))
              .find("non-negative") != std::string::npos);
    CHECK(error_of(file(R"({"a":{"dtype":"U64","shape":[4294967296,4294967296,4294967296],)"
                        R"("data_offsets":[0,8]}})",
                        "xxxxxxxx"))
              .find("overflows") != std::string::npos);
}
