"""Index-function benchmarks (issue 5): choose over many choices, select, tril, triu_indices and
ravel_multi_index / unravel_index, against CuPy and PyTorch where it has the function.

Targets (ratios of median times in the same run):
  choose of 2**22 int64 indices over 16 float32 choices   >= 1.0x CuPy (one pass, no stacked copy of the choices)
  tril of a 4096 x 4096 float32 matrix                     >= 1.0x CuPy
  triu_indices(4096)                                       >= 1.0x CuPy (no mask, no nonzero, no synchronisation)
"""

from __future__ import annotations

import numpy as np

from common import Backend, Config, Skip, Stats, Target, case, time_gpu
from common import is_torch as _is_torch, to_device as _dev, to_host as _host

F32 = np.float32
CHOOSE_N, CHOOSE_K = 1 << 22, 16
SELECT_N, SELECT_K = 1 << 24, 4
TRI_N = 4096
RAVEL_N = 1 << 24


def _reps(cfg: Config) -> dict[str, int]:
    return {"n_warmup": 3, "n_repeat": cfg.reps(30, 10)}


def _check(cfg: Config, got: np.ndarray, want: np.ndarray, what: str) -> None:
    """Refuse to time a call that computes the wrong values (first round only)."""
    if cfg.first_round and not np.array_equal(got, want):
        raise AssertionError(f"{what}: wrong result")


@case("choose_2^22_x16_f32", nbytes=CHOOSE_N * (8 + 4 + 4), target=Target("cupy", 1.0), key=True)
def choose_many(lib: Backend, cfg: Config) -> Stats:
    """choose(a, 16 choices) with 2**22 int64 indices (torch: stack + gather); GB/s counts index, pick, write."""
    rng = np.random.default_rng(0)
    idx = rng.integers(0, CHOOSE_K, CHOOSE_N)
    hc = [cfg.host_random(CHOOSE_N, F32, seed=s) for s in range(CHOOSE_K)]
    a = _dev(lib, idx)
    cs = [_dev(lib, c) for c in hc]
    if _is_torch(lib):
        t = lib.module
        fn = lambda: t.gather(t.stack(cs), 0, a.unsqueeze(0))[0]  # noqa: E731
    else:
        fn = lambda: lib.module.choose(a, cs)  # noqa: E731
    if cfg.first_round:
        sl = slice(0, 4096)
        _check(cfg, _host(lib, fn())[sl], np.choose(idx[sl], [c[sl] for c in hc]), "choose")
    return time_gpu(fn, lib, **_reps(cfg))


@case("select_2^24_x4_f32", nbytes=SELECT_N * (4 * (1 + 4) + 4))
def select_four(lib: Backend, cfg: Config) -> Stats:
    """select of 4 bool conditions over 4 float32 choices of 2**24 elements (no torch equivalent)."""
    if _is_torch(lib):
        raise Skip("torch has no select")
    x = cfg.host_random(SELECT_N, F32)
    hx = _dev(lib, x)
    conds = [hx < (k + 1) / (SELECT_K + 1) for k in range(SELECT_K)]
    choices = [hx * k for k in range(SELECT_K)]
    fn = lambda: lib.module.select(conds, choices, default=-1.0)  # noqa: E731
    if cfg.first_round:
        want = np.select([x < (k + 1) / (SELECT_K + 1) for k in range(SELECT_K)], [x * F32(k) for k in range(SELECT_K)],
                         -1.0)
        _check(cfg, _host(lib, fn())[:4096], want[:4096], "select")
    return time_gpu(fn, lib, **_reps(cfg))


@case("tril_4096^2_f32", nbytes=2 * TRI_N * TRI_N * 4, target=Target("cupy", 1.0))
def tril_big(lib: Backend, cfg: Config) -> Stats:
    """tril of a 4096 x 4096 float32 matrix (a new array); GB/s counts read + write."""
    h = cfg.host_random(TRI_N * TRI_N, F32).reshape(TRI_N, TRI_N)
    x = _dev(lib, h)
    fn = lambda: lib.module.tril(x, 1)  # noqa: E731
    if cfg.first_round:
        _check(cfg, _host(lib, fn()[:64, :64]), np.tril(h, 1)[:64, :64], "tril")
    return time_gpu(fn, lib, **_reps(cfg))


@case("triu_indices_4096", target=Target("cupy", 1.0))
def triu_indices_big(lib: Backend, cfg: Config) -> Stats:
    """triu_indices(4096, 1) (torch.triu_indices(4096, 4096, 1), one 2 x N tensor)."""
    if _is_torch(lib):
        fn = lambda: lib.module.triu_indices(TRI_N, TRI_N, 1, device="cuda")  # noqa: E731
    else:
        fn = lambda: lib.module.triu_indices(TRI_N, 1)  # noqa: E731
    if cfg.first_round:
        r = fn()
        cols = _host(lib, r[1])
        _check(cfg, cols[:8192], np.triu_indices(TRI_N, 1)[1][:8192], "triu_indices")
    return time_gpu(fn, lib, **_reps(cfg))


@case("ravel_unravel_2^24", nbytes=RAVEL_N * 8 * 6)
def ravel_unravel(lib: Backend, cfg: Config) -> Stats:
    """unravel_index of 2**24 int64 into (256, 256, 256), then ravel_multi_index back (no torch equivalent)."""
    if _is_torch(lib):
        raise Skip("torch has no ravel_multi_index")
    dims = (256, 256, 256)
    h = np.random.default_rng(1).integers(0, 256**3, RAVEL_N)
    x = _dev(lib, h)
    m = lib.module
    fn = lambda: m.ravel_multi_index(m.unravel_index(x, dims), dims)  # noqa: E731
    if cfg.first_round:
        _check(cfg, _host(lib, fn())[:4096], h[:4096], "ravel(unravel)")
    return time_gpu(fn, lib, **_reps(cfg))
