// SPDX-License-Identifier: MIT
#pragma once

// Which folders a preview may serve. `serve --root /` would hand every readable file of the machine
// to any browser tab (and with --host 0.0.0.0 to the network); a home folder holds keys and mail.

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace layerbench::serve {

// Why `root` is too broad to serve: it is "/", or it is or holds one of `homes`. nullopt otherwise.
std::optional<std::string> broad_root(const std::filesystem::path& root, const std::vector<std::filesystem::path>& homes);

// The home folders of this machine that broad_root protects: $HOME, root's, and those of the login
// users in the password database (uid 1000 and up).
std::vector<std::filesystem::path> home_folders();

} // namespace layerbench::serve
