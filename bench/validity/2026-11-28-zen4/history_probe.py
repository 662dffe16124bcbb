# BatchNorm2d@128 in one Python process, before and after a large allocation is made and freed, under the
# steady-state glibc policy (no mmap, no trim) that LayerBench and parity.py use.
import ctypes, statistics, time, torch
libc = ctypes.CDLL("libc.so.6")
libc.mallopt(-4, 0); libc.mallopt(-1, -1)
torch.set_num_threads(2)
bn = torch.nn.BatchNorm2d(256).eval()
x = torch.randn(128, 256, 32, 32)
def timed(label, reps=20):
    with torch.inference_mode():
        for _ in range(3): bn(x)
        t = []
        for _ in range(reps):
            s = time.perf_counter(); y = bn(x); t.append((time.perf_counter() - s) * 1e3)
    print(f"{label:48s} median {statistics.median(t):6.2f} ms  best {min(t):6.2f} ms  output page offset {y.data_ptr() % 4096}")
timed("fresh process")
timed("again")
big = torch.empty(400 * 1024 * 1024 // 4 * 4); big.fill_(1.0); del big   # 1.6 GB touched, then freed
timed("after 1.6 GB allocated, touched and freed")
timed("again")
