#!/usr/bin/env python3
"""`layerbench serve` as a user runs it: banner and URL, loopback aliases and an empty --host, a port in
use, a missing root, and a clean stop on SIGINT and SIGTERM while a page holds its event stream and
another connection is kept alive.

Usage: test_serve_cli.py LAYERBENCH"""
import http.client
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import pathlib

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from test_serve_support import Serve, copy_sources, render_fixture  # noqa: E402

binary = pathlib.Path(sys.argv[1])
failures = []


def check(condition, message):
    print(("ok:   " if condition else "FAIL: ") + message, flush=True)
    if not condition:
        failures.append(message)


def get(port, path, method="GET"):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    connection.request(method, path)
    response = connection.getresponse()
    return response.status, dict(response.getheaders()), response.read()


with tempfile.TemporaryDirectory() as scratch:
    scratch = pathlib.Path(scratch)
    site = render_fixture(binary, scratch / "site")

    # Banner, URL, loopback, a page, and a clean SIGINT with an idle keep-alive connection open.
    with Serve(binary, "--root", site, "--no-watch") as serve:
        check(serve.url.startswith("http://127.0.0.1:") and serve.port > 0, f"--port 0 prints the URL it picked: {serve.url}")
        check(any("loopback only" in line for line in serve.err), "says it listens on loopback only")
        status, headers, body = get(serve.port, "/")
        check(status == 200 and b"<table" in body, "the home page is served")
        check(headers.get("Cache-Control") == "no-store", "Cache-Control: no-store")
        check(b"layerbench-live-reload" not in body, "--no-watch adds no reload script")
        idle = socket.create_connection(("127.0.0.1", serve.port))
        code, took = serve.stop(signal.SIGINT)
        idle.close()
        check(code == 0, f"SIGINT exits 0 (got {code}) in {took:.2f}s")
        check(any("stopped" in line for line in serve.err), "says it stopped")
        check(serve.out == [], f"the banner and the port go to stderr, stdout stays empty: {serve.out}")

    # A port in use (held by a plain socket) is a clear error.
    holder = socket.socket()
    holder.bind(("127.0.0.1", 0))
    holder.listen()
    busy = holder.getsockname()[1]
    result = subprocess.run([str(binary), "serve", "--root", str(site), "--no-watch", "--port", str(busy)],
                            capture_output=True, text=True, timeout=60)
    holder.close()
    check(result.returncode == 1, f"a port in use exits 1 (got {result.returncode})")
    check(f"127.0.0.1:{busy}" in result.stderr and "address already in use" in result.stderr,
          f"and says so: {result.stderr.strip()}")

    # The address bound decides the banner, the URL and the Host check, whatever spelling was typed.
    for alias in ("127.1", "0x7f.1"):
        with Serve(binary, "--root", site, "--no-watch", "--host", alias) as serve:
            check(serve.url == f"http://127.0.0.1:{serve.port}/", f"--host {alias} prints the address bound: {serve.url}")
            check(any("loopback only" in line for line in serve.err) and not any("reachable" in line for line in serve.err),
                  f"--host {alias} says loopback only")
            connection = http.client.HTTPConnection("127.0.0.1", serve.port, timeout=10)
            connection.request("GET", "/", headers={"Host": "evil.com"})
            status = connection.getresponse().status
            check(status == 403, f"--host {alias} refuses Host: evil.com (got {status})")
    result = subprocess.run([str(binary), "serve", "--root", str(site), "--no-watch", "--host", ""],
                            capture_output=True, text=True, timeout=60)
    check(result.returncode == 2 and "--host is empty" in result.stderr,
          f"an empty --host is a usage error (exit {result.returncode}): {result.stderr.strip()}")
    result = subprocess.run([str(binary), "serve", "--root", str(site), "--no-watch", "--port", "70000"],
                            capture_output=True, text=True, timeout=60)
    check(result.returncode == 2 and "serve: --port 70000 is not a port number" in result.stderr,
          f"a port out of range is a usage error (exit {result.returncode}): {result.stderr.strip()}")

    result = subprocess.run([str(binary), "serve", "--root", str(scratch / "nothing"), "--no-watch"],
                            capture_output=True, text=True, timeout=60)
    check(result.returncode == 1 and "--root" in result.stderr and "no such folder" in result.stderr,
          f"a missing root is a clear error: {result.stderr.strip()}")

    result = subprocess.run([str(binary), "serve", "--root", ".", "--port", "0"], capture_output=True, text=True,
                            timeout=60)
    check(result.returncode == 1 and "folder of its own" in result.stderr,
          f"live reload never renders over the current folder: {result.stderr.strip()}")

    # / and home folders are refused, with or without live reload, unless --allow-any-root insists.
    home = scratch / "home"
    home.mkdir()
    for root, extra in (("/", ["--no-watch"]), ("/", []), (str(home), ["--no-watch"]), (str(scratch), ["--no-watch"])):
        result = subprocess.run([str(binary), "serve", "--root", root, "--port", "0", *extra], capture_output=True,
                                text=True, timeout=60, env={**os.environ, "HOME": str(home)})
        check(result.returncode == 1 and f"--root {root}:" in result.stderr and "--allow-any-root" in result.stderr,
              f"serve --root {root} {' '.join(extra)} is refused: {result.stderr.strip()}")
    (home / "index.html").write_text("home page\n")
    real_home = os.environ.get("HOME")
    os.environ["HOME"] = str(home)  # inherited by the server started next
    try:
        with Serve(binary, "--root", home, "--no-watch", "--allow-any-root") as serve:
            status, _, body = get(serve.port, "/index.html")
            check(status == 200 and body == b"home page\n", "--allow-any-root serves a home folder when asked")
    finally:
        if real_home is None:
            del os.environ["HOME"]
        else:
            os.environ["HOME"] = real_home

    result = subprocess.run([str(binary), "serve", "--port", "http"], capture_output=True, text=True, timeout=60)
    check(result.returncode == 2 and "--port" in result.stderr, f"a bad --port is a usage error: {result.stderr.strip()}")

    # Live mode: the first render, the script, then SIGTERM while a page streams events.
    data, templates = copy_sources(scratch)

    # Before, `serve --root data/datasets` replaced the published datasets with the site.
    datasets = data / "datasets"
    before = {path.name: path.read_bytes() for path in datasets.iterdir()}
    result = subprocess.run([str(binary), "serve", "--data", str(data), "--templates", str(templates),
                             "--root", str(datasets), "--port", "0"], capture_output=True, text=True, timeout=60)
    check(result.returncode == 1 and f"--root {datasets}" in result.stderr and "inside" in result.stderr,
          f"live reload never renders over the data: {result.stderr.strip()}")
    check({path.name: path.read_bytes() for path in datasets.iterdir()} == before, "and the datasets are untouched")

    fifo = scratch / "run.json"
    os.mkfifo(fifo)
    result = subprocess.run([str(binary), "serve", "--data", str(data), "--templates", str(templates),
                             "--root", str(scratch / "preview-fifo"), "--extra-dataset", str(fifo), "--port", "0"],
                            capture_output=True, text=True, timeout=60)
    check(result.returncode == 1 and f"--extra-dataset {fifo}: not a regular file (a FIFO)" in result.stderr,
          f"an extra dataset that is a FIFO is named as one, never waited on: {result.stderr.strip()}")

    with Serve(binary, "--root", scratch / "preview", "--data", data, "--templates", templates) as serve:
        check(any("rendered in" in line for line in serve.err), "renders once at start")
        check(any("live reload on" in line for line in serve.err), "says live reload is on")
        status, _, body = get(serve.port, "/")
        check(status == 200 and b"layerbench-live-reload" in body, "pages carry the reload script")
        on_disk = (scratch / "preview" / "index.html").read_bytes()
        check(b"layerbench-live-reload" not in on_disk, "the file on disk does not")
        # The preview serves the site at its root, so its 404 page links from / and works at any depth.
        status, _, body = get(serve.port, "/layers/no/such/page.html")
        check(status == 404 and b'href="/style.css"' in body and b'href="/index.html"' in body,
              "a missing address three folders down gets the 404 page with links from /")
        stream = http.client.HTTPConnection("127.0.0.1", serve.port, timeout=10)
        stream.request("GET", "/__layerbench/events?since=0")
        events = stream.getresponse()
        check(events.status == 200 and events.getheader("Content-Type") == "text/event-stream",
              "the event stream answers with text/event-stream")
        first = events.readline()
        check(first.startswith(b"retry:"), f"and greets the page ({first!r})")
        code, took = serve.stop(signal.SIGTERM)
        check(code == 0, f"SIGTERM exits 0 with a page streaming events (got {code}) in {took:.2f}s")
        stream.close()

print(f"{len(failures)} failures")
sys.exit(1 if failures else 0)
