#!/usr/bin/env python3
"""Live reload end to end in headless Chromium: open the home page served by `layerbench serve`, save a
template, see the page reload with the change; break the template, see the error overlay; fix it, see
the page recover. Prints the time from saving to the browser showing the change.

Usage: test_serve_browser.py LAYERBENCH [--measure N]
Exit 0 passed, 1 failed, 77 skipped (no chromium, chromedriver or selenium; the reason is printed)."""
import argparse
import pathlib
import shutil
import signal
import statistics
import sys
import tempfile
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from test_serve_support import Serve, copy_sources, skip  # noqa: E402

parser = argparse.ArgumentParser()
parser.add_argument("binary")
parser.add_argument("--measure", type=int, default=1, help="save-to-reload rounds to time")
arguments = parser.parse_args()

browser_path = shutil.which("chromium") or shutil.which("chromium-browser")
driver_path = shutil.which("chromedriver")
if not browser_path:
    skip("chromium is not installed (Debian package chromium)")
if not driver_path:
    skip("chromedriver is not installed (Debian package chromium-driver)")
try:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.support.ui import WebDriverWait
except ImportError:
    skip("selenium is not installed in the test venv (scripts/requirements-test.txt)")

failures = []


def check(condition, message):
    print(("ok:   " if condition else "FAIL: ") + message, flush=True)
    if not condition:
        failures.append(message)


def start_browser():
    options = webdriver.ChromeOptions()
    options.binary_location = browser_path
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"):
        options.add_argument(flag)
    # The Debian driver, named explicitly, so Selenium never tries to download one.
    return webdriver.Chrome(service=Service(driver_path), options=options)


def page_text(driver):
    return driver.execute_script("return document.body ? document.body.innerText : ''")


def wait(driver, condition, timeout=30):
    try:
        WebDriverWait(driver, timeout, poll_frequency=0.01).until(lambda d: condition(d))
        return True
    except Exception:  # selenium's TimeoutException, or the page navigating away mid-check
        return False


def save_and_time(driver, prose, text, probe):
    """Marks the open page, saves `text` into the template, and returns the seconds until the page has
    reloaded (the mark is gone) and shows `probe`; None when it never does."""
    driver.execute_script("window.layerbenchProbe = true;")
    start = time.monotonic()
    prose.write_text(text, encoding="utf-8")
    reloaded = wait(driver, lambda d: d.execute_script("return window.layerbenchProbe !== true") and probe in page_text(d))
    return time.monotonic() - start if reloaded else None


with tempfile.TemporaryDirectory() as scratch:
    scratch = pathlib.Path(scratch)
    data, templates = copy_sources(scratch)
    prose = templates / "prose" / "home.md"
    if not prose.exists():
        print(f"FAIL: {prose.relative_to(scratch)} is not in templates/; this test edits the home page's prose")
        sys.exit(1)
    original = prose.read_text(encoding="utf-8")
    with Serve(arguments.binary, "--root", scratch / "preview", "--data", data, "--templates", templates) as serve:
        driver = start_browser()
        try:
            driver.get(serve.url)
            check(wait(driver, lambda d: d.execute_script("return !!document.getElementById('layerbench-live-reload')")),
                  "the served home page carries the reload script")

            took = []
            for round_number in range(arguments.measure):
                probe = f"Live reload probe {round_number} {time.time_ns()}."
                seconds = save_and_time(driver, prose, original + f"\n{probe}\n", probe)
                check(seconds is not None, f"saving a template reloads the page with the change (round {round_number + 1})")
                if seconds is not None:
                    took.append(seconds)
            if took:
                print(f"save-to-reload: {len(took)} rounds, median {statistics.median(took) * 1000:.0f} ms, "
                      f"min {min(took) * 1000:.0f} ms, max {max(took) * 1000:.0f} ms", flush=True)

            prose.write_text(original + "\n{{#unclosed_in_test}}\n", encoding="utf-8")
            shown = wait(driver, lambda d: d.execute_script(
                "var box = document.getElementById('layerbench-render-error'); return box ? box.textContent : ''"))
            overlay = driver.execute_script(
                "var box = document.getElementById('layerbench-render-error'); return box ? box.textContent : ''")
            check(shown and "unclosed_in_test" in overlay, f"a broken template shows the error in the page: {overlay[:200]!r}")
            serve.wait_for("render failed", 30)
            check(True, "and the terminal prints it")
            check(serve.process.poll() is None, "and the server keeps running")

            recovered = save_and_time(driver, prose, original + "\nRecovered after the error.\n", "Recovered after the error.")
            check(recovered is not None, "the next good save reloads the page")
            check(not driver.execute_script("return !!document.getElementById('layerbench-render-error')"),
                  "and the overlay is gone")
        finally:
            driver.quit()
        code, _ = serve.stop(signal.SIGINT)
        check(code == 0, "the server stops cleanly afterwards")

print(f"{len(failures)} failures")
sys.exit(1 if failures else 0)
