"""GPU timing shared by the issue-23 diagnostics (reduce23, columns23, take23, inv23, ...): CUDA events around calls
queued back to back, in the library a call runs on ("cuarray", "cupy" or "torch", each imported on first use), and
the 1 GiB device-to-device copy rate that their figures are fractions of."""
import importlib
import time


def optional(module):
    """`module` imported, or None where it is not installed (PyTorch, cuarray before a build, CuPy's extras)."""
    try:
        return importlib.import_module(module)
    except ImportError:
        return None


def gpu_us(fn, lib, reps=20, warmup=3):
    """Microseconds of GPU time per call of `fn` (events around `reps` calls, after `warmup` untimed ones)."""
    for _ in range(warmup):
        fn()
    if lib == "torch":
        torch = importlib.import_module("torch")
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        torch.cuda.synchronize()
        s.record()
        for _ in range(reps):
            fn()
        e.record()
        torch.cuda.synchronize()
        return s.elapsed_time(e) * 1e3 / reps
    m = importlib.import_module(lib)  # cuarray and CuPy share the event API
    s, e = m.cuda.Event(), m.cuda.Event()
    m.cuda.Device().synchronize()
    s.record()
    for _ in range(reps):
        fn()
    e.record()
    e.synchronize()
    return m.cuda.get_elapsed_time(s, e) * 1e3 / reps


def gpu_us_each(fn, lib, reps=30, warmup=3):
    """Median microseconds of one call between two events, as benchmarks/common.py's time_gpu."""
    for _ in range(warmup):
        fn()
    if lib == "torch":
        torch = importlib.import_module("torch")
        pairs = [(torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)) for _ in range(reps)]
        torch.cuda.synchronize()
        for s, e in pairs:
            s.record()
            fn()
            e.record()
        torch.cuda.synchronize()
        times = [s.elapsed_time(e) * 1e3 for s, e in pairs]
    else:
        m = importlib.import_module(lib)
        pairs = [(m.cuda.Event(), m.cuda.Event()) for _ in range(reps)]
        m.cuda.Device().synchronize()
        for s, e in pairs:
            s.record()
            fn()
            e.record()
        pairs[-1][1].synchronize()
        times = [m.cuda.get_elapsed_time(s, e) * 1e3 for s, e in pairs]
    return sorted(times)[reps // 2]


def copy_gbs(lib):
    """GB/s (bytes read + written) of copying 1 GiB of float32 into another array in `lib` (cuarray or cupy)."""
    m = importlib.import_module(lib)
    src, dst = m.empty(1 << 28, m.float32), m.empty(1 << 28, m.float32)
    us = gpu_us(lambda: dst.__setitem__(slice(None), src), lib)
    return 2 * (1 << 30) / us / 1e3


def host_timed(label, body, reps=1):
    """`body()` run `reps` times, each between two synchronisations of cuarray's current device, printing the
    wall milliseconds of each run (for work that synchronises inside, where events would not bracket it);
    returns the last run's result."""
    ca = importlib.import_module("cuarray")
    out = None
    for r in range(reps):
        ca.cuda.Device().synchronize()
        t0 = time.perf_counter()
        out = body()
        ca.cuda.Device().synchronize()
        name = f"{label} run {r}" if reps > 1 else label
        print(f"  {name}: {(time.perf_counter() - t0) * 1e3:.1f} ms", flush=True)
    return out



def host_us(fn, sync, reps=10):
    """Host microseconds to enqueue one call, over `reps` calls (few, so the launch queue never fills)."""
    for _ in range(3):
        fn()
    sync()
    t0 = time.perf_counter()
    for _ in range(reps):
        fn()
    t1 = time.perf_counter()
    sync()
    return (t1 - t0) / reps * 1e6


def print_launches(name, fn, sync, calls=5, top=8):
    """The kernels and CUDA runtime calls one call of `fn` makes, by torch.profiler (which records the whole
    process through CUPTI, cuarray's and CuPy's launches included); nothing where PyTorch is not installed."""
    if optional("torch") is None:
        return
    from torch.profiler import ProfilerActivity, profile
    fn()
    sync()
    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
        for _ in range(calls):
            fn()
        sync()
    kernels, api = {}, {}
    for e in prof.events():
        table = kernels if str(e.device_type).endswith("CUDA") else api
        if table is api and not e.name.startswith("cuda"):
            continue
        table[e.name] = table.get(e.name, 0) + 1
    print(f"{name}: per call, {sum(kernels.values()) / calls:.1f} kernels; runtime calls:", flush=True)
    for call, count in sorted(api.items(), key=lambda kv: -kv[1])[:top]:
        print(f"    {call:40} {count / calls:7.1f}", flush=True)


def by_route(fn, switch, routes, reps=20, warmup=3):
    """{route: (cuarray GPU µs a call, the result on the host)} for `fn` under each (route, value) of `routes`,
    `switch(value)` setting the route and returning the previous value, which is restored after each; and the
    largest difference of the last route's result from the first's, relative to the first's largest entry."""
    ca = importlib.import_module("cuarray")
    got = {}
    for route, value in routes:
        prev = switch(value)
        try:
            got[route] = (gpu_us(fn, "cuarray", reps, warmup), ca.asnumpy(fn()))
        finally:
            switch(prev)
    first, last = got[routes[0][0]][1], got[routes[-1][0]][1]
    return got, float(abs(last - first).max() / abs(first).max())
