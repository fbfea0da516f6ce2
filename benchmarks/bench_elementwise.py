"""Elementwise benchmarks (issue 3, "Elementwise engine"): per-call cost of small ufunc, ElementwiseKernel and
RawKernel calls against the launch floor, bandwidth of large elementwise calls against the device-to-device
copy, and the cold compile of a new ElementwiseKernel.

Targets (judged in common.judge_targets against other cases of the same run):
  small ufunc calls          <= 0.55x CuPy's time, and <= launch floor + 1 µs
  add / astype / fused, 2**28 >= 0.93x the copy GB/s of bench_foundation's d2d_copy_1GiB (read + write bytes)
  ElementwiseKernel cold     no slower than CuPy's cold compile of the same kernel (empty disk caches)
  ElementwiseKernel warm     <= launch floor + 1 µs
  a.sum() of 1024 elements   <= launch floor + 1 µs (issue 24)
  RawKernel warm launch      <= launch floor + 0.7 µs
"""

from __future__ import annotations

import functools
import importlib
import itertools
import os
import shutil
import tempfile
import time
from typing import Any

import numpy as np

from common import (
    Backend, BandwidthTarget, Config, FloorTarget, Stats, Target, _NoGC, case, fused_of, time_gpu, time_host_loop)

F32 = np.float32
BIG_N = 1 << 28  # float32 elements: 1 GiB, the size of bench_foundation's d2d_copy_1GiB (shares its host data)
SMALL_CHECK = 1000  # elements compared with NumPy in the first round

# Issue targets.
CUPY_TIME_FRACTION = 0.55  # small ufunc calls: cuarray's time <= 0.55x CuPy's
SMALL_ABOVE_FLOOR_US = 1.0  # small ufunc and warm ElementwiseKernel calls: <= floor + 1 µs
RAW_ABOVE_FLOOR_US = 0.7  # warm RawKernel launch: <= floor + 0.7 µs
COPY_FRACTION = 0.93  # large elementwise calls: >= 0.93x the copy bandwidth

SMALL_TARGETS = (
    Target("cupy", 1 / CUPY_TIME_FRACTION, label=f"<= {CUPY_TIME_FRACTION}x cupy time"),
    FloorTarget(SMALL_ABOVE_FLOOR_US),
)
BIG_TARGET = BandwidthTarget(COPY_FRACTION)


def _is_torch(lib: Backend) -> bool:
    return lib.name == "torch"


def _dev(lib: Backend, x: np.ndarray) -> Any:
    if _is_torch(lib):
        return lib.module.from_numpy(x).to("cuda")
    return lib.module.asarray(x)


def _host(lib: Backend, a: Any) -> np.ndarray:
    """The first SMALL_CHECK elements of a device array, on the host."""
    head = a[:SMALL_CHECK]
    return head.cpu().numpy() if _is_torch(lib) else head.get()


def _check(cfg: Config, got: np.ndarray, want: np.ndarray, what: str, rtol: float = 1e-6) -> None:
    """Refuse to time a call that computes the wrong values or dtype (first round only)."""
    if not cfg.first_round:
        return
    if got.dtype != want.dtype:
        raise AssertionError(f"{what}: result dtype {got.dtype}, expected {want.dtype}")
    if not np.allclose(got, want, rtol=rtol, atol=0):
        bad = int(np.argmax(~np.isclose(got, want, rtol=rtol, atol=0)))
        raise AssertionError(f"{what}: wrong result (element {bad}: got {got[bad]!r}, expected {want[bad]!r})")


def _loop(cfg: Config) -> dict[str, int]:
    return {"n_loop": 20000 if not cfg.quick else 5000, "n_repeat": cfg.reps(18, 10)}


def _small(lib: Backend, n: int) -> tuple[Any, Any]:
    x = np.random.default_rng(0).random(n, dtype=F32)
    return _dev(lib, x), _dev(lib, x[::-1].copy())


def _big(lib: Backend, cfg: Config) -> Any:
    """2**28 random float32 on the device; the host data is made once per run (shared with d2d_copy_1GiB)."""
    return _dev(lib, cfg.host_random(BIG_N, keep=True))


def _big_reps(cfg: Config) -> dict[str, int]:
    return {"n_warmup": 3, "n_repeat": cfg.reps(30, 10)}


# --- the launch floor -----------------------------------------------------------


@case("launch_floor", libs=("cuarray",))
def launch_floor(lib: Backend, cfg: Config) -> Stats:
    """A C++ loop of cuLaunchKernel of an empty kernel, then one synchronize (per launch): the floor of the floor targets."""
    core = lib.module._core
    return _time_cpp_loop(lib, cfg, core._launch_floor_us)


def _time_cpp_loop(lib: Backend, cfg: Config, run_n: Any) -> Stats:
    """Per call of `run_n(n)`, a C++ loop of n calls, timed on the host with one synchronize per sample."""
    run_n(1000)
    lib.sync()
    n = _loop(cfg)["n_loop"]
    samples = []
    with _NoGC():
        for _ in range(_loop(cfg)["n_repeat"]):
            t0 = time.perf_counter()
            run_n(n)
            lib.sync()
            samples.append((time.perf_counter() - t0) / n)
    return Stats(samples, "host-loop", inner_loop=n)


# --- where the per-call cost goes (diagnostics, no target) ----------------------------


def _cpp_loop(lib: Backend, cfg: Config, out: bool) -> Stats:
    core = lib.module._core
    a, b = _small(lib, 1)
    c = lib.module.empty_like(a) if out else None
    return _time_cpp_loop(lib, cfg, lambda n: core._ufunc_loop_us("add", a, b, n, c))


@case("add_1_cpp_loop", libs=("cuarray",))
def add_cpp_loop(lib: Backend, cfg: Config) -> Stats:
    """`a + b` on 1 element called from a C++ loop (no Python): the C++ share of add_1, allocation included."""
    return _cpp_loop(lib, cfg, out=False)


@case("add_1_cpp_loop_out", libs=("cuarray",))
def add_cpp_loop_out(lib: Backend, cfg: Config) -> Stats:
    """The same into a given output (the general call path with out=, no allocation)."""
    return _cpp_loop(lib, cfg, out=True)


# --- per-call cost of small ufunc calls -------------------------------------------


def _register_small(n: int) -> None:
    @case(f"add_{n}", target=SMALL_TARGETS)
    def add_small(lib: Backend, cfg: Config) -> Stats:
        """a + b on float32 arrays, a tight loop of calls then one synchronize (per call); <= 0.55x CuPy, <= floor + 1 µs."""
        a, b = _small(lib, n)
        if cfg.first_round:
            _check(cfg, _host(lib, a + b), _host(lib, a) + _host(lib, b), "a + b")
        return time_host_loop(lambda: a + b, lib, **_loop(cfg))

    @case(f"mul_scalar_{n}", target=SMALL_TARGETS)
    def mul_scalar_small(lib: Backend, cfg: Config) -> Stats:
        """a * 2.0 on a float32 array (result float32), loop of calls then one synchronize; <= 0.55x CuPy, <= floor + 1 µs."""
        a, _ = _small(lib, n)
        if cfg.first_round:
            _check(cfg, _host(lib, a * 2.0), _host(lib, a) * F32(2.0), "a * 2.0")
        return time_host_loop(lambda: a * 2.0, lib, **_loop(cfg))

    @case(f"sin_{n}", target=SMALL_TARGETS)
    def sin_small(lib: Backend, cfg: Config) -> Stats:
        """sin(a) on a float32 array, loop of calls then one synchronize; <= 0.55x CuPy, <= floor + 1 µs."""
        a, _ = _small(lib, n)
        fn = lib.module.sin
        if cfg.first_round:
            _check(cfg, _host(lib, fn(a)), np.sin(_host(lib, a)), "sin(a)", rtol=1e-5)
        return time_host_loop(lambda: fn(a), lib, **_loop(cfg))


for _n in (1, 1024):
    _register_small(_n)


@case("sum_1024", target=FloorTarget(SMALL_ABOVE_FLOOR_US))
def sum_small(lib: Backend, cfg: Config) -> Stats:
    """a.sum() of 1024 float32 (0-d result), loop of calls then one synchronize; <= floor + 1 µs (issue 24)."""
    a, _ = _small(lib, 1024)
    if cfg.first_round:
        whole = (lambda x: x.cpu().numpy()) if _is_torch(lib) else (lambda x: x.get())
        want = np.atleast_1d(np.float32(whole(a).astype(np.float64).sum()))
        _check(cfg, np.atleast_1d(whole(a.sum())), want, "a.sum()", rtol=1e-5)
    return time_host_loop(lambda: a.sum(), lib, **_loop(cfg))


# --- bandwidth of large elementwise calls ----------------------------------------------


@case("add_2^28_f32", nbytes=3 * BIG_N * 4, target=BIG_TARGET, heavy=True)
def add_big(lib: Backend, cfg: Config) -> Stats:
    """a + b on 2**28 float32; GB/s counts 2 reads + 1 write; target >= 0.93x the copy GB/s (d2d_copy_1GiB)."""
    a = _big(lib, cfg)
    b = a * 0.5
    if cfg.first_round:
        _check(cfg, _host(lib, a + b), _host(lib, a) + _host(lib, b), "a + b")
    return time_gpu(lambda: a + b, lib, **_big_reps(cfg))


@case("astype_f16_2^28", nbytes=BIG_N * 6, target=BIG_TARGET, heavy=True)
def astype_f16(lib: Backend, cfg: Config) -> Stats:
    """float32 -> float16 cast of 2**28 elements; GB/s counts 4 read + 2 written bytes; target >= 0.93x the copy GB/s."""
    a = _big(lib, cfg)
    if _is_torch(lib):
        fn = functools.partial(a.to, lib.module.float16)
    else:
        fn = functools.partial(a.astype, np.float16)
    if cfg.first_round:
        got = _host(lib, fn())
        want = _host(lib, a).astype(np.float16)
        if got.dtype != np.float16 or not np.array_equal(got, want):
            raise AssertionError(f"astype(float16): wrong result (dtype {got.dtype})")
    return time_gpu(fn, lib, **_big_reps(cfg))


def fused_fma(x: Any, y: Any, z: Any) -> Any:
    """The fused kernel of fma_fused_2^28 (one pass: 3 reads, 1 write)."""
    return x * y + z




@case("fma_fused_2^28", nbytes=4 * BIG_N * 4, target=BIG_TARGET, heavy=True)
def fma_fused(lib: Backend, cfg: Config) -> Stats:
    """fuse(x * y + z) on 2**28 float32 (torch: addcmul, one kernel); GB/s counts 3 reads + 1 write; >= 0.93x copy GB/s."""
    note = None
    if _is_torch(lib):
        # torch.compile would cost seconds of compilation per run; addcmul is PyTorch's one-kernel x * y + z.
        fused = lib.module.addcmul
        note = "torch.addcmul(z, x, y)"
    else:
        fused = fused_of(lib, fused_fma)
    x = _big(lib, cfg)
    y = x * 0.5
    z = x + 1.0
    fn = functools.partial(fused, z, x, y) if _is_torch(lib) else functools.partial(fused, x, y, z)
    if cfg.first_round:
        hx, hy, hz = _host(lib, x), _host(lib, y), _host(lib, z)
        _check(cfg, _host(lib, fn()), hx * hy + hz, "fused x * y + z", rtol=1e-6)
    st = time_gpu(fn, lib, **_big_reps(cfg))
    st.note = note
    return st


# --- ElementwiseKernel: cold compile and warm call ------------------------------------------

_EK_IN, _EK_OUT = "T x, T y", "T z"
_EK_COUNTER = itertools.count(1)  # makes every cold kernel's source unique within the process
_CACHE_VARS = ("CUARRAY_CACHE_DIR", "CUPY_CACHE_DIR")


def _redirect_cupy_cache(lib: Backend, path: str) -> Any:
    """Point CuPy's kernel cache at `path`; returns a callable that undoes it (a no-op for other libraries).

    Older CuPy reads CUPY_CACHE_DIR at every compile; newer CuPy (a kernel cache backend object in
    cupy.cuda.compiler) reads it once at import, so that object is swapped for one on `path` while timing.
    """
    if lib.name != "cupy":
        return lambda: None
    try:
        comp = importlib.import_module("cupy.cuda.compiler")
    except Exception:
        return lambda: None
    if not hasattr(comp, "_kernel_cache_backend"):
        return lambda: None
    cls = getattr(comp, "DiskKernelCacheBackend", None) or getattr(comp, "_DiskKernelCacheBackend", None)
    if cls is None:
        try:
            from cupy.cuda._compiler_cache import DiskKernelCacheBackend as cls  # type: ignore
        except Exception:
            return lambda: None
    prev = comp._kernel_cache_backend
    setter = getattr(comp, "_set_kernel_cache_backend", None)
    new_backend = cls(path)
    if setter is not None:
        setter(new_backend)
    else:
        comp._kernel_cache_backend = new_backend

    def undo() -> None:
        if setter is not None:
            setter(prev)
        else:
            comp._kernel_cache_backend = prev

    return undo


def _ek_cold_once(lib: Backend, a: Any, b: Any, check: bool) -> tuple[float, bool]:
    """Construct and first-call a never-seen ElementwiseKernel with empty disk caches, then synchronize.

    Returns (seconds, whether the library wrote its fresh cache folder).
    """
    k = next(_EK_COUNTER)
    tmp = tempfile.mkdtemp(prefix=f"bench_ek_{lib.name}_")
    dirs = {v: os.path.join(tmp, v.lower()) for v in _CACHE_VARS}
    mine = dirs["CUARRAY_CACHE_DIR" if lib.name == "cuarray" else "CUPY_CACHE_DIR"]
    saved = {v: os.environ.get(v) for v in _CACHE_VARS}
    undo = None
    try:
        for v, d in dirs.items():  # both, so that neither library can reach a warm cache
            os.environ[v] = d
        undo = _redirect_cupy_cache(lib, dirs["CUPY_CACHE_DIR"])
        ek_cls = lib.module.ElementwiseKernel
        with _NoGC():
            t0 = time.perf_counter()
            kern = ek_cls(_EK_IN, _EK_OUT, f"z = x * y + (T){k}", f"bench_ek_cold_{k}")
            out = kern(a, b)
            lib.sync()
            dt = time.perf_counter() - t0
        wrote = os.path.isdir(mine) and bool(os.listdir(mine))
        if check:
            want = a[:SMALL_CHECK].get() * b[:SMALL_CHECK].get() + F32(k)
            got = out[:SMALL_CHECK].get()
            if got.dtype != want.dtype or not np.allclose(got, want, rtol=1e-6):
                raise AssertionError(f"ElementwiseKernel 'z = x * y + {k}': wrong result")
        return dt, wrote
    finally:
        if undo is not None:
            undo()
        for v, old in saved.items():
            if old is None:
                os.environ.pop(v, None)
            else:
                os.environ[v] = old
        shutil.rmtree(tmp, ignore_errors=True)


# heavy: a compile takes ~0.1 to 1 s, so fewer rounds (each round compiles reps kernels).
@case("ek_cold_compile", target=Target("cupy", 1.0), libs=("cuarray", "cupy"), heavy=True)
def ek_cold_compile(lib: Backend, cfg: Config) -> Stats:
    """ElementwiseKernel('T x, T y', 'T z', 'z = x * y + (T)K') with a new K, empty disk cache: construct + first call + synchronize; >= 1.0x CuPy."""
    a, b = _small(lib, 1024)
    if cfg.first_round:  # one untimed compile: the process's first NVRTC use, header set-up, etc.
        _ek_cold_once(lib, a, b, check=True)
    runs = [_ek_cold_once(lib, a, b, check=False) for _ in range(cfg.reps(12, 6))]
    note = "fresh kernel cache folder and kernel source per sample"
    if not all(wrote for _, wrote in runs):
        note += "; the fresh cache folder stayed empty (the library did not use it: check the redirection)"
    return Stats([dt for dt, _ in runs], "blocking", note=note)


_EK_WARM: dict[str, Any] = {}  # library -> its kernel, compiled once (default cache dirs)


@case("ek_warm_1024", target=FloorTarget(SMALL_ABOVE_FLOOR_US), libs=("cuarray", "cupy"))
def ek_warm(lib: Backend, cfg: Config) -> Stats:
    """A compiled ElementwiseKernel 'z = x * y + (T)1' on 1024 float32, loop of calls then one synchronize; <= floor + 1 µs."""
    kern = _EK_WARM.get(lib.name)
    if kern is None:
        kern = _EK_WARM[lib.name] = lib.module.ElementwiseKernel(_EK_IN, _EK_OUT, "z = x * y + (T)1", "bench_ek_warm")
    a, b = _small(lib, 1024)
    if cfg.first_round:
        _check(cfg, _host(lib, kern(a, b)), _host(lib, a) * _host(lib, b) + F32(1), "ElementwiseKernel z = x * y + 1")
    return time_host_loop(lambda: kern(a, b), lib, **_loop(cfg))


_RK_WARM: dict[str, Any] = {}  # library -> its reduction kernel, compiled once


@case("rk_warm_1024", target=FloorTarget(SMALL_ABOVE_FLOOR_US), libs=("cuarray", "cupy"))
def rk_warm(lib: Backend, cfg: Config) -> Stats:
    """A compiled ReductionKernel sum of squares on 1024 float32 (0-d result), loop of calls then one synchronize; <= floor + 1 µs."""
    kern = _RK_WARM.get(lib.name)
    if kern is None:
        kern = _RK_WARM[lib.name] = lib.module.ReductionKernel(
            "T x", "T y", "x * x", "a + b", "y = a", "0", "bench_rk_warm")
    a, _ = _small(lib, 1024)
    if cfg.first_round:
        want = np.atleast_1d(np.float32(np.sum(a.get().astype(np.float64) ** 2)))
        _check(cfg, np.atleast_1d(kern(a).get()), want, "ReductionKernel sum of squares", rtol=1e-4)
    return time_host_loop(lambda: kern(a), lib, **_loop(cfg))


# --- RawKernel: warm launch -----------------------------------------------------------------

_RAW_SRC = r"""
extern "C" __global__ void bench_raw_touch(float* x, int n) {
    if (n < 0 && threadIdx.x == 0 && blockIdx.x == 0) x[0] = (float)n;
}
"""
_RAW: dict[str, Any] = {}  # library -> its RawKernel, compiled once


@case("rawkernel_launch", target=FloorTarget(RAW_ABOVE_FLOOR_US), libs=("cuarray", "cupy"))
def rawkernel_launch(lib: Backend, cfg: Config) -> Stats:
    """RawKernel(float* x, int n) launched with grid (1,), block (32,), args (a, int32), loop of calls then one synchronize; <= floor + 0.7 µs."""
    kern = _RAW.get(lib.name)
    if kern is None:
        kern = _RAW[lib.name] = lib.module.RawKernel(_RAW_SRC, "bench_raw_touch")
    a, _ = _small(lib, 1024)
    if cfg.first_round:  # the arguments arrive: a negative n is written to x[0]
        kern((1,), (32,), (a, np.int32(-7)))
        got = float(a[:1].get()[0])
        if got != -7.0:
            raise AssertionError(f"RawKernel: x[0] is {got}, expected -7 (arguments not passed right)")
    args = (a, np.int32(1024))  # n >= 0: the kernel writes nothing
    grid, block = (1,), (32,)
    return time_host_loop(lambda: kern(grid, block, args), lib, **_loop(cfg))
