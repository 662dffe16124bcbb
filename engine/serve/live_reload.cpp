// SPDX-License-Identifier: MIT
#include "serve/live_reload.hpp"

#include <algorithm>
#include <cctype>

namespace layerbench::serve {

namespace {

// Plain ES5 so that it runs in any browser; it builds the overlay with textContent, so an error
// message cannot inject markup.
const char* const k_script_head = R"(<script id="layerbench-live-reload">
/* Added by `layerbench serve` while previewing; never written to the site's files. */
(function () {
  var since = )";

const char* const k_script_middle = R"(;
  var retry_ms = 1000;
  function overlay(message) {
    var box = document.getElementById("layerbench-render-error");
    if (!box) {
      box = document.createElement("div");
      box.id = "layerbench-render-error";
      box.setAttribute("role", "alert");
      box.style.cssText = "position:fixed;inset:0;z-index:2147483647;overflow:auto;padding:2em;" +
        "background:rgba(24,24,24,.95);color:#ffd7d7;font:14px/1.5 monospace;white-space:pre-wrap";
      document.body.appendChild(box);
    }
    box.textContent = "layerbench serve: render failed; fix it and save, the page reloads.\n\n" + message;
  }
  function listen() {
    var source = new EventSource(")";

const char* const k_script_tail = R"(?since=" + since);
    source.addEventListener("open", function () { retry_ms = 1000; });
    source.addEventListener("reload", function (event) {
      if (Number(event.lastEventId) > since) { location.reload(); }
    });
    source.addEventListener("render-error", function (event) { overlay(event.data); });
    // The browser reconnects by itself after a dropped stream, but gives up for good on an answer
    // other than 200 (a 503 while every slot is taken): try again, waiting twice as long each time.
    source.addEventListener("error", function () {
      if (source.readyState === EventSource.CLOSED) {
        setTimeout(listen, retry_ms);
        retry_ms = Math.min(retry_ms * 2, 30000);
      }
    });
  }
  listen();
})();
</script>
)";

size_t last_body_close(const std::string& html)
{
  std::string lowered(html.size(), '\0');
  std::transform(html.begin(), html.end(), lowered.begin(), [](unsigned char c) {
    return static_cast<char>(std::tolower(c));
  });
  return lowered.rfind("</body>");
}

} // namespace

std::string inject_reload_script(const std::string& html, std::uint64_t since)
{
  const std::string script
    = k_script_head + std::to_string(since) + k_script_middle + k_events_path + k_script_tail;
  const size_t position = last_body_close(html);
  if (position == std::string::npos) {
    return html + script;
  }
  std::string page = html;
  page.insert(position, script);
  return page;
}

std::string format_event(const Event& event)
{
  std::string wire = "id: " + std::to_string(event.id) + "\nevent: " + event.name + "\n";
  size_t start = 0;
  while (true) {
    const size_t end = event.data.find('\n', start);
    std::string line = event.data.substr(start, end == std::string::npos ? std::string::npos : end - start);
    line.erase(std::remove(line.begin(), line.end(), '\r'), line.end());
    wire += "data: " + line + "\n";
    if (end == std::string::npos) {
      break;
    }
    start = end + 1;
  }
  return wire + "\n";
}

} // namespace layerbench::serve
