// SPDX-License-Identifier: MIT
// Placeholder so the library has a source until engine/serve lands.
namespace layerbench::serve {
}
