// SPDX-License-Identifier: MIT
#include "dataset/csv.hpp"

#include "test_dataset_fixture.hpp"

#include <doctest/doctest.h>

#include <sstream>

using namespace layerbench;

namespace {

std::vector<std::string> lines(const std::string& text)
{
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line, '\n');) {
    REQUIRE(!line.empty());
    CHECK(line.back() == '\r');
    line.pop_back();
    out.push_back(line);
  }
  return out;
}

} // namespace

TEST_CASE("dataset::to_csv")
{
  auto d = test::measured();
  d.layers[0].config = "Linear(4096,4096)";
  test::cell_of(d, "Linear", 1).stats->noise = 0.25;
  test::cell_of(d, "Linear", 8) = test::skipped_cell("Linear", 8, "out of memory, \"CUDA\"");
  const auto rows = lines(dataset::to_csv(d));
  SUBCASE("the documented columns, in order")
  {
    CHECK(rows[0] == "dataset_id,dataset_version,kind,device,layer,module,config,batch_size,status,skip_reason,"
                     "median_ms,p25_ms,p75_ms,min_ms,mean_ms,stddev_ms,samples,iterations_per_sample,noise,"
                     "first_call_ms,peak_memory_bytes,throughput_samples_per_s,achieved_flop_per_s,params,"
                     "flops_per_sample,speed_class,precision,memory_format,cudnn_benchmark,mode,compiled,"
                     "train_forward_ms,train_backward_input_ms,train_backward_weight_ms,train_sum_ms,"
                     "median_ms_shown,significant_figures,rounds,round_min_median_ms,round_max_median_ms,ci95_low_ms,"
                     "ci95_high_ms,world_size,all_reduce_median_ms");
    CHECK(dataset::csv_columns().size() == 44);
  }
  SUBCASE("one row per cell")
  {
    CHECK(rows.size() == 1 + d.results.size());
  }
  SUBCASE("a timed cell: numbers as in the JSON, absent values empty, commas quoted")
  {
    CHECK(rows[1] == "test-cpu,0,measured,Test CPU,Linear,nn.Linear,\"Linear(4096,4096)\",1,ok,,1.0,0.95,1.05,,,,10,,"
                     "0.25,,1024,,,10,20.0,,fp32,contiguous,off,inference_mode,eager,,,,,1.0,2,,,,,,,");
  }
  SUBCASE("text a spreadsheet would run as a formula is made inert; numbers stay numbers")
  {
    auto hostile = test::measured();
    hostile.environment->device.name = "=HYPERLINK(\"https://e.example\",\"x\")";
    test::cell_of(hostile, "Linear", 8) = test::skipped_cell("Linear", 8, "@SUM(1+1)");
    const auto hostile_rows = lines(dataset::to_csv(hostile));
    CHECK(hostile_rows[1].rfind("test-cpu,0,measured,\"'=HYPERLINK(\"\"https://e.example\"\",\"\"x\"\")\",Linear,", 0) == 0);
    CHECK(hostile_rows[2].find(",skipped,\"'@SUM(1+1)\",") != std::string::npos);
  }
  SUBCASE("a skipped cell: its reason quoted, no timings")
  {
    CHECK(rows[2] == "test-cpu,0,measured,Test CPU,Linear,nn.Linear,\"Linear(4096,4096)\",8,skipped,"
                     "\"out of memory, \"\"CUDA\"\"\",,,,,,,,,,,,,,10,20.0,,fp32,contiguous,off,inference_mode,eager,,,,,,,,,,,,,");
  }
}
