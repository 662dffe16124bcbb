// SPDX-License-Identifier: MIT
// Shared by the serve tests: a small site on disk beside a secret that must never be served, and a raw
// HTTP client for the requests that a normal client would clean up before sending.
#pragma once

#include <arpa/inet.h>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <netinet/in.h>
#include <random>
#include <string>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

namespace layerbench::test {

inline const std::string k_secret = "TOP-SECRET-OUTSIDE-THE-ROOT";

inline void write_text(const std::filesystem::path& path, const std::string& content)
{
  std::filesystem::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << content;
}

// A fresh folder under the system's temporary folder, removed at the end of the test.
class TempDir
{
public:
  TempDir()
  {
    std::random_device device;
    m_path = std::filesystem::temp_directory_path() / ("layerbench-serve-test-" + std::to_string(device()));
    std::filesystem::create_directories(m_path);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  ~TempDir()
  {
    std::error_code ignored;
    std::filesystem::remove_all(m_path, ignored);
  }
  const std::filesystem::path& path() const { return m_path; }

private:
  std::filesystem::path m_path;
};

// <tmp>/site is the root; <tmp>/secret.txt and <tmp>/outside/ sit beside it; symlinks inside the root
// point both inside and outside.
class SiteFixture
{
public:
  SiteFixture()
  {
    namespace fs = std::filesystem;
    const fs::path site = root();
    write_text(site / "index.html", "<!DOCTYPE html><html><head><title>Home</title></head><body><h1>Home page</h1></body></html>\n");
    write_text(site / "404.html", "<!DOCTYPE html><html><body><h1>Custom not found page</h1></body></html>\n");
    write_text(site / "style.css", "body { color: black; }\n");
    write_text(site / "app.js", "console.log('hi');\n");
    write_text(site / "chart.svg", "<svg xmlns=\"http://www.w3.org/2000/svg\"></svg>\n");
    write_text(site / "data.json", "{\"a\": 1}\n");
    write_text(site / "data.csv", "a,b\n1,2\n");
    write_text(site / "image.png", std::string("\x89PNG\r\n\x1a\n", 8));
    write_text(site / "font.woff2", "wOF2");
    write_text(site / "CITATION.cff", "cff-version: 1.2.0\n");
    write_text(site / "notes.txt", "plain text\n");
    write_text(site / "layers" / "index.html", "<html><body>Layers index</body></html>\n");
    write_text(site / ".hidden", "hidden file\n");
    fs::create_directories(site / "empty");
    write_text(m_dir.path() / "secret.txt", k_secret + "\n");
    write_text(m_dir.path() / "outside" / "index.html", k_secret + "\n");
    fs::create_symlink("index.html", site / "link-inside.html");
    fs::create_symlink(m_dir.path() / "secret.txt", site / "link-outside.txt");
    fs::create_symlink("../secret.txt", site / "relative-link-outside.txt");
    fs::create_directory_symlink(m_dir.path() / "outside", site / "folder-outside");
  }

  std::filesystem::path root() const { return m_dir.path() / "site"; }
  std::filesystem::path base() const { return m_dir.path(); }

private:
  TempDir m_dir;
};

struct RawResponse
{
  int status = 0;
  std::string head;
  std::string body;
};

// A socket connected to 127.0.0.1:port whose reads give up after `timeout`; -1 when it cannot connect.
// A `receive_window` in bytes keeps the window that small (no autotuning), as a slow reader's stays.
inline int connect_loopback(int port, timeval timeout = {5, 0}, int receive_window = 0)
{
  const int sock = ::socket(AF_INET, SOCK_STREAM, 0);
  ::setsockopt(sock, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof(timeout));
  if (receive_window > 0) {
    ::setsockopt(sock, SOL_SOCKET, SO_RCVBUF, &receive_window, sizeof(receive_window));
  }
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<uint16_t>(port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(sock, reinterpret_cast<sockaddr*>(&address), sizeof(address)) != 0) {
    ::close(sock);
    return -1;
  }
  return sock;
}

inline bool send_all(int sock, const std::string& bytes)
{
  size_t sent = 0;
  while (sent < bytes.size()) {
    const ssize_t n = ::send(sock, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
    if (n <= 0) {
      return false;
    }
    sent += static_cast<size_t>(n);
  }
  return true;
}

// Everything the server sends on `sock` until it closes the connection or the read times out.
inline std::string receive_all(int sock)
{
  std::string received;
  char buffer[4096];
  while (true) {
    const ssize_t n = ::recv(sock, buffer, sizeof(buffer), 0);
    if (n <= 0) {
      return received;
    }
    received.append(buffer, static_cast<size_t>(n));
  }
}

// Sends `request` byte for byte to 127.0.0.1:port and reads until the server closes the connection.
inline RawResponse raw_request(int port, const std::string& request)
{
  RawResponse response;
  const int sock = connect_loopback(port);
  if (sock < 0) {
    return response;
  }
  send_all(sock, request);
  const std::string received = receive_all(sock);
  ::close(sock);
  const size_t end_of_head = received.find("\r\n\r\n");
  response.head = received.substr(0, end_of_head);
  response.body = end_of_head == std::string::npos ? "" : received.substr(end_of_head + 4);
  if (received.rfind("HTTP/1.1 ", 0) == 0 && received.size() >= 12) {
    response.status = std::stoi(received.substr(9, 3));
  }
  return response;
}

// A GET with `target` written exactly as given, for paths a client library would normalise.
inline RawResponse raw_get(int port, const std::string& target)
{
  return raw_request(port, "GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
}

} // namespace layerbench::test
