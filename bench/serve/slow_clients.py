#!/usr/bin/env python3
"""Slow clients against `layerbench serve`: N connections that trickle header bytes (one byte each every
0.5 s, never finishing), then 4 normal GETs one after the other, each with a 5-second timeout. Prints
each GET's status and time, and how many trickling connections the server answered 408. Timings depend
on the machine's load; they are reported, never asserted (tests/test_serve_server.cpp asserts only
that 64 trickling connections leave GETs answered).

Usage: bench/serve/slow_clients.py [--binary build/layerbench] [--root site] [--connections 200]"""
import argparse
import http.client
import pathlib
import resource
import socket
import sys
import threading
import time

SOURCE = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(SOURCE / "tests"))
from test_serve_support import Serve  # noqa: E402

parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
parser.add_argument("--binary", default=str(SOURCE / "build" / "layerbench"))
parser.add_argument("--root", default=str(SOURCE / "site"))
parser.add_argument("--connections", type=int, default=200)
arguments = parser.parse_args()
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, arguments.connections + 256)), hard))

with Serve(arguments.binary, "--root", arguments.root, "--no-watch") as serve:
    trickling = []
    for _ in range(arguments.connections):
        sock = socket.create_connection(("127.0.0.1", serve.port))
        sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        trickling.append(sock)
    stop = threading.Event()

    def trickle():
        while not stop.is_set():
            for sock in trickling:
                try:
                    sock.send(b"X")
                except OSError:
                    pass
            stop.wait(0.5)

    thread = threading.Thread(target=trickle)
    thread.start()
    time.sleep(0.5)
    answered = 0
    for i in range(4):
        started = time.monotonic()
        try:
            connection = http.client.HTTPConnection("127.0.0.1", serve.port, timeout=5)
            connection.request("GET", "/")
            response = connection.getresponse()
            response.read()
            answered += response.status == 200
            print(f"GET {i + 1}: {response.status} in {time.monotonic() - started:.2f} s")
        except OSError as error:
            print(f"GET {i + 1}: {error!r} after {time.monotonic() - started:.2f} s")
    stop.set()
    thread.join()
    timed_out = 0
    for sock in trickling:
        sock.settimeout(0.1)
        try:
            timed_out += sock.recv(100).startswith(b"HTTP/1.1 408")
        except OSError:
            pass
        sock.close()
    print(f"{arguments.connections} trickling connections: {answered} of 4 GETs answered 200; "
          f"{timed_out} trickling connections answered 408 so far")
