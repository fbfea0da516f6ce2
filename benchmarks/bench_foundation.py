"""Foundation benchmarks: allocation, small and large host<->device transfers, device copy bandwidth."""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

from common import Backend, Config, Skip, Stats, Target, case, time_blocking, time_gpu, time_host_loop

F32 = np.float32
MiB = 1 << 20
BIG = 256 * MiB  # bytes of the large transfer cases
BIG_N = BIG // 4  # float32 elements


def _is_torch(lib: Backend) -> bool:
    return lib.name == "torch"


def _to_device(lib: Backend, x: np.ndarray) -> Any:
    if _is_torch(lib):
        return lib.module.from_numpy(x).to("cuda")
    return lib.module.asarray(x)


def _to_host(lib: Backend, a: Any) -> np.ndarray:
    return a.cpu().numpy() if _is_torch(lib) else a.get()


def _check(cfg: Config, got: Any, want: Any, what: str) -> None:
    """Refuse to time a transfer that moves the wrong bytes (checked in the first round only).

    `got` may be a callable producing the host result, so later rounds skip the transfer too.
    """
    if not cfg.first_round:
        return
    got = np.asarray(got() if callable(got) else got)
    if got.shape != want.shape or not np.array_equal(got, want):
        raise AssertionError(f"{what}: wrong result (shape {got.shape}, expected {want.shape})")


# Repetitions are totals over all rounds (Config.reps divides); warm-ups are per round.
def _big_reps(cfg: Config) -> dict[str, int]:
    return {"n_repeat": cfg.reps(20, 6), "n_warmup": 2 if not cfg.quick else 1}


def _small_reps(cfg: Config) -> dict[str, int]:
    return {"n_repeat": cfg.reps(5000, 600), "n_warmup": 200 if not cfg.quick else 50}


def _loop_reps(cfg: Config) -> dict[str, int]:
    return {"n_loop": 20000 if not cfg.quick else 5000, "n_repeat": cfg.reps(18, 10)}


# --- allocation -------------------------------------------------------------


@case("alloc_1MiB", target=Target("cupy", 1.0))
def alloc_1mib(lib: Backend, cfg: Config) -> Stats:
    """Per-call cost of empty(262144, float32) in a tight loop; each array is dropped, so the pool reuses it."""
    if _is_torch(lib):
        torch = lib.module
        fn = functools.partial(torch.empty, 262144, dtype=torch.float32, device="cuda")
    else:
        fn = functools.partial(lib.module.empty, 262144, F32)
    a = fn()
    if tuple(a.shape) != (262144,):
        raise AssertionError(f"empty(262144) gave shape {tuple(a.shape)}")
    del a
    return time_host_loop(fn, lib, **_loop_reps(cfg))


@case("pool_malloc_1MiB", target=Target("cupy", 1.0), libs=("cuarray", "cupy"))
def pool_malloc_1mib(lib: Backend, cfg: Config) -> Stats:
    """Per-call cost of get_default_memory_pool().malloc(1 MiB), the pointer dropped at once."""
    if _is_torch(lib):
        raise Skip("torch has no pool.malloc")
    pool = lib.module.get_default_memory_pool()
    fn = functools.partial(pool.malloc, MiB)
    return time_host_loop(fn, lib, **_loop_reps(cfg))


# --- small transfers: latency -------------------------------------------------


def _register_h2d_small(nbytes: int, label: str) -> None:
    n = nbytes // 4

    @case(f"h2d_small_{label}", nbytes=nbytes)
    def h2d_small(lib: Backend, cfg: Config) -> Stats:
        """asarray(numpy) of a small pageable array, then synchronize."""
        x = cfg.host_random(n)
        _check(cfg, lambda: _to_host(lib, _to_device(lib, x)), x, "h2d round trip")
        sync = lib.sync
        if _is_torch(lib):
            from_numpy = lib.module.from_numpy

            def call() -> None:
                from_numpy(x).cuda()
                sync()
        else:
            asarray = lib.module.asarray

            def call() -> None:
                asarray(x)
                sync()

        return time_blocking(call, **_small_reps(cfg))


def _register_d2h_small(nbytes: int, label: str) -> None:
    n = nbytes // 4

    @case(f"d2h_small_{label}", nbytes=nbytes)
    def d2h_small(lib: Backend, cfg: Config) -> Stats:
        """a.get() of a small device array into a fresh NumPy array (blocking, host clock)."""
        x = cfg.host_random(n)
        a = _to_device(lib, x)
        _check(cfg, lambda: _to_host(lib, a), x, "d2h")
        if _is_torch(lib):

            def call() -> Any:
                return a.cpu().numpy()
        else:
            call = a.get
        return time_blocking(call, **_small_reps(cfg))


for _nbytes, _label in ((8, "8B"), (4096, "4KiB")):
    _register_h2d_small(_nbytes, _label)
for _nbytes, _label in ((8, "8B"), (4096, "4KiB")):
    _register_d2h_small(_nbytes, _label)


# --- large pageable transfers ---------------------------------------------------


@case("h2d_pageable_256MiB", nbytes=BIG, heavy=True)
def h2d_pageable(lib: Backend, cfg: Config) -> Stats:
    """asarray(x) of 256 MiB of ordinary (pageable) NumPy memory, then synchronize."""
    x = cfg.host_random(BIG_N, keep=True)
    _check(cfg, lambda: _to_host(lib, _to_device(lib, x)), x, "h2d")
    sync = lib.sync
    if _is_torch(lib):
        from_numpy = lib.module.from_numpy

        def call() -> None:
            from_numpy(x).to("cuda")
            sync()
    else:
        asarray = lib.module.asarray

        def call() -> None:
            asarray(x)
            sync()

    return time_blocking(call, **_big_reps(cfg))


@case("d2h_pageable_256MiB", nbytes=BIG, target=Target("cupy", 2.0), heavy=True)
def d2h_pageable(lib: Backend, cfg: Config) -> Stats:
    """a.get() of 256 MiB into a fresh NumPy array each call, as users write it (torch: t.cpu())."""
    x = cfg.host_random(BIG_N, keep=True)
    a = _to_device(lib, x)
    _check(cfg, lambda: _to_host(lib, a), x, "d2h")
    sync = lib.sync
    if _is_torch(lib):

        def call() -> Any:
            r = a.cpu()
            sync()
            return r
    else:

        def call() -> Any:
            r = a.get()
            sync()
            return r

    return time_blocking(call, **_big_reps(cfg))


@case("d2h_pageable_256MiB_out", nbytes=BIG, target=Target("cupy", 2.0), heavy=True)
def d2h_pageable_out(lib: Backend, cfg: Config) -> Stats:
    """a.get(out=preallocated pageable array) of 256 MiB (torch: t_cpu.copy_(t))."""
    x = cfg.host_random(BIG_N, keep=True)
    a = _to_device(lib, x)
    sync = lib.sync
    if _is_torch(lib):
        t_out = lib.module.empty(BIG_N, dtype=lib.module.float32)
        out = t_out.numpy()

        def call() -> None:
            t_out.copy_(a)
            sync()
    else:
        out = np.empty_like(x)

        def call() -> None:
            a.get(out=out)
            sync()

    out.fill(-1.0)  # poison, and touch the pages once: page faults belong to the fresh-array case
    call()
    _check(cfg, out, x, "d2h into out")
    return time_blocking(call, **_big_reps(cfg))


# --- large pinned transfers ---------------------------------------------------


def _pinned(lib: Backend, n: int) -> tuple[Any, np.ndarray]:
    """A pinned host buffer of n float32 and a NumPy view of it; the first item keeps it alive."""
    if _is_torch(lib):
        t = lib.module.empty(n, dtype=lib.module.float32, pin_memory=True)
        return t, t.numpy()
    mem = lib.module.cuda.alloc_pinned_memory(n * 4)
    x = np.frombuffer(mem, F32, n)
    if not x.flags.writeable:
        raise AssertionError("np.frombuffer(alloc_pinned_memory(...)) is read-only")
    return mem, x


@case("h2d_pinned_256MiB", nbytes=BIG, heavy=True)
def h2d_pinned(lib: Backend, cfg: Config) -> Stats:
    """a.set(pinned) of 256 MiB into a preallocated device array, then synchronize."""
    host = cfg.host_random(BIG_N, keep=True)
    keep, x = _pinned(lib, BIG_N)
    x[:] = host
    sync = lib.sync
    if _is_torch(lib):
        torch = lib.module
        d = torch.empty(BIG_N, dtype=torch.float32, device="cuda")

        def call() -> None:
            d.copy_(keep)
            sync()
    else:
        d = lib.module.empty(BIG_N, F32)

        def call() -> None:
            d.set(x)
            sync()

    call()
    _check(cfg, lambda: _to_host(lib, d), host, "h2d from pinned")
    return time_blocking(call, **_big_reps(cfg))


@case("d2h_pinned_256MiB", nbytes=BIG, heavy=True)
def d2h_pinned(lib: Backend, cfg: Config) -> Stats:
    """a.get(out=pinned) of 256 MiB, then synchronize (torch: t_pinned.copy_(t))."""
    host = cfg.host_random(BIG_N, keep=True)
    a = _to_device(lib, host)
    keep, x = _pinned(lib, BIG_N)
    sync = lib.sync
    if _is_torch(lib):

        def call() -> None:
            keep.copy_(a)
            sync()
    else:

        def call() -> None:
            a.get(out=x)
            sync()

    x.fill(-1.0)
    call()
    _check(cfg, x, host, "d2h into pinned")
    return time_blocking(call, **_big_reps(cfg))


# --- device copy bandwidth -----------------------------------------------------

COPY_N = 1 << 28  # float32: 1 GiB


@case("d2d_copy_1GiB", nbytes=2 * COPY_N * 4, key=True, heavy=True)
def d2d_copy(lib: Backend, cfg: Config) -> Stats:
    """a.copy() of 2**28 float32; GB/s counts bytes read + written (the reference bandwidth)."""
    host = cfg.host_random(COPY_N, keep=True)  # shared by both d2d cases
    a = _to_device(lib, host)
    note = None
    if _is_torch(lib):
        fn = a.clone
    elif hasattr(a, "copy"):
        fn = a.copy
    else:
        b = lib.module.empty_like(a)

        def fn() -> Any:
            b[...] = a
            return b

        note = "b[...] = a (no ndarray.copy())"
    _check(cfg, lambda: _to_host(lib, fn()), host, "copy")
    st = time_gpu(fn, lib, n_warmup=3, n_repeat=cfg.reps(50, 12))
    st.note = note
    return st


@case("d2d_assign_1GiB", nbytes=2 * COPY_N * 4, heavy=True)
def d2d_assign(lib: Backend, cfg: Config) -> Stats:
    """b[...] = a into a preallocated array (torch: b.copy_(a)); CuPy lowers this to cudaMemcpy, its copy() is a kernel."""
    host = cfg.host_random(COPY_N, keep=True)  # shared by both d2d cases
    a = _to_device(lib, host)
    if _is_torch(lib):
        b = lib.module.empty_like(a)
        fn = functools.partial(b.copy_, a)
    else:
        b = lib.module.empty_like(a)

        def fn() -> None:
            b[...] = a

    fn()
    _check(cfg, lambda: _to_host(lib, b), host, "b[...] = a")
    return time_gpu(fn, lib, n_warmup=3, n_repeat=cfg.reps(50, 12))
