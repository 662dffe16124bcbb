// SPDX-License-Identifier: MIT
#pragma once

// A TCP port held by the test itself: to check that a port is free, or to make one busy.

#include <cstdint>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

namespace layerbench::test {

// A socket bound to `address` (INADDR_LOOPBACK, INADDR_ANY) and `port`, listening; -1 where it cannot
// be bound. The caller closes it.
inline int listen_on(uint32_t address, int port)
{
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in socket_address{};
  socket_address.sin_family = AF_INET;
  socket_address.sin_addr.s_addr = htonl(address);
  socket_address.sin_port = htons(static_cast<uint16_t>(port));
  if (::bind(fd, reinterpret_cast<sockaddr*>(&socket_address), sizeof socket_address) != 0 || ::listen(fd, 1) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

} // namespace layerbench::test
