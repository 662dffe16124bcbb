#include "dataset/speed_class.hpp"

#include <doctest/doctest.h>

using namespace layerbench;

namespace {

dataset::Cell cell(const std::string& layer, int batch, double median)
{
  dataset::Cell c;
  c.layer = layer;
  c.batch_size = batch;
  c.stats = dataset::Stats{};
  c.stats->median_ms = median;
  return c;
}

} // namespace

TEST_CASE("dataset::speed_class_rule")
{
  // The rule text names the reference batch from its one constant.
  CHECK(dataset::speed_class_rule().rfind("At batch size 32 (or the run's largest batch size without 32), the layer "
                                          "with the smallest median is Fastest;", 0) == 0);
}

TEST_CASE("dataset::speed_class_for_ratio")
{
  CHECK(dataset::speed_class_for_ratio(1.0) == "Fastest");
  CHECK(dataset::speed_class_for_ratio(9.99) == "Fast");
  CHECK(dataset::speed_class_for_ratio(10.0) == "Medium");
  CHECK(dataset::speed_class_for_ratio(99.0) == "Medium");
  CHECK(dataset::speed_class_for_ratio(100.0) == "Slow");
  CHECK(dataset::speed_class_for_ratio(1000.0) == "Very Slow");
}

TEST_CASE("dataset::assign_speed_classes")
{
  dataset::Dataset d;
  d.methodology = dataset::Methodology{};
  d.methodology->batch_sizes = {1, 32};
  for (const char* name : {"A", "B", "C", "D"}) {
    dataset::Layer layer;
    layer.name = name;
    d.layers.push_back(layer);
  }
  d.results = {cell("A", 32, 0.005), cell("B", 32, 0.02), cell("C", 32, 16.3), cell("A", 1, 100.0)};

  SUBCASE("classes come from the medians at batch 32, relative to the fastest")
  {
    dataset::assign_speed_classes(d);
    CHECK(d.layers[0].speed_class == "Fastest");
    CHECK(d.layers[1].speed_class == "Fast");
    CHECK(d.layers[2].speed_class == "Very Slow"); // 3260x
    CHECK(d.layers[3].speed_class.empty());        // no cell at batch 32
  }
  SUBCASE("a skipped cell gives no class")
  {
    d.results[1].status = dataset::CellStatus::skipped;
    dataset::assign_speed_classes(d);
    CHECK(d.layers[1].speed_class.empty());
  }
  SUBCASE("without batch 32 the largest batch size is the reference")
  {
    d.methodology->batch_sizes = {1};
    dataset::assign_speed_classes(d);
    CHECK(d.layers[0].speed_class == "Fastest"); // the only layer measured at batch 1
    CHECK(d.layers[1].speed_class.empty());
  }
}
