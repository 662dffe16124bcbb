# Run three times in fresh processes right after the alone parity (17:54:53 to 17:55:02 UTC, nothing else
# running): each cell's place_inputs_apart check, then the output's distance past the input (mod 256 MiB) for
# six forwards ('ok' outside the 4 KiB window), then blocked_autorange(min_run_time=1.0) on 2 threads.
import ctypes
libc = ctypes.CDLL("libc.so.6"); libc.mallopt(-4, 0); libc.mallopt(-1, -1)
import sys, torch
sys.path.insert(0, 'bench/gpu'); import layers
from torch.utils import benchmark
torch.set_num_threads(2)
with torch.inference_mode():
    for l in layers.select('LayerNorm,BatchNorm2d'):
        _, f = l.instantiate(128, torch.device('cpu'))
        held = f.__closure__[0].cell_contents if f.__closure__ else None
        dists = []
        for _ in range(6):
            y = f(); x = held[0][0] if isinstance(held, list) else None
            dists.append(((y.data_ptr() - x.data_ptr()) % (1 << 28))); del y
        t = benchmark.Timer(stmt="forward()", globals={"forward": f}, num_threads=2)
        m = t.blocked_autorange(min_run_time=1.0)
        print(l.name, [d if d < 4096 or d > (1 << 28) - 4096 else 'ok' for d in dists], round(m.median * 1e3, 2))
