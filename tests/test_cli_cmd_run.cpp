// The command line of `layerbench run` and `layerbench layers`, through the real binary.
#if LAYERBENCH_WITH_TORCH
#include "test_shell.hpp"
#include "util/file.hpp"

#include <array>
#include <cstdio>
#include <doctest/doctest.h>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

namespace fs = std::filesystem;
namespace test = layerbench::test;
using test::run_cli;

TEST_CASE("cli::cmd_run")
{
  test::TempDir dir("cli");
  SUBCASE("a second run on the same --out is refused at once, and its checkpoint left alone")
  {
    const auto out = dir.path / "locked.json";
    // What the first run holds while it measures.
    const int held = ::open((out.string() + ".lock").c_str(), O_RDWR | O_CREAT, 0644);
    REQUIRE(held >= 0);
    REQUIRE(::flock(held, LOCK_EX | LOCK_NB) == 0);
    const auto r = run_cli("run --device cpu --layers Dropout --batch-sizes 1 --cell-budget 0.01 --out " + out.string());
    ::close(held);
    CHECK(r.status == 1);
    CHECK(r.output.find("another layerbench run is writing this output") != std::string::npos);
    CHECK(!fs::exists(out));
    CHECK(!fs::exists(out.string() + ".partial"));
  }
  SUBCASE("--help lists every option with its default")
  {
    const auto r = run_cli("run --help");
    CHECK(r.status == 0);
    for (const char* option : {"--out", "--device", "--layers", "--batch-sizes", "--resume", "--shard", "--threads",
                               "--warmup", "--block-target", "--noise-target", "--min-samples", "--max-samples",
                               "--cell-budget"}) {
      CAPTURE(option);
      CHECK(r.output.find(option) != std::string::npos);
    }
    CHECK(r.output.find("default") != std::string::npos);
  }
  SUBCASE("an unknown option is a usage error")
  {
    const auto r = run_cli("run --speed 11");
    CHECK(r.status == 2);
    CHECK(r.output.find("layerbench: error: run: unrecognised option '--speed'") != std::string::npos);
  }
  SUBCASE("an unknown layer is a usage error with a hint")
  {
    const auto r = run_cli("run --layers Conv2d,Convv1d --out " + (dir.path / "x.json").string());
    CHECK(r.status == 2);
    CHECK(r.output.find("unknown layer 'Convv1d', did you mean 'Conv1d'?") != std::string::npos);
  }
  SUBCASE("--layer-sum of an unknown model is a usage error with a hint; with --layers it is refused")
  {
    const auto r = run_cli("run --layer-sum ResNet5 --out " + (dir.path / "x.json").string());
    CHECK(r.status == 2);
    CHECK(r.output.find("--layer-sum: 'ResNet5' is not a model, did you mean 'ResNet50'?") != std::string::npos);
    const auto both = run_cli("run --layer-sum BertTiny --layers Linear --out " + (dir.path / "x.json").string());
    CHECK(both.status == 2);
    CHECK(both.output.find("give it or --layers, not both") != std::string::npos);
  }
  SUBCASE("a small layer-sum run measures the model and each of its layers")
  {
    const auto out = dir.path / "layer-sum.json";
    const auto r = run_cli("run --device cpu --layer-sum BertTiny --batch-sizes 1 --axes precision=fp32 "
                           "--axes mode=inference_mode --cell-budget 0.2 --min-samples 3 --no-peaks --out " + out.string());
    CHECK(r.status == 0);
    // BertTiny and its 13 distinct layer configurations.
    CHECK(r.output.find("wrote " + out.string() + ": 14 cells") != std::string::npos);
    const auto text = layerbench::util::read_file(out);
    REQUIRE(text);
    CHECK(text->find("\"name\": \"BertTiny/12\"") != std::string::npos);
    CHECK(text->find("\"title\": \"The layer sum of BertTiny: the model beside its 13 layers at its own shapes") != std::string::npos);
  }
  SUBCASE("a bad batch size is a usage error")
  {
    const auto r = run_cli("run --batch-sizes 1,eight");
    CHECK(r.status == 2);
    CHECK(r.output.find("--batch-sizes: 'eight' is not a batch size") != std::string::npos);
  }
  SUBCASE("numeric options outside their documented range are usage errors naming the option and the range")
  {
    const std::vector<std::pair<std::string, std::string>> cases = {
      {"--warmup inf", "--warmup: inf is outside its range, 0 to 60 s"},
      {"--warmup nan", "--warmup: nan is outside its range"},
      {"--block-target 1e9", "--block-target: 1000000000 is outside its range, 1e-05 to 10 s"},
      {"--cell-budget -1", "--cell-budget: -1 is outside its range"},
      {"--max-samples 100000000", "--max-samples: 100000000 is outside its range, 1 to 1000000"},
      {"--threads 100000", "--threads: 100000 is outside its range, 0 (torch's default) to "},
    };
    for (const auto& [option, message] : cases) {
      CAPTURE(option);
      const auto r = run_cli("run --device cpu " + option + " --out " + (dir.path / "x.json").string());
      CHECK(r.status == 2);
      CHECK(r.output.find(message) != std::string::npos);
    }
    auto help = run_cli("run --help").output; // the ranges in the help, its line wrapping undone
    for (const char* wrap : {"\n", "  "}) {
      for (auto at = help.find(wrap); at != std::string::npos; at = help.find(wrap)) {
        help.replace(at, std::string(wrap).size(), " ");
      }
    }
    CHECK(help.find("warm-up seconds after the first call, 0 to 60 s") != std::string::npos);
    CHECK(help.find("samples at most, 1 to 1000000") != std::string::npos);
    // --axes and --preset are described from the axis table (dataset/axes.hpp).
    CHECK(help.find("precision=fp32,tf32,bf16,fp16 memory_format=contiguous,channels_last cudnn_benchmark=off,on "
                    "mode=inference_mode,no_grad,train compiled=eager,aot_inductor,torch_compile; corners") != std::string::npos);
    CHECK(help.find("reference (one corner: precision=fp32, memory_format=contiguous, cudnn_benchmark=off, "
                    "mode=inference_mode, compiled=eager)") != std::string::npos);
  }
  SUBCASE("a command line the dataset could not record is refused before anything is measured")
  {
    const auto r = run_cli("run --device cpu --layers Dropout --batch-sizes 1 --aoti-cache /tmp/" + std::string(5000, 'a')
                           + " --out " + (dir.path / "x.json").string());
    CHECK(r.status == 2);
    CHECK(r.output.find("the command line is recorded in the dataset, and this one cannot be") != std::string::npos);
    CHECK(r.output.find("Dropout batch 1") == std::string::npos);
  }
  SUBCASE("an empty list item is a usage error, never dropped")
  {
    for (const std::string bad : {"--batch-sizes 1,,8", "--batch-sizes 1,8,", "--layers Conv2d,,Linear"}) {
      CAPTURE(bad);
      const auto r = run_cli("run --device cpu " + bad + " --out " + (dir.path / "x.json").string());
      CHECK(r.status == 2);
      CHECK(r.output.find("has an empty item") != std::string::npos);
    }
  }
  SUBCASE("an empty list is a usage error for every list option, never the default matrix")
  {
    // --layer-sum "" measured the 14-layer reference matrix and exited 0 (issue 36).
    for (const std::string bad : {"--layer-sum ''", "--layers ''", "--batch-sizes ''", "--axes precision="}) {
      CAPTURE(bad);
      const auto r = run_cli("run --device cpu " + bad + " --cell-budget 0.01 --out " + (dir.path / "x.json").string());
      CHECK(r.status == 2);
      CHECK(r.output.find(": the list is empty; give one item or more, comma-separated") != std::string::npos);
      CHECK_FALSE(fs::exists(dir.path / "x.json"));
    }
  }
  SUBCASE("an axis given twice is a usage error, not the last one kept")
  {
    const auto r = run_cli("run --device cpu --axes precision=bf16 --axes precision=fp32 --out " + (dir.path / "x.json").string());
    CHECK(r.status == 2);
    CHECK(r.output.find("--axes: axis precision is given twice") != std::string::npos);
  }
  SUBCASE("a bad device is a usage error")
  {
    const auto r = run_cli("run --device tpu");
    CHECK(r.status == 2);
    CHECK(r.output.find("--device: 'tpu' is not one of auto, cpu, cuda") != std::string::npos);
    for (const char* bad : {"cuda:", "cuda:x", "cuda:-1", "cuda:1x", "cuda:99999"}) {
      CAPTURE(bad);
      const auto other = run_cli(std::string("run --device ") + bad);
      CHECK(other.status == 2);
      CHECK(other.output.find("cuda:N (N: the GPU's index)") != std::string::npos);
    }
  }
  SUBCASE("--world-size above 1 takes whole models' training steps only, and names what it cannot take")
  {
    const auto out = " --out " + (dir.path / "x.json").string();
    const std::vector<std::pair<std::string, std::string>> cases = {
      {"--layers Conv2d --axes mode=train" + out,
       "--world-size 2: Conv2d is a layer, not a whole model; a data-parallel run times whole models' training steps"},
      {"--layers ResNetTiny" + out, "--world-size 2: mode inference_mode is not a training step; a data-parallel run "
                                    "measures training steps only (--axes mode=train)"},
      {"--layers ResNetTiny --axes mode=train --axes compiled=eager,torch_compile" + out,
       "--world-size 2: compiled torch_compile is not run data-parallel; give --axes compiled=eager"},
      {"--layers ResNetTiny --axes mode=train", "--world-size 2: needs --out, the one file that rank 0 writes"},
    };
    for (const auto& [arguments, message] : cases) {
      CAPTURE(arguments);
      const auto r = run_cli("run --device cpu --world-size 2 " + arguments);
      CHECK(r.status == 2);
      CHECK(r.output.find(message) != std::string::npos);
      CHECK_FALSE(fs::exists(dir.path / "x.json"));
    }
    const auto zero = run_cli("run --world-size 0");
    CHECK(zero.status == 2);
    CHECK(zero.output.find("--world-size: 0 is outside its range, 1 to 1048576") != std::string::npos);
  }
  SUBCASE("a rank whose rendezvous disagrees with --world-size is a usage error naming both")
  {
    const auto r = layerbench::test::shell("RANK=0 WORLD_SIZE=3 LOCAL_RANK=0 MASTER_ADDR=127.0.0.1 MASTER_PORT=29999 "
                                           + std::string(LAYERBENCH_BINARY) + " run --device cpu --world-size 2 "
                                           "--layers ResNetTiny --axes mode=train --out " + (dir.path / "x.json").string());
    CHECK(r.status == 2);
    CHECK(r.output.find("--world-size 2: the rendezvous in the environment has WORLD_SIZE=3 ranks") != std::string::npos);
  }
  SUBCASE("a bad noise target is a usage error")
  {
    const auto r = run_cli("run --device cpu --noise-target 5 --out " + (dir.path / "x.json").string());
    CHECK(r.status == 2);
    CHECK(r.output.find("--noise-target") != std::string::npos);
  }
  SUBCASE("an unwritable output path fails before measuring")
  {
    const auto r = run_cli("run --device cpu --layers Dropout --out /nonexistent/dir/x.json");
    CHECK(r.status == 1);
    CHECK(r.output.find("layerbench: error: /nonexistent/dir/x.json: cannot write") != std::string::npos);
    CHECK(r.output.find("measuring") == std::string::npos);
  }
  SUBCASE("a symbolic link as --out, dangling or not, is refused before anything is measured")
  {
    const auto link = dir.path / "link.json";
    std::filesystem::create_symlink(dir.path / "no-such-target.json", link);
    const auto r = run_cli("run --device cpu --layers Dropout --batch-sizes 1 --out " + link.string());
    CHECK(r.status == 1);
    CHECK(r.output.find("link.json: is a symbolic link") != std::string::npos);
    CHECK(r.output.find("Dropout batch 1") == std::string::npos); // nothing was measured
    const auto resumed = run_cli("run --device cpu --layers Dropout --batch-sizes 1 --resume --out " + link.string());
    CHECK(resumed.output.find("link.json: is a symbolic link") != std::string::npos);
  }
  SUBCASE("--resume with other --threads than the checkpoint's is refused, naming threads and both values")
  {
    // Issue 36: the result said threads 2 while most of its cells ran on one thread, and validated.
    if (std::thread::hardware_concurrency() < 2) {
      MESSAGE("skipped: --threads 2 needs two logical cores");
      return;
    }
    const std::string options = "run --device cpu --layers Dropout --batch-sizes 1 --cell-budget 0.05 --no-peaks --no-profiles";
    const auto first = dir.path / "threads1.json";
    REQUIRE(run_cli(options + " --threads 1 --out " + first.string()).status == 0);
    // The finished run stands in for the checkpoint of an interrupted one, less what only a finished run
    // has (the counted parameters).
    const auto out = dir.path / "resumed.json";
    auto checkpoint = nlohmann::json::parse(layerbench::util::read_file(first).value());
    for (auto& layer : checkpoint["layers"]) {
      layer.erase("params_counted");
    }
    REQUIRE(layerbench::util::write_file_atomic(out.string() + ".partial", checkpoint.dump(), layerbench::util::Overwrite::no));
    const auto r = run_cli(options + " --threads 2 --resume --out " + out.string());
    CHECK(r.status == 1);
    CHECK(r.output.find("resumed.json.partial: --resume: the checkpoint ran with environment/threads=1, this run asks "
                        "environment/threads=2") != std::string::npos);
    CHECK(r.output.size() < 1000); // the field, not the whole methodology
    CHECK_FALSE(fs::exists(out));
    CHECK(run_cli(options + " --threads 1 --resume --out " + out.string()).status == 0);
  }
  SUBCASE("an existing dataset is never overwritten")
  {
    const auto out = dir.path / "exists.json";
    { std::FILE* f = std::fopen(out.c_str(), "w"); std::fputs("{}", f); std::fclose(f); }
    const auto r = run_cli("run --device cpu --layers Dropout --out " + out.string());
    CHECK(r.status == 1);
    CHECK(r.output.find("already exists") != std::string::npos);
  }
  SUBCASE("--cuda on a machine without a GPU is a clear error")
  {
    if (std::getenv("CUDA_VISIBLE_DEVICES") == nullptr && fs::exists("/dev/nvidia0")) {
      return; // a GPU is here; the device tests cover it
    }
    const auto r = run_cli("run --device cuda --layers Dropout --out " + (dir.path / "c.json").string());
    CHECK(r.status == 1);
    CHECK(r.output.find("no CUDA device") != std::string::npos);
    const auto indexed = run_cli("run --device cuda:1 --layers Dropout --out " + (dir.path / "c1.json").string());
    CHECK(indexed.status == 1);
    CHECK(indexed.output.find("no CUDA device") != std::string::npos);
  }
  SUBCASE("a small real run writes a dataset and removes its checkpoint")
  {
    const auto out = dir.path / "small.json";
    const auto r = run_cli("run --device cpu --layers Dropout,MaxPool2d --batch-sizes 1 --cell-budget 0.2 "
                              "--min-samples 3 --out " + out.string());
    CHECK(r.status == 0);
    CHECK(r.output.find("wrote " + out.string() + ": 2 cells") != std::string::npos);
    CHECK(fs::exists(out));
    CHECK(!fs::exists(out.string() + ".partial"));
    // The profiler's own complaint about the missing GPU reads like a failure: it is not printed.
    CHECK(r.output.find("gpuGetDeviceCount") == std::string::npos);
  }
  SUBCASE("--device auto without a GPU says so plainly, once")
  {
    if (run_cli("run --device cuda --out " + (dir.path / "probe.json").string()).status == 0) {
      MESSAGE("SKIPPED: this machine has a GPU");
      return;
    }
    const auto r = run_cli("run --layers Dropout --batch-sizes 1 --cell-budget 0.2 --min-samples 3 --no-peaks --out "
                           + (dir.path / "auto.json").string());
    CHECK(r.status == 0);
    const std::string said = "layerbench: no CUDA GPU found; measuring on the CPU";
    CHECK(r.output.find(said) != std::string::npos);
    CHECK(r.output.find(said) == r.output.rfind(said));
    CHECK(r.output.find("gpuGetDeviceCount") == std::string::npos);
    CHECK(r.output.find("ERROR") == std::string::npos);
  }
}

TEST_CASE("cli::cmd_layers")
{
  SUBCASE("json lists every layer with counted parameters equal to the formula")
  {
    const auto r = run_cli("layers --format json");
    REQUIRE(r.status == 0);
    const auto layers = nlohmann::json::parse(r.output);
    CHECK(layers.size() == 14);
    for (const auto& layer : layers) {
      CHECK(layer["params"] == layer["params_counted"]);
    }
  }
  SUBCASE("text lists every layer with its parameter and FLOP formulas")
  {
    const auto r = run_cli("layers");
    REQUIRE(r.status == 0);
    const auto layers = nlohmann::json::parse(run_cli("layers --format json").output);
    for (const auto& layer : layers) {
      CAPTURE(layer["name"]);
      CHECK(r.output.find("params = " + layer["params_formula"].get<std::string>()) != std::string::npos);
      CHECK(r.output.find("FLOPs per sample = " + layer["flops_formula"].get<std::string>()) != std::string::npos);
    }
  }
  SUBCASE("an unknown format is a usage error")
  {
    CHECK(run_cli("layers --format yaml").status == 2);
  }
}

#endif
