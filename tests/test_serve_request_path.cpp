// SPDX-License-Identifier: MIT
#include "serve/request_path.hpp"

#include "test_serve_fixture.hpp"

#include <doctest/doctest.h>

using layerbench::serve::resolve_target;
using layerbench::serve::Verdict;

TEST_CASE("serve::resolve_target")
{
  const layerbench::test::SiteFixture site;
  const auto root = std::filesystem::canonical(site.root());

  SUBCASE("a file is found by its path, the query ignored")
  {
    const auto resolution = resolve_target(site.root(), "/style.css?v=3");
    CHECK(resolution.verdict == Verdict::file);
    CHECK(resolution.file == root / "style.css");
  }
  SUBCASE("a folder with its slash gives its index.html")
  {
    const auto resolution = resolve_target(site.root(), "/layers/");
    CHECK(resolution.verdict == Verdict::file);
    CHECK(resolution.file == root / "layers" / "index.html");
  }
  SUBCASE("the root gives index.html")
  {
    CHECK(resolve_target(site.root(), "/").file == root / "index.html");
  }
  SUBCASE("a folder without its slash redirects to it")
  {
    const auto resolution = resolve_target(site.root(), "/layers?x=1");
    CHECK(resolution.verdict == Verdict::redirect);
    CHECK(resolution.location == "/layers/");
  }
  SUBCASE("a protocol-relative looking path never becomes an open redirect")
  {
    const auto resolution = resolve_target(site.root(), "//layers");
    CHECK(resolution.verdict == Verdict::redirect);
    CHECK(resolution.location == "/layers/");
  }
  SUBCASE("a folder without index.html is not listed")
  {
    CHECK(resolve_target(site.root(), "/empty/").verdict == Verdict::not_found);
  }
  SUBCASE("percent escapes are decoded once")
  {
    layerbench::test::write_text(site.root() / "a b.txt", "spaced");
    CHECK(resolve_target(site.root(), "/a%20b.txt").file == root / "a b.txt");
  }
  SUBCASE("dot-dot is refused, plain or encoded")
  {
    for (const std::string target : {"/../secret.txt", "/layers/../../secret.txt", "/%2e%2e/secret.txt",
                                     "/%2E%2E%2Fsecret.txt", "/..%2fsecret.txt"}) {
      CAPTURE(target);
      CHECK(resolve_target(site.root(), target).verdict == Verdict::bad_request);
    }
  }
  SUBCASE("double-encoded traversal is refused, not decoded twice")
  {
    CHECK(resolve_target(site.root(), "/%252e%252e/secret.txt").verdict == Verdict::bad_request);
  }
  SUBCASE("backslashes, NUL bytes and control characters are refused")
  {
    CHECK(resolve_target(site.root(), "/..\\secret.txt").verdict == Verdict::bad_request);
    CHECK(resolve_target(site.root(), "/%5c..%5csecret.txt").verdict == Verdict::bad_request);
    CHECK(resolve_target(site.root(), "/index.html%00.png").verdict == Verdict::bad_request);
    CHECK(resolve_target(site.root(), "/index%0a.html").verdict == Verdict::bad_request);
  }
  SUBCASE("overlong UTF-8 for '.' and '/' is refused")
  {
    CHECK(resolve_target(site.root(), "/%c0%ae%c0%ae/secret.txt").verdict == Verdict::bad_request);
    CHECK(resolve_target(site.root(), "/..%c0%afsecret.txt").verdict == Verdict::bad_request);
  }
  SUBCASE("malformed escapes are refused")
  {
    CHECK(resolve_target(site.root(), "/index.html%").verdict == Verdict::bad_request);
    CHECK(resolve_target(site.root(), "/index.html%2").verdict == Verdict::bad_request);
    CHECK(resolve_target(site.root(), "/index.html%zz").verdict == Verdict::bad_request);
  }
  SUBCASE("absolute URLs and other non-paths are refused")
  {
    CHECK(resolve_target(site.root(), "http://example.com/index.html").verdict == Verdict::bad_request);
    CHECK(resolve_target(site.root(), "*").verdict == Verdict::bad_request);
    CHECK(resolve_target(site.root(), "").verdict == Verdict::bad_request);
  }
  SUBCASE("an absolute file system path stays under the root")
  {
    CHECK(resolve_target(site.root(), "//etc/passwd").verdict == Verdict::not_found);
    CHECK(resolve_target(site.root(), "/" + (site.base() / "secret.txt").string()).verdict == Verdict::not_found);
  }
  SUBCASE("an overlong target is refused before any file system access")
  {
    const std::string target = "/" + std::string(layerbench::serve::k_max_target_length, 'a');
    CHECK(resolve_target(site.root(), target).verdict == Verdict::too_long);
  }
  SUBCASE("a symlink inside the root is followed")
  {
    CHECK(resolve_target(site.root(), "/link-inside.html").file == root / "index.html");
  }
  SUBCASE("symlinks that leave the root are not followed")
  {
    CHECK(resolve_target(site.root(), "/link-outside.txt").verdict == Verdict::not_found);
    CHECK(resolve_target(site.root(), "/relative-link-outside.txt").verdict == Verdict::not_found);
    CHECK(resolve_target(site.root(), "/folder-outside/").verdict == Verdict::not_found);
    CHECK(resolve_target(site.root(), "/folder-outside/index.html").verdict == Verdict::not_found);
  }
  SUBCASE("hidden files are not served")
  {
    CHECK(resolve_target(site.root(), "/.hidden").verdict == Verdict::not_found);
  }
  SUBCASE("a missing file and a missing root are not found")
  {
    CHECK(resolve_target(site.root(), "/nothing.html").verdict == Verdict::not_found);
    CHECK(resolve_target(site.base() / "no-such-root", "/index.html").verdict == Verdict::not_found);
  }
}
