# Does the bandwidth a 128 MiB buffer gets depend on the buffer? Eight buffers of one process, each filled, then
# a read-only pass (x.sum()) and a copy into a fixed destination timed on each, in two interleaved passes,
# under the steady-state glibc policy, 2 threads. Consistent per buffer and different across buffers means
# where its pages landed sets the rate; the same rate for all means the history acts elsewhere.
import ctypes, time
libc = ctypes.CDLL("libc.so.6")
libc.mallopt(-4, 0); libc.mallopt(-1, -1)
import torch
torch.set_num_threads(2)

def median_ms(fn, reps=9):
    fn()
    times = []
    for _ in range(reps):
        t = time.perf_counter(); fn(); times.append(time.perf_counter() - t)
    return sorted(times)[reps // 2] * 1e3

numel = 32 << 20  # 128 MiB of float32
buffers = [torch.randn(numel) for _ in range(8)]
dest = torch.empty(numel); dest.zero_()
for p in (1, 2):
    for i, b in enumerate(buffers):
        read = median_ms(lambda: b.sum())
        copy = median_ms(lambda: dest.copy_(b))
        print(f"pass {p} buffer {i}: sum {read:6.2f} ms ({numel * 4 / read / 1e6:5.1f} GB/s), "
              f"copy to one destination {copy:6.2f} ms ({2 * numel * 4 / copy / 1e6:5.1f} GB/s counted)")
