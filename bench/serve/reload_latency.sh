#!/usr/bin/env bash
# Time from saving a template to the browser showing the change, in headless Chromium: the live-reload
# test run for ROUNDS rounds (default 20); it prints the median, min and max.
# Usage: bench/serve/reload_latency.sh [BINARY] [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/../.."
binary=${1:-build/layerbench}
rounds=${2:-20}
python=${LAYERBENCH_PYTHON:-$HOME/.cache/layerbench/venv/bin/python}
exec "$python" tests/test_serve_browser.py "$binary" --measure "$rounds"
