#include "dataset/batch_sizes.hpp"

#include "util/file.hpp"

#include <doctest/doctest.h>

using namespace layerbench;

namespace {

dataset::Dataset run_with(std::vector<int> batch_sizes)
{
  dataset::Dataset d;
  d.methodology = dataset::Methodology{};
  d.methodology->batch_sizes = std::move(batch_sizes);
  return d;
}

std::string source_text(const std::string& path)
{
  const auto text = util::read_file(std::string(LAYERBENCH_SOURCE_DIR) + "/" + path);
  REQUIRE_MESSAGE(text, path);
  return *text;
}

} // namespace

TEST_CASE("dataset::reference_batch")
{
  SUBCASE("a run with batch size 32 features 32")
  {
    CHECK(dataset::reference_batch(run_with({1, 8, 32, 128})) == 32);
  }
  SUBCASE("a run without 32 features its largest batch size")
  {
    CHECK(dataset::reference_batch(run_with({1, 64, 8})) == 64);
  }
  SUBCASE("a dataset without a methodology (a reference page) is read at the reference batch")
  {
    CHECK(dataset::reference_batch(dataset::Dataset{}) == dataset::k_reference_batch);
  }
}

TEST_CASE("dataset::batch_sizes_text")
{
  CHECK(dataset::batch_sizes_text(dataset::default_batch_sizes()) == "1,8,32,128");
  CHECK(dataset::batch_sizes_text({7}) == "7");
  CHECK(dataset::batch_sizes_text({}).empty());
}

TEST_CASE("dataset::k_default_batch_sizes")
{
  // The Python timers and the GPU script time the same matrix as `run`; their defaults are written
  // in their own languages, so this is where a change to the C++ list catches them.
  const auto text = dataset::batch_sizes_text(dataset::default_batch_sizes());
  std::string tuple;
  for (const int size : dataset::k_default_batch_sizes) {
    tuple += (tuple.empty() ? "" : ", ") + std::to_string(size);
  }
  SUBCASE("bench/gpu/layers.py, which python_timer.py reads")
  {
    CHECK(source_text("bench/gpu/layers.py").find("\nBATCH_SIZES = (" + tuple + ")\n") != std::string::npos);
    const auto timer = source_text("bench/gpu/python_timer.py");
    CHECK(timer.find("default=catalog.BATCH_SIZES_TEXT") != std::string::npos);
    CHECK(timer.find(text) == std::string::npos);
  }
  SUBCASE("bench/parity/parity.py")
  {
    CHECK(source_text("bench/parity/parity.py").find("\"--batch-sizes\", default=\"" + text + "\"") != std::string::npos);
  }
  SUBCASE("bench/gpu/run-all.sh")
  {
    CHECK(source_text("bench/gpu/run-all.sh").find("batch_sizes=${BATCH_SIZES:-" + text + "}") != std::string::npos);
  }
}
