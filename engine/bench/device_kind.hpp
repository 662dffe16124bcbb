// SPDX-License-Identifier: MIT
#pragma once

// The kinds of device LayerBench measures on, in its own words: the support rules, the presets, the
// default settings and the backends speak of these, never of torch's device types.

namespace layerbench::bench {

enum class DeviceKind { cpu, cuda };

} // namespace layerbench::bench
