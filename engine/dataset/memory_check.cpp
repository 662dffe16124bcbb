// SPDX-License-Identifier: MIT
#include "dataset/memory_check.hpp"

#include "dataset/axes.hpp"
#include "dataset/catalog.hpp"
#include "dataset/erratum.hpp"
#include "dataset/physics.hpp"
#include "util/error.hpp"
#include "util/format.hpp"

namespace layerbench::dataset {

namespace {

constexpr double k_float32_bytes = 4;

std::string bytes_text(double bytes)
{
  return util::format_thousands(static_cast<int64_t>(bytes)) + " B";
}

bool sixteen_bit(Precision precision)
{
  return precision == Precision::bf16 || precision == Precision::fp16;
}

// Attention holds an S x S matrix of scores per head and sample (and, in training, keeps the softmax's
// output and its dropout mask for the backward), which grow with the square of the sequence while its input
// and output grow with the sequence: the multiple of the floor does not bound them. H200, 2026-11-28:
// MultiheadAttention at batch 32, a bf16 training step, 22.9x (8 heads of 512 x 512 scores per sample).
bool holds_attention_scores(const Layer& layer)
{
  return layer.module == "nn.MultiheadAttention" || layer.module == "nn.TransformerEncoder"
         || layer.module == "nn.TransformerEncoderLayer";
}

} // namespace

std::optional<MemoryFloor> memory_floor(const Layer& layer, const Cell& cell)
{
  if (!layer.bytes_fixed || !layer.bytes_per_sample) {
    return std::nullopt;
  }
  const auto params = layer.params_counted ? layer.params_counted : layer.params;
  const double parameter_bytes = params ? k_float32_bytes * static_cast<double>(*params) : 0;
  if (parameter_bytes > *layer.bytes_fixed) {
    return MemoryFloor{parameter_bytes, "its " + util::format_thousands(*params) + " float32 parameters, whose rows it reads"};
  }
  const auto precision = cell.axes[k_precision];
  const double share = sixteen_bit(precision) ? 0.5 : 1.0;
  const double io = cell.batch_size * *layer.bytes_per_sample * share;
  return MemoryFloor{*layer.bytes_fixed + io,
                     "parameters and buffers " + bytes_text(*layer.bytes_fixed) + " + batch " + std::to_string(cell.batch_size)
                       + " x " + bytes_text(*layer.bytes_per_sample) + " of input and output"
                       + (share < 1 ? " x 1/2 at " + to_string(precision) + " (a 16-bit output)" : std::string())};
}

std::vector<MemoryFinding> check_memory(const Dataset& dataset, MemoryFigures figures)
{
  std::vector<MemoryFinding> findings;
  if (dataset.kind != Kind::measured) {
    return findings;
  }
  for (size_t i = 0; i < dataset.results.size(); ++i) {
    const auto& cell = dataset.results[i];
    const Layer* layer = find_layer(dataset, cell.layer);
    if (cell.status != CellStatus::ok || !cell.peak_memory_bytes || !layer) {
      continue;
    }
    const auto floor = memory_floor(*layer, cell);
    if (!floor || !(floor->bytes > 0)) {
      continue;
    }
    const auto peak = static_cast<double>(*cell.peak_memory_bytes);
    const auto pointer = "/results/" + std::to_string(i) + "/peak_memory_bytes";
    const auto head = describe_cell({cell.layer, cell.batch_size, cell.axes}) + ": peak memory " + bytes_text(peak);
    if (peak < floor->bytes) {
      findings.push_back({MemoryRule::below_floor, MemoryVerdict::refused, pointer,
                          head + " is below the " + bytes_text(floor->bytes) + " its forward holds at once (" + floor->arithmetic
                            + "): the figure misses tensors of the cell"});
      continue;
    }
    if (peak > k_max_memory_multiple * floor->bytes) {
      const auto transform = transform_kernel(cell);
      const bool scores = holds_attention_scores(*layer);
      const bool withdrawn = figures == MemoryFigures::withdrawn;
      const auto multiple = util::format_fixed(k_max_memory_multiple, 0) + "x";
      const std::string reason
        = transform ? "): its kernels show a transform convolution (" + *transform
                        + "), whose library workspace is part of the forward"
        : scores    ? "), above " + multiple + ": its attention holds S x S scores per head"
                        + std::string(cell.axes[k_mode] == GradMode::train ? " and keeps them for the backward" : "")
                        + ", which grow with the square of the sequence and which its input and output do not bound"
                    : "), above the " + multiple + " that no layer needs: the figure counts memory that is not the cell's"
                        + (withdrawn ? " (withdrawn by an erratum in the catalog)" : "");
      findings.push_back({MemoryRule::above_multiple,
                          transform || scores || withdrawn ? MemoryVerdict::warned : MemoryVerdict::refused,
                          pointer,
                          head + " is " + util::format_significant(peak / floor->bytes, 3) + "x the " + bytes_text(floor->bytes)
                            + " its forward holds at once (" + floor->arithmetic + reason});
    }
  }
  return findings;
}

void require_memory_figures(const Dataset& dataset, const std::string& origin)
{
  std::string message;
  for (const auto& finding : check_memory(dataset)) {
    if (finding.verdict == MemoryVerdict::warned) {
      continue;
    }
    message += "\n  " + finding.pointer + ": " + finding.message;
  }
  if (!message.empty()) {
    throw Error(origin + ": not publishable, its peak memory figures break their bounds:" + message);
  }
}

MemoryFigures memory_figures(const std::filesystem::path& file, const Dataset& dataset)
{
  return withdraws(errata_of(file, dataset), WithdrawnField::peak_memory_bytes) ? MemoryFigures::withdrawn : MemoryFigures::in_force;
}

} // namespace layerbench::dataset
