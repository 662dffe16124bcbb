// SPDX-License-Identifier: MIT
#include "serve/connection.hpp"

#include "serve/socket_address.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <vector>

namespace layerbench::serve {

namespace {

const std::string k_end_of_head = "\r\n\r\n";

int milliseconds_until(std::chrono::steady_clock::time_point deadline)
{
  // Rounded up: rounded down, the last wait would end just before the deadline and a slow client would read as
  // one that closed (no 408).
  const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
  return static_cast<int>(std::max<std::chrono::milliseconds::rep>(0, left.count()));
}

bool wait_for(int socket, short events, int timeout_ms)
{
  pollfd entry{socket, events, 0};
  int ready = 0;
  do {
    ready = ::poll(&entry, 1, timeout_ms);
  } while (ready < 0 && errno == EINTR);
  return ready > 0;
}

std::string lower(std::string text)
{
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

std::string trim(const std::string& text)
{
  const auto first = text.find_first_not_of(" \t");
  if (first == std::string::npos) {
    return "";
  }
  return text.substr(first, text.find_last_not_of(" \t") - first + 1);
}

} // namespace

Connection::Connection(int socket) : m_socket(socket) {}

bool Connection::fill(std::chrono::steady_clock::time_point deadline)
{
  if (!wait_for(m_socket, POLLIN, milliseconds_until(deadline))) {
    return false;
  }
  char chunk[4096];
  const ssize_t got = ::recv(m_socket, chunk, sizeof(chunk), 0);
  if (got <= 0) {
    return false;
  }
  m_buffer.append(chunk, static_cast<std::size_t>(got));
  return true;
}

Connection::Head Connection::read_head(std::chrono::milliseconds idle, std::chrono::milliseconds head_time,
                                       std::size_t max_bytes)
{
  m_head.clear();
  // Blank lines between requests are allowed (RFC 9112 2.2).
  while (m_buffer.rfind("\r\n", 0) == 0) {
    m_buffer.erase(0, 2);
  }
  if (m_buffer.empty() && !fill(std::chrono::steady_clock::now() + idle)) {
    return Head::closed;
  }
  const auto deadline = std::chrono::steady_clock::now() + head_time;
  while (true) {
    const auto end = m_buffer.find(k_end_of_head);
    if (end != std::string::npos && end + k_end_of_head.size() <= max_bytes) {
      m_head = m_buffer.substr(0, end + k_end_of_head.size());
      m_buffer.erase(0, m_head.size());
      return Head::complete;
    }
    if (m_buffer.size() >= max_bytes) {
      return Head::too_large;
    }
    if (std::chrono::steady_clock::now() >= deadline) {
      return Head::too_slow;
    }
    if (!fill(deadline)) {
      return std::chrono::steady_clock::now() >= deadline ? Head::too_slow : Head::closed;
    }
  }
}

bool Connection::skip_body(std::size_t bytes, std::chrono::milliseconds time)
{
  const auto deadline = std::chrono::steady_clock::now() + time;
  while (m_buffer.size() < bytes) {
    if (!fill(deadline)) {
      return false;
    }
  }
  m_buffer.erase(0, bytes);
  return true;
}

bool Connection::peer_closed() const
{
  pollfd entry{m_socket, POLLIN | POLLRDHUP, 0};
  if (::poll(&entry, 1, 0) <= 0) {
    return false;
  }
  if ((entry.revents & (POLLRDHUP | POLLHUP | POLLERR)) != 0) {
    return true;
  }
  char byte = 0;
  return ::recv(m_socket, &byte, 1, MSG_PEEK | MSG_DONTWAIT) == 0;
}

void Connection::start_response(std::chrono::milliseconds patience)
{
  m_patience = patience;
  m_waited = {};
}

bool Connection::wait_writable()
{
  if (wait_for(m_socket, POLLOUT, 0)) {
    return true;
  }
  const auto start = std::chrono::steady_clock::now();
  const auto left = m_patience - m_waited;
  if (left <= std::chrono::steady_clock::duration::zero()) {
    return false;
  }
  const bool ready = wait_for(m_socket, POLLOUT, milliseconds_until(start + left));
  m_waited += std::chrono::steady_clock::now() - start;
  return ready;
}

ssize_t Connection::send_some(const char* data, std::size_t size)
{
  while (true) {
    if (!wait_writable()) {
      return -1;
    }
    const ssize_t wrote = ::send(m_socket, data, size, MSG_NOSIGNAL | MSG_DONTWAIT);
    if (wrote >= 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)) {
      return wrote;
    }
  }
}

bool Connection::write_all(const std::string& bytes)
{
  std::size_t sent = 0;
  while (sent < bytes.size()) {
    const ssize_t wrote = send_some(bytes.data() + sent, bytes.size() - sent);
    if (wrote <= 0) {
      return false;
    }
    sent += static_cast<std::size_t>(wrote);
  }
  return true;
}

HeadStream::HeadStream(Connection& connection, std::string head) : m_connection(connection), m_head(std::move(head)) {}

bool HeadStream::is_readable() const { return m_read < m_head.size(); }

bool HeadStream::is_writable() const { return m_connection.wait_writable(); }

ssize_t HeadStream::read(char* ptr, size_t size)
{
  const std::size_t count = std::min(size, m_head.size() - m_read);
  std::copy_n(m_head.data() + m_read, count, ptr);
  m_read += count;
  return static_cast<ssize_t>(count);
}

ssize_t HeadStream::write(const char* ptr, size_t size) { return m_connection.send_some(ptr, size); }

void HeadStream::get_remote_ip_and_port(std::string& ip, int& port) const
{
  const SocketAddress address = remote_address(m_connection.socket());
  ip = address.ip;
  port = address.port;
}

void HeadStream::get_local_ip_and_port(std::string& ip, int& port) const
{
  const SocketAddress address = local_address(m_connection.socket());
  ip = address.ip;
  port = address.port;
}

socket_t HeadStream::socket() const { return m_connection.socket(); }

std::string request_method(const std::string& head)
{
  const auto space = head.find(' ');
  const auto line_end = head.find("\r\n");
  if (space == std::string::npos || space > line_end) {
    return "";
  }
  return head.substr(0, space);
}

namespace {

// Every value of a header, in order, one per line it appears on.
std::vector<std::string> header_values(const std::string& head, const std::string& name)
{
  const std::string wanted = lower(name) + ":";
  std::vector<std::string> values;
  std::size_t line = head.find("\r\n");
  while (line != std::string::npos && line + 2 < head.size()) {
    const std::size_t start = line + 2;
    const std::size_t end = head.find("\r\n", start);
    const std::string text = head.substr(start, end - start);
    if (lower(text.substr(0, wanted.size())) == wanted) {
      values.push_back(trim(text.substr(wanted.size())));
    }
    line = end;
  }
  return values;
}

BodyFraming invalid_framing(const std::string& problem)
{
  BodyFraming framing;
  framing.kind = BodyFraming::Kind::invalid;
  framing.problem = problem;
  return framing;
}

bool is_control(unsigned char c) { return (c < 0x20 && c != '\t') || c == 0x7f; }

// RFC 9110 5.6.2.
bool is_token_char(unsigned char c)
{
  return std::isalnum(c) != 0 || (c != 0 && std::strchr("!#$%&'*+-.^_`|~", c) != nullptr);
}

// A Host is a name, an IPv4 address or a bracketed IPv6 one, and a port. Percent escapes are valid
// in a name (RFC 3986) but no browser sends them, and cpp-httplib decodes them: "127.0.0.1%00.example"
// would reach the loopback check as "127.0.0.1".
bool is_host_text(const std::string& value)
{
  return std::all_of(value.begin(), value.end(), [](unsigned char c) {
    return std::isalnum(c) != 0 || (c != 0 && std::strchr("-._~!$&'()*+,;=:[]", c) != nullptr);
  });
}

// A line of a refused head as the 400 answer quotes it: at most 60 bytes, control bytes as \xNN.
std::string quoted(const std::string& line)
{
  std::string text;
  for (const unsigned char c : line.substr(0, 60)) {
    if (is_control(c)) {
      char escaped[8];
      std::snprintf(escaped, sizeof(escaped), "\\x%02x", c);
      text += escaped;
    } else {
      text += static_cast<char>(c);
    }
  }
  return "\"" + text + (line.size() > 60 ? "...\"" : "\"");
}

// The lines of a head, without their CRLF and without the blank line that ends it.
std::vector<std::string> head_lines(const std::string& head)
{
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start < head.size()) {
    const std::size_t end = std::min(head.find("\r\n", start), head.size());
    if (end == start) {
      break;
    }
    lines.push_back(head.substr(start, end - start));
    start = end + 2;
  }
  return lines;
}

std::optional<HeadProblem> header_line_problem(const std::string& line, std::size_t number)
{
  const std::string where = "header line " + std::to_string(number) + " ";
  if (line.size() + 2 > k_max_header_line_bytes) {
    return HeadProblem{431, where + "is longer than " + std::to_string(k_max_header_line_bytes / 1024) + " KiB"};
  }
  if (line.front() == ' ' || line.front() == '\t') {
    return HeadProblem{400, where + quoted(line) + " starts with whitespace (obsolete line folding)"};
  }
  const std::size_t colon = line.find(':');
  if (colon == std::string::npos) {
    return HeadProblem{400, where + quoted(line) + " has no colon"};
  }
  const std::string name = line.substr(0, colon);
  if (name.empty()) {
    return HeadProblem{400, where + quoted(line) + " has no name before its colon"};
  }
  if (name.find_first_of(" \t") != std::string::npos) {
    return HeadProblem{400, where + quoted(line) + " has whitespace in its name or before its colon"};
  }
  if (!std::all_of(name.begin(), name.end(), is_token_char)) {
    return HeadProblem{400, where + quoted(line) + ": the name is not a token (RFC 9110 5.6.2)"};
  }
  return std::nullopt;
}

} // namespace

std::optional<HeadProblem> head_problem(const std::string& head)
{
  const auto lines = head_lines(head);
  for (std::size_t number = 0; number < lines.size(); ++number) {
    const auto control = std::find_if(lines[number].begin(), lines[number].end(), is_control);
    if (control != lines[number].end()) {
      char byte[8];
      std::snprintf(byte, sizeof(byte), "0x%02x", static_cast<unsigned char>(*control));
      return HeadProblem{400, "a control character (" + std::string(byte) + ") in "
                                + (number == 0 ? std::string("the request line") : "header line " + std::to_string(number))};
    }
    if (number > 0) {
      if (auto problem = header_line_problem(lines[number], number)) {
        return problem;
      }
    }
  }
  const auto hosts = header_values(head, "Host");
  if (hosts.size() > 1) {
    return HeadProblem{400, std::to_string(hosts.size()) + " Host headers; a request has one"};
  }
  if (hosts.empty()) {
    // HTTP/1.0 clients may leave it out (RFC 9112 3.2 requires it of HTTP/1.1 only).
    const std::string& request_line = lines.empty() ? head : lines.front();
    if (request_line.size() >= 9 && request_line.compare(request_line.size() - 9, 9, " HTTP/1.1") == 0) {
      return HeadProblem{400, "an HTTP/1.1 request without a Host header"};
    }
    return std::nullopt;
  }
  if (hosts.front().empty()) {
    return HeadProblem{400, "an empty Host header"};
  }
  if (!is_host_text(hosts.front())) {
    return HeadProblem{400, "Host " + quoted(hosts.front()) + " is not a host name and port"};
  }
  return std::nullopt;
}

std::string header_value(const std::string& head, const std::string& name)
{
  const auto values = header_values(head, name);
  return values.empty() ? "" : values.front();
}

BodyFraming body_framing(const std::string& head)
{
  const auto lengths = header_values(head, "Content-Length");
  const bool chunked = !header_values(head, "Transfer-Encoding").empty();
  if (chunked && !lengths.empty()) {
    return invalid_framing("both Transfer-Encoding and Content-Length");
  }
  BodyFraming framing;
  if (chunked) {
    framing.kind = BodyFraming::Kind::chunked;
    return framing;
  }
  // "Content-Length: 5, 5" is the same length twice (RFC 9110 8.6); anything else is refused.
  std::string agreed;
  for (const auto& value : lengths) {
    std::size_t start = 0;
    while (start <= value.size()) {
      const std::size_t comma = std::min(value.find(',', start), value.size());
      const std::string item = trim(value.substr(start, comma - start));
      if (item.empty() || item.find_first_not_of("0123456789") != std::string::npos || item.size() > 18) {
        return invalid_framing("Content-Length \"" + value + "\" is not a number of bytes");
      }
      if (!agreed.empty() && item != agreed) {
        return invalid_framing("conflicting Content-Length headers (" + agreed + " and " + item + ")");
      }
      agreed = item;
      start = comma + 1;
    }
  }
  if (!agreed.empty()) {
    framing.kind = BodyFraming::Kind::length;
    framing.length = std::stoull(agreed);
  }
  return framing;
}

std::string without_range(const std::string& head)
{
  std::string kept;
  std::size_t start = 0;
  while (start < head.size()) {
    const std::size_t end = std::min(head.find("\r\n", start), head.size() - 2) + 2;
    const std::string line = head.substr(start, end - start);
    if (start == 0 || lower(line.substr(0, 6)) != "range:") {
      kept += line;
    }
    start = end;
  }
  return kept;
}

} // namespace layerbench::serve
