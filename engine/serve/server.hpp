// SPDX-License-Identifier: MIT
#pragma once

#include "serve/event_hub.hpp"
#include "serve/socket_address.hpp"

#include <chrono>
#include <filesystem>
#include <memory>
#include <string>

namespace layerbench::serve {

enum class LiveReload { off, on };

struct ServeOptions
{
  std::filesystem::path root = "site";
  std::string host = "127.0.0.1"; // loopback: a preview is not for the network unless asked
  int port = 8000;                // 0 picks a free one; bind() says which
  LiveReload live_reload = LiveReload::on;
  // How long, in all, one response may wait for a client that does not read it (Connection::start_response).
  std::chrono::milliseconds send_patience{5000};
};

// Serves the files under a root folder, read-only, to GET and HEAD; with live reload it also streams
// reload events to open pages and adds the script that listens to them to every HTML response (the
// files on disk are never changed). Paths are resolved by resolve_target, not by cpp-httplib's mount
// points, so that one function decides what may leave the root.
class PreviewServer
{
public:
  explicit PreviewServer(ServeOptions options);
  PreviewServer(const PreviewServer&) = delete;
  PreviewServer& operator=(const PreviewServer&) = delete;
  ~PreviewServer();

  // Binds the listening socket and returns the port. Throws Error naming host and port when it
  // cannot (address in use, unknown host, no permission, an empty host). The address bound, not the
  // name given for it, decides whether requests must name this machine in their Host (loopback).
  int bind();

  // Serves until stop(); call bind() first.
  void run();

  // Ends run() from any thread (a signal handler's thread): pages streaming events are released first.
  void stop();

  // "http://127.0.0.1:8000/", of the address bound (host "127.1" shows 127.0.0.1), valid after bind().
  std::string url() const;
  // The address bound, valid after bind().
  const SocketAddress& address() const;

  EventHub& events();

private:
  struct Impl;
  std::unique_ptr<Impl> m_impl;
};

// "127.0.0.1", "::1", "localhost" and names under ".localhost".
bool is_loopback_host(const std::string& host);

// Whether a request's Host header names this machine by a loopback name. A server bound to loopback
// answers only those, so that a web page whose own name was rebound to 127.0.0.1 (DNS rebinding)
// cannot read the preview. An absent header (HTTP/1.0) is allowed.
bool is_loopback_authority(const std::string& host_header);

} // namespace layerbench::serve
