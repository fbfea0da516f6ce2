"""Where the time of issue 23's data-movement calls goes: the benchmark's event-bracketed time per call, the
GPU time per call of 30 calls queued back to back, and the host's time per call (launches only, no sync).
A call whose bracketed time exceeds its back-to-back GPU time waits on the host (or synchronises).

    python tools/diag/overhead23.py
"""
import statistics
import time

import numpy as np

import cuarray as ca

try:
    import torch
except ImportError:  # pragma: no cover - the GPU machine has it
    torch = None


def measure(lib, fn, sync, event):
    for _ in range(3):
        fn()
    sync()
    pairs = [(event(), event()) for _ in range(30)]
    for s, e in pairs:
        s.record()
        fn()
        e.record()
    sync()
    bracketed = statistics.median(s.elapsed_time(e) if lib == "torch" else ca.cuda.get_elapsed_time(s, e)
                                  for s, e in pairs) * 1e3
    s, e = event(), event()
    sync()
    s.record()
    for _ in range(30):
        fn()
    e.record()
    sync()
    queued = (s.elapsed_time(e) if lib == "torch" else ca.cuda.get_elapsed_time(s, e)) * 1e3 / 30
    sync()
    t0 = time.perf_counter()
    for _ in range(30):
        fn()
    host = (time.perf_counter() - t0) * 1e6 / 30
    sync()
    return bracketed, queued, host


def cases(xp, dev):
    rng = np.random.default_rng(0)
    tile_x = dev(rng.standard_normal((4096, 4096)).astype(np.float32))
    parts = [dev(rng.standard_normal(1 << 20).astype(np.float32)) for _ in range(64)]
    a = dev(rng.standard_normal((8192, 1)).astype(np.float32))
    b = dev(rng.standard_normal((1, 8192)).astype(np.float32))
    d = dev(rng.standard_normal(1 << 27).astype(np.float32))
    big = dev(rng.standard_normal(1 << 28).astype(np.float32))
    big2 = dev(rng.standard_normal(1 << 28).astype(np.float32))
    if xp is torch:
        return {"tile": lambda: tile_x.repeat(2, 2), "concatenate": lambda: torch.cat(parts),
                "stack": lambda: torch.stack(parts), "broadcast add": lambda: a + b, "diff": lambda: torch.diff(d),
                "add 2^28": lambda: big + big2, "empty 256MiB": lambda: torch.empty(1 << 26, device="cuda")}
    return {"tile": lambda: ca.tile(tile_x, (2, 2)), "concatenate": lambda: ca.concatenate(parts),
            "stack": lambda: ca.stack(parts), "broadcast add": lambda: a + b, "diff": lambda: ca.diff(d),
            "add 2^28": lambda: big + big2, "empty 256MiB": lambda: ca.empty(1 << 26, ca.float32)}


def main():
    print(f"{'case':16} {'lib':8} {'bracketed us':>13} {'queued us':>10} {'host us':>9}")
    libs = [("cuarray", ca, ca.asarray, lambda: ca.cuda.Device().synchronize(),
             lambda: ca.cuda.Event())]
    if torch is not None:
        libs.append(("torch", torch, lambda h: torch.from_numpy(h).cuda(), torch.cuda.synchronize,
                     lambda: torch.cuda.Event(enable_timing=True)))
    for name, xp, dev, sync, event in libs:
        for case, fn in cases(xp, dev).items():
            br, q, h = measure(name, fn, sync, event)
            print(f"{case:16} {name:8} {br:13.1f} {q:10.1f} {h:9.1f}")


if __name__ == "__main__":
    main()
