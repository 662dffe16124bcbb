# Is BatchNorm2d@128's slow geometry the L1D way predictor's utag? "Take A Way" (Lipp et al., AsiaCCS 2020)
# reverse-engineered the utag of AMD's Zen cores as a hash of linear-address bits 12 to 27:
# 12^27, 13^26, 14^25, 15^20, 16^21, 17^22, 18^23, 19^24. Two lines in the same L1D set (bits 6-11) with the
# same utag evict each other from the predictor. An output 2^28 x k past its input shares set and utag on every
# line: slow (14.4 ms, ../2026-11-28-thp/distance.out). Prediction: a distance that flips a pair of bits the
# hash XORs together (12 and 27, or 15 and 20) keeps the utag on the lines where adding it carries nothing
# (about half or a quarter of them), and is slower than a distance that flips a pair it does not XOR together
# (13 and 27, 16 and 20), which changes the utag on every line. Same kernel and policy as distance_probe.py:
# native_batch_norm.out, steady-state glibc, 2 threads, 4 KiB pages; the input 256 MiB-aligned.
import ctypes, sys, time
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

MiB = 1 << 20
module = torch.nn.BatchNorm2d(256).eval()
shape = (128, 256, 32, 32)
numel = 128 * 256 * 32 * 32  # 128 MiB of float32
cases = [
    ("2^28 + 128 B (same utag on every line)", (1 << 28) + 128),
    ("2^27 + 128 B (bit 27 flips: utag differs)", (1 << 27) + 128),
    ("2^27 + 2^12 + 128 B (12^27 kept where no carry)", (1 << 27) + (1 << 12) + 128),
    ("2^27 + 2^13 + 128 B (13^26, 12^27 change)", (1 << 27) + (1 << 13) + 128),
    ("2^28 + 2^20 + 2^15 + 128 B (15^20 kept where no carry)", (1 << 28) + (1 << 20) + (1 << 15) + 128),
    ("2^28 + 2^20 + 2^16 + 128 B (15^20, 16^21 change)", (1 << 28) + (1 << 20) + (1 << 16) + 128),
]
span = 256 * MiB + max(d for _, d in cases) + 128 * MiB + 4096
store = torch.empty(span // 4)
store.zero_()
base = (-store.data_ptr() % (256 * MiB)) // 4
mean, invstd = torch.empty(0), torch.empty(0)
rounds = int(sys.argv[1]) if sys.argv[1:] else 3
with torch.inference_mode():
    x = store[base:base + numel].view(shape)
    x.normal_()
    print(f"input at {x.data_ptr():#x} (256 MiB-aligned: {x.data_ptr() % (256 * MiB) == 0})")
    for r in range(rounds):
        for name, distance in cases:
            start = base + distance // 4
            out = store[start:start + numel].view(shape)
            ms = median_ms(lambda: torch.ops.aten.native_batch_norm.out(
                x, module.weight, module.bias, module.running_mean, module.running_var, False, 0.1, 1e-5,
                out=out, save_mean=mean, save_invstd=invstd))
            print(f"round {r + 1}: output {name:55s} past the input: {ms:6.2f} ms", flush=True)
