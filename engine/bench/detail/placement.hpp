// SPDX-License-Identifier: MIT
#pragma once

// Where a CPU forward's output lands against its input. On the AMD Zen 4 that measured it, BatchNorm2d at
// batch 128 (128 MiB in, 128 MiB out) took 11.5 to 14.4 ms when its output shared the input's low 28
// address bits within a few cache lines, and 7.2 to 8.6 ms at any other distance (docs/validity.md 3b,
// bench/validity/2026-11-28-thp and -utag); which distance a forward gets depends on what the allocator
// served before, so the cell's median moved with the run's history. LayerBench chooses the regime: before
// timing, an input whose output falls in that geometry is copied elsewhere, so a cell measures the layer
// at an ordinary placement whatever ran before it. Torch-free.

#include <cstdint>
#include <string>

namespace layerbench::bench::detail {

inline constexpr std::uintptr_t k_alias_period = std::uintptr_t(1) << 28; // 256 MiB
inline constexpr std::uintptr_t k_alias_window = 4096;                    // either side, in bytes
inline constexpr int k_max_input_moves = 4;

// Whether `output` lies within k_alias_window bytes of `input` plus a multiple of k_alias_period, on either
// side (the addresses' low 28 bits nearly equal).
constexpr bool shares_low_address_bits(std::uintptr_t input, std::uintptr_t output)
{
  const std::uintptr_t ahead = (output - input) & (k_alias_period - 1);
  return ahead < k_alias_window || k_alias_period - ahead < k_alias_window;
}

// What the methodology says of it (methodology.cpu_memory_policy_text, after the policy).
inline const std::string k_input_placement_text
  = "input placement: before a cell is timed, an input whose forward's output lands within 4 KiB of the input's "
    "address plus a multiple of 256 MiB (the two sharing their low 28 address bits, a geometry that made "
    "BatchNorm2d at batch 128 1.5 to 1.8 times slower on an AMD Zen 4 and that the allocator's history decides) "
    "is copied elsewhere, up to 4 times, so the cell measures the layer at an ordinary placement";

} // namespace layerbench::bench::detail
