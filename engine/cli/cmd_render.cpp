// SPDX-License-Identifier: MIT
#include "cli/command.hpp"

#include "site/render.hpp"
#include "util/error.hpp"

#include <csignal>
#include <iostream>

namespace po = boost::program_options;

namespace layerbench::cli {

namespace {

// The signal that asked the render to stop, 0 for none: set by the handler, read between files.
volatile std::sig_atomic_t g_stop_signal = 0;

extern "C" void note_stop_signal(int signal_number) { g_stop_signal = signal_number; }

// SIGINT and SIGTERM stop the render between two files, so that it can remove its temporary folder;
// then the signal is raised again with its default action, so the caller sees the process end by it.
void stop_on_signals()
{
  struct sigaction action = {};
  action.sa_handler = note_stop_signal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART; // the flag is polled: no call need return early
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
}

[[noreturn]] void raise_again(int signal_number)
{
  std::signal(signal_number, SIG_DFL);
  std::raise(signal_number);
  std::_Exit(128 + signal_number); // not reached: the default action ends the process
}

// An address a reader can follow: http(s), no spaces, no query or fragment of its own (pages add theirs).
void check_base_url(const std::string& url)
{
  if (url.empty()) {
    return;
  }
  const bool web = url.rfind("https://", 0) == 0 || url.rfind("http://", 0) == 0;
  if (!web || url.find_first_of(" \t\n?#\"<>") != std::string::npos || url.size() <= url.find("//") + 2) {
    throw UsageError("render: --base-url \"" + url + "\": give the address the site is served at, "
                     "such as https://example.org/layerbench/");
  }
}

} // namespace

int cmd_render(const Arguments& arguments)
{
  site::RenderOptions options;
  std::string data_dir = options.data_dir.string();
  std::string templates_dir = options.templates_dir.string();
  std::string out_dir = options.out_dir.string();
  po::options_description description("options");
  description.add_options()
    ("data", po::value(&data_dir)->default_value(data_dir), "folder with catalog.json and datasets/")
    ("templates", po::value(&templates_dir)->default_value(templates_dir), "folder with pages/, partials/, prose/, static/")
    ("out", po::value(&out_dir)->default_value(out_dir), "folder to (re)place with the rendered site")
    ("base-url", po::value(&options.base_url),
     "where the site will be served (https://...): page addresses go into the citations and attributions");
  if (!parse("render", "[--data DIR] [--templates DIR] [--out DIR] [--base-url URL]", description, arguments)) {
    return 0;
  }
  check_base_url(options.base_url);
  options.data_dir = data_dir;
  options.templates_dir = templates_dir;
  options.out_dir = out_dir;
  options.interrupted = [] { return g_stop_signal != 0; };
  stop_on_signals();
  site::RenderReport report;
  try {
    report = site::render(options);
  } catch (const Error&) {
    // RenderInterrupted, or a write the signal cut short: either way render removed its folder.
    if (g_stop_signal != 0) {
      raise_again(g_stop_signal);
    }
    throw;
  }
  if (g_stop_signal != 0) {
    raise_again(g_stop_signal); // the site is whole: the signal came after the last file
  }
  std::cout << "render: wrote " << report.files_written << " files to " << options.out_dir.string() << "\n";
  return 0;
}

} // namespace layerbench::cli
