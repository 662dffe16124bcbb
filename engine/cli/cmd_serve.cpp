// SPDX-License-Identifier: MIT
#include "cli/command.hpp"

#include "serve/render_loop.hpp"
#include "serve/served_root.hpp"
#include "serve/server.hpp"
#include "site/render.hpp"
#include "util/error.hpp"
#include "util/file.hpp"

#include <atomic>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <pthread.h>
#include <thread>

namespace po = boost::program_options;

namespace layerbench::cli {

namespace {

constexpr std::chrono::milliseconds k_poll_interval{100};

// SIGINT and SIGTERM are blocked in every thread (the server's threads inherit the mask) and taken
// by one thread with sigwait, so the shutdown runs as ordinary code, not in a signal handler.
class SignalWatch
{
public:
  explicit SignalWatch(serve::PreviewServer& server)
  {
    sigemptyset(&m_signals);
    sigaddset(&m_signals, SIGINT);
    sigaddset(&m_signals, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &m_signals, nullptr);
    m_thread = std::thread([this, &server] { wait(server); });
  }
  SignalWatch(const SignalWatch&) = delete;
  SignalWatch& operator=(const SignalWatch&) = delete;

  ~SignalWatch()
  {
    if (!m_received) {
      m_releasing = true; // the server ended by itself: wake the thread without a message
      pthread_kill(m_thread.native_handle(), SIGTERM);
    }
    m_thread.join();
    pthread_sigmask(SIG_UNBLOCK, &m_signals, nullptr);
  }

private:
  void wait(serve::PreviewServer& server)
  {
    int signal = 0;
    sigwait(&m_signals, &signal);
    m_received = true;
    if (m_releasing) {
      return;
    }
    std::cerr << "\nlayerbench serve: " << (signal == SIGINT ? "interrupted" : "terminated") << ", stopping"
              << std::endl;
    server.stop();
  }

  sigset_t m_signals{};
  std::atomic<bool> m_received{false};
  std::atomic<bool> m_releasing{false};
  std::thread m_thread;
};

std::string folder_text(const std::filesystem::path& folder)
{
  std::string text = folder.string();
  return text.empty() || text.back() == '/' ? text : text + "/";
}

void print_banner(const serve::PreviewServer& server,
                  const serve::ServeOptions& options,
                  const site::RenderOptions& render_options)
{
  std::cerr << "layerbench serve: serving " << folder_text(options.root) << " at " << server.url() << "\n";
  // What was bound decides, not what was typed: --host 127.1 binds loopback, --host 0.0.0.0 does not.
  if (server.address().reach == serve::Reach::loopback) {
    std::cerr << "layerbench serve: loopback only, other machines cannot reach it (--host 0.0.0.0 to share)\n";
  } else {
    std::cerr << "layerbench serve: listening on " << server.address().ip
              << ", reachable from the network: this preview server is not hardened for the internet\n";
  }
  if (options.live_reload == serve::LiveReload::on) {
    std::cerr << "layerbench serve: live reload on: watching " << folder_text(render_options.data_dir) << " and "
              << folder_text(render_options.templates_dir);
    for (const auto& extra : render_options.extra_datasets) {
      std::cerr << " and " << extra.string();
    }
    std::cerr << "\n";
  }
  std::cerr << "layerbench serve: press Ctrl-C to stop" << std::endl;
}

std::vector<std::filesystem::path> watched_paths(const site::RenderOptions& render_options)
{
  std::vector<std::filesystem::path> watched = {render_options.data_dir, render_options.templates_dir};
  watched.insert(watched.end(), render_options.extra_datasets.begin(), render_options.extra_datasets.end());
  return watched;
}

// With live reload the root is replaced by every render, so it must be a folder of its own.
void check_render_root(const site::RenderOptions& render_options)
{
  if (const auto reason = site::unsafe_out_dir(render_options)) {
    throw Error("serve: --root " + render_options.out_dir.string() + ": " + *reason
                + "; live reload renders into --root, so give it a folder of its own "
                  "(or pass --no-watch to serve " + render_options.out_dir.string() + " as it is)");
  }
}

} // namespace

int cmd_serve(const Arguments& arguments)
{
  serve::ServeOptions options;
  site::RenderOptions render_options;
  std::string root = options.root.string();
  std::string data_dir = render_options.data_dir.string();
  std::string templates_dir = render_options.templates_dir.string();
  std::vector<std::string> extra_datasets;
  po::options_description description("options");
  description.add_options()
    ("root", po::value(&root)->default_value(root), "folder to serve (and to render into, with live reload)")
    ("host", po::value(&options.host)->default_value(options.host), "address to listen on; loopback by default")
    ("port", po::value(&options.port)->default_value(options.port), "port to listen on; 0 picks a free one")
    ("data", po::value(&data_dir)->default_value(data_dir), "datasets to render, watched for changes")
    ("templates", po::value(&templates_dir)->default_value(templates_dir), "templates to render, watched for changes")
    ("extra-dataset", po::value(&extra_datasets)->composing(),
     "an unpublished dataset file to show beside data/ (repeatable; make run passes its local run)")
    ("no-watch", "serve --root as it is: no rendering, no live reload")
    ("allow-any-root", "serve --root even when it is / or holds a home folder");
  const auto values = parse("serve",
                            "[--root DIR] [--host ADDRESS] [--port N] [--data DIR] [--templates DIR] "
                            "[--extra-dataset FILE]... [--no-watch] [--allow-any-root]",
                            description,
                            arguments);
  if (!values) {
    return 0;
  }
  if (options.host.empty()) {
    throw UsageError("serve: --host is empty; give an address (127.0.0.1, the default, for this machine only; "
                     "0.0.0.0 to share)");
  }
  if (options.port < 0 || options.port > 65535) {
    throw UsageError("serve: --port " + std::to_string(options.port) + " is not a port number (0 to 65535)");
  }
  options.root = root;
  options.live_reload = values->count("no-watch") ? serve::LiveReload::off : serve::LiveReload::on;
  render_options.data_dir = data_dir;
  render_options.templates_dir = templates_dir;
  render_options.out_dir = root;
  render_options.served_path = "/"; // the preview serves the site at its root, so its 404 page works at any depth
  render_options.extra_datasets.assign(extra_datasets.begin(), extra_datasets.end());
  if (const auto reason = serve::broad_root(options.root, serve::home_folders()); reason && !values->count("allow-any-root")) {
    throw Error("serve: --root " + root + ": " + *reason + "; give the site's folder (or pass --allow-any-root if "
                "you mean it)");
  }
  if (options.live_reload == serve::LiveReload::off && !std::filesystem::is_directory(options.root)) {
    throw Error("serve: --root " + root + ": no such folder (render it with 'layerbench render', or leave out --no-watch)");
  }
  for (const auto& extra : render_options.extra_datasets) {
    // The reader's own reason: a FIFO or a folder is "not a regular file (a FIFO)", not "no such file".
    if (const auto readable = util::read_file(extra); !readable) {
      throw Error("serve: --extra-dataset " + extra.string() + ": " + readable.error());
    }
  }
  if (options.live_reload == serve::LiveReload::on) {
    check_render_root(render_options);
  }

  serve::PreviewServer server(options);
  server.bind(); // first, so that a port in use is reported before a render
  SignalWatch signals(server);
  serve::RenderLoop render_loop(server.events(), [render_options] { site::render(render_options); },
                                watched_paths(render_options), k_poll_interval, std::cerr);
  if (options.live_reload == serve::LiveReload::on) {
    render_loop.render_now();
    render_loop.start();
  }
  print_banner(server, options, render_options);
  server.run();
  render_loop.stop();
  std::cerr << "layerbench serve: stopped" << std::endl;
  return 0;
}

} // namespace layerbench::cli
