import ctypes, sys
libc = ctypes.CDLL("libc.so.6"); libc.mallopt(-4, 0); libc.mallopt(-1, -1)
import torch
sys.path.insert(0, 'bench/gpu'); import layers
from torch.utils import benchmark
torch.set_num_threads(2)
if sys.argv[1] == 'off':
    layers.place_inputs_apart = lambda f, h: 0
with torch.inference_mode():
    for name in ('Linear', 'LayerNorm'):
        l = list(layers.select(name))[0]
        _, f = l.instantiate(128, torch.device('cpu'))
        t = benchmark.Timer(stmt="forward()", globals={"forward": f}, num_threads=2)
        t.timeit(max(1, int(0.05 / max(t.timeit(1).median, 1e-6))))
        m = t.blocked_autorange(min_run_time=1.0)
        print(sys.argv[1], name, round(m.median * 1e3, 2))
