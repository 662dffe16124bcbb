#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""torch.compile across torch releases, from the published datasets: per release and model, the eager and
compiled training step (median of round medians, its 95% interval over rounds), the compiled-over-eager
throughput ratio with the interval the site prints (view_common.cpp's ratio_text: eager low over compiled
high to eager high over compiled low), the verdict (intervals apart or not, model_answers.cpp's verdict_of)
and the first round's compile seconds, or the skipped cell's reason.

  table.py data/datasets/cpu-epyc-zen4-2vcpu-models-compile-torch-*-v1.json
"""
import json
import sys


def release_key(path_and_data):
    version = path_and_data[1]["environment"]["torch_version"].split("+")[0]
    return tuple(int(part) for part in version.split("."))


def cell(data, model, compiled):
    for c in data["results"]:
        a = c["axes"]
        if (c["layer"] == model and a["mode"] == "train" and a["precision"] == "fp32"
                and a["compiled"] == compiled):
            return c
    return None


def interval(c):
    spread = c.get("round_spread")
    return (spread["ci95_low_ms"], spread["ci95_high_ms"]) if spread else (None, None)


def main(paths):
    loaded = sorted(((p, json.load(open(p))) for p in paths), key=release_key)
    print("release\tmodel\tbatch\teager_ms\teager_ci95_ms\tcompiled_ms\tcompiled_ci95_ms\tratio\tratio_ci95\tverdict"
          "\tcompile_s_round1\tnote")
    for path, data in loaded:
        release = data["environment"]["torch_version"].split("+")[0]
        for model in ("ResNet50", "BertBase"):
            eager, compiled = cell(data, model, "eager"), cell(data, model, "torch_compile")
            if eager is None or compiled is None:
                print(f"{release}\t{model}\t\t\t\t\t\t\t\t\t\tmissing in {path}")
                continue
            if compiled["status"] != "ok" or eager["status"] != "ok":
                reason = compiled.get("skip_reason") if compiled["status"] != "ok" else eager.get("skip_reason")
                em = f"{eager['stats']['median_ms']:.0f}" if eager["status"] == "ok" else ""
                print(f"{release}\t{model}\t{eager['batch_size']}\t{em}\t\t\t\t\t\t\t\tskipped: {reason}")
                continue
            e, c = eager["stats"]["median_ms"], compiled["stats"]["median_ms"]
            (el, eh), (cl, ch) = interval(eager), interval(compiled)
            ratio = e / c
            low, high = el / ch, eh / cl
            verdict = "faster" if ch < el else "slower" if cl > eh else "unclear"
            # The dataset keeps the first round's runtime (docs/models.md): its compile, on a cold cache.
            runtime = compiled.get("runtime") or {}
            compile_s = f"{runtime['compile_seconds']:.0f}" if runtime.get("compile_seconds") is not None else "-"
            print(f"{release}\t{model}\t{eager['batch_size']}\t{e:.0f}\t{el:.0f}-{eh:.0f}\t{c:.0f}\t{cl:.0f}-{ch:.0f}"
                  f"\t{ratio:.3f}\t{low:.3f}-{high:.3f}\t{verdict}\t{compile_s}\t")


if __name__ == "__main__":
    main(sys.argv[1:])
