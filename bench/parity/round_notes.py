#!/usr/bin/env python3
"""The notes of a parity file's cells outside its target, computed from their rounds, as JSON for
`parity.py --annotate ... --notes` ({"Layer@batch": "why"}). Each sentence states only what the rounds show:

- every round below 1: "LayerBench lower in every round (lo to hi)"; above 1: "higher in every round";
- rounds on both sides of 1: "the rounds fall on both sides of 1 (lo to hi)": no steady difference;
- where LayerBench is lower, the share of the Python side's time that a per-call cost of PER_CALL_US could
  account for, so that a reader sees whether that explanation can carry the gap.

Extra sentences for named cells come from --extra ({"Layer@batch": "sentence"}), appended as given.

    python3 bench/parity/round_notes.py PARITY.json [--extra extra.json] > notes.json
"""
import argparse
import json
import sys

# Python's module call (nn.Module.__call__ and the functional layer) over LayerBench's C++ call, per forward:
# docs/validity.md section 3, 8 to 13 microseconds on the smallest cells.
PER_CALL_US = 13.0


def note(cell: dict) -> str:
    rounds = cell.get("round_ratios") or []
    if not rounds:
        return ""
    lo, hi = min(rounds), max(rounds)
    span = f"({lo:.3f} to {hi:.3f})"
    if hi < 1:
        share = PER_CALL_US / 1000 / cell["python_median_ms"]
        share_text = "under 0.1%" if share < 0.001 else f"{share:.1%}"
        return (f"LayerBench lower in every round {span}; Python's per-call cost of up to {PER_CALL_US:.0f} microseconds "
                f"is {share_text} of this cell's time, so it explains "
                f"{'the gap' if 1 - cell['ratio'] <= share else 'at most that much of the gap'}")
    if lo > 1:
        return f"LayerBench higher in every round {span}"
    return (f"the rounds fall on both sides of 1 {span}: the difference changes sign from round to round, so it is "
            f"not a steady difference between the two sides")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("parity")
    parser.add_argument("--extra", help='JSON {"Layer@batch": "sentence"} appended to those cells\' notes')
    args = parser.parse_args()
    parity = json.load(open(args.parity))
    extra = json.load(open(args.extra)) if args.extra else {}
    notes = {}
    for cell in parity["cells"]:
        # parity.py's within_target: under the size the band applies to, or inside the band
        if cell["within_target"]:
            continue
        key = f"{cell['layer']}@{cell['batch_size']}"
        text = note(cell)
        if key in extra:
            text = f"{text}; {extra[key]}" if text else extra[key]
        if text:
            notes[key] = text
    json.dump(notes, sys.stdout, indent=1)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
