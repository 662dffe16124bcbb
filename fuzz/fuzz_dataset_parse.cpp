// SPDX-License-Identifier: MIT
// libFuzzer target for the dataset loader: any bytes must give a Dataset or a layerbench::Error, never
// a crash, a hang or another exception; what parses must pass the semantic checks without crashing
// and survive a write/read round trip byte for byte. The catalog has its own target,
// fuzz_catalog_parse. Built and run by `make fuzz`; seeds in tests/fuzz-seeds/.

#include "dataset/io.hpp"
#include "dataset/validate.hpp"
#include "util/error.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
  const std::string text(reinterpret_cast<const char*>(data), size);
  layerbench::dataset::Dataset dataset;
  try {
    dataset = layerbench::dataset::parse_unchecked(text, "fuzz");
  } catch (const layerbench::Error&) {
    return 0;
  }
  layerbench::dataset::check(dataset);
  const auto written = layerbench::dataset::serialize(dataset);
  const auto again = layerbench::dataset::serialize(layerbench::dataset::parse_unchecked(written, "fuzz-round-trip"));
  if (again != written) {
    std::abort();
  }
  return 0;
}
