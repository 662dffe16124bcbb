// SPDX-License-Identifier: MIT
#pragma once

#include "serve/event_hub.hpp"

#include <cstdint>
#include <string>

namespace layerbench::serve {

// The server's own event stream. It is answered before any file is looked up, so a site folder of
// that name could never shadow it.
inline constexpr const char* k_events_path = "/__layerbench/events";

// The HTML of a page with the live-reload script added before its last </body> (or at the end when
// there is none). `since` is the id of the latest event when the page was served: a "reload" event
// with a higher SSE id reloads the page, a "render-error" event shows an overlay with the message.
std::string inject_reload_script(const std::string& html, std::uint64_t since);

// One server-sent event in wire format; a multi-line message becomes several data: lines.
std::string format_event(const Event& event);

} // namespace layerbench::serve
