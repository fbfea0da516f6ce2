"""Matrix-product benchmarks (issue 6, "linear algebra: products"): cuBLAS GEMMs and einsum, against CuPy and PyTorch.

Targets (ratios of median times in the same run):
  matmul 8192 x 8192 float16 / float32 / float64                       >= 0.98x CuPy (the same cuBLAS)
  (10000 x 5000 @ 5000 x 7000 float32).sum(axis=0), ten times          >= 1.0x CuPy
  einsum('ij,jk->...k', A, B) on the same A, B, ten times              >= 1.0x CuPy
    (cuarray sums A over i first, then one vector-matrix product; torch runs 'ij,jk->k')
Float32 runs at full precision in every library (no TF32). Each case's note gives cuarray's TFLOP/s where it
is a plain GEMM.
"""

from __future__ import annotations

import numpy as np

from common import Backend, Config, Stats, Target, case, time_gpu
from common import is_torch as _is_torch, to_device as _dev, to_host as _host

N = 8192
M_BIG, K_BIG, N_BIG = 10000, 5000, 7000


def _square(cfg: Config, dtype: type) -> tuple[np.ndarray, np.ndarray]:
    x = cfg.host_random(N * N, dtype, seed=1).reshape(N, N)
    y = cfg.host_random(N * N, dtype, seed=2).reshape(N, N)
    return x, y


def _full_precision(lib: Backend) -> None:
    """TF32 off everywhere, so that float32 means float32 in each library."""
    if _is_torch(lib):
        lib.module.backends.cuda.matmul.allow_tf32 = False
    elif lib.name == "cuarray":
        lib.module.set_tf32_enabled(False)


def _check_rows(cfg: Config, got: np.ndarray, x: np.ndarray, y: np.ndarray, rtol: float, what: str) -> None:
    """The first rows against NumPy (a full host product would take minutes)."""
    if not cfg.first_round:
        return
    ref = x[:4].astype(np.float64) @ y.astype(np.float64)
    if got.shape != (x.shape[0], y.shape[1]) or not np.allclose(got[:4], ref, rtol=rtol, atol=rtol * np.abs(ref).max()):
        raise AssertionError(f"{what}: wrong result")


def _gemm(lib: Backend, cfg: Config, dtype: type, rtol: float) -> Stats:
    _full_precision(lib)
    x, y = _square(cfg, dtype)
    a, b = _dev(lib, x), _dev(lib, y)
    fn = lambda: a @ b  # noqa: E731
    _check_rows(cfg, _host(lib, fn()), x, y, rtol, f"matmul {np.dtype(dtype).name}")
    st = time_gpu(fn, lib, n_warmup=2, n_repeat=cfg.reps(10, 4))
    note = f"{2 * N ** 3 / st.median_s / 1e12:.1f} TFLOP/s"
    st.note = f"{st.note}; {note}" if st.note else note
    return st


@case("matmul_8192_f16", target=Target("cupy", 0.98), heavy=True, key=True)
def matmul_f16(lib: Backend, cfg: Config) -> Stats:
    """8192 x 8192 @ 8192 x 8192 float16 (tensor cores, float32 accumulation); >= 0.98x CuPy."""
    return _gemm(lib, cfg, np.float16, 2e-2)


@case("matmul_8192_f32", target=Target("cupy", 0.98), heavy=True, key=True)
def matmul_f32(lib: Backend, cfg: Config) -> Stats:
    """8192 x 8192 @ 8192 x 8192 float32 (full precision); >= 0.98x CuPy."""
    return _gemm(lib, cfg, np.float32, 1e-4)


@case("matmul_8192_f64", target=Target("cupy", 0.98), heavy=True, key=True)
def matmul_f64(lib: Backend, cfg: Config) -> Stats:
    """8192 x 8192 @ 8192 x 8192 float64; >= 0.98x CuPy."""
    return _gemm(lib, cfg, np.float64, 1e-10)


def _big(lib: Backend, cfg: Config) -> tuple[np.ndarray, np.ndarray, object, object]:
    x = cfg.host_random(M_BIG * K_BIG, np.float32, seed=3, keep=True).reshape(M_BIG, K_BIG)
    y = cfg.host_random(K_BIG * N_BIG, np.float32, seed=4, keep=True).reshape(K_BIG, N_BIG)
    return x, y, _dev(lib, x), _dev(lib, y)


def _check_colsum(cfg: Config, got: np.ndarray, x: np.ndarray, y: np.ndarray, what: str) -> None:
    if not cfg.first_round:
        return
    ref = x.sum(axis=0, dtype=np.float64) @ y.astype(np.float64)
    if got.shape != (N_BIG,) or not np.allclose(got, ref, rtol=1e-3):
        raise AssertionError(f"{what}: wrong result")


@case("matmul_colsum_10000x5000x7000_f32_x10", target=Target("cupy", 1.0), heavy=True, key=True)
def matmul_colsum(lib: Backend, cfg: Config) -> Stats:
    """(A @ B).sum(axis=0) ten times, A 10000 x 5000, B 5000 x 7000 float32; >= 1.0x CuPy."""
    _full_precision(lib)
    x, y, a, b = _big(lib, cfg)
    if _is_torch(lib):
        once = lambda: (a @ b).sum(dim=0)  # noqa: E731
    else:
        once = lambda: (a @ b).sum(axis=0)  # noqa: E731
    _check_colsum(cfg, _host(lib, once()), x, y, "matmul + column sum")

    def fn() -> None:
        for _ in range(10):
            once()

    return time_gpu(fn, lib, n_warmup=1, n_repeat=cfg.reps(5, 2))


@case("einsum_ij_jk_k_x10", target=Target("cupy", 1.0), heavy=True, key=True)
def einsum_reduce_first(lib: Backend, cfg: Config) -> Stats:
    """einsum('ij,jk->...k', A, B) ten times on the A, B above (torch: 'ij,jk->k'); >= 1.0x CuPy."""
    _full_precision(lib)
    x, y, a, b = _big(lib, cfg)
    subs = "ij,jk->k" if _is_torch(lib) else "ij,jk->...k"
    once = lambda: lib.module.einsum(subs, a, b)  # noqa: E731
    _check_colsum(cfg, _host(lib, once()), x, y, "einsum")

    def fn() -> None:
        for _ in range(10):
            once()

    return time_gpu(fn, lib, n_warmup=2, n_repeat=cfg.reps(10, 4))
