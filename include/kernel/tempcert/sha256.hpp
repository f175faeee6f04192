// SHA-256 (OpenSSL) of a byte string, as lower-case hex.
#pragma once

#include <string>

namespace tempcert {

std::string sha256_hex(const std::string &bytes);

} // namespace tempcert
