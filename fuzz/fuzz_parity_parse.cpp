// SPDX-License-Identifier: MIT
// libFuzzer target for the reader of the parity validation files (data/validation/*.json, format
// layerbench-parity): any bytes must give a Parity or a layerbench::Error, never a crash, a hang or
// another exception. Built and run by `make fuzz`; seeds in tests/fuzz-seeds/.

#include "dataset/validation.hpp"
#include "util/error.hpp"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    (void)layerbench::dataset::parse_parity(text, "fuzz");
  } catch (const layerbench::Error&) {
  }
  return 0;
}
