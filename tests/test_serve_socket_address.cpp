// SPDX-License-Identifier: MIT
#include "serve/socket_address.hpp"

#include <arpa/inet.h>
#include <doctest/doctest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

using layerbench::serve::authority;
using layerbench::serve::local_address;
using layerbench::serve::Reach;

namespace {

// A socket bound (never listening, so nothing can reach it) to `address` on a free port; -1 when the
// machine has no such address.
int bound_socket(int family, const char* address)
{
  const int sock = ::socket(family, SOCK_STREAM, 0);
  sockaddr_storage storage{};
  socklen_t length = 0;
  if (family == AF_INET) {
    auto& v4 = reinterpret_cast<sockaddr_in&>(storage);
    v4.sin_family = AF_INET;
    ::inet_pton(AF_INET, address, &v4.sin_addr);
    length = sizeof(v4);
  } else {
    auto& v6 = reinterpret_cast<sockaddr_in6&>(storage);
    v6.sin6_family = AF_INET6;
    ::inet_pton(AF_INET6, address, &v6.sin6_addr);
    length = sizeof(v6);
  }
  if (sock < 0 || ::bind(sock, reinterpret_cast<sockaddr*>(&storage), length) != 0) {
    if (sock >= 0) {
      ::close(sock);
    }
    return -1;
  }
  return sock;
}

} // namespace

TEST_CASE("serve::local_address")
{
  SUBCASE("127.0.0.0/8 is loopback, with its port")
  {
    for (const char* address : {"127.0.0.1", "127.0.0.2"}) {
      CAPTURE(address);
      const int sock = bound_socket(AF_INET, address);
      REQUIRE(sock >= 0);
      const auto bound = local_address(sock);
      ::close(sock);
      CHECK(bound.ip == address);
      CHECK(bound.port > 0);
      CHECK(bound.reach == Reach::loopback);
      CHECK(authority(bound) == std::string(address) + ":" + std::to_string(bound.port));
    }
  }
  SUBCASE("the wildcard address is the network")
  {
    const int sock = bound_socket(AF_INET, "0.0.0.0");
    REQUIRE(sock >= 0);
    const auto bound = local_address(sock);
    ::close(sock);
    CHECK(bound.ip == "0.0.0.0");
    CHECK(bound.reach == Reach::network);
  }
  SUBCASE("::1 is loopback, in brackets in an authority")
  {
    const int sock = bound_socket(AF_INET6, "::1");
    if (sock < 0) {
      MESSAGE("skipped: this machine has no IPv6 loopback");
      return;
    }
    const auto bound = local_address(sock);
    ::close(sock);
    CHECK(bound.reach == Reach::loopback);
    CHECK(authority(bound) == "[::1]:" + std::to_string(bound.port));
  }
  SUBCASE("a socket that is not one gives nothing")
  {
    CHECK(local_address(-1).ip.empty());
  }
}
