"""Shared by the serve tests and bench/serve: start `layerbench serve` on a free port, read its output,
stop it with a signal; copy the site sources into a scratch folder so tests may edit them."""
import pathlib
import re
import shutil
import signal
import subprocess
import sys
import threading
import time

SKIP = 77
SOURCE = pathlib.Path(__file__).resolve().parent.parent
FIXTURE_DATA = SOURCE / "tests" / "fixtures" / "site" / "data"


def skip(reason):
    print(f"SKIPPED: {reason}", flush=True)
    sys.exit(SKIP)


def copy_sources(scratch):
    """templates/ and the site fixture's data/ copied under `scratch`, for a test to edit freely."""
    scratch = pathlib.Path(scratch)
    shutil.copytree(SOURCE / "templates", scratch / "templates")
    shutil.copytree(FIXTURE_DATA, scratch / "data")
    return scratch / "data", scratch / "templates"


class Serve:
    """`layerbench serve --port 0 ARGS...`, started and waited for until it prints its URL."""

    def __init__(self, binary, *args, timeout=120):
        self.out, self.err = [], []
        self.process = subprocess.Popen([str(binary), "serve", "--port", "0", *map(str, args)],
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1)
        for stream, lines in ((self.process.stdout, self.out), (self.process.stderr, self.err)):
            threading.Thread(target=self._collect, args=(stream, lines), daemon=True).start()
        line = self.wait_for(r"serving .* at (http://\S+)", timeout)
        self.url = re.search(r"at (http://\S+)", line).group(1)
        self.port = int(re.search(r":(\d+)/$", self.url).group(1))

    @staticmethod
    def _collect(stream, lines):
        for line in stream:
            lines.append(line.rstrip("\n"))

    def wait_for(self, pattern, timeout=30, stream="err"):
        """The first line of stderr (or stdout) matching `pattern`, waiting up to `timeout` seconds."""
        lines = self.out if stream == "out" else self.err
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for line in list(lines):
                if re.search(pattern, line):
                    return line
            if self.process.poll() is not None and not self._still_reading():
                break
            time.sleep(0.02)
        raise AssertionError(f"no line matching {pattern!r} within {timeout}s; stdout={self.out} stderr={self.err}")

    def _still_reading(self):
        time.sleep(0.1)  # let the reader threads drain what the process wrote before it ended
        return False

    def stop(self, sig=signal.SIGINT, timeout=10):
        """Sends `sig` and returns (exit code, seconds it took to exit)."""
        start = time.monotonic()
        self.process.send_signal(sig)
        code = self.process.wait(timeout)
        return code, time.monotonic() - start

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()


def render_fixture(binary, out):
    """Renders the site fixture with the real templates into `out` (for tests that serve with --no-watch)."""
    subprocess.run([str(binary), "render", "--data", str(FIXTURE_DATA), "--templates", str(SOURCE / "templates"),
                    "--out", str(out)], check=True, capture_output=True, text=True)
    return out


def run_wrk(url, seconds, connections, threads=2):
    """Runs wrk against `url` with latency percentiles and returns (summary dict, full output)."""
    wrk = shutil.which("wrk")
    if not wrk:
        skip("wrk is not installed (Debian package wrk)")
    result = subprocess.run([wrk, f"-t{threads}", f"-c{connections}", f"-d{seconds}s", "--timeout", "5s", "--latency", url],
                            capture_output=True, text=True, timeout=seconds + 60)
    return parse_wrk(result.stdout), result.stdout + result.stderr


def _milliseconds(text):
    value, unit = re.fullmatch(r"([\d.]+)(us|ms|s|m)", text).groups()
    return float(value) * {"us": 0.001, "ms": 1.0, "s": 1000.0, "m": 60000.0}[unit]


def parse_wrk(output):
    """Requests/s, p50/p99 latency (ms), requests, and the error counts wrk prints only when non-zero."""
    summary = {"requests_per_second": float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1)),
               "requests": int(re.search(r"(\d+) requests in", output).group(1)),
               "p50_ms": _milliseconds(re.search(r"^\s+50%\s+(\S+)", output, re.M).group(1)),
               "p99_ms": _milliseconds(re.search(r"^\s+99%\s+(\S+)", output, re.M).group(1)),
               "socket_errors": 0, "non_2xx": 0}
    errors = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", output)
    if errors:
        summary["socket_errors"] = sum(int(n) for n in errors.groups())
    non_2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
    if non_2xx:
        summary["non_2xx"] = int(non_2xx.group(1))
    return summary
