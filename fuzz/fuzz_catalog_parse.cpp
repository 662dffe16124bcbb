// SPDX-License-Identifier: MIT
// libFuzzer target for the catalog loader (data/catalog.json): any bytes must give a Catalog or a
// layerbench::Error, never a crash, a hang or another exception; what parses must survive a
// write/read round trip byte for byte. Apart from fuzz_dataset_parse so that each keeps a corpus of
// its own format. Built and run by `make fuzz`; seeds in tests/fuzz-seeds/.

#include "dataset/catalog.hpp"
#include "util/error.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
  const std::string text(reinterpret_cast<const char*>(data), size);
  std::string written;
  try {
    written = layerbench::dataset::serialize(layerbench::dataset::parse_catalog(text, "fuzz"));
  } catch (const layerbench::Error&) {
    return 0;
  }
  if (layerbench::dataset::serialize(layerbench::dataset::parse_catalog(written, "fuzz-round-trip")) != written) {
    std::abort();
  }
  return 0;
}
