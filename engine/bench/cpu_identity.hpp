// SPDX-License-Identifier: MIT
#pragma once

// Which CPU ran the process, from Linux's /proc/cpuinfo: vendor, family, model, stepping and the vector
// and matrix extensions that decide which kernels oneDNN, MKL and ATen can run. The model name alone
// ("AMD EPYC") covers machines whose bf16 peak differs by 2x. Knows nothing of torch.

#include "dataset/dataset.hpp"

#include <array>
#include <filesystem>
#include <istream>
#include <optional>

namespace layerbench::bench {

// The flags recorded, in this order: x86's (SSE4.2 to AMX), then Arm's (Advanced SIMD to SME). Others
// (security, virtualisation, power) do not change a kernel's speed and are left out.
inline constexpr std::array<const char*, 24> k_isa_flags = {
  "sse4_2",      "avx",         "f16c",        "fma",       "avx2",       "avx_vnni",
  "avx512f",     "avx512dq",    "avx512bw",    "avx512vl",  "avx512_vnni", "avx512_bf16",
  "avx512_fp16", "amx_tile",    "amx_bf16",    "amx_int8",  "asimd",      "asimdhp",
  "asimddp",     "bf16",        "i8mm",        "sve",       "sve2",       "sme"};

// The first processor's block of a /proc/cpuinfo text; nullopt where it names no vendor (x86's vendor_id
// or Arm's "CPU implementer"). aten_capability is left empty: torch fills it.
std::optional<dataset::CpuIdentity> parse_cpu_identity(std::istream& cpuinfo);

std::optional<dataset::CpuIdentity> read_cpu_identity(const std::filesystem::path& cpuinfo = "/proc/cpuinfo");

} // namespace layerbench::bench
