"""Array manipulation benchmarks (issue 5): the tiled transposing copy, concatenate, pad, and basic slicing.

Targets (judged in common.judge_targets against other cases of the same run):
  x.T.copy() of 16384 x 16384 float32   >= 0.8x the copy GB/s of bench_foundation's d2d_copy_1GiB (read + write)
  a[1:] on a small array                 no slower than CuPy (its ~1.35 µs per call)
  pad, x[idx] gather                     no slower than CuPy
"""

from __future__ import annotations

from typing import Any

import numpy as np

from common import Backend, BandwidthTarget, Config, Stats, Target, case, time_gpu, time_host_loop
from common import is_torch as _is_torch, to_device as _dev, to_host as _host

F32 = np.float32
T_N = 16384  # x.T.copy() of T_N x T_N float32 (1 GiB)
CAT_N = 1 << 27  # concatenate of two CAT_N float32 arrays
PAD_N, PAD_W = 8192, 16  # pad of a PAD_N x PAD_N float32 array by PAD_W on every side
GATHER_SRC, GATHER_IDX = 1 << 28, 1 << 26  # x[idx]: 2**26 random int64 indices into 2**28 float32
TRANSPOSE_FRACTION = 0.8


def _check(cfg: Config, got: np.ndarray, want: np.ndarray, what: str) -> None:
    """Refuse to time a call that computes the wrong values (first round only)."""
    if cfg.first_round and not np.array_equal(got, want):
        raise AssertionError(f"{what}: wrong result")


def _reps(cfg: Config) -> dict[str, int]:
    return {"n_warmup": 3, "n_repeat": cfg.reps(30, 10)}


@case("transpose_copy_16384^2_f32", nbytes=2 * T_N * T_N * 4, target=BandwidthTarget(TRANSPOSE_FRACTION),
      heavy=True, key=True)
def transpose_copy(lib: Backend, cfg: Config) -> Stats:
    """x.T.copy() of a 16384 x 16384 float32 array (torch: x.t().contiguous()); GB/s counts read + write."""
    host = cfg.host_random(T_N * T_N).reshape(T_N, T_N)
    x = _dev(lib, host)
    fn = (lambda: x.t().contiguous()) if _is_torch(lib) else (lambda: x.T.copy())
    if cfg.first_round:
        r = fn()
        got = _host(lib, r[:64, :64] if not _is_torch(lib) else r[:64, :64])
        _check(cfg, got, host.T[:64, :64], "x.T.copy()")
        del r
    return time_gpu(fn, lib, **_reps(cfg))


@case("concatenate_2x2^27_f32", nbytes=2 * 2 * CAT_N * 4, heavy=True)
def concatenate_big(lib: Backend, cfg: Config) -> Stats:
    """concatenate((a, b)) of two 2**27 float32 arrays (torch.cat); GB/s counts read + write."""
    ha, hb = cfg.host_random(CAT_N), cfg.host_random(CAT_N, seed=1)
    a, b = _dev(lib, ha), _dev(lib, hb)
    fn = (lambda: lib.module.cat((a, b))) if _is_torch(lib) else (lambda: lib.module.concatenate((a, b)))
    if cfg.first_round:
        r = fn()
        _check(cfg, _host(lib, r[CAT_N - 8:CAT_N + 8]), np.concatenate((ha[-8:], hb[:8])), "concatenate")
        del r
    return time_gpu(fn, lib, **_reps(cfg))


@case("pad_8192^2_by16_f32", nbytes=(PAD_N * PAD_N + (PAD_N + 2 * PAD_W) ** 2) * 4, heavy=True,
      target=Target("cupy", 1.0))
def pad_constant(lib: Backend, cfg: Config) -> Stats:
    """pad(x, 16) in constant mode of an 8192 x 8192 float32 array (torch.nn.functional.pad); GB/s read + write."""
    host = cfg.host_random(PAD_N * PAD_N).reshape(PAD_N, PAD_N)
    x = _dev(lib, host)
    if _is_torch(lib):
        import torch.nn.functional as tf

        def fn() -> Any:
            return tf.pad(x, (PAD_W, PAD_W, PAD_W, PAD_W))
    else:
        def fn() -> Any:
            return lib.module.pad(x, PAD_W)
    if cfg.first_round:
        r = fn()
        _check(cfg, _host(lib, r[:40, :40]), np.pad(host[:24, :24], ((PAD_W, 0), (PAD_W, 0))), "pad")
        del r
    return time_gpu(fn, lib, **_reps(cfg))


@case("gather_x[idx]_2^26_of_2^28_f32", nbytes=GATHER_IDX * (8 + 4 + 4), heavy=True, target=Target("cupy", 1.0),
      key=True)
def gather(lib: Backend, cfg: Config) -> Stats:
    """x[idx] of 2**26 random int64 indices into 2**28 float32; GB/s counts the index and output bytes and one
    4-byte element read per index (each random read actually moves a 32-byte sector)."""
    rng = np.random.default_rng(7)
    host_idx = rng.integers(0, GATHER_SRC, GATHER_IDX, dtype=np.int64)
    host_x = cfg.host_random(GATHER_SRC)
    x, idx = _dev(lib, host_x), _dev(lib, host_idx)
    fn = lambda: x[idx]  # noqa: E731 - the same expression in every library
    if cfg.first_round:
        _check(cfg, _host(lib, fn()[:1000]), host_x[host_idx[:1000]], "x[idx]")
    return time_gpu(fn, lib, **_reps(cfg))


@case("slice_a[1:]_small", target=Target("cupy", 1.0), key=True)
def slice_small(lib: Backend, cfg: Config) -> Stats:
    """Per-call cost of the basic slice a[1:] of a 1000-element float32 array (a view: no kernel)."""
    a = _dev(lib, cfg.host_random(1000))
    if cfg.first_round:
        _check(cfg, _host(lib, a[1:]), _host(lib, a)[1:], "a[1:]")
    return time_host_loop(lambda: a[1:], lib, n_loop=20000 if not cfg.quick else 5000, n_repeat=cfg.reps(15, 7))
