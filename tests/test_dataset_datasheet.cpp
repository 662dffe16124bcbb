// SPDX-License-Identifier: MIT
#include "dataset/datasheet.hpp"

#include "util/error.hpp"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

using namespace layerbench;

namespace {

nlohmann::json valid()
{
  return nlohmann::json::parse(R"({
    "schema_version": "1.0.0", "about": "test",
    "devices": [{"id": "gpu-x", "name": "GPU X", "matches": ["GPU X"],
                 "compute": [{"precision": "fp32", "flop_per_s": 1e13}],
                 "memory": {"kind": "HBM", "bytes_per_s": 1e12},
                 "source": {"title": "X datasheet", "publisher": "Vendor", "url": "https://example.com/x.pdf"}}]})");
}

std::string datasheet_error(const nlohmann::json& json)
{
  try {
    dataset::parse_datasheet_peaks(json.dump(), "peaks.json");
  } catch (const Error& error) {
    return error.what();
  }
  return "";
}

} // namespace

TEST_CASE("dataset::parse_datasheet_peaks")
{
  SUBCASE("the committed table reads, with NVIDIA's figures for the H100 SXM and the A100 80GB")
  {
    const auto peaks = dataset::load_datasheet_peaks(std::string(LAYERBENCH_SOURCE_DIR) + "/data/peaks/datasheet.json");
    const auto* a100 = dataset::match_device(peaks, "NVIDIA A100 (80GB)");
    REQUIRE(a100);
    CHECK(dataset::find_rate(*a100, "fp32")->flop_per_s == 19.5e12);
    CHECK(a100->memory_bytes_per_s == 2.04e12);
    const auto* h100 = dataset::match_device(peaks, "NVIDIA H100 80GB HBM3");
    REQUIRE(h100);
    CHECK(dataset::find_rate(*h100, "bf16")->flop_per_s == 989.4e12);
    CHECK(h100->source_publisher == "NVIDIA");
    CHECK(!dataset::match_device(peaks, "Intel(R) Xeon(R) Processor @ 2.80GHz"));
  }
  SUBCASE("strict: unknown fields, bad rates, duplicates and versions are errors naming the pointer")
  {
    CHECK(datasheet_error(valid()).empty());
    auto unknown = valid();
    unknown["devices"][0]["tflops"] = 1;
    CHECK(datasheet_error(unknown) == "peaks.json: /devices/0/tflops: unknown field");
    auto zero = valid();
    zero["devices"][0]["compute"][0]["flop_per_s"] = 0;
    CHECK(datasheet_error(zero) == "peaks.json: /devices/0/compute/0/flop_per_s: expected a rate in (0, 1e18]");
    auto twice = valid();
    twice["devices"][0]["compute"].push_back(twice["devices"][0]["compute"][0]);
    CHECK(datasheet_error(twice) == "peaks.json: /devices/0/compute/1/precision: precision \"fp32\" is given twice");
    auto precision = valid();
    precision["devices"][0]["compute"][0]["precision"] = "fp64";
    CHECK(datasheet_error(precision).find("/devices/0/compute/0/precision: \"fp64\" is not one of") != std::string::npos);
    auto newer = valid();
    newer["schema_version"] = "1.1.0";
    CHECK(datasheet_error(newer).find("is too new") != std::string::npos);
    auto http = valid();
    http["devices"][0]["source"]["url"] = "http://example.com";
    CHECK(datasheet_error(http) == "peaks.json: /devices/0/source/url: expected an https:// address");
    auto empty_match = valid();
    empty_match["devices"][0]["matches"] = {""};
    CHECK(datasheet_error(empty_match).find("would match every device") != std::string::npos);
  }
}
