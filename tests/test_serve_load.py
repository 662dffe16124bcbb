#!/usr/bin/env python3
"""A bounded load test on loopback: wrk with 64 connections against the home page served by
`layerbench serve`; it must finish with zero errors and the server must still answer afterwards.

Usage: test_serve_load.py LAYERBENCH [SECONDS]
Exit 0 passed, 1 failed, 77 skipped (wrk missing; the reason is printed)."""
import pathlib
import signal
import sys
import tempfile
import urllib.request

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from test_serve_support import Serve, render_fixture, run_wrk  # noqa: E402

binary = pathlib.Path(sys.argv[1])
seconds = int(sys.argv[2]) if len(sys.argv) > 2 else 10
failures = []


def check(condition, message):
    print(("ok:   " if condition else "FAIL: ") + message, flush=True)
    if not condition:
        failures.append(message)


with tempfile.TemporaryDirectory() as scratch:
    site = render_fixture(binary, pathlib.Path(scratch) / "site")
    with Serve(binary, "--root", site, "--no-watch") as serve:
        summary, output = run_wrk(serve.url, seconds, connections=64)
        print(output)
        check(summary["requests"] > 0, f"{summary['requests']} requests in {seconds}s "
                                       f"({summary['requests_per_second']:.0f}/s, p99 {summary['p99_ms']:.2f} ms)")
        check(summary["socket_errors"] == 0, f"no socket errors ({summary['socket_errors']})")
        check(summary["non_2xx"] == 0, f"no non-2xx responses ({summary['non_2xx']})")
        with urllib.request.urlopen(serve.url, timeout=10) as response:
            check(response.status == 200, "the server still answers afterwards")
        code, _ = serve.stop(signal.SIGINT)
        check(code == 0, "and stops cleanly")

print(f"{len(failures)} failures")
sys.exit(1 if failures else 0)
