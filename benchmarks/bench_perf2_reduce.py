"""Performance round two (issue 23), reduction and scan rows: var/std, Frobenius norm, mean over axes (0, 2),
a fused sum(x * y, axis=-1), cumsum(axis=1) and diff, against CuPy and PyTorch.

Targets: >= 1.0x the better of CuPy and PyTorch, and >= 0.85x the device-to-device copy GB/s, counting only the
bytes each kernel must move (one read of every input, one write of every output).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from common import Backend, BandwidthTarget, Config, Stats, Target, case, fused_of, time_gpu
from common import is_torch as _is_torch, to_device as _dev, to_host as _host

F32 = np.float32
N_FLAT = 1 << 27
SIDE_NORM = 8192
SIDE_SCAN = 16384
SHAPE3 = (4096, 4096, 16)
TARGETS = (Target("cupy", 1.0), Target("torch", 1.0), BandwidthTarget(0.85))


def _reps(cfg: Config) -> dict[str, int]:
    return {"n_warmup": 2, "n_repeat": cfg.reps(30, 8)}


def _check(cfg: Config, got: Any, want: Any, what: str, rtol: float = 1e-4, atol: float = 1e-2) -> None:
    if cfg.first_round and not np.allclose(got, want, rtol=rtol, atol=atol):
        raise AssertionError(f"{what}: wrong result")


def _flat(lib: Backend, cfg: Config) -> tuple[Any, np.ndarray]:
    x = cfg.host_random(N_FLAT, F32, keep=True)
    return _dev(lib, x), x


@case("var_2^27_f32", nbytes=N_FLAT * 4 + 4, target=TARGETS, heavy=True)
def var_flat(lib: Backend, cfg: Config) -> Stats:
    """var of 2**27 float32 (one read of the input); >= 1.0x the better peer and >= 0.85x copy GB/s."""
    a, x = _flat(lib, cfg)
    fn = (lambda: lib.module.var(a, unbiased=False)) if _is_torch(lib) else (lambda: lib.module.var(a))  # noqa: E731
    _check(cfg, _host(lib, fn()), np.var(x.astype(np.float64)), "var", rtol=1e-3, atol=1e-5)
    return time_gpu(fn, lib, **_reps(cfg))


@case("std_2^27_f32", nbytes=N_FLAT * 4 + 4, target=TARGETS, heavy=True)
def std_flat(lib: Backend, cfg: Config) -> Stats:
    """std of 2**27 float32 (one read of the input); >= 1.0x the better peer and >= 0.85x copy GB/s."""
    a, x = _flat(lib, cfg)
    fn = (lambda: lib.module.std(a, unbiased=False)) if _is_torch(lib) else (lambda: lib.module.std(a))  # noqa: E731
    _check(cfg, _host(lib, fn()), np.std(x.astype(np.float64)), "std", rtol=1e-3, atol=1e-5)
    return time_gpu(fn, lib, **_reps(cfg))


@case("norm_fro_8192^2_f32", nbytes=SIDE_NORM * SIDE_NORM * 4 + 4, target=TARGETS, heavy=True)
def norm_fro(lib: Backend, cfg: Config) -> Stats:
    """linalg.norm (Frobenius) of 8192 x 8192 float32 (one sum-of-squares pass); >= 1.0x peers, >= 0.85x copy."""
    x = cfg.host_random(SIDE_NORM * SIDE_NORM, F32, keep=True).reshape(SIDE_NORM, SIDE_NORM)
    a = _dev(lib, x)
    fn = lambda: lib.module.linalg.norm(a)  # noqa: E731
    _check(cfg, _host(lib, fn()), np.linalg.norm(x.astype(np.float64)), "norm", rtol=1e-3, atol=1e-3)
    return time_gpu(fn, lib, **_reps(cfg))


@case("mean_axis1_out_8192^2_f32", nbytes=SIDE_NORM * SIDE_NORM * 4 + SIDE_NORM * 4, target=TARGETS, heavy=True)
def mean_rows_out(lib: Backend, cfg: Config) -> Stats:
    """mean(axis=1, out=o) of 8192 x 8192 float32 into a float32 out (a neighbour of sum(out=): the kernel writes
    out itself, Note [reduction into out]); >= 1.0x peers, >= 0.85x copy."""
    x = cfg.host_random(SIDE_NORM * SIDE_NORM, F32, keep=True).reshape(SIDE_NORM, SIDE_NORM)
    a = _dev(lib, x)
    o = _dev(lib, np.zeros(SIDE_NORM, F32))
    if _is_torch(lib):
        fn = lambda: lib.module.mean(a, dim=1, out=o)  # noqa: E731
    else:
        fn = lambda: lib.module.mean(a, axis=1, out=o)  # noqa: E731
    if cfg.first_round:
        fn()
        _check(cfg, _host(lib, o)[:64], x[:64].astype(np.float64).mean(axis=1), "mean(axis=1, out=)", atol=1e-5)
    return time_gpu(fn, lib, **_reps(cfg))


WIDE = (4096, 65536)


@case("sum_axis1_4096x65536_f32", nbytes=WIDE[0] * WIDE[1] * 4 + WIDE[0] * 4, target=TARGETS, heavy=True)
def sum_wide_rows(lib: Backend, cfg: Config) -> Stats:
    """sum(axis=1) of 4096 rows of 65536 float32 (a neighbour of the reduction rows: fewer rows than resident
    warps, each long); >= 1.0x peers, >= 0.85x copy."""
    x = cfg.host_random(WIDE[0] * WIDE[1], F32, keep=True).reshape(WIDE)
    a = _dev(lib, x)
    fn = (lambda: lib.module.sum(a, dim=1)) if _is_torch(lib) else (lambda: lib.module.sum(a, axis=1))  # noqa: E731
    if cfg.first_round:
        _check(cfg, _host(lib, fn())[:64], x[:64].astype(np.float64).sum(axis=1), "sum(axis=1)", atol=0.5)
    return time_gpu(fn, lib, **_reps(cfg))


@case("mean_axis02_4096x4096x16_f32", nbytes=int(np.prod(SHAPE3)) * 4 + SHAPE3[1] * 4, target=TARGETS, heavy=True)
def mean_axis02(lib: Backend, cfg: Config) -> Stats:
    """mean(axis=(0, 2)) of a 4096 x 4096 x 16 float32 array (non-adjacent axes); >= 1.0x peers, >= 0.85x copy."""
    x = cfg.host_random(int(np.prod(SHAPE3)), F32, keep=True).reshape(SHAPE3)
    a = _dev(lib, x)
    if _is_torch(lib):
        fn = lambda: lib.module.mean(a, dim=(0, 2))  # noqa: E731
    else:
        fn = lambda: lib.module.mean(a, axis=(0, 2))  # noqa: E731
    if cfg.first_round:
        _check(cfg, _host(lib, fn())[:64], x[:, :64].astype(np.float64).mean(axis=(0, 2)), "mean(axis=(0, 2))")
    return time_gpu(fn, lib, **_reps(cfg))


@case("sum_axis2_4096x4096x16_f32", nbytes=int(np.prod(SHAPE3)) * 4 + SHAPE3[0] * SHAPE3[1] * 4, target=TARGETS,
      heavy=True)
def sum_axis2(lib: Backend, cfg: Config) -> Stats:
    """sum(axis=2) of a 4096 x 4096 x 16 float32 array (2**24 rows of 16: a neighbour of mean(axis=(0, 2)));
    >= 1.0x peers, >= 0.85x copy."""
    x = cfg.host_random(int(np.prod(SHAPE3)), F32, keep=True).reshape(SHAPE3)
    a = _dev(lib, x)
    fn = (lambda: lib.module.sum(a, dim=2)) if _is_torch(lib) else (lambda: lib.module.sum(a, axis=2))  # noqa: E731
    if cfg.first_round:
        _check(cfg, _host(lib, fn())[:64], x[:64].astype(np.float64).sum(axis=2), "sum(axis=2)", rtol=1e-4)
    return time_gpu(fn, lib, **_reps(cfg))


@case("var_axis0_16384^2_f32", nbytes=SIDE_SCAN * SIDE_SCAN * 4 + SIDE_SCAN * 4, target=TARGETS, heavy=True)
def var_axis0(lib: Backend, cfg: Config) -> Stats:
    """var(axis=0) of 16384 x 16384 float32 (a neighbour of var: Welford's step in vector columns);
    >= 1.0x peers, >= 0.85x copy."""
    x = cfg.host_random(SIDE_SCAN * SIDE_SCAN, F32, keep=True).reshape(SIDE_SCAN, SIDE_SCAN)
    a = _dev(lib, x)
    if _is_torch(lib):
        fn = lambda: lib.module.var(a, dim=0, unbiased=False)  # noqa: E731
    else:
        fn = lambda: lib.module.var(a, axis=0)  # noqa: E731
    if cfg.first_round:
        _check(cfg, _host(lib, fn())[:64], x[:, :64].astype(np.float64).var(axis=0), "var(axis=0)", rtol=1e-3)
    return time_gpu(fn, lib, **_reps(cfg))


@case("sum_axis0_16384^2_f16", nbytes=SIDE_SCAN * SIDE_SCAN * 2 + SIDE_SCAN * 2, target=TARGETS, heavy=True)
def sum_axis0_f16(lib: Backend, cfg: Config) -> Stats:
    """sum(axis=0) of 16384 x 16384 float16 (a neighbour of sum(axis=0): 2-byte columns, eight outputs a vector);
    >= 1.0x peers, >= 0.85x copy."""
    x = cfg.host_random(SIDE_SCAN * SIDE_SCAN, F32, keep=True).reshape(SIDE_SCAN, SIDE_SCAN).astype(np.float16)
    a = _dev(lib, x)
    fn = (lambda: lib.module.sum(a, dim=0)) if _is_torch(lib) else (lambda: lib.module.sum(a, axis=0))  # noqa: E731
    if cfg.first_round:
        got = np.asarray(_host(lib, fn())[:64], dtype=np.float64)
        _check(cfg, got, x[:, :64].astype(np.float64).sum(axis=0), "sum(axis=0) float16", rtol=1e-2, atol=0.5)
    return time_gpu(fn, lib, **_reps(cfg))


def fused_dot_rows(x: Any, y: Any) -> Any:
    """The fused kernel of fused_sum_xy_axis-1 (one pass: 2 reads, one value per row written)."""
    return (x * y).sum(axis=-1)




@case("fused_sum_xy_axis-1_8192^2_f32", nbytes=2 * SIDE_NORM * SIDE_NORM * 4 + SIDE_NORM * 4, target=TARGETS,
      heavy=True)
def fused_sum_xy(lib: Backend, cfg: Config) -> Stats:
    """fuse(sum(x * y, axis=-1)) of two 8192 x 8192 float32 (torch: einsum 'ij,ij->i'); >= 1.0x peers, >= 0.85x."""
    x = cfg.host_random(SIDE_NORM * SIDE_NORM, F32, keep=True).reshape(SIDE_NORM, SIDE_NORM)
    a = _dev(lib, x)
    b = a * 0.5
    if _is_torch(lib):
        fn = lambda: lib.module.einsum("ij,ij->i", a, b)  # noqa: E731
    else:
        fused = fused_of(lib, fused_dot_rows)
        fn = lambda: fused(a, b)  # noqa: E731
    if cfg.first_round:
        want = (x[:64].astype(np.float64) * (x[:64].astype(np.float64) * 0.5)).sum(axis=-1)
        _check(cfg, _host(lib, fn())[:64], want, "fused sum(x * y, axis=-1)", rtol=1e-3)
    return time_gpu(fn, lib, **_reps(cfg))


@case("cumsum_axis1_16384^2_f32", nbytes=2 * SIDE_SCAN * SIDE_SCAN * 4, target=TARGETS, heavy=True)
def cumsum_axis1(lib: Backend, cfg: Config) -> Stats:
    """cumsum(axis=1) of a 16384 x 16384 float32 array (row scans: one read, one write); >= 1.0x peers, >= 0.85x."""
    x = cfg.host_random(SIDE_SCAN * SIDE_SCAN, F32, keep=True).reshape(SIDE_SCAN, SIDE_SCAN)
    a = _dev(lib, x)
    fn = (lambda: lib.module.cumsum(a, dim=1)) if _is_torch(lib) else (lambda: lib.module.cumsum(a, axis=1))
    if cfg.first_round:
        _check(cfg, _host(lib, fn())[:8], np.cumsum(x[:8].astype(np.float64), axis=1), "cumsum(axis=1)",
               rtol=1e-3, atol=1e-1)
    return time_gpu(fn, lib, **_reps(cfg))


@case("diff_2^27_f32", nbytes=N_FLAT * 4 + (N_FLAT - 1) * 4, target=TARGETS, heavy=True)
def diff_flat(lib: Backend, cfg: Config) -> Stats:
    """diff of 2**27 float32 (one read, one write); >= 1.0x the better peer and >= 0.85x copy GB/s."""
    a, x = _flat(lib, cfg)
    fn = lambda: lib.module.diff(a)  # noqa: E731
    if cfg.first_round:
        _check(cfg, _host(lib, fn())[:4096], np.diff(x[:4097]), "diff", rtol=1e-6, atol=1e-6)
    return time_gpu(fn, lib, **_reps(cfg))
