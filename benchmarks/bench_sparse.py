"""Sparse benchmarks (issue 19, cuarray.scipy.sparse): cuSPARSE products through cuarray against cupyx.scipy.sparse.

Cases (no targets yet; the issue asks for >= 1.0x CuPy and peak pool memory no higher than CuPy's):
  SpMV and SpMM (8 columns) of a 10**6 x 10**6 float32 CSR matrix with 10**7 nonzeros (10 per row),
  SpGEMM of that matrix with a 10**6 x 10**6 one of 2 * 10**6 nonzeros, and csr_matrix(scipy matrix) of the
  10**7-nonzero matrix (host to device). Each note ("pool peak +X MiB", listed under Notes in results.md) gives
  the growth of the library's pool (total_bytes after one call minus before, starting from an emptied pool; both
  pools keep what they reserved until free_all_blocks and neither has a peak counter, so this is the peak the
  operation needed, cuSPARSE work areas included): a reported figure, not a judged target.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from common import Backend, Config, Skip, Stats, case, time_gpu

N = 10 ** 6
PER_ROW = 10


def _sp(lib: Backend) -> Any:
    if lib.name == "cupy":
        import cupyx.scipy.sparse as sp
    else:
        import cuarray.scipy.sparse as sp
    return sp


def _host_csr(per_row: int, seed: int) -> Any:
    try:
        import scipy.sparse as ss
    except ImportError as e:  # pragma: no cover - scipy is optional
        raise Skip("scipy is not installed") from e
    rng = np.random.default_rng(seed)
    idx = np.sort(rng.integers(0, N, size=(N, per_row), dtype=np.int32), axis=1).ravel()
    data = rng.random(N * per_row, dtype=np.float32)
    indptr = np.arange(0, N * per_row + 1, per_row, dtype=np.int32)
    m = ss.csr_matrix((data, idx, indptr), shape=(N, N))
    m.sum_duplicates()
    return m


_CACHE: dict[str, Any] = {}


def _matrix(per_row: int, seed: int) -> Any:
    key = f"{per_row}-{seed}"
    if key not in _CACHE:
        _CACHE[key] = _host_csr(per_row, seed)
    return _CACHE[key]


def _pool_growth(lib: Backend, fn: Any) -> int:
    """Bytes the library's pool grew by for one call, from an emptied pool."""
    pool = lib.module.get_default_memory_pool()
    lib.sync()
    pool.free_all_blocks()
    before = pool.total_bytes()
    r = fn()
    lib.sync()
    grown = pool.total_bytes() - before
    del r
    return grown


def _with_peak(st: Stats, grown: int) -> Stats:
    # One decimal: SpMV's growth is a few MiB, where whole MiB would hide a difference between the libraries.
    note = f"pool peak +{grown / 2**20:.1f} MiB"
    st.note = f"{st.note}; {note}" if st.note else note
    return st


def _reps(cfg: Config) -> dict[str, int]:
    return {"n_warmup": 2, "n_repeat": cfg.reps(20, 5)}


@case("sparse_spmv_1e7_f32", libs=("cuarray", "cupy"), heavy=True)
def spmv(lib: Backend, cfg: Config) -> Stats:
    """y = A @ x, A 10**6 x 10**6 float32 CSR with 10**7 nonzeros (cuSPARSE SpMV)."""
    h = _matrix(PER_ROW, 0)
    a = _sp(lib).csr_matrix(h)
    xh = np.random.default_rng(1).random(N, dtype=np.float32)
    x = lib.module.asarray(xh)
    fn = lambda: a @ x  # noqa: E731
    if cfg.first_round:
        got = lib.module.asnumpy(fn()[:1000])
        np.testing.assert_allclose(got, (h[:1000] @ xh), rtol=1e-4)
    grown = _pool_growth(lib, fn)
    return _with_peak(time_gpu(fn, lib, **_reps(cfg)), grown)


@case("sparse_spmm_1e7x8_f32", libs=("cuarray", "cupy"), heavy=True)
def spmm(lib: Backend, cfg: Config) -> Stats:
    """Y = A @ X, X 10**6 x 8 float32 (cuSPARSE SpMM)."""
    h = _matrix(PER_ROW, 0)
    a = _sp(lib).csr_matrix(h)
    xh = np.random.default_rng(2).random((N, 8), dtype=np.float32)
    x = lib.module.asarray(xh)
    fn = lambda: a @ x  # noqa: E731
    if cfg.first_round:
        got = lib.module.asnumpy(fn()[:1000])
        np.testing.assert_allclose(got, (h[:1000] @ xh), rtol=1e-4)
    grown = _pool_growth(lib, fn)
    return _with_peak(time_gpu(fn, lib, **_reps(cfg)), grown)


@case("sparse_spgemm_1e7_f32", libs=("cuarray", "cupy"), heavy=True)
def spgemm(lib: Backend, cfg: Config) -> Stats:
    """C = A @ B, A with 10**7 and B with 2 * 10**6 nonzeros (cuSPARSE SpGEMM)."""
    ha, hb = _matrix(PER_ROW, 0), _matrix(2, 3)
    sp = _sp(lib)
    a, b = sp.csr_matrix(ha), sp.csr_matrix(hb)
    fn = lambda: a @ b  # noqa: E731
    if cfg.first_round:
        c = fn()
        if int(c[:2000].nnz) != (ha[:2000] @ hb).nnz:
            raise AssertionError("spgemm: wrong number of stored entries")
    grown = _pool_growth(lib, fn)
    return _with_peak(time_gpu(fn, lib, n_warmup=1, n_repeat=cfg.reps(5, 2)), grown)


@case("sparse_csr_from_scipy_1e7_f32", libs=("cuarray", "cupy"), heavy=True)
def transfer(lib: Backend, cfg: Config) -> Stats:
    """csr_matrix(scipy csr_matrix) with 10**7 float32 nonzeros: three host-to-device copies."""
    h = _matrix(PER_ROW, 0)
    sp = _sp(lib)
    fn = lambda: sp.csr_matrix(h)  # noqa: E731
    grown = _pool_growth(lib, fn)
    return _with_peak(time_gpu(fn, lib, **_reps(cfg)), grown)
