# module(x) against native_batch_norm.out on the same input, four trials of new buffers in one process, and where
# the allocator put module(x)'s output (y-x, bytes). Steady-state glibc policy, 2 threads. Run plainly and with
# THP_MEM_ALLOC_ENABLE=1 (output: order.out, order-thp.out).
import ctypes, time, resource
libc = ctypes.CDLL("libc.so.6")
libc.mallopt(-4, 0); libc.mallopt(-1, -1)
import torch
torch.set_num_threads(2)
def med(fn, reps=11):
    fn(); fn(); ts=[]
    for _ in range(reps):
        t=time.perf_counter(); fn(); ts.append(time.perf_counter()-t)
    return sorted(ts)[reps//2]*1e3
m = torch.nn.BatchNorm2d(256).eval(); shape=(128,256,32,32)
mean, inv = torch.empty(0), torch.empty(0)
keep=[]
with torch.inference_mode():
    for trial in range(4):
        x = torch.randn(shape); out = torch.empty(shape)
        f = lambda: torch.ops.aten.native_batch_norm.out(x, m.weight, m.bias, m.running_mean, m.running_var, False, 0.1, 1e-5, out=out, save_mean=mean, save_invstd=inv)
        a = med(f); b = med(lambda: m(x)); c = med(f); s = med(lambda: x.sum()); so = med(lambda: out.sum())
        y = m(x); ok = torch.equal(y, out)
        print(f"trial {trial}: out= {a:.2f}, module {b:.2f}, out= again {c:.2f}, x.sum {s:.2f}, out.sum {so:.2f}, equal {ok}, "
              f"x%4096={x.data_ptr()%4096} out-x={(out.data_ptr()-x.data_ptr())} y-x={(y.data_ptr()-x.data_ptr())}")
        del y
        keep.append((x,out))
