"""Linear-algebra benchmarks (issue 6, decompositions and solvers): svd, eigh, qr, solve and inv of float64
matrices, against CuPy and PyTorch.

Targets (ratios of median times in the same run):
  svd 1000 x 1000 and 4096 x 4096 float64   >= 2.0x CuPy (whose gesvd takes ~119 ms and ~1713 ms on an H100)
  eigh, qr, solve, inv                      >= 1.0x CuPy
svd's note gives the relative reconstruction error ||U S Vh - A||_F / ||A||_F of each library (goal < 1e-12).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from common import Backend, Config, Stats, Target, case, time_gpu
from common import is_torch as _is_torch, to_device as _dev

F64 = np.float64


def _reps(cfg: Config, full: int, quick: int) -> dict[str, int]:
    return {"n_warmup": 1, "n_repeat": cfg.reps(full, quick)}


def _matrix(cfg: Config, n: int, seed: int = 0) -> np.ndarray:
    return cfg.host_random(n * n, F64, seed=seed).reshape(n, n)


def _spd(cfg: Config, n: int) -> np.ndarray:
    """A symmetric matrix with a well-spread spectrum (a + a.T, shifted to be positive definite)."""
    a = _matrix(cfg, n, seed=1)
    return a + a.T + 2 * n * np.eye(n)


def _note(st: Stats, text: str) -> Stats:
    st.note = f"{st.note}; {text}" if st.note else text
    return st


def _svd_error(lib: Backend, a: Any, res: Any) -> float:
    m = lib.module
    u, s, vh = res
    if _is_torch(lib):
        diff = (u * s[None, :]) @ vh - a
        return float(m.linalg.norm(diff) / m.linalg.norm(a))
    diff = m.matmul(u * s[None, :], vh) - a
    return float(m.linalg.norm(diff) / m.linalg.norm(a))


def _svd_case(lib: Backend, cfg: Config, n: int, full: int, quick: int) -> Stats:
    a = _dev(lib, _matrix(cfg, n))
    fn = (lambda: lib.module.linalg.svd(a)) if _is_torch(lib) else (lambda: lib.module.linalg.svd(a))
    err = _svd_error(lib, a, fn()) if cfg.first_round else None
    st = time_gpu(fn, lib, **_reps(cfg, full, quick))
    return _note(st, f"recon err {err:.1e}") if err is not None else st


@case("svd_1000_f64", target=Target("cupy", 2.0), key=True)
def svd_1000(lib: Backend, cfg: Config) -> Stats:
    """svd of a random 1000 x 1000 float64 matrix (U, S, Vh); >= 2.0x CuPy, reconstruction error < 1e-12."""
    return _svd_case(lib, cfg, 1000, 8, 3)


@case("svd_4096_f64", target=Target("cupy", 2.0), heavy=True, key=True)
def svd_4096(lib: Backend, cfg: Config) -> Stats:
    """svd of a random 4096 x 4096 float64 matrix (U, S, Vh); >= 2.0x CuPy, reconstruction error < 1e-12."""
    return _svd_case(lib, cfg, 4096, 3, 2)


def _eigh_case(lib: Backend, cfg: Config, n: int, full: int, quick: int) -> Stats:
    a = _dev(lib, _spd(cfg, n))
    fn = lambda: lib.module.linalg.eigh(a)  # noqa: E731
    if cfg.first_round:
        w, v = fn()
        m = lib.module
        r = (a @ v - v * w[None, :]) if _is_torch(lib) else (m.matmul(a, v) - v * w[None, :])
        err = float(m.linalg.norm(r) / m.linalg.norm(a))
        if not err < 1e-10:
            raise AssertionError(f"eigh: residual {err:.1e}")
    return time_gpu(fn, lib, **_reps(cfg, full, quick))


@case("eigh_1000_f64", target=Target("cupy", 1.0), key=True)
def eigh_1000(lib: Backend, cfg: Config) -> Stats:
    """eigh of a symmetric 1000 x 1000 float64 matrix; >= 1.0x CuPy."""
    return _eigh_case(lib, cfg, 1000, 10, 3)


@case("eigh_4096_f64", target=Target("cupy", 1.0), heavy=True)
def eigh_4096(lib: Backend, cfg: Config) -> Stats:
    """eigh of a symmetric 4096 x 4096 float64 matrix; >= 1.0x CuPy."""
    return _eigh_case(lib, cfg, 4096, 4, 2)


@case("qr_4096_f64", target=Target("cupy", 1.0), heavy=True)
def qr_4096(lib: Backend, cfg: Config) -> Stats:
    """qr (reduced: Q and R) of a random 4096 x 4096 float64 matrix; >= 1.0x CuPy."""
    a = _dev(lib, _matrix(cfg, 4096))
    fn = lambda: lib.module.linalg.qr(a)  # noqa: E731
    return time_gpu(fn, lib, **_reps(cfg, 6, 2))


@case("solve_4096_f64", target=Target("cupy", 1.0), heavy=True)
def solve_4096(lib: Backend, cfg: Config) -> Stats:
    """solve of a random 4096 x 4096 float64 system with 16 right-hand sides; >= 1.0x CuPy."""
    a = _dev(lib, _matrix(cfg, 4096))
    b = _dev(lib, cfg.host_random(4096 * 16, F64, seed=2).reshape(4096, 16))
    fn = lambda: lib.module.linalg.solve(a, b)  # noqa: E731
    return time_gpu(fn, lib, **_reps(cfg, 8, 3))


@case("inv_4096_f64", target=Target("cupy", 1.0), heavy=True)
def inv_4096(lib: Backend, cfg: Config) -> Stats:
    """inv of a random 4096 x 4096 float64 matrix; >= 1.0x CuPy."""
    a = _dev(lib, _matrix(cfg, 4096))
    fn = lambda: lib.module.linalg.inv(a)  # noqa: E731
    return time_gpu(fn, lib, **_reps(cfg, 6, 2))
