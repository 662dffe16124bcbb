// SPDX-License-Identifier: MIT
#pragma once

// The in-memory form of a LayerBench dataset. engine/dataset owns the format: every other part reads
// and writes datasets through dataset/io.hpp. data/schema/dataset.schema.json describes the same thing,
// and tests/test_dataset_schema.cpp keeps the two in step.

#include "dataset/axes.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace layerbench::dataset {

// The dataset file format version, written into every file as "schema_version".
//  - major: a change that an older reader would misread (a field removed, renamed or re-typed, a unit
//    changed). Readers refuse a file whose major they do not know.
//  - minor: fields added that an older reader may ignore (a new axis, a new environment fact).
//    Readers accept an older minor of their major and fill what it lacks with "absent".
//  - patch: clarifications of meaning that change no field.
struct SchemaVersion
{
  int major = 1;
  int minor = 0;
  int patch = 0;
};
// 1.1.0 added methodology.shard and provenance.source.{device, software, torch_version, notes}.
// 1.2.0 added methodology.{cpu_memory_policy, cpu_memory_policy_text, precision, dispatch},
// environment.glibc_tunables, layers[].dispatch and results[].{page_faults_per_iteration, operators, kernels}.
// 1.3.0 added environment.peaks (measured GEMM FLOP/s per precision and memory bandwidth) and
// layers[].{bytes_fixed, bytes_per_sample, bytes_formula} (minimum traffic, for the roofline),
// methodology.{shard_plan, shard_cells}: how a shard's cells were chosen, and which they are, and
// results[].cuda (graph replay, cold L2, clocks) with methodology.cuda_method, and methodology.axes,
// results[].axes and results[].train (the performance-setting cube, issue 13).
// 1.4.0 added rounds (a run measured in several processes, dataset/rounds.hpp), results[].rounds and
// results[].round_spread, stats.samples_ms (the samples themselves), environment.other_cores_busy
// (the busy-machine check) and provenance.forced (why publish was told to take a run it refuses).
// 1.5.0 added layers[].{kind, contains, train_step}: whole models beside the layers (issue 25), the
// compiled value torch_compile and results[].runtime (the Python worker that measured such a cell).
// 1.6.0 added the layer kind model_layer and layers[].part_of (a model's layer measured at the model's own
// shapes, for its layer sum: issue 25, docs/models.md "The layer sum") and results[].data_parallel (a whole
// model's training step over several ranks: issue 27).
// 1.7.0 added environment.peaks.caches: a triad per cache level (L2, L3) with the level's size, the roof
// of a cell whose working set fits there (issue 35 item 2, docs/roofline.md).
// 1.8.0 added best_ms to every peak, its fastest sample, and its rate became work / best_ms (work / median
// before): a median peak measured while other work ran sat below cells measured at a quieter moment.
// 1.9.0 added methodology.cells, a declared matrix listed cell by cell where it is not the product of
// layers, batch sizes and axes, and provenance.parts: the runs of one device and build that
// `merge --union` joined, each at the batch sizes its own run chose (issue 34: the H200's models).
// 1.10.0 added environment.cpu, the CPU's vendor, family, model, stepping, vector extensions and the
// kernels ATen dispatched to (two machines that both call themselves "AMD EPYC" can differ there), and
// environment.device.kernel_driver, the NVIDIA driver's own version beside the CUDA API version.
inline constexpr SchemaVersion k_schema_version{1, 11, 0};
// The oldest version this build still reads.
inline constexpr SchemaVersion k_oldest_schema_version{1, 0, 0};

enum class Kind {
  measured,           // timed by layerbench on the machine in `environment`
  published_reference // figures transcribed from a published page; not measured by us
};

enum class CellStatus { ok, skipped };

enum class LayerMode {
  eval, // module.eval(), the usual inference setting
  train // module.train(); Dropout only, as the reference page measured it
};

struct License
{
  std::string id = "CC-BY-4.0";
  std::string url = "https://creativecommons.org/licenses/by/4.0/";
  std::string attribution; // the text to keep when the data is reused
};

struct Creator
{
  std::string name;
  std::string affiliation; // may be empty
};

struct Source // what a published_reference transcribes
{
  std::string title;
  std::string url;  // empty when the copy we transcribed does not give the address
  std::string date; // as the page gives it
  std::string license;
  std::string attribution;
  // What the page says it ran on, in its own words; our catalog shows these for the reference.
  std::string device;
  std::string torch_version;
  std::string software;
  std::vector<std::string> notes; // how the page's printed figures were transcribed
};

struct Provenance
{
  std::string tool = "layerbench";
  std::string tool_version;
  std::string git_commit; // of layerbench; "unknown" outside a checkout
  std::string command_line;
  std::optional<Source> source; // published_reference only
  // Why `publish --force` took a run that publish refuses (a dirty tree, a busy machine), in the
  // publisher's words, with what it overrode (1.4.0); empty when nothing was forced.
  std::string forced;
  // The command lines of the runs that `merge --union` joined, in the order given (1.9.0); empty otherwise.
  std::vector<std::string> parts;
};

struct DeviceInfo
{
  std::string type; // "cuda" or "cpu"
  std::string name;
  std::string compute_capability; // "9.0"; empty on the CPU
  std::optional<int64_t> memory_bytes;
  std::string driver;       // CUDA driver API version ("13.0"); empty on the CPU
  // The NVIDIA kernel driver's version ("580.159.04", from NVML), 1.10.0; absent on the CPU, where NVML
  // cannot be read, and in older files.
  std::optional<std::string> kernel_driver;
  std::string cuda_runtime; // CUDA runtime torch was built with; empty when torch has no CUDA
  std::string cudnn;
};

// One peak rate timed on the run's device (bench/peaks.hpp), schema 1.3.0: the work of one operation
// over the median of its timed samples, under the cells' timing and noise rules.
struct PeakRate
{
  std::string name;      // compute: the precision, "fp32", "tf32", "bf16" or "fp16"; memory: "triad"
  std::string operation; // what was timed, in words
  double work = 0;       // FLOP (compute) or bytes read plus written (memory) per operation
  double median_ms = 0;
  double rate = 0; // work / best_ms from 1.8.0, work / median_ms before: FLOP/s or bytes/s
  std::optional<double> noise;
  std::optional<int> samples;
  std::optional<bool> noise_target_met;
  // 1.8.0: the fastest sample (last, so that older aggregate initialisers keep their meaning). A roof is
  // what the device can do: a sample slowed by other work on the machine says less of that than the
  // fastest, which is what STREAM reports ("best rate").
  std::optional<double> best_ms;
};

// A triad sized to fit one cache level (schema 1.7.0): the roof of a cell whose working set fits
// there, which may run above the memory's (DRAM's) roof and legitimately so.
struct CachePeak
{
  std::string level;      // "L2", "L3" (a GPU's L2 too)
  int64_t size_bytes = 0; // what the run's threads reach at this level: a private cache times the threads
  std::string size_source; // where the size was read, in words ("sysfs index2: 512K per core x 2 threads")
  PeakRate triad;         // name "triad"; work and rate in bytes and bytes/s
};

struct Peaks
{
  std::string method;                 // how they were measured, for the methodology
  std::vector<PeakRate> compute;      // FLOP/s, one per precision the device supports
  std::optional<PeakRate> memory;     // bytes/s, the triad past every cache (DRAM, a GPU's HBM)
  std::vector<CachePeak> caches;      // 1.7.0, smallest level first; empty before and where unmeasured
};

const PeakRate* find_compute_peak(const Peaks& peaks, const std::string& precision);

// The busy-machine check fires when other processes kept at least this many cores busy on average
// (Environment::other_cores_busy); publish refuses such a run unless forced.
inline constexpr double k_busy_cores_threshold = 0.25;

// What kind of CPU ran the process (1.10.0), from /proc/cpuinfo: the model name alone does not tell
// two machines apart ("AMD EPYC" covers Zen 2 to Zen 5, with and without AVX-512).
struct CpuIdentity
{
  std::string vendor;           // vendor_id ("AuthenticAMD", "GenuineIntel"), or an Arm implementer code
  std::optional<int> family;    // "cpu family" (x86)
  std::optional<int> model;     // "model" (x86) or "CPU part" (Arm)
  std::optional<int> stepping;  // "stepping" (x86) or "CPU revision" (Arm)
  std::vector<std::string> isa; // the vector and matrix extensions among the CPU's flags, in bench::k_isa_flags order
  // The vector kernels ATen dispatches to ("AVX2", "AVX512", "DEFAULT", ...): what the CPU offers, capped by
  // ATEN_CPU_CAPABILITY. Empty where the build could not ask.
  std::string aten_capability;
};

struct Environment
{
  DeviceInfo device;
  std::string torch_version;
  std::string torch_git_hash;
  std::string compiler;
  std::string cpu_model;
  std::optional<CpuIdentity> cpu; // 1.10.0; absent in older files
  int logical_cores = 0;
  int threads = 0; // intra-op threads torch used
  std::string blas;
  std::string os;
  // Precision knobs in force during the run (LibTorch defaults unless a flag changed them).
  bool matmul_allow_tf32 = false;
  bool cudnn_allow_tf32 = false;
  bool cudnn_benchmark = false;
  // The GLIBC_TUNABLES variable at start ("" when unset): it changes malloc unless the run's CPU memory
  // policy overrides it. Absent in files older than 1.2.0.
  std::optional<std::string> glibc_tunables;
  // The 1-minute load average when the run started and when it ended (1.2.0): above the threads in
  // use, other work shared the cores.
  std::optional<double> load_average_start;
  std::optional<double> load_average_end;
  // Cores that other processes kept busy, on average, while the run measured (1.4.0): the machine's
  // busy CPU time less the run's own, over the wall time. The busy-machine check fires at
  // k_busy_cores_threshold; absent where /proc/stat cannot be read and in older files.
  std::optional<double> other_cores_busy;
  // The device's last-level cache (the CPU's largest, a GPU's L2), in bytes: a working set that fits in
  // it may run above the memory roof (1.3.0, optional).
  std::optional<int64_t> last_level_cache_bytes;
  // Absent when the run was told --no-peaks, and in files older than 1.3.0.
  std::optional<Peaks> peaks;
};

// One cell of the matrix: a layer at a batch size, at one corner of the performance-setting cube.
struct CellKey
{
  std::string layer;
  int batch_size = 0;
  Axes axes; // the reference corner unless the run measured others (1.3.0)
};

struct Methodology
{
  std::string timer;     // "cuda-events" or "steady-clock"
  std::string dtype = "float32";
  std::vector<std::string> layers; // the declared matrix: every (layer, batch size) pair must have a cell
  std::vector<int> batch_sizes;
  double warmup_seconds = 0;
  int warmup_min_iterations = 0;
  double block_target_seconds = 0; // iterations per sample grow until one sample takes this long
  std::string noise_metric;        // "iqr_over_median": (p75 - p25) / median of the samples
  double noise_target = 0;
  int min_samples = 0;
  int max_samples = 0;
  double cell_budget_seconds = 0; // sampling stops here even if the noise target is not met
  std::string flop_convention;
  std::string memory_method;
  std::string speed_class_rule;
  bool inference_mode = true;
  std::string shard; // "2/4" when the run measured one shard of the matrix (dataset/shard.hpp); empty for all
  // How the matrix was split into shards (1.3.0), kept after a merge; empty before 1.3.0, whose shards
  // were dealt round-robin.
  std::string shard_plan;
  // The cells of this shard, in matrix order (1.3.0); empty for a whole matrix and before 1.3.0.
  std::vector<CellKey> shard_cells;
  // The declared matrix listed cell by cell (1.9.0), where it is not layers x batch_sizes x axes: a
  // union of runs that each chose their own batch sizes (`merge --union`). Empty for a product matrix.
  std::vector<CellKey> cells;
  // How freed host memory is handled during the timed loop: "steady-state", "fresh-pages" or "system"
  // (bench/cpu_memory.hpp). Empty in files older than 1.2.0, which measured under "system".
  std::string cpu_memory_policy;
  std::string cpu_memory_policy_text;
  std::string precision; // what float32 means on each backend (TF32 and the like)
  std::string dispatch;  // what "the operators Python's module runs" means for this run
  std::string canary;    // what results[].canary times (bench/canary.hpp)
  std::string cuda_method; // what results[].cuda measures (graph replay, cold L2, clocks); CUDA runs, 1.3.0
  // The axes' values measured (1.3.0); the declared matrix is layers x batch_sizes x corners(axes).
  // Older files, and runs of the reference corner only, have the default grid.
  AxisGrid axes;
  std::string axes_text; // how each axis is applied, in words
};

// What a catalog entry is (1.5.0): one layer of the reference table, or a whole model (ResNet-50, BERT)
// measured beside them; from 1.6.0 also one of a model's layers at the model's own shapes (its layer
// sum). Files before 1.5.0 hold layers only.
enum class LayerKind { layer, model, model_layer };

// One distinct layer configuration inside a whole model, with how many times the model runs it per
// forward (1.5.0): the model's inventory, from which its FLOPs are summed and its layer sum is measured.
struct LayerUse
{
  std::string layer;  // the operation, as the catalog names its kind: "Conv2d", "Linear", "BatchNorm2d"
  std::string config; // its configuration at the model's own shapes: "Conv2d(64,64,3,stride=1) 56x56"
  int count = 0;
  double matmul_flops_per_sample = 0;
  double elementwise_flops_per_sample = 0;
};

// Which use of which model a model_layer is (1.6.0): layers[].contains[use] of the model named `model`,
// which runs it `count` times per forward.
struct ModelPart
{
  std::string model; // "ResNet50"
  int use = 0;       // index into the model's contains
  int count = 0;
};

// What a layer was built from (1.11.0): the catalog layer ("Linear") and each of its named parameters
// with its value (catalog/user_shapes.hpp), the reference's defaults or shapes from the user. A layer at
// other parameters is named after them, "Linear(in=4096,out=11008,seq=2048)".
struct LayerParameters
{
  std::string layer;
  std::vector<std::pair<std::string, double>> values; // sorted by name

  std::optional<double> value(const std::string& name) const
  {
    for (const auto& [key, v] : values) {
      if (key == name) {
        return v;
      }
    }
    return std::nullopt;
  }
};

struct Layer
{
  std::string name;   // catalog key, "Conv2d"
  std::string module; // "nn.Conv2d"
  std::string config; // "Conv2d(64,128,3) 32x32 input"
  std::string input_shape; // per batch, "B x 64 x 32 x 32"
  LayerMode mode = LayerMode::eval;
  std::optional<int64_t> params;
  std::string params_formula;
  std::optional<int64_t> params_counted; // counted from the module; measured datasets only
  std::optional<double> flops_per_sample;
  std::string flops_formula;
  std::optional<double> matmul_flops_per_sample; // the part an op-level counter (FlopCounterMode) sees
  std::string speed_class; // "Fastest" ... "Very Slow"
  std::string dispatch;    // how the forward is called: the C++ module, or the ATen operators Python's module calls
  // Minimum traffic of one forward pass (docs/roofline.md), schema 1.3.0: bytes_fixed is read once
  // whatever the batch size (parameters, buffers), bytes_per_sample is input read plus output written.
  std::optional<double> bytes_fixed;
  std::optional<double> bytes_per_sample;
  std::string bytes_formula;
  LayerKind kind = LayerKind::layer; // 1.5.0
  std::vector<LayerUse> contains;    // whole models: their layers, 1.5.0
  std::string train_step;            // whole models: what a train corner's step runs, in words, 1.5.0
  std::optional<ModelPart> part_of;  // model_layer only, 1.6.0
  std::optional<LayerParameters> shape; // the catalog layer and every parameter's value, 1.11.0
};

struct Stats // milliseconds per forward pass of one batch
{
  double median_ms = 0;
  std::optional<double> p25_ms;
  std::optional<double> p75_ms;
  std::optional<double> min_ms;
  std::optional<double> mean_ms;
  std::optional<double> stddev_ms;
  std::optional<int> samples;
  std::optional<int64_t> iterations_per_sample;
  std::optional<double> noise;
  std::optional<bool> noise_target_met;
  // Every sample, in the order taken: milliseconds per iteration of one timed block (1.4.0). Empty in
  // older files, in published references and where a statistic combines several rounds.
  std::vector<double> samples_ms;
};

// One ATen operator seen in a profiled forward pass of a cell.
struct Operator
{
  std::string name; // "aten::conv2d"
  int64_t calls = 0;
  double self_cpu_fraction = 0; // of the forward's host time spent in the operator itself, children excluded
  std::optional<double> self_device_fraction; // CUDA: of the kernel time launched by it
};

// One GPU kernel seen in a profiled forward pass (CUDA runs only).
struct Kernel
{
  std::string name;
  int64_t calls = 0;
  double device_fraction = 0;
};

// The machine's speed when the cell started (bench/canary.hpp), schema 1.2.0.
struct CanaryTime
{
  double matmul_ms = 0; // 256x256 float32 matrix product
  double copy_ms = 0;   // 32 MiB float32 copy
};

// One more way of timing a CUDA cell beside the eager, hot-L2 one in `stats` (1.3.0). Milliseconds
// per forward pass.
struct VariantStats
{
  double median_ms = 0;
  double p25_ms = 0;
  double p75_ms = 0;
  int samples = 0;
  int64_t iterations_per_sample = 0; // graph: replays per sample; cold: individually timed forwards
  double noise = 0;                  // (p75 - p25) / median
};

// The SM clock while the cell was sampled, read through NVML after every sample block (1.3.0).
struct CudaClocks
{
  std::optional<double> sm_mean_mhz;   // mean over the kept samples' readings
  std::optional<int> sm_default_mhz;   // the default applications clock: the reference for dropping
  double threshold = 0.75;             // samples read below threshold x default are dropped (nvbench)
  std::vector<std::string> event_reasons; // NVML clock-event (throttle) reasons seen, "gpu_idle" left out
  int dropped_samples = 0;             // below the threshold, dropped and re-taken
  int kept_below_threshold = 0;        // below it but kept: the cell's time budget was spent
  std::string unavailable_reason;      // why no clock was read (no driver, no NVML); empty when read
};

// What a CUDA cell measures beyond the eager time (1.3.0).
struct CudaCell
{
  // The same forward captured in a CUDA graph and replayed: the time without the host's launch cost.
  std::optional<VariantStats> graph;
  std::string graph_skip_reason; // why it could not be captured; empty when it was
  std::optional<int> graph_forwards_per_replay;
  std::optional<double> graph_over_eager; // graph median / eager median
  // A buffer of l2_flush_bytes written before every timed forward, outside the timed interval.
  std::optional<VariantStats> cold;
  std::string cold_skip_reason;
  std::optional<int64_t> l2_flush_bytes;
  std::optional<double> cold_over_hot; // cold median / eager (hot) median
  CudaClocks clocks;
};

// A train-mode cell's parts, timed apart as DeepBench reports fwd, bwd_inputs and bwd_params (1.3.0).
// The cell's own stats time the whole step: one forward and one backward for both gradients.
struct TrainTimes
{
  Stats forward;                         // the forward with autograd recording
  std::optional<Stats> backward_input;   // absent where the input is not differentiable (Embedding's indices)
  std::optional<Stats> backward_weight;  // absent for layers without parameters
  double sum_ms = 0;                     // forward + backward_input + backward_weight medians
};

// A compiled=aot_inductor cell's package (1.3.0): what its export and compile cost when it was built,
// and whether this run built it or found it in the cache (then the cost was paid by an earlier run).
struct AotiRecord
{
  double compile_seconds = 0;
  bool cached = false;
};

// What ran a compiled=torch_compile cell (1.5.0): the Python worker's versions and what its compilation
// cost (Dynamo, Inductor and the build of its kernels), not part of the timed steps.
struct WorkerRuntime
{
  std::string python;
  std::string torch;
  std::optional<double> compile_seconds; // absent where the cell was skipped before it compiled
};

// A whole model's training step run by world_size processes, each on its own batch of the cell's
// batch_size (1.6.0, issue 27): batch_size is the batch per rank, as DistributedDataParallel counts
// it, so one step trains world_size x batch_size samples and throughput_samples_per_s counts all of
// them (world_size x batch_size / median). Gradients are averaged over the ranks in buckets after
// backward, each step's all-reduce timed apart (bench/detail/ddp/gradient_reducer.hpp).
struct DataParallel
{
  int world_size = 1;
  std::string backend;                // c10d's: "gloo" on the CPU, "nccl" on CUDA
  int64_t bucket_cap_bytes = 0;       // DDP's bucket_cap_mb, in bytes (the first bucket's cap is smaller)
  std::vector<int64_t> bucket_bytes;  // each bucket's gradients, in the order they are all-reduced
  // The all-reduce of one step (rank 0's clock, from packing the first bucket to unpacking the last),
  // over the timed steps; with rounds, the median of the rounds' medians.
  double all_reduce_median_ms = 0;
  double all_reduce_p25_ms = 0;
  double all_reduce_p75_ms = 0;
};

// A cell as one round of a multi-round run measured it (1.4.0).
struct RoundCell
{
  int round = 0;    // 1-based, as in Rounds::runs
  int position = 0; // 1-based place of the cell in that round's order (matrix order without an order seed)
  CellStatus status = CellStatus::ok;
  std::string skip_reason;
  std::optional<Stats> stats; // ok only, with its samples
};

// How far a cell's rounds agree (1.4.0): the extreme round medians, and a 95% interval of the median
// of round medians by a hierarchical bootstrap (dataset/rounds.hpp).
struct RoundSpread
{
  int rounds = 0; // rounds that measured the cell
  double min_median_ms = 0;
  double max_median_ms = 0;
  double ci95_low_ms = 0;
  double ci95_high_ms = 0;
};

struct Cell
{
  std::string layer;
  int batch_size = 0;
  Axes axes; // the reference corner unless the file says otherwise (1.3.0)
  CellStatus status = CellStatus::ok;
  std::string skip_reason; // skipped only
  std::optional<Stats> stats;
  std::optional<double> first_call_ms;
  std::optional<double> host_wall_median_ms; // CUDA: host clock around the same blocks
  std::optional<int64_t> peak_memory_bytes;
  std::optional<double> throughput_samples_per_s;
  std::optional<double> achieved_flop_per_s;
  std::optional<double> cell_seconds; // wall time spent on the cell, warm-up included
  // Minor page faults of the whole process per timed iteration: ~0 when freed memory is reused.
  std::optional<double> page_faults_per_iteration;
  std::optional<CanaryTime> canary;
  std::optional<CudaCell> cuda; // CUDA runs from 1.3.0
  std::vector<Operator> operators; // empty when not profiled
  std::vector<Kernel> kernels;
  std::optional<TrainTimes> train; // mode train only
  std::optional<AotiRecord> aoti;  // compiled=aot_inductor only
  std::optional<WorkerRuntime> runtime; // compiled=torch_compile only (1.5.0)
  std::optional<DataParallel> data_parallel; // whole models' train cells over several ranks (1.6.0)
  // Multi-round runs (1.4.0): every round's measurement of the cell, and their spread. `stats` then
  // holds the median of the round medians (and the pooled quartiles); the other fields are the first
  // round's that measured it.
  std::vector<RoundCell> rounds;
  std::optional<RoundSpread> round_spread;
};

// One round of a multi-round run (1.4.0): a fresh process that measured every cell once.
struct Round
{
  int index = 0;         // 1-based
  std::string status;    // "ok", or "failed" with `reason`
  std::string reason;
  // The seed of the round's shuffled cell order; absent for runs joined as rounds by `merge --rounds`,
  // which measured in the order they record (matrix order unless shuffled by --order-seed).
  std::optional<uint32_t> order_seed;
  std::string started;   // UTC, when the round's process began measuring; empty for a failed round
  std::optional<double> load_average_start;
  std::optional<double> load_average_end;
  std::optional<double> other_cores_busy;
};

struct Rounds
{
  int count = 0;                 // rounds asked for; runs has one entry per round
  uint32_t seed = 0;             // the run's seed: round orders and the bootstrap derive from it
  int bootstrap_resamples = 0;
  std::string method;            // in words, for the methodology
  std::vector<Round> runs;
};

struct Dataset
{
  SchemaVersion schema_version = k_schema_version;
  Kind kind = Kind::measured;
  std::string id;    // "h100-sxm-fp32": [a-z0-9-]+
  int version = 0;   // 0 until published; published versions count from 1
  std::string replaces; // "id@version" of the version this one corrects; empty if none
  std::string title;
  std::string created; // UTC, "2026-11-22T04:05:07Z"
  License license;
  std::vector<Creator> creators;
  Provenance provenance;
  std::optional<Environment> environment; // absent for published_reference
  std::optional<Methodology> methodology; // likewise
  std::vector<Layer> layers;
  std::vector<Cell> results;
  std::optional<Rounds> rounds; // multi-round runs only (1.4.0)
};

const Layer* find_layer(const Dataset& dataset, const std::string& name);
// The reference corner's cell (fp32, contiguous, eager, inference mode), what the home table shows.
const Cell* find_cell(const Dataset& dataset, const std::string& layer, int batch_size);
const Cell* find_cell(const Dataset& dataset, const std::string& layer, int batch_size, const Axes& axes);

// A cell as messages name it: "Linear at batch size 8", with its corner's label where it is not the
// reference ("Linear at batch size 8 (bf16 train)").
std::string describe_cell(const CellKey& key);
// Whether the dataset measured any corner but the reference.
bool has_axes(const Dataset& dataset);

std::string to_string(Kind kind);
std::string to_string(CellStatus status);
std::string to_string(LayerMode mode);
std::string to_string(LayerKind kind);
std::string to_string(const SchemaVersion& version);
// "AuthenticAMD family 25 model 17 stepping 1; ATen kernels AVX512; flags avx2 avx512f ...": one line, for
// `diff` and the provenance tables.
std::string to_string(const CpuIdentity& cpu);

// Where a reference was transcribed from: the page's address, or, when the copy we transcribed does
// not give one, a phrase that says so. Pages and citations show this, never an empty address.
std::string source_address(const Source& source);

} // namespace layerbench::dataset
