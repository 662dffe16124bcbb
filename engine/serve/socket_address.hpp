// SPDX-License-Identifier: MIT
#pragma once

#include <string>

namespace layerbench::serve {

// Whether an address is reachable from this machine only.
enum class Reach { loopback, network };

// One end of a socket, as the kernel reports it: the address actually bound or connected, whatever
// name was given for it ("127.1", "0x7f.1" and "localhost" all bind 127.0.0.1 or ::1).
struct SocketAddress
{
  std::string ip; // numeric, as inet_ntop writes it ("127.0.0.1", "::1"); "" when unknown
  int port = 0;
  Reach reach = Reach::network; // loopback for 127.0.0.0/8, ::1 and ::ffff:127.0.0.0/104
};

SocketAddress local_address(int socket);
SocketAddress remote_address(int socket);

// "127.0.0.1:8000" or "[::1]:8000".
std::string authority(const SocketAddress& address);

} // namespace layerbench::serve
