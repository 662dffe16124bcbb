#include "bench/run_plan.hpp"

#include "test_dataset_fixture.hpp"

#include <doctest/doctest.h>

using namespace layerbench;

namespace {

bench::Matrix two_by_two()
{
  dataset::Axes train;
  train.set(dataset::k_mode, dataset::GradMode::train);
  return {{"Linear", "Dropout"}, {1, 8}, {dataset::Axes{}, train}};
}

std::vector<std::string> labels(const std::vector<dataset::CellKey>& cells)
{
  std::vector<std::string> result;
  for (const auto& cell : cells) {
    result.push_back(cell.layer + "/" + std::to_string(cell.batch_size) + (cell.axes.is_reference() ? "" : "/train"));
  }
  return result;
}

} // namespace

TEST_CASE("bench::plan_cells")
{
  const auto matrix = two_by_two();
  dataset::Dataset nothing;
  SUBCASE("every cell in matrix order: layers, then batch sizes, then corners")
  {
    const auto todo = bench::plan_cells(matrix, std::nullopt, std::nullopt, nothing);
    CHECK(labels(todo) == std::vector<std::string>{"Linear/1", "Linear/1/train", "Linear/8", "Linear/8/train",
                                                   "Dropout/1", "Dropout/1/train", "Dropout/8", "Dropout/8/train"});
  }
  SUBCASE("a seed shuffles the whole matrix, the same way every time")
  {
    const auto once = labels(bench::plan_cells(matrix, 7u, std::nullopt, nothing));
    CHECK(once.size() == 8);
    CHECK(once == labels(bench::plan_cells(matrix, 7u, std::nullopt, nothing)));
    CHECK(once != labels(bench::plan_cells(matrix, std::nullopt, std::nullopt, nothing)));
  }
  SUBCASE("a shard takes its cells only; a resumed run skips those done, keeping the shuffled order")
  {
    const std::vector<dataset::CellKey> shard = {{"Dropout", 8, {}}, {"Linear", 1, {}}};
    CHECK(labels(bench::plan_cells(matrix, std::nullopt, shard, nothing))
          == std::vector<std::string>{"Linear/1", "Dropout/8"});
    auto done = test::measured({"Linear"}, {8});
    auto all = labels(bench::plan_cells(matrix, 7u, std::nullopt, nothing));
    all.erase(std::find(all.begin(), all.end(), "Linear/8"));
    CHECK(labels(bench::plan_cells(matrix, 7u, std::nullopt, done)) == all);
  }
}

TEST_CASE("bench::sort_in_matrix_order")
{
  auto cells = test::measured({"Dropout", "Linear"}, {8, 1}).results;
  bench::sort_in_matrix_order({{"Linear", "Dropout"}, {1, 8}, {dataset::Axes{}}}, cells);
  std::vector<std::string> order;
  for (const auto& cell : cells) {
    order.push_back(cell.layer + "/" + std::to_string(cell.batch_size));
  }
  CHECK(order == std::vector<std::string>{"Linear/1", "Linear/8", "Dropout/1", "Dropout/8"});
}
