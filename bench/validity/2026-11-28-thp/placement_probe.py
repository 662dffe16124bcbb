# BatchNorm2d@128 (eval, BatchNorm2d(256) on 128 x 256 x 32 x 32: 128 MiB in, 128 MiB out) on several input and
# output buffers of one process, under LayerBench's steady-state glibc policy. If the time varies from buffer to
# buffer with the code, the threads and the history held fixed, where the pages landed sets it. Run it once
# plainly and once with THP_MEM_ALLOC_ENABLE=1 (c10 then aligns allocations of 2 MiB or more to 2 MiB and
# madvises them MADV_HUGEPAGE, so this guest's THP "madvise" mode backs them with huge pages).
import ctypes, os, resource, sys, time
libc = ctypes.CDLL("libc.so.6")
libc.mallopt(-4, 0)   # M_MMAP_MAX 0
libc.mallopt(-1, -1)  # M_TRIM_THRESHOLD -1
import torch
torch.set_num_threads(2)

def anon_huge_kib():
    for line in open(f"/proc/{os.getpid()}/smaps_rollup"):
        if line.startswith("AnonHugePages:"):
            return int(line.split()[1])
    return -1

def best(fn, reps=15):
    fn(); fn()
    times = []
    for _ in range(reps):
        t = time.perf_counter(); fn(); times.append(time.perf_counter() - t)
    times.sort()
    return times[0] * 1e3, times[len(times) // 2] * 1e3

module = torch.nn.BatchNorm2d(256).eval()
shape = (128, 256, 32, 32)
print(f"THP_MEM_ALLOC_ENABLE={os.environ.get('THP_MEM_ALLOC_ENABLE', '')} torch {torch.__version__}")
with torch.inference_mode():
    keep = []
    for trial in range(6):
        x = torch.randn(shape)
        out = torch.empty(shape)
        save_mean, save_invstd = torch.empty(0), torch.empty(0)
        def forward():
            torch.ops.aten.native_batch_norm.out(x, module.weight, module.bias, module.running_mean,
                                                  module.running_var, False, 0.1, 1e-5,
                                                  out=out, save_mean=save_mean, save_invstd=save_invstd)
        low, median = best(forward)
        low_m, median_m = best(lambda: module(x))
        faults = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
        y = module(x)
        where = (y.data_ptr() - x.data_ptr()) % 4096
        del y
        for _ in range(5):
            module(x)
        faults = (resource.getrusage(resource.RUSAGE_SELF).ru_minflt - faults) / 6
        print(f"buffers {trial}: x at {x.data_ptr() % (2 << 20):>8d} mod 2 MiB; out= {median:6.2f} ms (best {low:5.2f}); "
              f"module(x) {median_m:6.2f} ms (best {low_m:5.2f}), its output {where:4d} B past x mod 4 KiB, "
              f"{faults:.0f} page faults per call; process AnonHugePages {anon_huge_kib()} KiB")
        keep.append((x, out))  # new buffers each trial: other pages
