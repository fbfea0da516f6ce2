"""Issue 23 (performance round two, remaining rows): histogram, bincount, integer draws, solve/inv of 1000^2 and
the peak pool memory of unique and svd, against CuPy and PyTorch.

Targets (ratios of median times in the same run):
  histogram 1024 bins of 2**27 float32, bincount of 2**27   >= 1.0x the better of CuPy and PyTorch
  integers 2**27 int64, randint 2**27 int32                 >= 1.0x PyTorch (torch.randint)
  solve / inv 1000 x 1000 float64                           >= 1.0x the better of CuPy and PyTorch
  inv / solve / det of 16384 stacked 8 x 8 float64         >= 1.0x the better of CuPy and PyTorch
  scipy.linalg lu_solve / cho_solve / solve_triangular,     >= 1.0x the better of CuPy and PyTorch (cho_solve:
    1000 x 1000 float64, 16 right-hand sides                   PyTorch; CuPy has no cho_solve)
  unique 2**26 int64, svd 4096 x 4096 float64 (peakmem)     timed for reference; each note gives the peak extra
                                                            device memory of the call (goal: <= CuPy's)
Peak extra memory: cuarray and CuPy free every cached block, then the pool's total_bytes() after one call (the
pool keeps the blocks the call freed, so this is its high-water mark) minus before; PyTorch reports
max_memory_allocated() minus the bytes allocated before the call.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from common import Backend, Config, Stats, Target, case, time_gpu
from common import is_torch as _is_torch, to_device as _dev, to_host as _host

N_HIST = 1 << 27
N_RAND = 1 << 27
N_UNIQUE = 1 << 26
BINS = 1024
BEST = (Target("cupy", 1.0), Target("torch", 1.0))


def _reps(cfg: Config, full: int = 20, quick: int = 6) -> dict[str, int]:
    return {"n_warmup": 2, "n_repeat": cfg.reps(full, quick)}


def _note(st: Stats, text: str) -> Stats:
    st.note = f"{st.note}; {text}" if st.note else text
    return st


def _checked(lib: Backend, cfg: Config, fn: Callable[[], Any], want: Callable[[], np.ndarray], what: str,
             rtol: float = 1e-9, atol: float = 1e-12) -> Stats:
    """Times `fn` after checking, in the first round, its result against the host's `want()`."""
    if cfg.first_round and not np.allclose(_host(lib, fn()), want(), rtol=rtol, atol=atol):
        raise AssertionError(f"{what}: wrong result")
    return time_gpu(fn, lib, **_reps(cfg, 30, 8))


def _peak_extra_bytes(lib: Backend, fn: Callable[[], Any]) -> int:
    """Device bytes the call held at its high-water mark beyond what was allocated before it."""
    if _is_torch(lib):
        t = lib.module
        t.cuda.synchronize()
        t.cuda.empty_cache()
        before = t.cuda.memory_allocated()
        t.cuda.reset_peak_memory_stats()
        res = fn()
        t.cuda.synchronize()
        peak = t.cuda.max_memory_allocated() - before
        del res
        return int(peak)
    pool = lib.module.get_default_memory_pool()
    lib.sync()
    pool.free_all_blocks()
    before = pool.total_bytes()
    res = fn()
    lib.sync()
    peak = pool.total_bytes() - before
    del res
    pool.free_all_blocks()
    return int(peak)


@case("histogram_1024bins_2^27_f32", nbytes=N_HIST * 4 + BINS * 8, target=BEST, heavy=True)
def histogram_f32(lib: Backend, cfg: Config) -> Stats:
    """histogram of 2**27 float32 in [0, 1) into 1024 uniform bins over [0, 1]; >= 1.0x the better peer."""
    x = cfg.host_random(N_HIST, np.float32, keep=True)
    a = _dev(lib, x)
    if _is_torch(lib):
        fn = lambda: lib.module.histc(a, bins=BINS, min=0.0, max=1.0)  # noqa: E731
    else:
        fn = lambda: lib.module.histogram(a, bins=BINS, range=(0.0, 1.0))[0]  # noqa: E731
    if cfg.first_round:
        want, _ = np.histogram(x, bins=BINS, range=(0.0, 1.0))
        got = _host(lib, fn())
        # torch.histc counts in float32 and bins by its own rounding: compare loosely.
        if not np.allclose(got.astype(np.float64), want, rtol=1e-3, atol=4):
            raise AssertionError("histogram: wrong counts")
    return time_gpu(fn, lib, **_reps(cfg))


@case("bincount_2^27", nbytes=N_HIST * 8 + BINS * 8, target=BEST, heavy=True)
def bincount_i64(lib: Backend, cfg: Config) -> Stats:
    """bincount of 2**27 int64 values in [0, 1024); >= 1.0x the better peer."""
    x = (cfg.host_random(N_HIST, np.float32, keep=True) * BINS).astype(np.int64)
    a = _dev(lib, x)
    fn = lambda: lib.module.bincount(a, minlength=BINS)  # noqa: E731
    if cfg.first_round and not np.array_equal(_host(lib, fn()), np.bincount(x, minlength=BINS)):
        raise AssertionError("bincount: wrong counts")
    return time_gpu(fn, lib, **_reps(cfg))


def _integers(lib: Backend, cfg: Config, high: int, np_dtype: Any) -> Stats:
    name = np.dtype(np_dtype).name
    if _is_torch(lib):
        t = lib.module
        tdt = getattr(t, name)
        fn = lambda: t.randint(0, high, (N_RAND,), device="cuda", dtype=tdt)  # noqa: E731
    else:
        g = lib.module.random.default_rng(0)
        fn = lambda: g.integers(0, high, N_RAND, dtype=name)  # noqa: E731
    if cfg.first_round:
        head = _host(lib, fn()[: 1 << 20])
        if head.dtype != np_dtype or head.min() < 0 or head.max() >= high or abs(head.mean() / (high - 1) - 0.5) > 0.01:
            raise AssertionError(f"integers: not uniform {name} in [0, {high})")
    st = time_gpu(fn, lib, **_reps(cfg))
    return _note(st, f"{np.dtype(np_dtype).itemsize * N_RAND / st.median_s / 1e12:.2f} TB/s written")


@case("integers_2^27_int64", nbytes=8 * N_RAND, target=Target("torch", 1.0), heavy=True)
def integers_i64(lib: Backend, cfg: Config) -> Stats:
    """Generator.integers(0, 1000) of 2**27 int64; >= 1.0x PyTorch (torch.randint)."""
    return _integers(lib, cfg, 1000, np.int64)


@case("randint_2^27_int32", nbytes=4 * N_RAND, target=Target("torch", 1.0), heavy=True)
def randint_i32(lib: Backend, cfg: Config) -> Stats:
    """integers(0, 1000) of 2**27 int32 (randint's path); >= 1.0x PyTorch (torch.randint)."""
    return _integers(lib, cfg, 1000, np.int32)


def _system(cfg: Config, n: int) -> np.ndarray:
    # A random matrix plus n on the diagonal: well conditioned, so every library's answer can be checked.
    return cfg.host_random(n * n, np.float64, seed=3).reshape(n, n) + n * np.eye(n)


@case("solve_1000_f64", target=BEST)
def solve_1000(lib: Backend, cfg: Config) -> Stats:
    """solve of a 1000 x 1000 float64 system with 16 right-hand sides; >= 1.0x the better peer."""
    x = _system(cfg, 1000)
    y = cfg.host_random(1000 * 16, np.float64, seed=4).reshape(1000, 16)
    a, b = _dev(lib, x), _dev(lib, y)
    return _checked(lib, cfg, lambda: lib.module.linalg.solve(a, b), lambda: np.linalg.solve(x, y), "solve")


@case("inv_1000_f64", target=BEST)
def inv_1000(lib: Backend, cfg: Config) -> Stats:
    """inv of a 1000 x 1000 float64 matrix; >= 1.0x the better peer."""
    x = _system(cfg, 1000)
    a = _dev(lib, x)
    return _checked(lib, cfg, lambda: lib.module.linalg.inv(a), lambda: np.linalg.inv(x), "inv")


def _scipy_linalg(lib: Backend) -> Any:
    if lib.name == "cuarray":
        import cuarray.scipy.linalg as sl
    else:
        import cupyx.scipy.linalg as sl
    return sl


def _lapack_solver(lib: Backend, cfg: Config, which: str) -> Stats:
    """lu_solve / cho_solve / solve_triangular of 1000 x 1000 float64 with 16 right-hand sides, factors made
    beforehand (PyTorch: linalg.lu_solve, cholesky_solve, linalg.solve_triangular)."""
    n = 1000
    x = _system(cfg, n)
    y = cfg.host_random(n * 16, np.float64, seed=4).reshape(n, 16)
    if which == "cho_solve":
        x = x @ x.T
        want = np.linalg.solve(x, y)
    elif which == "solve_triangular":
        x = np.tril(x)
        want = np.linalg.solve(x, y)
    else:
        want = np.linalg.solve(x, y)
    a, b = _dev(lib, x), _dev(lib, y)
    if _is_torch(lib):
        t = lib.module
        if which == "lu_solve":
            lu, piv = t.linalg.lu_factor(a)
            fn = lambda: t.linalg.lu_solve(lu, piv, b)  # noqa: E731
        elif which == "cho_solve":
            c = t.linalg.cholesky(a)
            fn = lambda: t.cholesky_solve(b, c)  # noqa: E731
        else:
            fn = lambda: t.linalg.solve_triangular(a, b, upper=False)  # noqa: E731
    else:
        sl = _scipy_linalg(lib)
        if which == "lu_solve":
            fac = sl.lu_factor(a)
            fn = lambda: sl.lu_solve(fac, b)  # noqa: E731
        elif which == "cho_solve":
            cf = sl.cho_factor(a, lower=True)
            fn = lambda: sl.cho_solve(cf, b)  # noqa: E731
        else:
            fn = lambda: sl.solve_triangular(a, b, lower=True)  # noqa: E731
    return _checked(lib, cfg, fn, lambda: want, which, rtol=1e-8, atol=1e-11)


@case("lu_solve_1000x16_f64", target=BEST)
def lu_solve_1000(lib: Backend, cfg: Config) -> Stats:
    """scipy.linalg.lu_solve, 1000 x 1000 float64, 16 right-hand sides; >= 1.0x the better peer."""
    return _lapack_solver(lib, cfg, "lu_solve")


@case("cho_solve_1000x16_f64", target=Target("torch", 1.0), libs=("cuarray", "torch"))
def cho_solve_1000(lib: Backend, cfg: Config) -> Stats:
    """scipy.linalg.cho_solve, 1000 x 1000 float64, 16 right-hand sides; >= 1.0x PyTorch (CuPy has none)."""
    return _lapack_solver(lib, cfg, "cho_solve")


@case("solve_triangular_1000x16_f64", target=BEST)
def solve_triangular_1000(lib: Backend, cfg: Config) -> Stats:
    """scipy.linalg.solve_triangular (lower), 1000 x 1000 float64, 16 right-hand sides; >= 1.0x the better peer."""
    return _lapack_solver(lib, cfg, "solve_triangular")


BATCH, ORDER = 16384, 8


def _stack(cfg: Config) -> np.ndarray:
    x = cfg.host_random(BATCH * ORDER * ORDER, np.float64, seed=7).reshape(BATCH, ORDER, ORDER)
    return x + ORDER * np.eye(ORDER)


@case("inv_16384x8x8_f64", target=BEST)
def inv_stack(lib: Backend, cfg: Config) -> Stats:
    """inv of a stack of 16384 8 x 8 float64 matrices; >= 1.0x the better peer (Note [batched small LU])."""
    x = _stack(cfg)
    a = _dev(lib, x)
    return _checked(lib, cfg, lambda: lib.module.linalg.inv(a), lambda: np.linalg.inv(x), "inv")


@case("solve_16384x8x8_f64", target=BEST)
def solve_stack(lib: Backend, cfg: Config) -> Stats:
    """solve of a stack of 16384 8 x 8 float64 systems, one right-hand side each; >= 1.0x the better peer."""
    x = _stack(cfg)
    y = cfg.host_random(BATCH * ORDER, np.float64, seed=8).reshape(BATCH, ORDER, 1)
    a, b = _dev(lib, x), _dev(lib, y)
    return _checked(lib, cfg, lambda: lib.module.linalg.solve(a, b), lambda: np.linalg.solve(x, y), "solve")


@case("det_16384x8x8_f64", target=BEST)
def det_stack(lib: Backend, cfg: Config) -> Stats:
    """det of a stack of 16384 8 x 8 float64 matrices; >= 1.0x the better peer."""
    x = _stack(cfg)
    a = _dev(lib, x)
    return _checked(lib, cfg, lambda: lib.module.linalg.det(a), lambda: np.linalg.det(x), "det", rtol=1e-9, atol=0)


@case("unique_2^26_int64_peakmem", nbytes=N_UNIQUE * 8, heavy=True)
def unique_peakmem(lib: Backend, cfg: Config) -> Stats:
    """unique of 2**26 int64 (about 2**20 distinct values); the note gives the peak extra device bytes."""
    x = (cfg.host_random(N_UNIQUE, np.float32, seed=5) * (1 << 20)).astype(np.int64)
    a = _dev(lib, x)
    fn = lambda: lib.module.unique(a)  # noqa: E731  (sorted, as torch.unique's default)
    if cfg.first_round and not np.array_equal(_host(lib, fn()), np.unique(x)):
        raise AssertionError("unique: wrong result")
    peak = _peak_extra_bytes(lib, fn)
    st = time_gpu(fn, lib, **_reps(cfg, 10, 3))
    return _note(st, f"peak extra {peak} bytes ({peak / (N_UNIQUE * 8):.2f}x the input)")


@case("svd_4096_f64_peakmem", heavy=True)
def svd_peakmem(lib: Backend, cfg: Config) -> Stats:
    """svd (full_matrices=False) of a 4096 x 4096 float64 matrix; the note gives the peak extra device bytes."""
    n = 4096
    a = _dev(lib, cfg.host_random(n * n, np.float64, seed=6).reshape(n, n))
    fn = lambda: lib.module.linalg.svd(a, full_matrices=False)  # noqa: E731
    peak = _peak_extra_bytes(lib, fn)
    st = time_gpu(fn, lib, n_warmup=1, n_repeat=cfg.reps(3, 1))
    return _note(st, f"peak extra {peak} bytes ({peak / (n * n * 8):.2f}x the input)")
