// SPDX-License-Identifier: MIT
#pragma once

#include <chrono>
#include <cstdio>
#include <string>

namespace layerbench::util {

enum class ProgressStyle {
  bar,  // redrawn in place on a terminal, with the current item and an ETA
  lines // one line per finished item, for logs and CI
};

ProgressStyle progress_style_for(std::FILE* stream); // bar when `stream` is a terminal

// Progress of a fixed number of items on stderr.
class Progress
{
public:
  Progress(size_t total, ProgressStyle style, std::FILE* stream = stderr);

  void start(const std::string& label);          // item `done() + 1` begins
  void finish(const std::string& result);        // the current item ended with this one-line result
  size_t done() const { return m_done; }

  // "1m05s" style; the ETA assumes the remaining items take the mean time of the finished ones.
  static std::string format_seconds(double seconds);

private:
  void draw();

  size_t m_total;
  size_t m_done = 0;
  ProgressStyle m_style;
  std::FILE* m_stream;
  std::string m_label;
  std::chrono::steady_clock::time_point m_start;
};

} // namespace layerbench::util
