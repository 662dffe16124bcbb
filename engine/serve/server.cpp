// SPDX-License-Identifier: MIT
#include "serve/server.hpp"

#include "serve/connection.hpp"
#include "serve/live_reload.hpp"
#include "serve/mime.hpp"
#include "serve/request_path.hpp"
#include "serve/socket_address.hpp"
#include "util/error.hpp"
#include "util/file.hpp"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <arpa/inet.h>
#include <httplib.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>

namespace layerbench::serve {

namespace {

// Threads serve one connection each, so they bound open keep-alive connections plus open pages
// streaming events; at most a quarter of them may stream, so pages never starve file requests. A
// connection that trickles its headers holds its thread for at most k_header_seconds, so 64 such
// connections still leave half the threads to normal requests.
constexpr std::size_t k_worker_threads = 128;
constexpr std::size_t k_max_event_listeners = k_worker_threads / 4;
// An idle keep-alive connection holds a thread and delays shutdown by at most this long.
constexpr std::chrono::seconds k_keep_alive_time{1};
constexpr std::size_t k_keep_alive_requests = 100;
constexpr std::size_t k_max_body_bytes = 64 * 1024;
// The whole request head (request line and headers) must arrive within this time and size.
constexpr std::chrono::seconds k_header_time{3};
constexpr std::size_t k_max_head_bytes = 16 * 1024;
constexpr std::chrono::seconds k_body_time{3};
constexpr std::chrono::seconds k_event_heartbeat{5};
// An event stream checks this often that its page is still open, so that a closed page frees its
// slot at once rather than at the next heartbeat's failed write (two heartbeats, 5 to 10 s, after the
// page closed: the first write after the close still succeeds).
constexpr std::chrono::milliseconds k_peer_check{250};
// How long a page may wait for a slot when all are taken, while the streams check their pages.
constexpr std::chrono::milliseconds k_admission_patience{1000};

enum class Close { no, yes };

const char* const k_fallback_404 = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                                   "<title>Not found</title></head><body><h1>Not found</h1>"
                                   "<p>There is no page at this address.</p></body></html>\n";

// What the kernel may hold for one connection's unread responses; accepted sockets inherit it from
// the listening one. Autotuned, it grows to 4 MiB each (tcp_wmem), 560 MiB for 140 slow readers.
constexpr int k_send_buffer_bytes = 256 * 1024;

// Only SO_REUSEADDR: cpp-httplib's default also sets SO_REUSEPORT, which would let a second server
// share a port that is in use instead of failing.
void set_socket_options(int socket)
{
  int yes = 1;
  ::setsockopt(socket, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof(yes));
  ::setsockopt(socket, SOL_SOCKET, SO_SNDBUF, &k_send_buffer_bytes, sizeof(k_send_buffer_bytes));
}

// cpp-httplib reports a failed bind without its reason; binding a probe socket the same way finds it.
std::string bind_failure_reason(const std::string& host, int port)
{
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE;
  addrinfo* found = nullptr;
  const int lookup = ::getaddrinfo(host.c_str(), std::to_string(port).c_str(), &hints, &found);
  if (lookup != 0) {
    return std::string("cannot resolve host: ") + ::gai_strerror(lookup);
  }
  std::string reason = "unknown reason";
  const int probe = ::socket(found->ai_family, found->ai_socktype, found->ai_protocol);
  if (probe >= 0) {
    set_socket_options(probe);
    if (::bind(probe, found->ai_addr, found->ai_addrlen) != 0) {
      reason = std::strerror(errno);
      if (errno == EADDRINUSE) {
        reason = "address already in use (pick another port with --port, or --port 0 for a free one)";
      }
    }
    ::close(probe);
  }
  ::freeaddrinfo(found);
  return reason;
}

std::string raw_path(const std::string& target) { return target.substr(0, target.find('?')); }

std::uint64_t since_parameter(const httplib::Request& request)
{
  const std::string text = request.get_param_value("since");
  if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos || text.size() > 19) {
    return 0;
  }
  return std::stoull(text);
}

void refuse(httplib::Response& response, int status, const std::string& reason)
{
  response.status = status;
  response.set_content(reason + "\n", "text/plain; charset=utf-8");
}

} // namespace

// cpp-httplib listens with a backlog of 5, compiled into Debian's library; a burst of connections (a
// browser opening a page's assets, wrk reconnecting) then overflows it and clients wait for SYN
// retransmits, one to three seconds. listen(2) again on the bound socket widens it.
class HttpServer : public httplib::Server
{
public:
  explicit HttpServer(std::chrono::milliseconds send_patience) : m_send_patience(send_patience) {}
  void widen_backlog() { ::listen(svr_sock_, SOMAXCONN); }
  SocketAddress bound_address() const { return local_address(svr_sock_); }

  // The connection served on the calling thread, or null. cpp-httplib hands a handler its request, not
  // its connection; a connection keeps one thread from its first request to its last, so an event
  // stream finds its own here, to notice when its page has closed.
  static Connection* current_connection() { return t_connection; }

private:
  bool process_and_close_socket(socket_t socket) override;
  void serve_connection(Connection& connection);

  const std::chrono::milliseconds m_send_patience;
  static thread_local Connection* t_connection;
};

thread_local Connection* HttpServer::t_connection = nullptr;

namespace {

std::string plain_response(const std::string& status_line, const std::string& text, const std::string& extra_headers,
                           Close close)
{
  const std::string body = text + "\n";
  return "HTTP/1.1 " + status_line + "\r\nContent-Type: text/plain; charset=utf-8\r\nCache-Control: no-store\r\n"
         + "X-Content-Type-Options: nosniff\r\n" + extra_headers + "Content-Length: " + std::to_string(body.size())
         + "\r\nConnection: " + (close == Close::yes ? "close" : "keep-alive") + "\r\n\r\n" + body;
}

// Answers a method other than GET and HEAD with 405. A body announced by Content-Length is read and
// dropped so that the connection stays in step; a request without one has none (RFC 9112 6.3). A
// chunked or oversized body closes the connection instead. True when the connection may go on.
bool refuse_method(Connection& connection, const BodyFraming& framing)
{
  const std::string& head = connection.head();
  const bool countable = framing.kind != BodyFraming::Kind::chunked;
  const Close close = countable && framing.length <= k_max_body_bytes && header_value(head, "Connection") != "close"
                        ? Close::no
                        : Close::yes;
  const std::string response = plain_response(
    "405 Method Not Allowed", "405 method not allowed: this preview server answers GET and HEAD only",
    "Allow: GET, HEAD\r\n", close);
  if (!connection.write_all(response) || close == Close::yes) {
    return false;
  }
  return connection.skip_body(framing.length, k_body_time);
}

// A GET or HEAD may carry a body; it means nothing here, but its bytes are dropped before the request
// is answered, so that they are never read as the next request. One this server cannot find the end
// of, or too large, is answered and the connection closed. True when the request may be answered.
bool drop_body(Connection& connection, const BodyFraming& framing)
{
  if (framing.kind == BodyFraming::Kind::chunked) {
    connection.write_all(plain_response("400 Bad Request", "400 bad request: a GET or HEAD with a chunked body", "",
                                        Close::yes));
    return false;
  }
  if (framing.length > k_max_body_bytes) {
    connection.write_all(plain_response("413 Content Too Large", "413 a GET or HEAD with a body of "
                                        + std::to_string(framing.length) + " bytes", "", Close::yes));
    return false;
  }
  return connection.skip_body(framing.length, k_body_time);
}

// Closing a socket whose receive buffer still holds bytes (a client still trickling its headers) sends
// a reset, which can destroy the response before the client reads it. Send our FIN first, then read and
// drop what still arrives for a short, bounded time, as web servers' "lingering close" does.
void close_gracefully(socket_t socket)
{
  constexpr int k_linger_ms = 250;
  ::shutdown(socket, SHUT_WR);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(k_linger_ms);
  char discard[4096];
  while (std::chrono::steady_clock::now() < deadline) {
    pollfd readable{socket, POLLIN, 0};
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (::poll(&readable, 1, static_cast<int>(std::max<int64_t>(left.count(), 1))) <= 0) {
      break;
    }
    if (::recv(socket, discard, sizeof discard, 0) <= 0) {
      break; // the client closed too, or an error: nothing left to protect
    }
  }
  ::close(socket);
}

} // namespace

bool HttpServer::process_and_close_socket(socket_t socket)
{
  {
    Connection connection(socket);
    t_connection = &connection;
    serve_connection(connection);
    t_connection = nullptr;
  }
  close_gracefully(socket);
  return true;
}

// Requests are answered one after the other, pipelined ones included, until the client closes, a
// request asks to close, the keep-alive count is spent or the server stops.
void HttpServer::serve_connection(Connection& connection)
{
  for (std::size_t count = 0; count < k_keep_alive_requests && svr_sock_ != INVALID_SOCKET; ++count) {
    const auto head = connection.read_head(k_keep_alive_time, k_header_time, k_max_head_bytes);
    connection.start_response(m_send_patience);
    switch (head) {
    case Connection::Head::closed:
      return;
    case Connection::Head::too_slow:
      connection.write_all(plain_response("408 Request Timeout", "408 the request's headers took too long", "", Close::yes));
      return;
    case Connection::Head::too_large:
      connection.write_all(plain_response("431 Request Header Fields Too Large", "431 the request's headers are too large",
                                          "", Close::yes));
      return;
    case Connection::Head::complete:
      break;
    }
    if (const auto problem = head_problem(connection.head())) {
      const bool too_large = problem->status == 431;
      connection.write_all(plain_response(too_large ? "431 Request Header Fields Too Large" : "400 Bad Request",
                                          (too_large ? "431 the request's headers are too large: " : "400 bad request: ")
                                            + problem->reason,
                                          "", Close::yes));
      return;
    }
    const BodyFraming framing = body_framing(connection.head());
    if (framing.kind == BodyFraming::Kind::invalid) {
      connection.write_all(plain_response("400 Bad Request", "400 bad request: " + framing.problem, "", Close::yes));
      return;
    }
    const std::string method = request_method(connection.head());
    if (method != "GET" && method != "HEAD") {
      if (!refuse_method(connection, framing) || connection.kept_waiting()) {
        return;
      }
      continue;
    }
    if (!drop_body(connection, framing)) {
      return;
    }
    HeadStream stream(connection, without_range(connection.head()));
    bool connection_closed = false;
    const bool last = count + 1 == k_keep_alive_requests;
    if (!process_request(stream, last, connection_closed, nullptr) || connection_closed || connection.kept_waiting()) {
      return;
    }
  }
}

struct PreviewServer::Impl
{
  explicit Impl(ServeOptions serve_options)
    : options(std::move(serve_options)), events(k_max_event_listeners), http(options.send_patience)
  {
  }

  void handle_get(const httplib::Request& request, httplib::Response& response);
  bool send_page(httplib::Response& response, const std::filesystem::path& file, int status);
  void send_not_found(httplib::Response& response);
  void stream_events(const httplib::Request& request, httplib::Response& response);
  void install_routes();

  const ServeOptions options;
  EventHub events;
  HttpServer http;
  SocketAddress bound; // what bind() bound: it decides the Host check, not the name in options.host
  // A stop() can come from a signal's thread at any moment, also before listening starts; run()
  // announces itself before checking for a stop, and stop() asks before checking for a run, so one
  // of the two always sees the other.
  std::atomic<bool> stop_requested{false};
  std::atomic<bool> run_entered{false};
  std::atomic<bool> run_finished{false};
  std::atomic<bool> http_stopped{false};
};

void PreviewServer::Impl::install_routes()
{
  http.new_task_queue = [] { return new httplib::ThreadPool(k_worker_threads); };
  http.set_socket_options(set_socket_options);
  http.set_tcp_nodelay(true);
  http.set_default_headers({{"Cache-Control", "no-store"}, {"X-Content-Type-Options", "nosniff"}, {"Accept-Ranges", "none"}});

  // HttpServer::serve_connection answers every other method before cpp-httplib sees the request.
  http.set_pre_routing_handler([this](const httplib::Request& request, httplib::Response& response) {
    if (bound.reach == Reach::loopback && !is_loopback_authority(request.get_header_value("Host"))) {
      refuse(response, 403, "403 forbidden: this preview is bound to loopback and answers only to localhost names, "
                            "not to Host '" + request.get_header_value("Host") + "' (DNS rebinding)");
      return httplib::Server::HandlerResponse::Handled;
    }
    handle_get(request, response);
    return httplib::Server::HandlerResponse::Handled;
  });
}

void PreviewServer::Impl::handle_get(const httplib::Request& request, httplib::Response& response)
{
  if (options.live_reload == LiveReload::on && raw_path(request.target) == k_events_path) {
    stream_events(request, response);
    return;
  }
  const Resolution resolution = resolve_target(options.root, request.target);
  switch (resolution.verdict) {
  case Verdict::file:
    if (!send_page(response, resolution.file, 200)) {
      send_not_found(response); // removed between resolving and reading (a render swapping folders)
    }
    return;
  case Verdict::redirect:
    response.set_redirect(resolution.location, 302);
    return;
  case Verdict::not_found:
    send_not_found(response);
    return;
  case Verdict::bad_request:
    refuse(response, 400, "400 bad request: " + resolution.reason);
    return;
  case Verdict::too_long:
    refuse(response, 414, "414 URI too long: " + resolution.reason);
    return;
  }
}

// False, with nothing sent, when the file cannot be read.
bool PreviewServer::Impl::send_page(httplib::Response& response, const std::filesystem::path& file, int status)
{
  auto content = util::read_file(file);
  if (!content) {
    return false;
  }
  const std::string type = mime_type(file);
  response.status = status;
  if (options.live_reload == LiveReload::on && type.rfind("text/html", 0) == 0) {
    response.set_content(inject_reload_script(*content, events.latest_id()), type);
    return true;
  }
  response.set_content(std::move(content).value(), type);
  return true;
}

void PreviewServer::Impl::send_not_found(httplib::Response& response)
{
  const Resolution page = resolve_target(options.root, "/404.html");
  if (page.verdict == Verdict::file && send_page(response, page.file, 404)) {
    return;
  }
  // No 404.html (or it cannot be read): a minimal page that still carries the reload script, so that
  // a page left open through a failed first render recovers by itself.
  response.status = 404;
  const std::string html = options.live_reload == LiveReload::on
                             ? inject_reload_script(k_fallback_404, events.latest_id())
                             : std::string(k_fallback_404);
  response.set_content(html, "text/html; charset=utf-8");
}

void PreviewServer::Impl::stream_events(const httplib::Request& request, httplib::Response& response)
{
  if (events.admit(k_admission_patience) == EventHub::Admission::full) {
    refuse(response, 503, "503 too many open preview pages");
    return;
  }
  struct Stream
  {
    std::uint64_t last_sent;
    bool greeted = false;
  };
  auto stream = std::make_shared<Stream>(Stream{since_parameter(request)});
  Connection* const connection = HttpServer::current_connection();
  response.set_header("X-Accel-Buffering", "no");
  response.set_chunked_content_provider(
    "text/event-stream",
    [this, stream, connection](size_t, httplib::DataSink& sink) {
      if (!stream->greeted) {
        // A page opened while the last render failed shows the error at once; "retry" makes the
        // browser reconnect quickly after the server restarts.
        stream->greeted = true;
        std::string greeting = "retry: 1000\n\n";
        const auto latest = events.wait_after(0, std::chrono::milliseconds(0));
        if (latest && (latest->id > stream->last_sent || latest->name == "render-error")) {
          greeting += format_event(*latest);
          stream->last_sent = std::max(stream->last_sent, latest->id);
        }
        return sink.write(greeting.data(), greeting.size());
      }
      const auto heartbeat_at = std::chrono::steady_clock::now() + k_event_heartbeat;
      std::optional<Event> event;
      while (!event && !events.is_closed() && std::chrono::steady_clock::now() < heartbeat_at) {
        if (connection != nullptr && connection->peer_closed()) {
          return false; // ends the response, and its releaser frees the slot
        }
        event = events.wait_after(stream->last_sent, k_peer_check);
      }
      if (events.is_closed()) {
        return false;
      }
      // The heartbeat is a comment; writing it is how a closed tab is noticed and its thread freed.
      const std::string wire = event ? format_event(*event) : std::string(": heartbeat\n\n");
      if (event) {
        stream->last_sent = event->id;
      }
      return sink.write(wire.data(), wire.size());
    },
    [this](bool) { events.leave(); });
}

PreviewServer::PreviewServer(ServeOptions options) : m_impl(std::make_unique<Impl>(std::move(options)))
{
  m_impl->install_routes();
}

PreviewServer::~PreviewServer() { stop(); }

int PreviewServer::bind()
{
  const auto& options = m_impl->options;
  if (options.port < 0 || options.port > 65535) {
    throw Error("port " + std::to_string(options.port) + " is not a port number (0 to 65535)");
  }
  if (options.host.empty()) {
    // cpp-httplib would look no name up and bind the first loopback address, [::1], under a URL
    // without a host.
    throw Error("the address to listen on is empty: give one (127.0.0.1 for this machine only, 0.0.0.0 to share)");
  }
  const int port = options.port == 0 ? m_impl->http.bind_to_any_port(options.host)
                                     : (m_impl->http.bind_to_port(options.host, options.port) ? options.port : -1);
  if (port < 0) {
    throw Error("cannot listen on " + options.host + ":" + std::to_string(options.port) + ": "
                + bind_failure_reason(options.host, options.port));
  }
  m_impl->http.widen_backlog();
  m_impl->bound = m_impl->http.bound_address();
  return m_impl->bound.port;
}

void PreviewServer::run()
{
  m_impl->run_entered = true;
  if (!m_impl->stop_requested) {
    m_impl->http.listen_after_bind();
  }
  m_impl->run_finished = true;
}

void PreviewServer::stop()
{
  m_impl->stop_requested = true;
  m_impl->events.close();
  if (!m_impl->run_entered) {
    return; // run() will see the request and return at once
  }
  while (!m_impl->http.is_running() && !m_impl->run_finished) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  if (!m_impl->http_stopped.exchange(true)) {
    m_impl->http.stop();
  }
}

std::string PreviewServer::url() const { return "http://" + authority(m_impl->bound) + "/"; }

const SocketAddress& PreviewServer::address() const { return m_impl->bound; }

EventHub& PreviewServer::events() { return m_impl->events; }

bool is_loopback_host(const std::string& host)
{
  std::string name = host;
  std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (!name.empty() && name.back() == '.') {
    name.pop_back();
  }
  const std::string suffix = ".localhost";
  if (name == "localhost"
      || (name.size() > suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0)) {
    return true;
  }
  // Addresses only as literals: "127.attacker.example" is a name anyone may register.
  in_addr v4{};
  if (::inet_pton(AF_INET, name.c_str(), &v4) == 1) {
    return (ntohl(v4.s_addr) >> 24) == 127;
  }
  in6_addr v6{};
  return ::inet_pton(AF_INET6, name.c_str(), &v6) == 1 && IN6_IS_ADDR_LOOPBACK(&v6);
}

bool is_loopback_authority(const std::string& host_header)
{
  if (host_header.empty()) {
    return true;
  }
  if (host_header.front() == '[') {
    const size_t close = host_header.find(']');
    return close != std::string::npos && is_loopback_host(host_header.substr(1, close - 1));
  }
  return is_loopback_host(host_header.substr(0, host_header.find(':')));
}

} // namespace layerbench::serve
