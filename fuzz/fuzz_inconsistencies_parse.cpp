// SPDX-License-Identifier: MIT
// libFuzzer target for the reader of the reference's known inconsistencies (data/reference/*.json):
// any bytes must give an InconsistencyFile or a layerbench::Error, never a crash, a hang or another
// exception. It calls the strict, versioned reader's text entry point and nothing around it.
// Built and run by `make fuzz`; seeds in tests/fuzz-seeds/.

#include "dataset/inconsistencies.hpp"
#include "util/error.hpp"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    (void)layerbench::dataset::parse_inconsistencies(text, "fuzz");
  } catch (const layerbench::Error&) {
  }
  return 0;
}
