#!/usr/bin/env python3
"""Which bernoulli_ kernel does this torch release run for Dropout, and how long does it take?

Issue 35, item 4: Dropout at batch 32 takes 0.012 ms on torch 2.0.1 and 2.6.0 and 0.14-0.17 ms on
1.13.1, 2.7.1 and later (cpu-epyc-2vcpu-torch-*-v1), with `aten::bernoulli_` on top of every profile.
Run this with each release's Python (one venv per release):

    VENV/bin/python bench/versions/dropout_probe.py [--reps 7] [--min-run-time 0.1]
    python3 bench/versions/dropout_probe.py --datasets data/datasets   # the published cells; no torch needed
    python3 bench/versions/dropout_probe.py --binary .../torch/lib/libtorch_cpu.so ...   # nm and objdump

The second form tabulates Dropout's cells of every cpu-epyc-2vcpu-torch-* dataset (median, quartiles,
round medians, bernoulli_'s share of the profile). The third disassembles ATen's bernoulli_scalar_kernel
in each given libtorch_cpu.so and counts its calls into MKL's VSL (viRngBernoulli), cpuinfo (the Intel
vendor check) and TensorIterator's serial loop (the default kernel). The first prints, for the release it runs in:
- the build (torch.__config__.show()) and whether ATen was built with MKL;
- the CPU vendor as /proc/cpuinfo gives it (the MKL kernel of torch <= 1.13 ran on Intel only);
- the kernel path, told apart by behaviour rather than by version number: ATen's MKL kernel
  (DistributionKernels.cpp, bernoulli_scalar_kernel under AT_MKL_ENABLED) draws ONE seed from the CPU
  generator per call, whatever the tensor's size, while the default kernel
  (cpu/DistributionTemplates.h, cpu_serial_kernel) draws one number per element. So after the same
  seed, bernoulli_ on 16 and on 16384 elements leaves the generator in the same state on the MKL path
  and in different states on the default path;
- timings of x.bernoulli_(p), torch.bernoulli(x, p), F.dropout(x, p, training=True) and nn.Dropout in
  train mode under inference_mode (what LayerBench times: Dropout(0.5) on B x 512, mode "train"),
  with torch.utils.benchmark.Timer, 2 threads unless --threads: the median of `reps` blocked_autorange medians and
  their quartiles;
- the operators torch.profiler lists for nn.Dropout's forward.

The machine may be shared: the numbers are medians over repetitions and the quartiles say how much
they moved. Nothing here asserts a time.
"""
import argparse
import glob
import json
import os
import platform
import re
import statistics
import subprocess
import time

P = 0.5        # Dropout(0.5), as the catalog says ("Dropout(0.5) 512-dim", mode "train")
DIM = 512      # input B x 512
BATCHES = (1, 8, 32, 128)
THREADS = 2    # the datasets' threads (--threads changes it)
DATASETS = "cpu-epyc-2vcpu-torch-*-v*.json"

torch = None   # imported by load_torch(): --datasets runs without it


def load_torch():
    global torch
    import torch as loaded
    import torch.utils.benchmark  # noqa: F401  (the submodule, for Timer)
    torch = loaded


def release_key(version):
    return tuple(int(part) for part in version.split("+")[0].split(".")[:3])


def quartiles(values):
    values = sorted(values)
    if len(values) < 2:
        return values[0], values[0]
    q = statistics.quantiles(values, n=4, method="inclusive")
    return q[0], q[2]


# --- the published cells ---------------------------------------------------------------------

def dataset_rows(folder):
    """(torch release, dataset id, batch, stats, round medians, bernoulli_'s share) per Dropout cell."""
    paths = sorted(glob.glob(os.path.join(folder, DATASETS)))
    if not paths:
        raise SystemExit(f"--datasets {folder}: no file matches {DATASETS}")
    rows = []
    for path in paths:
        with open(path) as f:
            dataset = json.load(f)
        release = dataset["environment"]["torch_version"]
        for cell in dataset["results"]:
            if cell["layer"] != "Dropout" or cell.get("status") != "ok":
                continue
            share = next((op["self_cpu_fraction"] for op in cell.get("operators", [])
                          if op["name"] == "aten::bernoulli_"), None)
            rounds = [r["stats"]["median_ms"] for r in cell.get("rounds", []) if "stats" in r]
            rows.append((release, dataset["id"] + "-v" + str(dataset["version"]), cell["batch_size"],
                         cell["stats"], rounds, share))
    rows.sort(key=lambda row: (release_key(row[0]), row[1], row[2]))
    return rows


def print_datasets(folder):
    print(f"Dropout(0.5) on B x 512, train mode, 2 threads: every {DATASETS} in {folder}")
    print("median and [p25, p75] in ms as published; rounds: each round's median; "
          "bernoulli_: its self-CPU share of the cell's profile")
    print(f"{'release':<8} {'dataset':<36} {'B':>4} {'median':>8} {'p25':>8} {'p75':>8}  "
          f"{'rounds':<26} bernoulli_")
    for release, dataset_id, batch, stats, rounds, share in dataset_rows(folder):
        share_text = "-" if share is None else f"{share:.2f}"
        print(f"{release:<8} {dataset_id:<36} {batch:>4} {stats['median_ms']:>8.4f} {stats['p25_ms']:>8.4f} "
              f"{stats['p75_ms']:>8.4f}  {' '.join(f'{r:.4f}' for r in rounds):<26} {share_text}")


# --- what a release's libtorch_cpu.so carries --------------------------------------------------

KERNEL_SYMBOL = re.compile(r"^([0-9a-f]+) ([0-9a-f]+) t at::native::\(anonymous namespace\)::bernoulli_scalar_kernel\("
                           r"[^)]*\)(::\{lambda\(\)#1\}::operator\(\)\(\) const)?$")
CALL_MARKERS = (("MKL VSL", "viRngBernoulli"), ("cpuinfo", "cpuinfo_"),
                ("TensorIterator serial loop", "serial_for_each"), ("nullary TensorIterator", "borrowing_nullary_op"))


def kernel_calls(library):
    """Per copy of bernoulli_scalar_kernel (one per CPU capability) and of its dispatch lambda, where the
    compiler kept that apart (1.13): how often each calls each marker.

    The wheels keep their local symbols (.symtab), so the kernel of DistributionKernels.cpp can be
    found by name and disassembled with binutils' nm and objdump."""
    symbols = subprocess.run(["nm", "-S", "-C", library], capture_output=True, text=True, check=True).stdout
    copies = []
    for line in symbols.splitlines():
        match = KERNEL_SYMBOL.match(line)
        if not match or "[clone" in line:
            continue
        start, size = int(match.group(1), 16), int(match.group(2), 16)
        disassembly = subprocess.run(["objdump", "-d", "-C", "--no-show-raw-insn", f"--start-address={start}",
                                      f"--stop-address={start + size}", library],
                                     capture_output=True, text=True, check=True).stdout
        calls = [line for line in disassembly.splitlines() if re.search(r"\b(call|jmp)\s", line) and "<" in line]
        kind = "lambda" if match.group(3) else "kernel"
        copies.append((match.group(1), size, kind,
                       {label: sum(marker in c for c in calls) for label, marker in CALL_MARKERS}))
    return copies


def print_binaries(libraries):
    print("bernoulli_scalar_kernel (DistributionKernels.cpp) in each libtorch_cpu.so: calls to each marker")
    for library in libraries:
        if not os.path.isfile(library):
            raise SystemExit(f"--binary {library}: no such file")
        print(f"{library}")
        copies = kernel_calls(library)
        if not copies:
            print("  no local symbol bernoulli_scalar_kernel (a stripped library?)")
        for address, size, kind, counts in copies:
            print(f"  0x{address} {kind:<6} {size:>6} bytes  " + "  ".join(f"{label}: {n}" for label, n in counts.items()))


# --- the release this runs in ----------------------------------------------------------------

def cpu_vendor():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("vendor_id"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "unknown"


def generator_state_after(numel):
    """Draws from the default CPU generator after manual_seed(0) and one bernoulli_ on `numel` floats."""
    torch.manual_seed(0)
    torch.empty(numel).bernoulli_(P)
    return torch.rand(4).tolist()


def kernel_path():
    if generator_state_after(16) == generator_state_after(32 * DIM):
        return "mkl", "one generator draw per call (ATen's MKL VSL kernel: viRngBernoulli, MCG31, parallel_for grain 800)"
    return "default", "one generator draw per element (the default kernel: cpu_serial_kernel, serial, under the generator's lock)"


def time_stmt(stmt, globals_, reps, min_run_time, threads):
    medians = []
    for _ in range(reps):
        timer = torch.utils.benchmark.Timer(stmt=stmt, globals=globals_, num_threads=threads)
        medians.append(timer.blocked_autorange(min_run_time=min_run_time).median * 1e3)
    low, high = quartiles(medians)
    return statistics.median(medians), low, high, medians


def cpu_time_stmt(fn, reps, min_cpu_time):
    """CPU time of the calling thread per call, in ms: median and quartiles over `reps` loops.

    On one torch thread all the work runs on the calling thread, so its CPU time does not count the
    time other processes hold the cores: a figure a shared machine changes far less than wall time."""
    number = 1
    while True:  # calibrate: enough calls for min_cpu_time of CPU time
        start = time.thread_time()
        for _ in range(number):
            fn()
        if time.thread_time() - start >= min_cpu_time:
            break
        number *= 2
    per_call = []
    for _ in range(reps):
        start = time.thread_time()
        for _ in range(number):
            fn()
        per_call.append((time.thread_time() - start) / number * 1e3)
    low, high = quartiles(per_call)
    return statistics.median(per_call), low, high, per_call


def has_bernoulli_p():
    try:
        torch.bernoulli(torch.zeros(2), P)
        return True
    except (TypeError, RuntimeError):
        return False


def probe(reps, min_run_time, threads):
    load_torch()
    import torch.nn.functional as F

    torch.set_num_threads(threads)
    print(f"torch {torch.__version__}  python {platform.python_version()}  threads {torch.get_num_threads()}")
    print(f"cpu vendor_id: {cpu_vendor()}")
    print(f"torch.backends.mkl.is_available(): {torch.backends.mkl.is_available()}")
    print("torch.__config__.show():")
    print(torch.__config__.show().rstrip())
    print()

    path, why = kernel_path()
    print(f"kernel path: {path}: {why}")
    print()

    print(f"timings: median of {reps} blocked_autorange medians (min_run_time {min_run_time} s), "
          f"ms; [p25, p75] over those medians")
    bernoulli_p = has_bernoulli_p()
    dropout = torch.nn.Dropout(P).train()
    for batch in BATCHES:
        x = torch.randn(batch, DIM)
        g = {"x": x, "p": P, "F": F, "torch": torch, "dropout": dropout}
        stmts = [("x.bernoulli_(p)", "x.bernoulli_(p)")]
        if batch == 32:
            if bernoulli_p:
                stmts.append(("torch.bernoulli(x, p)", "torch.bernoulli(x, p)"))
            stmts.append(("F.dropout(x, p, training=True)", "F.dropout(x, p, training=True)"))
            stmts.append(("nn.Dropout(0.5).train() under inference_mode",
                          "with torch.inference_mode():\n    dropout(x)"))
        for label, stmt in stmts:
            median, low, high, medians = time_stmt(stmt, g, reps, min_run_time, threads)
            print(f"  B={batch:<3} {label:<46} {median:.4f} [{low:.4f}, {high:.4f}]  "
                  f"runs: {' '.join(f'{m:.4f}' for m in medians)}")
    if not bernoulli_p:
        print("  torch.bernoulli(x, p): this release has no float-p overload in Python")
    print()

    torch.set_num_threads(1)
    print(f"CPU time of the calling thread per call on 1 torch thread, ms: median of {reps} loops of "
          f">= {min_run_time} s CPU time [p25, p75]")
    x32 = torch.randn(32, DIM)
    calls = [(batch, "x.bernoulli_(p)", (lambda xb: lambda: xb.bernoulli_(P))(torch.randn(batch, DIM)))
             for batch in BATCHES]
    calls.insert(3, (32, "F.dropout(x, p, training=True)", lambda: F.dropout(x32, P, training=True)))
    for batch, label, fn in calls:
        median, low, high, values = cpu_time_stmt(fn, reps, min_run_time)
        print(f"  B={batch:<3} {label:<46} {median:.4f} [{low:.4f}, {high:.4f}]  "
              f"runs: {' '.join(f'{v:.4f}' for v in values)}")
    torch.set_num_threads(threads)
    print()

    with torch.inference_mode():
        for _ in range(20):
            dropout(x)
        with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU]) as prof:
            for _ in range(50):
                dropout(x)
    print("profile of nn.Dropout(0.5).train() at B=32 under inference_mode, 50 calls:")
    print(prof.key_averages().table(sort_by="self_cpu_time_total", row_limit=12))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=7, help="blocked_autorange runs per statement")
    parser.add_argument("--min-run-time", type=float, default=0.1, help="seconds per blocked_autorange")
    parser.add_argument("--threads", type=int, default=THREADS,
                        help="torch threads (2 as the datasets; 1 keeps the MKL kernel's parallel_for inline, "
                             "which a busy 2-core machine otherwise stalls for milliseconds)")
    parser.add_argument("--datasets", metavar="FOLDER", help="tabulate the published Dropout cells instead")
    parser.add_argument("--binary", metavar="LIBTORCH_CPU", nargs="+",
                        help="instead: which calls each libtorch_cpu.so's bernoulli_scalar_kernel makes")
    args = parser.parse_args()
    if args.datasets:
        print_datasets(args.datasets)
        return
    if args.binary:
        print_binaries(args.binary)
        return
    if args.reps < 1 or args.min_run_time <= 0 or args.threads < 1:
        parser.error(f"--reps and --threads must be >= 1 and --min-run-time > 0 "
                     f"(got {args.reps}, {args.threads}, {args.min_run_time})")
    probe(args.reps, args.min_run_time, args.threads)


if __name__ == "__main__":
    main()
