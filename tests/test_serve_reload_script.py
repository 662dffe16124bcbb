#!/usr/bin/env python3
"""The live-reload script that `layerbench serve` adds to pages, run in Node with a fake EventSource:
a stream the server refuses (503 while every slot is taken) is one the browser closes for good, so the
script must open a new one, waiting twice as long each time up to 30 s, and wait 1 s again once a
stream opens. A stream the browser reconnects by itself is left to it.

Usage: test_serve_reload_script.py LAYERBENCH
Exit 0 passed, 1 failed, 77 skipped (no node; the reason is printed)."""
import http.client
import json
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from test_serve_support import Serve, copy_sources, skip  # noqa: E402

node = shutil.which("node") or shutil.which("nodejs")
if not node:
    skip("node is not installed (Debian package nodejs)")

# Drives the script: each stream is refused in turn (readyState CLOSED, then "error"), its retry timer
# is run, and the delays asked for are recorded.
HARNESS = r"""
const vm = require("vm");
const script = require("fs").readFileSync(process.argv[2], "utf8");
const sources = [];
const timers = [];
class FakeEventSource {
  constructor(url) { this.url = url; this.readyState = 0; this.listeners = {}; sources.push(this); }
  addEventListener(name, listener) { (this.listeners[name] = this.listeners[name] || []).push(listener); }
  fire(name) { (this.listeners[name] || []).forEach((listener) => listener({})); }
}
FakeEventSource.CONNECTING = 0;
FakeEventSource.OPEN = 1;
FakeEventSource.CLOSED = 2;
vm.runInNewContext(script, {
  EventSource: FakeEventSource, Math, Number, document: {}, location: {},
  setTimeout: (callback, ms) => timers.push({ callback, ms }),
});
const refuse = () => {
  const source = sources[sources.length - 1];
  source.readyState = FakeEventSource.CLOSED;
  source.fire("error");
  const timer = timers.shift();
  if (!timer) { return null; }
  timer.callback();
  return timer.ms;
};
const refused = [];
for (let i = 0; i < 7; ++i) { refused.push(refuse()); }
sources[sources.length - 1].readyState = FakeEventSource.OPEN;
sources[sources.length - 1].fire("open");
const after_open = refuse();
sources[sources.length - 1].readyState = FakeEventSource.CONNECTING;
sources[sources.length - 1].fire("error");
console.log(JSON.stringify({ urls: sources.map((s) => s.url), refused, after_open, browser_retry_timers: timers.length }));
"""

failures = []


def check(condition, message):
    print(("ok:   " if condition else "FAIL: ") + message, flush=True)
    if not condition:
        failures.append(message)


binary = pathlib.Path(sys.argv[1])
with tempfile.TemporaryDirectory() as scratch:
    scratch = pathlib.Path(scratch)
    data, templates = copy_sources(scratch)
    with Serve(binary, "--root", scratch / "preview", "--data", data, "--templates", templates) as serve:
        connection = http.client.HTTPConnection("127.0.0.1", serve.port, timeout=10)
        connection.request("GET", "/")
        page = connection.getresponse().read().decode()
    found = re.search(r'<script id="layerbench-live-reload">(.*?)</script>', page, re.S)
    check(found is not None, "the home page carries the reload script")
    if found:
        (scratch / "reload.js").write_text(found.group(1))
        (scratch / "harness.js").write_text(HARNESS)
        result = subprocess.run([node, str(scratch / "harness.js"), str(scratch / "reload.js")], capture_output=True,
                                text=True, timeout=60)
        check(result.returncode == 0, f"the script runs in node: {result.stderr.strip()}")
        if result.returncode == 0:
            outcome = json.loads(result.stdout)
            check(outcome["refused"] == [1000, 2000, 4000, 8000, 16000, 30000, 30000],
                  f"a refused stream is retried after 1, 2, 4, 8, 16, 30, 30 s: {outcome['refused']}")
            check(len(outcome["urls"]) == 9 and all(re.fullmatch(r"/__layerbench/events\?since=\d+", url)
                                                     for url in outcome["urls"]),
                  f"each retry opens a new stream on the events path: {outcome['urls'][:2]}...")
            check(outcome["after_open"] == 1000, f"after a stream opened, the next retry waits 1 s: {outcome['after_open']}")
            check(outcome["browser_retry_timers"] == 0, "a stream the browser reconnects itself is left to it")

print(f"{len(failures)} failures")
sys.exit(1 if failures else 0)
