// SPDX-License-Identifier: MIT
#include "serve/served_root.hpp"

#include "util/file.hpp"

#include <cstdlib>
#include <pwd.h>

namespace fs = std::filesystem;

namespace layerbench::serve {

std::optional<std::string> broad_root(const fs::path& root, const std::vector<fs::path>& homes)
{
  const fs::path served = util::comparable_path(root);
  if (served == served.root_path()) {
    return "it is the file system's root: every readable file of this machine would be served";
  }
  for (const auto& home : homes) {
    const fs::path kept = util::comparable_path(home);
    if (kept == kept.root_path()) {
      continue; // a user whose home is "/" makes no folder a home folder
    }
    if (served == kept || util::is_within(kept, served)) {
      return "it is or holds the home folder " + home.string() + ", whose every readable file would be served";
    }
  }
  return std::nullopt;
}

std::vector<fs::path> home_folders()
{
  std::vector<fs::path> homes;
  if (const char* home = std::getenv("HOME"); home != nullptr && *home != '\0') {
    homes.emplace_back(home);
  }
  ::setpwent();
  while (const passwd* user = ::getpwent()) {
    if ((user->pw_uid == 0 || user->pw_uid >= 1000) && user->pw_dir != nullptr && *user->pw_dir == '/') {
      homes.emplace_back(user->pw_dir);
    }
  }
  ::endpwent();
  return homes;
}

} // namespace layerbench::serve
