# BatchNorm2d@128 (eval, 128 MiB in and out, native_batch_norm.out: the kernel module(x) runs) with the output
# placed k x 128 MiB + 128 B past the input in one store, under the steady-state glibc policy, 2 threads, 4 KiB
# pages. probe2-style runs saw module(x) take 12.5 ms when the allocator put its output 256 MiB + 128 B past the
# input, and 7.6 ms for a 128 MiB + 64 B distance; this holds everything else fixed.
import ctypes, time
libc = ctypes.CDLL("libc.so.6")
libc.mallopt(-4, 0); libc.mallopt(-1, -1)
import torch
torch.set_num_threads(2)

def median_ms(fn, reps=11):
    fn(); fn()
    times = []
    for _ in range(reps):
        t = time.perf_counter(); fn(); times.append(time.perf_counter() - t)
    return sorted(times)[reps // 2] * 1e3

module = torch.nn.BatchNorm2d(256).eval()
shape = (128, 256, 32, 32)
numel = 128 * 256 * 32 * 32
store = torch.empty(8 * numel + 4096)
store.zero_()
base = -store.data_ptr() % 4096 // 4
mean, invstd = torch.empty(0), torch.empty(0)
with torch.inference_mode():
    x = store[base:base + numel].view(shape)
    x.normal_()
    import sys
    plan = [(k, e) for k in (1, 2, 3, 4, 5, 6, 7, 2, 1) for e in (128, 2048)]
    if sys.argv[1:] == ["page-aligned"]:  # distances a page-aligning allocator can give, and small offsets
        plan = [(k, e) for k in (2, 4, 1) for e in (0, 4096, 8192, 64, 128, 256, 512, 1024, 3968)]
    for k, extra in plan:
        if True:
            start = base + k * numel + extra // 4
            out = store[start:start + numel].view(shape)
            ms = median_ms(lambda: torch.ops.aten.native_batch_norm.out(
                x, module.weight, module.bias, module.running_mean, module.running_var, False, 0.1, 1e-5,
                out=out, save_mean=mean, save_invstd=invstd))
            print(f"output {k} x 128 MiB + {extra:4d} B past the input: {ms:6.2f} ms")
