#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""CITATION.cff and the CFF snippet of every dataset in data/ pass `cffconvert --validate`.

  check_citation.py LAYERBENCH

Run with the venv's python (LAYERBENCH_PYTHON), which has cffconvert; exits 77 (skipped) without it.
A deliberately broken copy must fail, so that a cffconvert that accepts everything is noticed.
"""
import glob
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CFFCONVERT = os.path.join(os.path.dirname(sys.executable), "cffconvert")


def valid(path):
    run = subprocess.run([CFFCONVERT, "--validate", "-i", path], capture_output=True, text=True)
    return run.returncode == 0, (run.stdout + run.stderr).strip().splitlines()[-1:]


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    if not os.access(CFFCONVERT, os.X_OK):
        print(f"SKIPPED: {CFFCONVERT} is not installed (pip install cffconvert, scripts/requirements-test.txt)")
        return 77
    layerbench = sys.argv[1]
    failures = 0
    with tempfile.TemporaryDirectory() as folder:
        files = [os.path.join(ROOT, "CITATION.cff")]
        for dataset in sorted(glob.glob(os.path.join(ROOT, "data", "datasets", "*.json"))):
            out = os.path.join(folder, os.path.basename(dataset) + ".cff")
            subprocess.run([layerbench, "export", dataset, "--format", "cff", "--out", out], check=True)
            files.append(out)
        for path in files:
            ok, message = valid(path)
            print(f"{'ok  ' if ok else 'FAIL'} {path}: {message}")
            failures += 0 if ok else 1
        broken = os.path.join(folder, "broken.cff")
        with open(os.path.join(ROOT, "CITATION.cff")) as f:
            text = f.read()
        with open(broken, "w") as f:
            f.write(text.replace("  type: data\n", "  type: dataset\n"))
        ok, message = valid(broken)
        print(f"{'FAIL' if ok else 'ok  '} preferred-citation with type 'dataset' is rejected: {message}")
        failures += 1 if ok else 0
    print(f"{failures} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
