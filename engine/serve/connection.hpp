// SPDX-License-Identifier: MIT
#pragma once

#include <httplib.h>

#include <chrono>
#include <cstddef>
#include <optional>
#include <string>

namespace layerbench::serve {

// One client connection, read by LayerBench rather than by cpp-httplib, which (0.11) restarts its read
// timeout on every byte (a trickling client holds a thread for ever), drops the bytes of pipelined
// requests that it has buffered, and cannot answer methods it does not know. The connection reads one
// request head at a time, within a time and size bound, and keeps what follows it for the next request.
class Connection
{
public:
  explicit Connection(int socket);

  enum class Head { complete, closed, too_slow, too_large };

  // Reads up to the end of the next request's head. The first byte may take up to `idle`; the whole
  // head must then arrive within `head_time` and `max_bytes`.
  Head read_head(std::chrono::milliseconds idle, std::chrono::milliseconds head_time, std::size_t max_bytes);

  // The head read last, from its request line to its blank line.
  const std::string& head() const { return m_head; }

  // Drops `bytes` of request body that follow the head, reading them from the socket where needed.
  // False when they do not arrive in time.
  bool skip_body(std::size_t bytes, std::chrono::milliseconds time);

  // A client that reads slowly holds a worker thread. Each response may wait for the client to take
  // its bytes for `patience` in all (nginx's send_timeout bounds each wait; summed, as a slow reader
  // here holds a thread, not an event). Streams that never fill the socket never wait.
  void start_response(std::chrono::milliseconds patience);
  // Whether the client kept the current response waiting for more than a quarter of its patience:
  // such a connection is closed after it, so that pipelined requests cannot hold a worker response
  // after response. A client that reads as fast as it can waits far less, even for a large file.
  bool kept_waiting() const { return m_waited * 4 > m_patience; }
  // Until the socket takes bytes, within the response's patience; false when it is spent.
  bool wait_writable();

  // Sends what the socket takes now, after waiting for room within the response's patience: the
  // count sent, or -1 when the patience is spent or the client is gone. Never blocks in send(2),
  // where no patience would be counted.
  ssize_t send_some(const char* data, std::size_t size);
  bool write_all(const std::string& bytes);
  int socket() const { return m_socket; }

  // Whether the client has closed its end. Only for a response that expects nothing more from the
  // client (an event stream): one that half-closes after sending its request looks the same.
  bool peer_closed() const;

private:
  bool fill(std::chrono::steady_clock::time_point deadline);

  int m_socket;
  std::chrono::milliseconds m_patience{0};
  std::chrono::steady_clock::duration m_waited{};
  std::string m_buffer; // bytes read from the socket and not yet taken as a head or body
  std::string m_head;
};

// A cpp-httplib stream that reads exactly one request head and writes to the connection's socket, so
// that cpp-httplib parses and answers a request that Connection has already read.
class HeadStream : public httplib::Stream
{
public:
  HeadStream(Connection& connection, std::string head);

  bool is_readable() const override;
  bool is_writable() const override;
  ssize_t read(char* ptr, size_t size) override;
  ssize_t write(const char* ptr, size_t size) override;
  void get_remote_ip_and_port(std::string& ip, int& port) const override;
  void get_local_ip_and_port(std::string& ip, int& port) const override;
  socket_t socket() const override;

private:
  Connection& m_connection;
  std::string m_head;
  std::size_t m_read = 0;
};

// A request head that must be refused before cpp-httplib parses it, and the status to refuse it with.
// cpp-httplib keeps what it does not understand: it stores "Content-Length : 5" under the name
// "Content-Length " and skips a line without a colon or one ending in a bare LF, so body_framing and
// cpp-httplib would read two different requests, and a body would be answered as the next request
// (request smuggling). RFC 9112 5.1 and 3.2 say such requests get 400.
struct HeadProblem
{
  int status = 400;
  std::string reason;
};

// A header line may hold at most this many bytes with its CRLF: cpp-httplib 0.11 refuses a longer one
// with a bare 400 (CPPHTTPLIB_HEADER_MAX_LENGTH, compiled into Debian's library), where the head as a
// whole gets 431.
constexpr std::size_t k_max_header_line_bytes = 8 * 1024;

// What is wrong with a request head, or nullopt when it may be answered: a control character other
// than HTAB anywhere (NUL, a bare CR or LF), a header line over k_max_header_line_bytes (431), one that
// starts with whitespace (obsolete folding), has no colon, or a name that is not a token (whitespace
// before the colon); more than one Host, an empty one, one that is not a host name, or none on HTTP/1.1.
std::optional<HeadProblem> head_problem(const std::string& head);

// The method of a request head ("GET"), or "" when it has no request line.
std::string request_method(const std::string& head);

// The value of a header in a request head (names compared without case), or "" when absent.
std::string header_value(const std::string& head, const std::string& name);

// How a request's body ends (RFC 9112 6.3): a GET may carry one too, and its bytes must never be read
// as the next request. Transfer-Encoding with Content-Length, a Content-Length that is not one number,
// or two that disagree, are `invalid`: a proxy in front could take another length than ours.
struct BodyFraming
{
  enum class Kind { none, length, chunked, invalid };
  Kind kind = Kind::none;
  std::size_t length = 0; // Kind::length
  std::string problem;    // Kind::invalid
};
BodyFraming body_framing(const std::string& head);

// The head without its Range headers: the server sends whole files, with 200, and says so with
// "Accept-Ranges: none".
std::string without_range(const std::string& head);

} // namespace layerbench::serve
