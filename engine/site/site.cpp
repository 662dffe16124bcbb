// SPDX-License-Identifier: MIT
// Placeholder so the library has a source until engine/site lands.
namespace layerbench::site {
}
