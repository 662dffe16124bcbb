// SPDX-License-Identifier: MIT
// Real HTTP against a PreviewServer on a free loopback port: cpp-httplib's client where it sends the
// path as given, raw sockets where a client would clean the path up first.
#include "serve/server.hpp"

#include "test_serve_fixture.hpp"
#include "util/error.hpp"
#include "test_text.hpp"

#include <doctest/doctest.h>
#include <httplib.h>
#include <cerrno>
#include <thread>

using layerbench::serve::LiveReload;
using layerbench::serve::PreviewServer;
using layerbench::serve::ServeOptions;
using layerbench::test::k_secret;
using layerbench::test::raw_get;
using layerbench::test::raw_request;
using namespace std::chrono_literals;

namespace {

// A server on a free port, running on its own thread for the length of a test.
class RunningServer
{
public:
  RunningServer(const std::filesystem::path& root, LiveReload live_reload,
                std::chrono::milliseconds send_patience = ServeOptions{}.send_patience,
                const std::string& host = "127.0.0.1")
    : m_server(ServeOptions{root, host, 0, live_reload, send_patience})
  {
    m_port = m_server.bind();
    m_thread = std::thread([this] { m_server.run(); });
  }
  ~RunningServer()
  {
    m_server.stop();
    m_thread.join();
  }
  int port() const { return m_port; }
  PreviewServer& server() { return m_server; }
  httplib::Client client() const
  {
    httplib::Client client("127.0.0.1", m_port);
    client.set_read_timeout(5, 0);
    return client;
  }

private:
  PreviewServer m_server;
  int m_port = 0;
  std::thread m_thread;
};

// Reads the event stream, as a page that was served with event id `since`, until `marker` arrives
// (or five seconds pass).
std::string read_events_until(int port, std::uint64_t since, const std::string& marker)
{
  std::string received;
  httplib::Client stream("127.0.0.1", port);
  stream.set_read_timeout(5, 0);
  stream.Get("/__layerbench/events?since=" + std::to_string(since), [&](const char* data, size_t length) {
    received.append(data, length);
    return received.find(marker) == std::string::npos;
  });
  return received;
}

} // namespace

TEST_CASE("serve::PreviewServer files")
{
  const layerbench::test::SiteFixture site;
  RunningServer running(site.root(), LiveReload::off);
  auto client = running.client();

  SUBCASE("the home page, with no-store and nosniff")
  {
    const auto response = client.Get("/");
    REQUIRE(response);
    CHECK(response->status == 200);
    CHECK(response->body.find("<h1>Home page</h1>") != std::string::npos);
    CHECK(response->get_header_value("Content-Type") == "text/html; charset=utf-8");
    CHECK(response->get_header_value("Cache-Control") == "no-store");
    CHECK(response->get_header_value("X-Content-Type-Options") == "nosniff");
  }
  SUBCASE("each type with its MIME type")
  {
    const std::vector<std::pair<std::string, std::string>> expected = {
      {"/style.css", "text/css; charset=utf-8"},    {"/app.js", "text/javascript; charset=utf-8"},
      {"/chart.svg", "image/svg+xml"},              {"/data.json", "application/json"},
      {"/data.csv", "text/csv; charset=utf-8"},     {"/image.png", "image/png"},
      {"/font.woff2", "font/woff2"},                {"/CITATION.cff", "application/yaml"},
      {"/notes.txt", "text/plain; charset=utf-8"},
    };
    for (const auto& [path, type] : expected) {
      CAPTURE(path);
      const auto response = client.Get(path);
      REQUIRE(response);
      CHECK(response->status == 200);
      CHECK(response->get_header_value("Content-Type") == type);
    }
  }
  SUBCASE("binary files come back byte for byte")
  {
    const auto response = client.Get("/image.png");
    REQUIRE(response);
    CHECK(response->body == std::string("\x89PNG\r\n\x1a\n", 8));
  }
  SUBCASE("a folder is served by its index.html, and redirected to with its slash")
  {
    auto response = client.Get("/layers/");
    REQUIRE(response);
    CHECK(response->status == 200);
    CHECK(response->body.find("Layers index") != std::string::npos);
    response = client.Get("/layers");
    REQUIRE(response);
    CHECK(response->status == 302);
    CHECK(response->get_header_value("Location") == "/layers/");
  }
  SUBCASE("a missing page is the site's 404 page with status 404")
  {
    const auto response = client.Get("/no-such-page.html");
    REQUIRE(response);
    CHECK(response->status == 404);
    CHECK(response->body.find("Custom not found page") != std::string::npos);
  }
  SUBCASE("a folder without index.html is a 404, not a listing")
  {
    const auto response = client.Get("/empty/");
    REQUIRE(response);
    CHECK(response->status == 404);
    CHECK(response->body.find("Custom not found page") != std::string::npos);
  }
  SUBCASE("HEAD has the headers of GET and no body")
  {
    const auto response = client.Head("/style.css");
    REQUIRE(response);
    CHECK(response->status == 200);
    CHECK(response->get_header_value("Content-Type") == "text/css; charset=utf-8");
    CHECK(response->get_header_value("Content-Length") == "23");
    CHECK(response->body.empty());
  }
  SUBCASE("other methods are 405 with Allow, and the connection stays usable")
  {
    for (const std::string method : {"POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE"}) {
      CAPTURE(method);
      const auto reply = raw_request(running.port(), method + " /index.html HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                                                               "Content-Length: 5\r\nConnection: close\r\n\r\nhello");
      CHECK(reply.status == 405);
      CHECK(reply.head.find("Allow: GET, HEAD") != std::string::npos);
    }
    const auto posted = client.Post("/index.html", "body", "text/plain");
    REQUIRE(posted);
    CHECK(posted->status == 405);
    const auto after = client.Get("/");
    REQUIRE(after);
    CHECK(after->status == 200);
  }
  SUBCASE("no reload script without live reload")
  {
    const auto response = client.Get("/");
    REQUIRE(response);
    CHECK(response->body.find("layerbench-live-reload") == std::string::npos);
    CHECK(raw_get(running.port(), "/__layerbench/events").status == 404);
  }
}

TEST_CASE("serve::PreviewServer traversal")
{
  const layerbench::test::SiteFixture site;
  RunningServer running(site.root(), LiveReload::off);

  // Every attempt is refused and none returns the secret, whatever its status.
  const std::vector<std::pair<std::string, int>> attempts = {
    {"/../secret.txt", 400},
    {"/layers/../../secret.txt", 400},
    {"/%2e%2e/secret.txt", 400},
    {"/%2E%2E%2Fsecret.txt", 400},
    {"/..%2fsecret.txt", 400},
    {"/%252e%252e/secret.txt", 400},
    {"/%252e%252e%252fsecret.txt", 400},
    {"/..\\secret.txt", 400},
    {"/%5c..%5csecret.txt", 400},
    {"/index.html%00.png", 400},
    {"/..%00/secret.txt", 400},
    {"/%c0%ae%c0%ae/secret.txt", 400},
    {"//etc/passwd", 404},
    {"/" + (site.base() / "secret.txt").string(), 404},
    {"http://127.0.0.1/../secret.txt", 400},
    {"/link-outside.txt", 404},
    {"/relative-link-outside.txt", 404},
    {"/folder-outside/", 404},
    {"/folder-outside/index.html", 404},
    {"/" + std::string(2000, 'a'), 414},
    {"/" + std::string(9000, 'a'), 414},
  };
  for (const auto& [target, status] : attempts) {
    CAPTURE(target.substr(0, 80));
    const auto reply = raw_get(running.port(), target);
    CHECK(reply.status == status);
    CHECK(reply.body.find(k_secret) == std::string::npos);
  }
  SUBCASE("a raw NUL byte on the request line is a bad request")
  {
    const std::string line = std::string("GET /index.html") + '\0' + "/../../secret.txt HTTP/1.1\r\n";
    const auto reply = raw_request(running.port(), line + "Host: x\r\nConnection: close\r\n\r\n");
    CHECK(reply.status == 400);
    CHECK(reply.body.find(k_secret) == std::string::npos);
  }
  SUBCASE("the server still answers after all of them")
  {
    CHECK(raw_get(running.port(), "/").status == 200);
  }
}

TEST_CASE("serve::PreviewServer live reload")
{
  const layerbench::test::SiteFixture site;
  RunningServer running(site.root(), LiveReload::on);
  auto client = running.client();

  SUBCASE("HTML responses carry the script; the file on disk does not")
  {
    const auto response = client.Get("/");
    REQUIRE(response);
    CHECK(response->body.find("<script id=\"layerbench-live-reload\">") != std::string::npos);
    std::ifstream on_disk(site.root() / "index.html");
    const std::string disk((std::istreambuf_iterator<char>(on_disk)), std::istreambuf_iterator<char>());
    CHECK(disk.find("layerbench-live-reload") == std::string::npos);
  }
  SUBCASE("the 404 page carries the script too; other types never do")
  {
    const auto missing = client.Get("/missing.html");
    REQUIRE(missing);
    CHECK(missing->status == 404);
    CHECK(missing->body.find("layerbench-live-reload") != std::string::npos);
    const auto css = client.Get("/style.css");
    REQUIRE(css);
    CHECK(css->body == "body { color: black; }\n");
  }
  SUBCASE("the event stream sends a published reload to an open page")
  {
    std::thread publisher([&] {
      std::this_thread::sleep_for(100ms);
      running.server().events().publish("reload", "rendered");
    });
    const std::string received = read_events_until(running.port(), 0, "event: reload");
    publisher.join();
    CHECK(received.find("id: 1\nevent: reload\ndata: rendered\n\n") != std::string::npos);
  }
  SUBCASE("a page that opens after a failed render is shown the error at once")
  {
    running.server().events().publish("render-error", "templates/home.mustache: missing partial 'head'");
    const std::string received = read_events_until(running.port(), 1, "event: render-error");
    CHECK(received.find("data: templates/home.mustache: missing partial 'head'") != std::string::npos);
  }
}

TEST_CASE("serve::PreviewServer Host header")
{
  const layerbench::test::SiteFixture site;
  RunningServer running(site.root(), LiveReload::off);
  const auto get_as = [&](const std::string& host) {
    return raw_request(running.port(), "GET / HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\n\r\n");
  };

  SUBCASE("loopback names are answered")
  {
    for (const std::string host : {"127.0.0.1", "localhost:8000", "LOCALHOST", "[::1]:8000", "preview.localhost"}) {
      CAPTURE(host);
      CHECK(get_as(host).status == 200);
    }
  }
  SUBCASE("another name, as after DNS rebinding, is refused")
  {
    for (const std::string host : {"attacker.example", "attacker.example:8000", "localhost.attacker.example", "[::2]"}) {
      CAPTURE(host);
      const auto reply = get_as(host);
      CHECK(reply.status == 403);
      CHECK(reply.body.find("Home page") == std::string::npos);
    }
  }
}

TEST_CASE("serve::PreviewServer loopback aliases")
{
  const layerbench::test::SiteFixture site;

  // inet_aton's forms of 127.0.0.1 bind loopback: the bound address, not the name typed, decides the
  // Host check and the URL.
  for (const std::string host : {"127.1", "0x7f.1", "127.0.0.1", "2130706433"}) {
    CAPTURE(host);
    RunningServer running(site.root(), LiveReload::off, ServeOptions{}.send_patience, host);
    CHECK(running.server().address().reach == layerbench::serve::Reach::loopback);
    CHECK(running.server().url() == "http://127.0.0.1:" + std::to_string(running.port()) + "/");
    const auto get_as = [&](const std::string& name) {
      return raw_request(running.port(), "GET / HTTP/1.1\r\nHost: " + name + "\r\nConnection: close\r\n\r\n");
    };
    CHECK(get_as("evil.com").status == 403);
    CHECK(get_as("localhost").status == 200);
  }
}

TEST_CASE("serve::is_loopback_authority")
{
  using layerbench::serve::is_loopback_authority;
  SUBCASE("names and addresses of this machine, with or without a port")
  {
    CHECK(is_loopback_authority("127.0.0.1:8000"));
    CHECK(is_loopback_authority("localhost."));
    CHECK(is_loopback_authority("[::1]"));
    CHECK(is_loopback_authority("127.1.2.3"));
    CHECK(is_loopback_authority(""));
  }
  SUBCASE("anything else")
  {
    CHECK_FALSE(is_loopback_authority("example.com"));
    CHECK_FALSE(is_loopback_authority("127.attacker.example"));
    CHECK_FALSE(is_loopback_authority("10.0.0.1:8000"));
    CHECK_FALSE(is_loopback_authority("[::1"));
    CHECK_FALSE(is_loopback_authority("notlocalhost"));
  }
}

TEST_CASE("serve::PreviewServer::bind")
{
  const layerbench::test::SiteFixture site;

  SUBCASE("port 0 picks a free port")
  {
    PreviewServer server(ServeOptions{site.root(), "127.0.0.1", 0, LiveReload::off});
    const int port = server.bind();
    CHECK(port > 0);
    CHECK(server.url() == "http://127.0.0.1:" + std::to_string(port) + "/");
  }
  SUBCASE("a port in use is a clear error")
  {
    RunningServer first(site.root(), LiveReload::off);
    PreviewServer second(ServeOptions{site.root(), "127.0.0.1", first.port(), LiveReload::off});
    CHECK_THROWS_WITH_AS(second.bind(),
                         doctest::Contains("address already in use"),
                         layerbench::Error);
  }
  SUBCASE("an unknown host is a clear error")
  {
    PreviewServer server(ServeOptions{site.root(), "no-such-host.invalid", 0, LiveReload::off});
    CHECK_THROWS_WITH_AS(server.bind(), doctest::Contains("no-such-host.invalid"), layerbench::Error);
  }
  SUBCASE("an empty host is refused, not bound to [::1] under a URL without a host")
  {
    PreviewServer server(ServeOptions{site.root(), "", 0, LiveReload::off});
    CHECK_THROWS_WITH_AS(server.bind(), doctest::Contains("the address to listen on is empty"), layerbench::Error);
  }
  SUBCASE("a port out of range names the port, not an option")
  {
    PreviewServer server(ServeOptions{site.root(), "127.0.0.1", 70000, LiveReload::off});
    CHECK_THROWS_WITH_AS(server.bind(), "port 70000 is not a port number (0 to 65535)", layerbench::Error);
  }
  SUBCASE("stop before run returns at once")
  {
    PreviewServer server(ServeOptions{site.root(), "127.0.0.1", 0, LiveReload::off});
    server.bind();
    server.stop();
    server.run();
    CHECK_FALSE(server.events().wait_after(0, 0ms));
  }
}

namespace {

} // namespace

TEST_CASE("serve::PreviewServer methods")
{
  const layerbench::test::SiteFixture site;
  RunningServer running(site.root(), LiveReload::off);

  SUBCASE("a POST, PUT or PATCH without Content-Length is answered 405 at once")
  {
    for (const std::string method : {"POST", "PUT", "PATCH"}) {
      CAPTURE(method);
      const auto reply = raw_request(running.port(), method + " /index.html HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
      CHECK(reply.status == 405);
      CHECK(reply.head.find("Allow: GET, HEAD") != std::string::npos);
    }
  }
  SUBCASE("unknown methods are 405 with Allow, not 400")
  {
    for (const std::string method : {"BREW", "PROPFIND", "CONNECT", "PRI"}) {
      CAPTURE(method);
      const auto reply = raw_request(running.port(), method + " /index.html HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
      CHECK(reply.status == 405);
      CHECK(reply.head.find("Allow: GET, HEAD") != std::string::npos);
    }
  }
  SUBCASE("after a POST without a body the connection answers the next request")
  {
    const auto reply = raw_request(running.port(), "POST /index.html HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
                                                   "GET /index.html HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
    CHECK(reply.status == 405);
    CHECK(reply.body.find("HTTP/1.1 200") != std::string::npos);
    CHECK(reply.body.find("Home page") != std::string::npos);
  }
}

TEST_CASE("serve::PreviewServer Range")
{
  const layerbench::test::SiteFixture site;
  RunningServer running(site.root(), LiveReload::off);

  SUBCASE("a Range header is ignored: 200 with the whole body and no Content-Range")
  {
    const auto reply = raw_request(running.port(), "GET /style.css HTTP/1.1\r\nHost: 127.0.0.1\r\nRange: bytes=0-3\r\n"
                                                   "Connection: close\r\n\r\n");
    CHECK(reply.status == 200);
    CHECK(reply.body == "body { color: black; }\n");
    CHECK(reply.head.find("Content-Range") == std::string::npos);
    CHECK(reply.head.find("Accept-Ranges: none") != std::string::npos);
  }
  SUBCASE("several ranges too")
  {
    const auto reply = raw_request(running.port(), "GET /style.css HTTP/1.1\r\nHost: 127.0.0.1\r\nrange: bytes=0-1,4-5\r\n"
                                                   "Connection: close\r\n\r\n");
    CHECK(reply.status == 200);
    CHECK(reply.body == "body { color: black; }\n");
  }
}

TEST_CASE("serve::PreviewServer pipelining")
{
  const layerbench::test::SiteFixture site;
  RunningServer running(site.root(), LiveReload::off);

  SUBCASE("four pipelined requests get four responses, in order")
  {
    const std::string get = "GET /notes.txt HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
    const auto reply = raw_request(running.port(), get + "GET /style.css HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n" + get
                                                     + "GET /data.csv HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
    const std::string all = reply.head + "\r\n\r\n" + reply.body;
    CHECK(layerbench::test::count_of(all, "HTTP/1.1 200") == 4);
    const size_t first = all.find("plain text");
    const size_t second = all.find("color: black");
    const size_t third = all.find("plain text", second);
    const size_t fourth = all.find("a,b");
    CHECK(first < second);
    CHECK(second < third);
    CHECK(third != std::string::npos);
    CHECK(third < fourth);
    CHECK(fourth != std::string::npos);
  }
}

TEST_CASE("serve::PreviewServer slow headers")
{
  const layerbench::test::SiteFixture site;
  RunningServer running(site.root(), LiveReload::off);

  SUBCASE("a client that trickles its headers is answered 408 and closed")
  {
    const int sock = layerbench::test::connect_loopback(running.port(), {0, 200 * 1000});
    REQUIRE(sock >= 0);
    std::string received;
    // One header byte every 200 ms, for at most 12 s: the server must give up long before.
    for (int i = 0; i < 60 && received.empty(); ++i) {
      // Once the server has answered and closed, a send may fail (reset): the answer is still there to read.
      const bool sent = layerbench::test::send_all(sock, i == 0 ? "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n" : "X");
      received = layerbench::test::receive_all(sock);
      if (!sent) {
        break;
      }
    }
    ::close(sock);
    CHECK(received.rfind("HTTP/1.1 408", 0) == 0);
  }
  SUBCASE("64 trickling connections leave normal requests answered")
  {
    std::vector<int> trickling;
    for (int i = 0; i < 64; ++i) {
      const int sock = layerbench::test::connect_loopback(running.port());
      if (sock >= 0 && layerbench::test::send_all(sock, "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")) {
        trickling.push_back(sock);
      }
    }
    CHECK(trickling.size() == 64);
    std::this_thread::sleep_for(200ms); // let the server take them all
    for (int i = 0; i < 4; ++i) {
      for (const int sock : trickling) {
        layerbench::test::send_all(sock, "X");
      }
      CHECK(raw_get(running.port(), "/notes.txt").status == 200);
    }
    for (const int sock : trickling) {
      ::close(sock);
    }
  }
}

TEST_CASE("serve::PreviewServer request bodies")
{
  const layerbench::test::SiteFixture site;
  RunningServer running(site.root(), LiveReload::off);
  const std::string smuggled = "GET /style.css HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
  const std::string next = "GET /data.csv HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n";

  SUBCASE("a GET's body is dropped, never answered as a request of its own")
  {
    const auto reply = raw_request(running.port(), "GET /notes.txt HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: "
                                                     + std::to_string(smuggled.size()) + "\r\n\r\n" + smuggled + next);
    const std::string all = reply.head + "\r\n\r\n" + reply.body;
    CHECK(layerbench::test::count_of(all, "HTTP/1.1 200") == 2);
    CHECK(all.find("plain text") != std::string::npos);
    CHECK(all.find("color: black") == std::string::npos);
    CHECK(all.find("a,b") != std::string::npos);
  }
  SUBCASE("the same length twice is one length")
  {
    const auto reply = raw_request(running.port(), "HEAD /notes.txt HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 3, 3\r\n"
                                                   "content-length: 3\r\n\r\nabc" + next);
    CHECK(reply.status == 200);
    CHECK(reply.body.find("a,b") != std::string::npos);
  }
  SUBCASE("conflicting Content-Length headers are 400 and the connection closes")
  {
    const auto reply = raw_request(running.port(), "GET /notes.txt HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\n"
                                                   "Content-Length: " + std::to_string(smuggled.size()) + "\r\n\r\n" + smuggled + next);
    CHECK(reply.status == 400);
    CHECK(reply.body.find("conflicting Content-Length headers (0 and 44)") != std::string::npos);
    CHECK(reply.head.find("Connection: close") != std::string::npos);
    CHECK(reply.body.find("HTTP/1.1") == std::string::npos);
  }
  SUBCASE("Content-Length beside Transfer-Encoding, or not a number, is 400 too")
  {
    for (const std::string headers : {"Content-Length: 5\r\nTransfer-Encoding: chunked\r\n", "Content-Length: 5x\r\n",
                                      "Content-Length: -1\r\n", "Content-Length: 1,2\r\n"}) {
      CAPTURE(headers);
      const auto reply = raw_request(running.port(), "POST /index.html HTTP/1.1\r\nHost: 127.0.0.1\r\n" + headers + "\r\n" + next);
      CHECK(reply.status == 400);
      CHECK(reply.body.find("HTTP/1.1") == std::string::npos);
    }
  }
  SUBCASE("a GET with a chunked body is 400 and the connection closes")
  {
    const auto reply = raw_request(running.port(), "GET /notes.txt HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n"
                                                   + std::to_string(smuggled.size()) + "\r\n" + smuggled + "\r\n0\r\n\r\n" + next);
    CHECK(reply.status == 400);
    CHECK(reply.body.find("HTTP/1.1") == std::string::npos);
  }
}

namespace {

struct Received
{
  std::string bytes;
  bool closed = false; // the server ended the connection (rather than the read timing out)
};

// A client whose receive window stays small, as a slow reader's does.
int connect_slow_reader(int port) { return layerbench::test::connect_loopback(port, {5, 0}, 16 * 1024); }

Received receive_until_closed(int sock)
{
  Received received;
  char buffer[65536];
  while (true) {
    const ssize_t n = ::recv(sock, buffer, sizeof(buffer), 0);
    if (n > 0) {
      received.bytes.append(buffer, static_cast<size_t>(n));
      continue;
    }
    received.closed = n == 0 || errno == ECONNRESET;
    return received;
  }
}

} // namespace

TEST_CASE("serve::PreviewServer slow readers")
{
  const layerbench::test::SiteFixture site;
  const std::string big(4 * 1024 * 1024, 'x');
  layerbench::test::write_text(site.root() / "big.bin", big);
  const std::string get = "GET /big.bin HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";

  SUBCASE("a client that pipelines requests and keeps a response waiting gets that response, then is closed")
  {
    RunningServer running(site.root(), LiveReload::off, 2000ms);
    const int sock = connect_slow_reader(running.port());
    REQUIRE(sock >= 0);
    std::string pipelined;
    for (int i = 0; i < 20; ++i) {
      pipelined += get;
    }
    REQUIRE(layerbench::test::send_all(sock, pipelined));
    // Reads nothing for half the patience: the server's writes fill the socket and wait, longer than
    // a quarter of the patience but not all of it.
    std::this_thread::sleep_for(1000ms);
    const auto received = receive_until_closed(sock);
    ::close(sock);
    CHECK(received.closed);
    const auto responses = layerbench::test::count_of(received.bytes, "HTTP/1.1 200");
    CHECK(responses >= 1);
    CHECK(responses < 20);
    CHECK(received.bytes.find(big) != std::string::npos); // the response it was reading arrived whole
  }
  SUBCASE("a client that stops reading is dropped when the response's patience is spent")
  {
    RunningServer running(site.root(), LiveReload::off, 100ms);
    const int sock = connect_slow_reader(running.port());
    REQUIRE(sock >= 0);
    REQUIRE(layerbench::test::send_all(sock, get));
    std::this_thread::sleep_for(1500ms); // fifteen times the patience
    const auto received = receive_until_closed(sock);
    ::close(sock);
    CHECK(received.closed);
    CHECK(received.bytes.rfind("HTTP/1.1 200", 0) == 0);
    CHECK(received.bytes.size() < big.size());
  }
  SUBCASE("a reader that keeps up is never cut off, and its connection stays open")
  {
    RunningServer running(site.root(), LiveReload::off, 2000ms);
    const auto reply = raw_request(running.port(), get + "GET /notes.txt HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
    CHECK(reply.status == 200);
    CHECK(reply.body.find("plain text") != std::string::npos);
  }
}

TEST_CASE("serve::PreviewServer request heads")
{
  const layerbench::test::SiteFixture site;
  RunningServer running(site.root(), LiveReload::off);
  const std::string next = "GET /data.csv HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n";
  const auto send_head = [&](const std::string& headers, const std::string& after = "") {
    return raw_request(running.port(), "GET /notes.txt HTTP/1.1\r\n" + headers + "\r\n" + after);
  };

  SUBCASE("a space before the colon is 400 and closes: the body is never read as the next request")
  {
    for (const std::string header : {"Content-Length : 5", "Transfer-Encoding : chunked", "Content-Length\t: 5"}) {
      CAPTURE(header);
      const auto reply = send_head("Host: 127.0.0.1\r\n" + header + "\r\n", "HELLO" + next);
      CHECK(reply.status == 400);
      CHECK(reply.body.find("before its colon") != std::string::npos);
      CHECK(reply.head.find("Connection: close") != std::string::npos);
      CHECK(reply.body.find("HTTP/1.1") == std::string::npos); // neither HELLOGET nor /data.csv answered
    }
  }
  SUBCASE("a line without a colon, a folded line, a NUL or a bare LF in a value is 400")
  {
    for (const std::string& header : {std::string("X-A 1\r\n"), std::string(" X-A: 1\r\n"), std::string("X-A: a\0b\r\n", 10),
                                     std::string("X-A: a\nContent-Length: 5\r\n")}) {
      CAPTURE(header);
      const auto reply = send_head("Host: 127.0.0.1\r\n" + header, "HELLO" + next);
      CHECK(reply.status == 400);
      CHECK(reply.body.find("HTTP/1.1") == std::string::npos);
    }
  }
  SUBCASE("HTTP/1.1 without a Host, with an empty one or with two is 400; HTTP/1.0 may leave it out")
  {
    CHECK(send_head("Connection: close\r\n").status == 400);
    CHECK(send_head("Host:\r\nConnection: close\r\n").status == 400);
    CHECK(send_head("Host: 127.0.0.1\r\nHost: localhost\r\nConnection: close\r\n").status == 400);
    CHECK(raw_request(running.port(), "GET /notes.txt HTTP/1.0\r\n\r\n").status == 200);
  }
  SUBCASE("the head may have 16 KiB in lines of up to 8 KiB; a longer line or head is 431")
  {
    const std::string line = "X-Long: " + std::string(8 * 1024 - 10, 'a') + "\r\n"; // 8 KiB with its CRLF
    CHECK(send_head("Host: 127.0.0.1\r\nConnection: close\r\n" + line).status == 200);
    const auto long_line = send_head("Host: 127.0.0.1\r\nConnection: close\r\n" + line.substr(0, 8) + "a" + line.substr(8));
    CHECK(long_line.status == 431);
    CHECK(long_line.body.find("header line 3 is longer than 8 KiB") != std::string::npos);
    const auto long_head = send_head("Host: 127.0.0.1\r\nConnection: close\r\n" + line + line);
    CHECK(long_head.status == 431);
  }
}

TEST_CASE("serve::PreviewServer event stream slots")
{
  const layerbench::test::SiteFixture site;
  RunningServer running(site.root(), LiveReload::on);
  // Opens the event stream, reads until its greeting (or a refusal) and returns what came.
  const auto open_stream = [&](int sock) {
    layerbench::test::send_all(sock, "GET /__layerbench/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    std::string received;
    char buffer[4096];
    while (received.find("retry:") == std::string::npos
           && !(received.rfind("HTTP/1.1 503", 0) == 0 && received.find("\r\n\r\n") != std::string::npos)) {
      const ssize_t n = ::recv(sock, buffer, sizeof(buffer), 0);
      if (n <= 0) {
        break;
      }
      received.append(buffer, static_cast<size_t>(n));
    }
    return received;
  };

  SUBCASE("pages that open the stream and close at once free their slots: 40 of them (32 slots), then one more")
  {
    int refused = 0;
    for (int i = 0; i < 40; ++i) {
      const int sock = layerbench::test::connect_loopback(running.port());
      REQUIRE(sock >= 0);
      refused += open_stream(sock).rfind("HTTP/1.1 200", 0) == 0 ? 0 : 1;
      ::close(sock);
    }
    CHECK(refused == 0);
    const int sock = layerbench::test::connect_loopback(running.port());
    REQUIRE(sock >= 0);
    const std::string last = open_stream(sock);
    ::close(sock);
    CHECK(last.rfind("HTTP/1.1 200", 0) == 0);
    CHECK(last.find("retry: 1000") != std::string::npos);
  }
}
