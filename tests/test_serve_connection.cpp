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

TEST_CASE("serve::head_problem")
{
  using layerbench::serve::head_problem;
  // "none", or the status and the reason, so that a failure shows what was found.
  const auto verdict = [](const std::string& head) {
    const auto problem = head_problem(head);
    return problem ? std::to_string(problem->status) + " " + problem->reason : std::string("none");
  };

  SUBCASE("a well-formed head, with tabs, any case and an empty value, has none")
  {
    CHECK(verdict(head_with("content-length:\t5\t\r\nX-Empty:\r\nAccept: */*\r\n")) == "none");
    CHECK(verdict("GET / HTTP/1.1\r\nHost: [::1]:8000\r\n\r\n") == "none");
    CHECK(verdict("GET / HTTP/1.1\r\nHost: localhost\r\nX: obs-text \xc3\xa9\r\n\r\n") == "none");
  }
  SUBCASE("whitespace before the colon, which cpp-httplib keeps under another name")
  {
    CHECK(verdict(head_with("Content-Length : 5\r\n"))
          == "400 header line 2 \"Content-Length : 5\" has whitespace in its name or before its colon");
    CHECK(verdict(head_with("Transfer-Encoding\t: chunked\r\n"))
          == "400 header line 2 \"Transfer-Encoding\t: chunked\" has whitespace in its name or before its colon");
  }
  SUBCASE("a line without a colon, with an empty name, or a name that is not a token")
  {
    CHECK(verdict(head_with("Content-Length 5\r\n")) == "400 header line 2 \"Content-Length 5\" has no colon");
    CHECK(verdict(head_with(": 5\r\n")) == "400 header line 2 \": 5\" has no name before its colon");
    CHECK(verdict(head_with("Content(Length): 5\r\n"))
          == "400 header line 2 \"Content(Length): 5\": the name is not a token (RFC 9110 5.6.2)");
  }
  SUBCASE("a folded line (obsolete line folding)")
  {
    CHECK(verdict(head_with("X-A: 1\r\n Content-Length: 5\r\n"))
          == "400 header line 3 \" Content-Length: 5\" starts with whitespace (obsolete line folding)");
  }
  SUBCASE("a NUL, a bare LF or CR, DEL or ESC anywhere")
  {
    CHECK(verdict(head_with(std::string("X-A: a\0b\r\n", 10))) == "400 a control character (0x00) in header line 2");
    CHECK(verdict(head_with("X-A: a\nContent-Length: 5\r\n")) == "400 a control character (0x0a) in header line 2");
    CHECK(verdict(head_with("X-A: a\rb\r\n")) == "400 a control character (0x0d) in header line 2");
    CHECK(verdict(head_with("X-A: \x7f\r\n")) == "400 a control character (0x7f) in header line 2");
    CHECK(verdict("GET /\x1b[2J HTTP/1.1\r\nHost: localhost\r\n\r\n") == "400 a control character (0x1b) in the request line");
  }
  SUBCASE("Host: none on HTTP/1.1, empty, two, or not a host")
  {
    CHECK(verdict("GET / HTTP/1.1\r\nAccept: */*\r\n\r\n") == "400 an HTTP/1.1 request without a Host header");
    CHECK(verdict("GET / HTTP/1.0\r\n\r\n") == "none");
    CHECK(verdict("GET / HTTP/1.1\r\nHost:\r\n\r\n") == "400 an empty Host header");
    CHECK(verdict("GET / HTTP/1.1\r\nHost:   \r\n\r\n") == "400 an empty Host header");
    CHECK(verdict("GET / HTTP/1.0\r\nHost: \r\n\r\n") == "400 an empty Host header");
    CHECK(verdict("GET / HTTP/1.1\r\nHost: localhost\r\nhost: evil.example\r\n\r\n") == "400 2 Host headers; a request has one");
    CHECK(verdict("GET / HTTP/1.1\r\nHost: 127.0.0.1%00.evil.example\r\n\r\n")
          == "400 Host \"127.0.0.1%00.evil.example\" is not a host name and port");
    CHECK(verdict("GET / HTTP/1.1\r\nHost: localhost evil.example\r\n\r\n")
          == "400 Host \"localhost evil.example\" is not a host name and port");
  }
  SUBCASE("a header line over 8 KiB is 431, as the head over 16 KiB is; 8 KiB with its CRLF is not")
  {
    const std::string name = "X-Long: ";
    const std::string fits = name + std::string(8 * 1024 - 2 - name.size(), 'a');
    CHECK(verdict(head_with(fits + "\r\n")) == "none");
    CHECK(verdict(head_with(fits + "a\r\n")) == "431 header line 2 is longer than 8 KiB");
  }
}
