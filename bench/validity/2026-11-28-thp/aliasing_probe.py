# BatchNorm2d@128 (eval, 128 x 256 x 32 x 32, 128 MiB in and out) with the output placed d bytes past the input
# modulo 4 KiB, both in one preallocated store (native_batch_norm.out, the kernel module(x) runs), under the
# steady-state glibc policy, 2 threads. Also the triad a = b + 3*c of LayerBench's memory peak at chosen offsets.
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

def placed(store, page_offset, numel, gap_pages):
    """A view of `numel` floats starting `page_offset` bytes into a page, `gap_pages` pages after the last view."""
    base = -store.data_ptr() % 4096 // 4
    start = base + gap_pages * 1024 + page_offset // 4
    return store[start:start + numel]

module = torch.nn.BatchNorm2d(256).eval()
shape = (128, 256, 32, 32)
numel = 128 * 256 * 32 * 32
pages = numel * 4 // 4096 + 2
store = torch.empty(3 * pages * 1024 + 4096)
mean, invstd = torch.empty(0), torch.empty(0)
with torch.inference_mode():
    x = placed(store, 0, numel, 0).view(shape)
    x.normal_()
    for d in (0, 64, 128, 256, 384, 512, 1024, 2048, 3072, 3968, 4032, 128, 0):
        out = placed(store, d, numel, pages).view(shape)
        ms = median_ms(lambda: torch.ops.aten.native_batch_norm.out(
            x, module.weight, module.bias, module.running_mean, module.running_var, False, 0.1, 1e-5,
            out=out, save_mean=mean, save_invstd=invstd))
        print(f"BatchNorm2d@128  output {d:4d} B past the input mod 4 KiB: {ms:6.2f} ms, "
              f"{2 * numel * 4 / ms / 1e6:5.1f} GB/s counted")
    a_numel = 32 << 20  # 128 MiB each, as the peak's triad
    for d in (0, 64, 128, 1024, 2048):
        b = placed(store, 0, a_numel, 0); c = placed(store, d, a_numel, pages); a = placed(store, 2 * d % 4096, a_numel, 2 * pages)
        b.normal_(); c.normal_()
        ms = median_ms(lambda: torch.add(b, c, alpha=3, out=a))
        print(f"triad a = b + 3*c, c and a {d:4d} and {2 * d % 4096:4d} B past b mod 4 KiB: {ms:6.2f} ms, "
              f"{3 * a_numel * 4 / ms / 1e6:5.1f} GB/s counted")
