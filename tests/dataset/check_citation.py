#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""CITATION.cff and the CFF snippet of every dataset in data/ pass `cffconvert --validate`.

  check_citation.py LAYERBENCH
  check_citation.py LAYERBENCH --door FIXTURE.json

With --door: variants of a fixture dataset's citation fields (a created time that does not exist,
DEL, C1 controls, noncharacters, white space only, and printable text that YAML quotes) are each
either refused by `layerbench validate` or exported as a CFF that cffconvert accepts (issue 36); the
printable ones must be accepted by both.

Run with the venv's python (LAYERBENCH_PYTHON), which has cffconvert; exits 77 (skipped) without it.
A deliberately broken copy must fail, so that a cffconvert that accepts everything is noticed.
"""
import glob
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CFFCONVERT = os.path.join(os.path.dirname(sys.executable), "cffconvert")


def valid(path):
    run = subprocess.run([CFFCONVERT, "--validate", "-i", path], capture_output=True, text=True)
    return run.returncode == 0, (run.stdout + run.stderr).strip().splitlines()[-1:]


# (what it changes, whether validate must accept it): the probes of issue 36 and printable text.
DOOR_CASES = [
    ({"created": "2026-13-45T99:99:99Z"}, False),
    ({"created": "2026-02-29T12:00:00Z"}, False),
    ({"title": "Title\x7f"}, False),
    ({"title": "Title\u0085"}, False),
    ({"title": "Title\u009b31m"}, False),
    ({"title": "Title\ufffe"}, False),
    ({"title": "Title\uffff"}, False),
    ({"title": "Title\x1b]0;PWNED\x07"}, False),
    ({"title": "Title\x01"}, False),
    ({"title": "Title\x00"}, False),
    ({"title": "   "}, False),
    ({"creators": [{"name": "Ada\x7f", "affiliation": ""}]}, False),
    ({"creators": [{"name": "Ada", "affiliation": "Lab\ufffe"}]}, False),
    ({"creators": [{"name": " ", "affiliation": ""}]}, False),
    ({"title": "- H100: \"fp32\" #1, 100% of {layers} & 'more' \u00b5s \u20ac \U0001f600"}, True),
    ({"creators": [{"name": "Ad\u00e0 Lovelace: [x]", "affiliation": ""}]}, True),
    ({"created": "2024-02-29T23:59:59Z"}, True),
]


def door(layerbench, fixture, folder):
    """How many door cases fail: validate accepted a dataset whose CFF cffconvert rejects, or refused a good one."""
    with open(fixture) as f:
        base = json.load(f)
    # The fixture's creators keep their affiliations: dataset::cff writes such a creator as a CFF person.
    failures = 0
    for number, (change, acceptable) in enumerate(DOOR_CASES):
        dataset = dict(base, **change)
        path = os.path.join(folder, f"door-{number}.json")
        with open(path, "w") as f:
            json.dump(dataset, f)
        accepted = subprocess.run([layerbench, "validate", path], capture_output=True).returncode == 0
        cff_ok = None
        if accepted:
            out = path + ".cff"
            subprocess.run([layerbench, "export", path, "--format", "cff", "--out", out], check=True)
            cff_ok, _ = valid(out)
        good = (accepted and cff_ok) if acceptable else (not accepted or cff_ok)
        verdict = "refused by validate" if not accepted else "CFF valid" if cff_ok else "validated, but its CFF is INVALID"
        print(f"{'ok  ' if good else 'FAIL'} {json.dumps(change)}: {verdict}")
        failures += 0 if good else 1
    return failures


def main():
    if len(sys.argv) not in (2, 4) or (len(sys.argv) == 4 and sys.argv[2] != "--door"):
        print(__doc__)
        return 2
    if not os.access(CFFCONVERT, os.X_OK):
        print(f"SKIPPED: {CFFCONVERT} is not installed (pip install cffconvert, scripts/requirements-test.txt)")
        return 77
    layerbench = sys.argv[1]
    if len(sys.argv) == 4:
        with tempfile.TemporaryDirectory() as folder:
            failures = door(layerbench, sys.argv[3], folder)
        print(f"{failures} failure(s)")
        return 1 if failures else 0
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
