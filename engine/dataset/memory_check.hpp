// SPDX-License-Identifier: MIT
#pragma once

// The peak memory of a measured cell (results[].peak_memory_bytes) against what its forward must hold.
// The figure counts the cell's own tensors: its layer's parameters and buffers, its input, and what one
// steady-state forward allocates (bench's methodology.memory_method). So it is at least the floor
// below, and for no layer of the catalog more than k_max_memory_multiple times it; a figure outside
// counts too little (tensors missed) or too much (memory that is not the cell's, as the machine-speed
// canary's 64.75 MiB was in the CPU datasets measured between 2026-11-22 and 2026-11-27).

#include "dataset/dataset.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace layerbench::dataset {

// A forward holds at most this multiple of its floor. The widest layers of the catalog hold their
// intermediates besides: the feed-forward's 4x-wide hidden layer, a training step's gradients. The most in
// LayerBench's CPU data is 10.1x (TransformerEncoder at batch 128 on torch 1.13.1, whose attention is not
// fused); 16 leaves room for that and no more. A simple layer stays far below it (Linear 1.0x, LayerNorm
// 1.0x, Dropout 1.5x, Conv2d 1.6x; 3.0x in training). Two kinds of cell pass it legitimately, and are
// warned, not refused: a transform convolution, whose library workspace is part of the forward, and an
// attention layer, whose S x S scores per head grow with the square of the sequence (check_memory).
inline constexpr double k_max_memory_multiple = 16.0;

// The bytes one forward of `cell` must hold at once, from the layer's byte formulas (schema 1.3.0):
// its parameters and buffers (bytes_fixed) plus the batch's input and output (B x bytes_per_sample),
// all in float32. At bf16 or fp16 the input and output count half: autocast keeps the input (and the
// parameters) in float32 but writes a 16-bit output. A layer whose forward reads only part of its
// parameters (bytes_fixed below 4 bytes per parameter: Embedding gathers rows) counts its parameters
// alone, since the rows its per-sample bytes count are theirs.
struct MemoryFloor
{
  double bytes = 0;
  std::string arithmetic; // how `bytes` was found, for messages
};
// Nullopt where the layer has no byte formulas (datasets before 1.3.0, references, whole models).
std::optional<MemoryFloor> memory_floor(const Layer& layer, const Cell& cell);

// Whether the dataset's memory figures stand, or an erratum in its catalog withdraws them.
enum class MemoryFigures { in_force, withdrawn };

enum class MemoryRule {
  below_floor,   // the peak misses tensors the forward holds
  above_multiple // the peak counts memory that is not the cell's
};
enum class MemoryVerdict { refused, warned };

struct MemoryFinding
{
  MemoryRule rule = MemoryRule::below_floor;
  MemoryVerdict verdict = MemoryVerdict::refused;
  std::string pointer; // "/results/3/peak_memory_bytes"
  std::string message; // the cell, the rule and the numbers
};

// Refused: an ok cell of a measured dataset whose peak is below its floor; one above
// k_max_memory_multiple x its floor, where the figures are in force. Warned: the latter where an
// erratum has withdrawn them (the published file stays as it was).
std::vector<MemoryFinding> check_memory(const Dataset& dataset, MemoryFigures figures = MemoryFigures::in_force);

// For publish: throws Error naming `origin`, each cell, the rule and the numbers, where check_memory
// finds errors in a new version's figures (no erratum covers those).
void require_memory_figures(const Dataset& dataset, const std::string& origin);

// The standing of the memory figures of the dataset in `file`: withdrawn when the file lies in a data
// folder whose catalog has an erratum that withdraws the peak memory of its id and version.
MemoryFigures memory_figures(const std::filesystem::path& file, const Dataset& dataset);

} // namespace layerbench::dataset
