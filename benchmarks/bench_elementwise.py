"""Elementwise benchmarks (issue 3): per-call cost of small ufunc calls against the launch floor, and
bandwidth of large ones against the device-to-device copy."""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

from common import Backend, Config, Skip, Stats, Target, case, time_gpu, time_host_loop

F32 = np.float32
BIG_N = 1 << 28


def _is_torch(lib: Backend) -> bool:
    return lib.name == "torch"


def _dev(lib: Backend, x: np.ndarray) -> Any:
    if _is_torch(lib):
        return lib.module.from_numpy(x).to("cuda")
    return lib.module.asarray(x)


def _loop(cfg: Config) -> dict[str, int]:
    return {"n_loop": 20000 if not cfg.quick else 5000, "n_repeat": cfg.reps(18, 10)}


def _small(lib: Backend, n: int) -> tuple[Any, Any]:
    x = np.random.default_rng(0).random(n, dtype=F32)
    return _dev(lib, x), _dev(lib, x[::-1].copy())


@case("launch_floor", libs=("cuarray",))
def launch_floor(lib: Backend, cfg: Config) -> Stats:
    """A C++ loop of cuLaunchKernel of an empty kernel (per launch), the floor for the per-call cases."""
    import time
    core = lib.module._core
    sync = lib.module.cuda.get_current_stream().synchronize
    core._launch_floor_us(1000)
    sync()
    n = _loop(cfg)["n_loop"]
    samples = []
    for _ in range(_loop(cfg)["n_repeat"]):
        t0 = time.perf_counter()
        core._launch_floor_us(n)
        sync()
        samples.append((time.perf_counter() - t0) / n)
    return Stats(samples, "host-loop", inner_loop=n)


for _n in (1, 1024):
    def _add(lib: Backend, cfg: Config, n: int = _n) -> Stats:
        a, b = _small(lib, n)
        return time_host_loop(lambda: a + b, lib, **_loop(cfg))

    def _mul(lib: Backend, cfg: Config, n: int = _n) -> Stats:
        a, _ = _small(lib, n)
        return time_host_loop(lambda: a * 2.0, lib, **_loop(cfg))

    def _sin(lib: Backend, cfg: Config, n: int = _n) -> Stats:
        a, _ = _small(lib, n)
        fn = lib.module.sin
        return time_host_loop(lambda: fn(a), lib, **_loop(cfg))

    case(f"add_{_n}", target=Target("cupy", 1 / 0.55))(_add)
    case(f"mul_scalar_{_n}", target=Target("cupy", 1 / 0.55))(_mul)
    case(f"sin_{_n}", target=Target("cupy", 1 / 0.55))(_sin)


@case("add_2^28_f32", nbytes=3 * BIG_N * 4, heavy=True)
def add_big(lib: Backend, cfg: Config) -> Stats:
    """a + b on 2**28 float32; GB/s counts 2 reads + 1 write (target: >= 0.93x the copy bandwidth)."""
    a, b = _small(lib, BIG_N)
    out = a + b
    if cfg.first_round:
        want = (a.cpu().numpy() if _is_torch(lib) else a.get())[:1000] + \
               (b.cpu().numpy() if _is_torch(lib) else b.get())[:1000]
        got = out.cpu().numpy()[:1000] if _is_torch(lib) else out[:1000].get()
        if not np.allclose(got, want):
            raise AssertionError("a + b: wrong result")
    del out
    return time_gpu(lambda: a + b, lib, n_warmup=3, n_repeat=cfg.reps(30, 10))


@case("astype_f16_2^28", nbytes=BIG_N * 6, heavy=True)
def astype_f16(lib: Backend, cfg: Config) -> Stats:
    """float32 -> float16 cast of 2**28 elements; GB/s counts 4 read + 2 written bytes per element."""
    a, _ = _small(lib, BIG_N)
    if _is_torch(lib):
        fn = functools.partial(a.to, lib.module.float16)
    else:
        fn = functools.partial(a.astype, np.float16)
    return time_gpu(fn, lib, n_warmup=3, n_repeat=cfg.reps(30, 10))
