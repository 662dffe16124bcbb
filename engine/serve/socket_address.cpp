// SPDX-License-Identifier: MIT
#include "serve/socket_address.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

namespace layerbench::serve {

namespace {

SocketAddress from_storage(const sockaddr_storage& address)
{
  SocketAddress result;
  char text[INET6_ADDRSTRLEN] = "";
  if (address.ss_family == AF_INET) {
    const auto& v4 = reinterpret_cast<const sockaddr_in&>(address);
    ::inet_ntop(AF_INET, &v4.sin_addr, text, sizeof(text));
    result.port = ntohs(v4.sin_port);
    result.reach = (ntohl(v4.sin_addr.s_addr) >> 24) == 127 ? Reach::loopback : Reach::network;
  } else if (address.ss_family == AF_INET6) {
    const auto& v6 = reinterpret_cast<const sockaddr_in6&>(address);
    ::inet_ntop(AF_INET6, &v6.sin6_addr, text, sizeof(text));
    result.port = ntohs(v6.sin6_port);
    const bool mapped_loopback = IN6_IS_ADDR_V4MAPPED(&v6.sin6_addr) && v6.sin6_addr.s6_addr[12] == 127;
    result.reach = IN6_IS_ADDR_LOOPBACK(&v6.sin6_addr) || mapped_loopback ? Reach::loopback : Reach::network;
  }
  result.ip = text;
  return result;
}

// getsockname or getpeername.
SocketAddress ask(int socket, int (*name)(int, sockaddr*, socklen_t*))
{
  sockaddr_storage address{};
  socklen_t length = sizeof(address);
  if (name(socket, reinterpret_cast<sockaddr*>(&address), &length) != 0) {
    return {};
  }
  return from_storage(address);
}

} // namespace

SocketAddress local_address(int socket) { return ask(socket, ::getsockname); }

SocketAddress remote_address(int socket) { return ask(socket, ::getpeername); }

std::string authority(const SocketAddress& address)
{
  const bool v6 = address.ip.find(':') != std::string::npos;
  return (v6 ? "[" + address.ip + "]" : address.ip) + ":" + std::to_string(address.port);
}

} // namespace layerbench::serve
