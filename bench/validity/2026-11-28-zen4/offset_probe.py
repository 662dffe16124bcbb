# BatchNorm2d@128 and LayerNorm@128 (eval, the modules Python's benchmark times) with the input placed at
# chosen offsets within a 4 KiB page, the output left to the allocator: the output's offset is printed too.
import ctypes, torch, time
libc = ctypes.CDLL("libc.so.6")
libc.mallopt(-4, 0)   # M_MMAP_MAX 0: the steady-state policy LayerBench and parity.py use
libc.mallopt(-1, -1)  # M_TRIM_THRESHOLD -1
torch.set_num_threads(2)
def best(fn, reps=12):
    fn(); fn()
    b = 1e9
    for _ in range(reps):
        t = time.perf_counter(); fn(); b = min(b, time.perf_counter() - t)
    return b * 1e3
cases = [("LayerNorm", torch.nn.LayerNorm(512).eval(), (128, 512, 512)),
         ("BatchNorm2d", torch.nn.BatchNorm2d(256).eval(), (128, 256, 32, 32))]  # bench/gpu/layers.py at batch 128
with torch.inference_mode():
    for name, module, shape in cases:
        numel = 1
        for s in shape: numel *= s
        store = torch.empty(numel + 4096)
        for offset in (64, 2048, 0, 64, 0, 2048):
            start = (-(store.data_ptr()) % 4096 + offset) // 4
            x = store[start:start + numel].view(shape)
            x.normal_()
            y = module(x)
            out_offset = y.data_ptr() % 4096
            print(f"{name:12s} input page offset {offset:5d}  output page offset {out_offset:5d}  "
                  f"difference {(out_offset - offset) % 4096:5d}: {best(lambda: module(x)):7.3f} ms")
            del y
