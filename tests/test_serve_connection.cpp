// SPDX-License-Identifier: MIT
#include "serve/connection.hpp"

#include <doctest/doctest.h>

using layerbench::serve::body_framing;
using Kind = layerbench::serve::BodyFraming::Kind;

namespace {

std::string head_with(const std::string& headers)
{
  return "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n" + headers + "\r\n";
}

} // namespace

TEST_CASE("serve::body_framing")
{
  SUBCASE("no body headers: no body")
  {
    CHECK(body_framing(head_with("")).kind == Kind::none);
  }
  SUBCASE("one length, in any case, or the same length repeated")
  {
    const auto one = body_framing(head_with("content-LENGTH:  12 \r\n"));
    CHECK(one.kind == Kind::length);
    CHECK(one.length == 12);
    const auto repeated = body_framing(head_with("Content-Length: 7, 7\r\nContent-Length: 7\r\n"));
    CHECK(repeated.kind == Kind::length);
    CHECK(repeated.length == 7);
  }
  SUBCASE("two lengths that differ, on two lines or in one list")
  {
    const auto lines = body_framing(head_with("Content-Length: 0\r\nContent-Length: 44\r\n"));
    CHECK(lines.kind == Kind::invalid);
    CHECK(lines.problem == "conflicting Content-Length headers (0 and 44)");
    CHECK(body_framing(head_with("Content-Length: 1, 2\r\n")).kind == Kind::invalid);
  }
  SUBCASE("a length that is not a number of bytes")
  {
    for (const std::string value : {"", "-1", "+5", "5x", "0x10", "1 2", "99999999999999999999"}) {
      CAPTURE(value);
      const auto framing = body_framing(head_with("Content-Length: " + value + "\r\n"));
      CHECK(framing.kind == Kind::invalid);
      CHECK(framing.problem == "Content-Length \"" + value + "\" is not a number of bytes");
    }
  }
  SUBCASE("Transfer-Encoding alone is chunked; beside Content-Length it is refused")
  {
    CHECK(body_framing(head_with("Transfer-Encoding: chunked\r\n")).kind == Kind::chunked);
    const auto both = body_framing(head_with("Transfer-Encoding: chunked\r\nContent-Length: 5\r\n"));
    CHECK(both.kind == Kind::invalid);
    CHECK(both.problem == "both Transfer-Encoding and Content-Length");
  }
}
