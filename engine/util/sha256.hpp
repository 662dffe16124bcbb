// SPDX-License-Identifier: MIT
#pragma once

#include <string>

namespace layerbench::util {

// SHA-256 (FIPS 180-4) of `data` as 64 lowercase hex digits. The catalog pins every published
// dataset file by this digest, so a hand edit of a published version is caught by `validate`.
std::string sha256_hex(const std::string& data);

} // namespace layerbench::util
