#!/usr/bin/env python3
"""Requests/s and latency of the home page: `layerbench serve` against `python3 -m http.server` (what
`asv preview` uses), serving the same folder, one after the other in the same run, with the same wrk
settings on loopback. Prints a Markdown table and the ratios.

Usage: bench/serve/wrk_compare.py [--binary build/layerbench] [--root site] [--seconds 30] [--connections 64]"""
import argparse
import pathlib
import socket
import subprocess
import sys
import time
import urllib.request

SOURCE = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(SOURCE / "tests"))
from test_serve_support import Serve, run_wrk  # noqa: E402

parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
parser.add_argument("--binary", default=str(SOURCE / "build" / "layerbench"))
parser.add_argument("--root", default=str(SOURCE / "site"), help="folder both servers serve (default: site/)")
parser.add_argument("--seconds", type=int, default=30)
parser.add_argument("--connections", type=int, default=64)
parser.add_argument("--threads", type=int, default=2, help="wrk threads")
arguments = parser.parse_args()


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_until_answering(url, timeout=30):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            time.sleep(0.1)
    raise SystemExit(f"{url} did not answer within {timeout}s")


def bench_ours():
    with Serve(arguments.binary, "--root", arguments.root, "--no-watch") as serve:
        summary, output = run_wrk(serve.url, arguments.seconds, arguments.connections, arguments.threads)
        serve.stop()
    return summary, output


def bench_python():
    port = free_port()
    process = subprocess.Popen([sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1",
                                "--directory", arguments.root], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        url = f"http://127.0.0.1:{port}/"
        wait_until_answering(url)
        return run_wrk(url, arguments.seconds, arguments.connections, arguments.threads)
    finally:
        process.terminate()
        process.wait()


results = {}
for name, bench in (("layerbench serve", bench_ours), ("python3 -m http.server", bench_python)):
    print(f"# {name}: wrk -t{arguments.threads} -c{arguments.connections} -d{arguments.seconds}s --timeout 5s --latency",
          flush=True)
    summary, output = bench()
    print(output, flush=True)
    results[name] = summary

print(f"home page ({pathlib.Path(arguments.root) / 'index.html'}, "
      f"{(pathlib.Path(arguments.root) / 'index.html').stat().st_size} bytes), "
      f"{arguments.connections} connections, {arguments.seconds} s each, loopback\n")
print("| server | requests/s | p50 latency | p99 latency | requests | socket errors | non-2xx |")
print("|---|---:|---:|---:|---:|---:|---:|")
for name, s in results.items():
    print(f"| {name} | {s['requests_per_second']:.0f} | {s['p50_ms']:.2f} ms | {s['p99_ms']:.2f} ms | {s['requests']} "
          f"| {s['socket_errors']} | {s['non_2xx']} |")
ours, theirs = results["layerbench serve"], results["python3 -m http.server"]
print(f"\nrequests/s ratio (layerbench / python): {ours['requests_per_second'] / theirs['requests_per_second']:.1f}x")
print(f"p99 latency ratio (python / layerbench): {theirs['p99_ms'] / ours['p99_ms']:.1f}x")
