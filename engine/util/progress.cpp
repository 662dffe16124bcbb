// SPDX-License-Identifier: MIT
#include "util/progress.hpp"

#include <cmath>
#include <unistd.h>

namespace layerbench::util {

ProgressStyle progress_style_for(std::FILE* stream)
{
  return ::isatty(::fileno(stream)) ? ProgressStyle::bar : ProgressStyle::lines;
}

Progress::Progress(size_t total, ProgressStyle style, std::FILE* stream)
  : m_total(total), m_style(style), m_stream(stream), m_start(std::chrono::steady_clock::now())
{
}

std::string Progress::format_seconds(double seconds)
{
  const auto whole = static_cast<long>(std::lround(seconds));
  if (whole < 60) {
    return std::to_string(whole) + "s";
  }
  const long minutes = whole / 60;
  const long rest = whole % 60;
  return std::to_string(minutes) + "m" + (rest < 10 ? "0" : "") + std::to_string(rest) + "s";
}

void Progress::start(const std::string& label)
{
  m_label = label;
  if (m_style == ProgressStyle::bar) {
    draw();
  }
}

void Progress::finish(const std::string& result)
{
  ++m_done;
  if (m_style == ProgressStyle::bar) {
    std::fprintf(m_stream, "\r\033[K[%zu/%zu] %s: %s\n", m_done, m_total, m_label.c_str(), result.c_str());
    std::fflush(m_stream);
    return;
  }
  std::fprintf(m_stream, "[%zu/%zu] %s: %s\n", m_done, m_total, m_label.c_str(), result.c_str());
  std::fflush(m_stream);
}

void Progress::draw()
{
  constexpr int k_width = 24;
  const double fraction = m_total == 0 ? 1.0 : static_cast<double>(m_done) / static_cast<double>(m_total);
  const int filled = static_cast<int>(fraction * k_width);
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - m_start).count();
  std::string eta = "ETA --";
  if (m_done > 0) {
    eta = "ETA " + format_seconds(elapsed / static_cast<double>(m_done) * static_cast<double>(m_total - m_done));
  }
  std::fprintf(m_stream, "\r\033[K[%s%s] %zu/%zu %s  %s",
               std::string(static_cast<size_t>(filled), '#').c_str(),
               std::string(static_cast<size_t>(k_width - filled), '.').c_str(), m_done, m_total,
               m_label.c_str(), eta.c_str());
  std::fflush(m_stream);
}

} // namespace layerbench::util
