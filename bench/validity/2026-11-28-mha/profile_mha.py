# MultiheadAttention@32 (bench/gpu/layers.py's, eval, inference_mode) in Python: its median over 5 calls and
# one torch.profiler profile's self CPU time per aten operator, to set against the operators LayerBench
# recorded for the same cell (data/datasets/cpu-epyc-zen4-2vcpu-fp32-v1.json: share x median). Parity:
# LayerBench 6-8% faster in every round at batch 32 and 128. Steady-state glibc policy, 2 threads.
import ctypes, json, sys, time
from pathlib import Path
libc = ctypes.CDLL("libc.so.6")
libc.mallopt(-4, 0); libc.mallopt(-1, -1)
import torch
torch.set_num_threads(2)
root = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(root / "bench" / "gpu"))
import layers as catalog
catalog.use_ieee_float32()
batch = int(sys.argv[1]) if len(sys.argv) > 1 else 32
layer = next(l for l in catalog.select("MultiheadAttention"))
with torch.inference_mode():
    _, forward = layer.instantiate(batch, torch.device("cpu"))
    forward(); forward()
    times = []
    for _ in range(5):
        t = time.perf_counter(); forward(); times.append((time.perf_counter() - t) * 1e3)
    median = sorted(times)[2]
    with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU]) as prof:
        forward()
ours = json.loads((root / "data/datasets/cpu-epyc-zen4-2vcpu-fp32-v1.json").read_text())
cell = next(c for c in ours["results"] if c["layer"] == "MultiheadAttention" and c["batch_size"] == batch)
lb = {o["name"]: (o["calls"], o["self_cpu_fraction"] * cell["stats"]["median_ms"]) for o in cell["operators"]}
events = {e.key: e for e in prof.key_averages()}
total = sum(e.self_cpu_time_total for e in events.values()) / 1e3
print(f"MultiheadAttention@{batch}: Python median {median:.1f} ms over 5 calls (profiled call: {total:.1f} ms self CPU); "
      f"LayerBench's dataset median {cell['stats']['median_ms']:.1f} ms")
print(f"{'operator':24s} {'py calls':>8s} {'py ms':>9s} {'lb calls':>8s} {'lb ms':>9s}")
for name in sorted(set(events) | set(lb), key=lambda n: -(events[n].self_cpu_time_total if n in events else 0)):
    e = events.get(name)
    py_ms = e.self_cpu_time_total / 1e3 if e else 0.0
    lb_calls, lb_ms = lb.get(name, (0, 0.0))
    if py_ms > 0.05 or lb_ms > 0.05:
        print(f"{name:24s} {e.count if e else 0:8d} {py_ms:9.2f} {lb_calls:8d} {lb_ms:9.2f}")
