"""Issue 23, the class of the join's last gap: the compiler unrolls a plain grid-stride loop by four and computes
its trip count first (a 64-bit division by the grid's stride in every thread), which the join paid for when each
thread copied one vector (0.994-0.996x torch.cat on the same memory, H200). The library's other grid-stride copies
(casts, strided copies, fills) have the same prologue and are launched with one element or chunk a thread up to
2**24 of them (grid_for's cap). Do they trail PyTorch at those sizes? (They did not; fill and x[::2].copy() did,
for other reasons: Note [contiguous fill] and Note [copy runs] in src/kernels/basic_kernels.cu.) Interleaved rounds of cuarray's call and
PyTorch's on arrays of the same size (median of single calls between events), ratio PyTorch / cuarray.

    python tools/diag/cast23.py [rounds]
"""
import statistics
import sys

import numpy as np
from _events import gpu_us_each

import cuarray as ca
import torch


def main():
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 and sys.argv[1].isdigit() else 7
    rng = np.random.default_rng(0)
    cases = {}
    for n in (1 << 20, 1 << 22, 1 << 24):
        h = rng.standard_normal(n).astype(np.float32)
        c, t = ca.asarray(h), torch.as_tensor(h, device="cuda")
        ch, th = c.astype(ca.float16), t.to(torch.float16)
        ci, ti = (c * 100).astype(ca.int32), (t * 100).to(torch.int32)
        cd, td = c.astype(ca.float64), t.to(torch.float64)
        c2, t2 = ca.asarray(np.repeat(h, 2)), torch.as_tensor(np.repeat(h, 2), device="cuda")
        e = f"2^{n.bit_length() - 1}"
        cases[f"f32->f16 {e}"] = ((lambda c=c: c.astype(ca.float16)), (lambda t=t: t.to(torch.float16)))
        cases[f"f16->f32 {e}"] = ((lambda c=ch: c.astype(ca.float32)), (lambda t=th: t.to(torch.float32)))
        cases[f"i32->f64 {e}"] = ((lambda c=ci: c.astype(ca.float64)), (lambda t=ti: t.to(torch.float64)))
        cases[f"f64->f32 {e}"] = ((lambda c=cd: c.astype(ca.float32)), (lambda t=td: t.to(torch.float32)))
        cases[f"x[::2] copy {e}"] = ((lambda c=c2: c[::2].copy()), (lambda t=t2: t[::2].contiguous()))
        cases[f"x[::-1] copy {e}"] = ((lambda c=c: c[::-1].copy()), (lambda t=t: t.flip(0)))
        cases[f"fill {e}"] = ((lambda c=c: c.fill(1.5)), (lambda t=t: t.fill_(1.5)))
        cases[f"x[::2].fill {e}"] = ((lambda c=c2: c[::2].fill(1.5)), (lambda t=t2: t[::2].fill_(1.5)))
        cases[f"arange {e}"] = ((lambda n=n: ca.arange(n, dtype=ca.float32)),
                                (lambda n=n: torch.arange(n, dtype=torch.float32, device="cuda")))
    got = {name: ([], []) for name in cases}
    for _ in range(rounds):
        for name, (fc, ft) in cases.items():
            got[name][0].append(gpu_us_each(fc, "cuarray", reps=20))
            got[name][1].append(gpu_us_each(ft, "torch", reps=20))
    print(torch.cuda.get_device_name(), f"{rounds} rounds; ratio = PyTorch's time / cuarray's (above 1: cuarray faster)")
    for name, (cs, ts) in got.items():
        r = [t / c for t, c in zip(ts, cs)]
        print(f"{name:20} cuarray {statistics.median(cs):8.1f} µs  torch {statistics.median(ts):8.1f} µs  "
              f"ratio {statistics.median(r):.3f} [{min(r):.3f}, {max(r):.3f}]", flush=True)


if __name__ == "__main__":
    main()
