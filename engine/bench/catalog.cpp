// SPDX-License-Identifier: MIT
namespace layerbench::bench {
}
