// SPDX-License-Identifier: MIT
// What the site loads from the real data/: the title each dataset is shown with. Datasets are never
// edited, so the site works out a title that tells each apart from those of the same recorded title.
#include "site/site_data.hpp"

#include "site/view_common.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <map>
#include <string>

namespace fs = std::filesystem;
namespace site = layerbench::site;

TEST_CASE("site::load_site_data")
{
  site::RenderOptions options;
  options.data_dir = fs::path(LAYERBENCH_SOURCE_DIR) / "data";
  const auto data = site::load_site_data(options);

  SUBCASE("every dataset's shown title is its own, and a release's names the release")
  {
    std::map<std::string, std::string> seen; // full title -> slug
    size_t releases = 0;
    for (const site::SiteDataset* entry : site::dataset_files(data)) {
      const std::string title = site::dataset_full_title(*entry);
      CAPTURE(title);
      const auto [where, added] = seen.emplace(title, entry->slug);
      CHECK_MESSAGE(added, entry->slug << " shares its title with " << where->second);
      // Published, a dataset is no longer "a local run", as `run` titled it.
      CHECK(title.find("(local run)") == std::string::npos);
      if (entry->data.id.find("-torch-") != std::string::npos) {
        ++releases;
        CHECK(title.find("torch " + entry->data.environment->torch_version) != std::string::npos);
      }
    }
    CHECK(releases >= 2);
  }
  SUBCASE("a title shared by nobody is shown as recorded")
  {
    for (const auto& entry : data.datasets) {
      if (entry.data.id == "cpu-epyc-2vcpu-fp32" && entry.data.version == 2) {
        CHECK(site::dataset_title(entry) == entry.data.title);
      }
    }
  }
}
