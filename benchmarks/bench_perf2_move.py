"""Data-movement benchmarks of issue 23 (performance round two): row gather, many-input join, tile, repeat, broadcast.

Targets: each at least as fast as both CuPy and PyTorch (>= 1.0x the better of the two) and >= 0.85x the device's
copy bandwidth of the same run (bytes read + bytes written that the operation must move; d2d_copy_1GiB).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from common import Backend, BandwidthTarget, Config, Stats, Target, case, time_gpu
from common import is_torch as _is_torch, to_device as _dev, to_host as _host

F32 = np.float32
TAKE_ROWS, TAKE_COLS = 65536, 256  # take(x, rows, axis=0): 65536 random rows of a (65536, 256) float32 array
CAT_K, CAT_N = 64, 1 << 20  # concatenate / stack of 64 arrays of 2**20 float32
TILE_N = 4096  # tile((2, 2)) of a 4096 x 4096 float32 array
REP_N, REP_R = 1 << 24, 4  # repeat(4) of 2**24 float32
BC_N = 8192  # (8192, 1) + (1, 8192) float32
TARGETS = (Target("cupy", 1.0), Target("torch", 1.0), BandwidthTarget(0.85))


def _check(cfg: Config, got: np.ndarray, want: np.ndarray, what: str) -> None:
    """Refuse to time a call that computes the wrong values (first round only)."""
    if cfg.first_round and not np.array_equal(got, want):
        raise AssertionError(f"{what}: wrong result")


def _reps(cfg: Config) -> dict[str, int]:
    return {"n_warmup": 3, "n_repeat": cfg.reps(30, 10)}


@case("take_axis0_65536x256_f32", nbytes=TAKE_ROWS * 8 + 2 * TAKE_ROWS * TAKE_COLS * 4, target=TARGETS, key=True)
def take_axis0(lib: Backend, cfg: Config) -> Stats:
    """take(x, rows, axis=0) of a (65536, 256) float32 array, 65536 random int64 rows (torch.index_select)."""
    host = cfg.host_random(TAKE_ROWS * TAKE_COLS).reshape(TAKE_ROWS, TAKE_COLS)
    hidx = np.random.default_rng(3).integers(0, TAKE_ROWS, TAKE_ROWS, dtype=np.int64)
    x, idx = _dev(lib, host), _dev(lib, hidx)
    if _is_torch(lib):
        fn = lambda: lib.module.index_select(x, 0, idx)  # noqa: E731
    else:
        fn = lambda: lib.module.take(x, idx, axis=0)  # noqa: E731
    if cfg.first_round:
        _check(cfg, _host(lib, fn()[:64]), host[hidx[:64]], "take(axis=0)")
    return time_gpu(fn, lib, **_reps(cfg))


def _parts(lib: Backend, cfg: Config) -> tuple[list[Any], list[np.ndarray]]:
    hosts = [cfg.host_random(CAT_N, seed=k) for k in range(CAT_K)]
    return [_dev(lib, h) for h in hosts], hosts


@case("concatenate_64x2^20_f32", nbytes=2 * CAT_K * CAT_N * 4, target=TARGETS, key=True)
def concatenate_many(lib: Backend, cfg: Config) -> Stats:
    """concatenate of 64 arrays of 2**20 float32 (torch.cat); GB/s counts read + write."""
    xs, hosts = _parts(lib, cfg)
    fn = (lambda: lib.module.cat(xs)) if _is_torch(lib) else (lambda: lib.module.concatenate(xs))  # noqa: E731
    if cfg.first_round:
        r = fn()
        _check(cfg, _host(lib, r[CAT_N - 4:CAT_N + 4]), np.concatenate((hosts[0][-4:], hosts[1][:4])), "concatenate")
        _check(cfg, _host(lib, r[-4:]), hosts[-1][-4:], "concatenate (last)")
        del r
    return time_gpu(fn, lib, **_reps(cfg))


@case("stack_64x2^20_f32", nbytes=2 * CAT_K * CAT_N * 4, target=TARGETS, key=True)
def stack_many(lib: Backend, cfg: Config) -> Stats:
    """stack of 64 arrays of 2**20 float32 along a new first axis (torch.stack); GB/s counts read + write."""
    xs, hosts = _parts(lib, cfg)
    fn = lambda: lib.module.stack(xs)  # noqa: E731
    if cfg.first_round:
        r = fn()
        _check(cfg, _host(lib, r[:, :4]), np.stack([h[:4] for h in hosts]), "stack")
        del r
    return time_gpu(fn, lib, **_reps(cfg))


@case("tile_2x2_4096^2_f32", nbytes=5 * TILE_N * TILE_N * 4, target=TARGETS, key=True)
def tile_2x2(lib: Backend, cfg: Config) -> Stats:
    """tile(x, (2, 2)) of a 4096 x 4096 float32 array (torch: x.repeat(2, 2)); GB/s counts read + 4x write."""
    host = cfg.host_random(TILE_N * TILE_N).reshape(TILE_N, TILE_N)
    x = _dev(lib, host)
    fn = (lambda: x.repeat(2, 2)) if _is_torch(lib) else (lambda: lib.module.tile(x, (2, 2)))  # noqa: E731
    if cfg.first_round:
        r = fn()
        _check(cfg, _host(lib, r[TILE_N - 4:TILE_N + 4, TILE_N - 4:TILE_N + 4]),
               np.tile(host, (2, 2))[TILE_N - 4:TILE_N + 4, TILE_N - 4:TILE_N + 4], "tile")
        del r
    return time_gpu(fn, lib, **_reps(cfg))


@case("repeat_4_2^24_f32", nbytes=(1 + REP_R) * REP_N * 4, target=TARGETS, key=True)
def repeat_4(lib: Backend, cfg: Config) -> Stats:
    """repeat(x, 4) of 2**24 float32 (torch.repeat_interleave); GB/s counts read + 4x write."""
    host = cfg.host_random(REP_N)
    x = _dev(lib, host)
    if _is_torch(lib):
        fn = lambda: lib.module.repeat_interleave(x, REP_R)  # noqa: E731
    else:
        fn = lambda: lib.module.repeat(x, REP_R)  # noqa: E731
    if cfg.first_round:
        _check(cfg, _host(lib, fn()[:64]), np.repeat(host[:16], REP_R), "repeat")
    return time_gpu(fn, lib, **_reps(cfg))


@case("broadcast_add_8192x1_1x8192_f32", nbytes=(2 * BC_N + BC_N * BC_N) * 4, target=TARGETS, key=True)
def broadcast_add(lib: Backend, cfg: Config) -> Stats:
    """(8192, 1) + (1, 8192) float32 to an 8192 x 8192 result; GB/s counts the inputs and the result."""
    ha = cfg.host_random(BC_N).reshape(BC_N, 1)
    hb = cfg.host_random(BC_N, seed=1).reshape(1, BC_N)
    a, b = _dev(lib, ha), _dev(lib, hb)
    fn = lambda: a + b  # noqa: E731
    if cfg.first_round:
        _check(cfg, _host(lib, fn()[:8, :8]), (ha + hb)[:8, :8], "broadcast add")
    return time_gpu(fn, lib, **_reps(cfg))


ROWS_N = 8192  # dst[::2] = src: a (4096, 8192) float32 source into every other row of an (8192, 8192) array


@case("assign_rows_strided_4096x8192_f32", nbytes=2 * (ROWS_N // 2) * ROWS_N * 4, target=TARGETS, key=True)
def assign_rows_strided(lib: Backend, cfg: Config) -> Stats:
    """dst[::2] = src, (4096, 8192) float32 into an (8192, 8192) array: a strided assignment whose rows are
    contiguous (Note [copy runs]); GB/s counts read + write."""
    host = cfg.host_random((ROWS_N // 2) * ROWS_N).reshape(ROWS_N // 2, ROWS_N)
    src = _dev(lib, host)
    dst = _dev(lib, np.zeros((ROWS_N, ROWS_N), F32))

    def fn() -> None:
        dst[::2] = src

    if cfg.first_round:
        fn()
        _check(cfg, _host(lib, dst[2:4, :8]), np.stack([host[1, :8], np.zeros(8, F32)]), "dst[::2] = src")
    return time_gpu(fn, lib, **_reps(cfg))


BYTE_ROWS, BYTE_COLS = 8192, 16384  # x[::2].copy() of an (8192, 16384) uint8 array: 4096 rows of 16 KiB


@case("copy_rows_strided_8192x16384_u8", nbytes=2 * (BYTE_ROWS // 2) * BYTE_COLS, target=TARGETS)
def copy_rows_strided_u8(lib: Backend, cfg: Config) -> Stats:
    """x[::2].copy() of an (8192, 16384) uint8 array (torch: .clone()): a neighbour of dst[::2] = src whose items
    are single bytes (Note [wide rows]); GB/s counts read + write."""
    host = np.random.default_rng(5).integers(0, 256, (BYTE_ROWS, BYTE_COLS), dtype=np.uint8)
    x = _dev(lib, host)
    fn = (lambda: x[::2].clone()) if _is_torch(lib) else (lambda: x[::2].copy())  # noqa: E731
    if cfg.first_round:
        _check(cfg, _host(lib, fn()[1:3, :8]), host[2:6:2, :8], "x[::2].copy()")
    return time_gpu(fn, lib, **_reps(cfg))


@case("fill_rows_strided_4096x8192_f32", nbytes=(ROWS_N // 2) * ROWS_N * 4, target=TARGETS)
def fill_rows_strided(lib: Backend, cfg: Config) -> Stats:
    """dst[::2] = 1.5 into every other row of an (8192, 8192) float32 array: the strided fill of the same class
    (Note [wide rows]); GB/s counts the bytes written."""
    dst = _dev(lib, np.zeros((ROWS_N, ROWS_N), F32))

    def fn() -> None:
        dst[::2] = 1.5

    if cfg.first_round:
        fn()
        _check(cfg, _host(lib, dst[2:4, :8]), np.stack([np.full(8, 1.5, F32), np.zeros(8, F32)]), "dst[::2] = 1.5")
    return time_gpu(fn, lib, **_reps(cfg))
