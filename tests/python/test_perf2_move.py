"""The row-copy paths of issue 23 (row gather/scatter, batched join, tile/repeat row copies) against NumPy.

Sizes are chosen so that the new kernels run (rows of >= 64 bytes for gathers, >= 512 for joins, >= 1 KiB for tile
and repeat rows), with offsets that force every vector width, and row counts past one tile and one launch's table.
"""
import numpy
import pytest

import cuarray as cp
from _arrays import random_array

gpu = pytest.mark.gpu

DTYPES = [numpy.dtype(t) for t in ("bool", "int8", "int16", "float16", "float32", "int64", "complex64",
                                   "complex128")]


def _rand(shape, dtype, seed=0):
    return random_array(numpy, shape, dtype, seed)


def _eq(got, want):
    got = got.get() if hasattr(got, "get") else got
    assert got.dtype == want.dtype and got.shape == want.shape
    numpy.testing.assert_array_equal(got, want)


# ---- row gather / scatter --------------------------------------------------------------------------------------

@gpu
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("cols", [64, 100, 4099])
def test_take_rows(dtype, cols):
    x = _rand((300, cols), dtype)
    idx = numpy.random.default_rng(1).integers(-300, 300, 500)
    a = cp.asarray(x)
    _eq(cp.take(a, cp.asarray(idx), axis=0), numpy.take(x, idx, axis=0))
    _eq(a[cp.asarray(idx)], x[idx])
    _eq(a[cp.asarray(idx), :], x[idx, :])
    _eq(a[cp.asarray(idx.astype(numpy.int32))], x[idx])


@gpu
@pytest.mark.parametrize("offset", [0, 1, 2, 3, 4, 8])
def test_take_rows_misaligned(offset):
    # A view starting `offset` bytes into the buffer and rows of odd byte lengths force the narrower vectors.
    flat = _rand(offset + 97 * 131, numpy.int8)
    x = flat[offset:].reshape(97, 131)
    a = cp.asarray(flat)[offset:].reshape(97, 131)
    idx = numpy.array([0, 96, -1, 5, 5, 40])
    _eq(cp.take(a, cp.asarray(idx), axis=0), numpy.take(x, idx, axis=0))
    y = _rand((1000, 33), numpy.float16)
    _eq(cp.asarray(y)[cp.asarray(idx)], y[idx])


@gpu
def test_take_rows_3d_and_views():
    x = _rand((50, 8, 32), numpy.float32)
    idx = numpy.array([[3, -2], [49, 0]])
    a = cp.asarray(x)
    _eq(cp.take(a, cp.asarray(idx), axis=0), numpy.take(x, idx, axis=0))
    # Rows of a sliced (padded) array and of negative-stride rows (the element loop) agree too.
    _eq(a[:, 2:6][cp.asarray(idx)], x[:, 2:6][idx])
    _eq(a[::-1][cp.asarray(idx)], x[::-1][idx])
    _eq(a[:, :, ::-1][cp.asarray(idx)], x[:, :, ::-1][idx])
    _eq(cp.take(a, cp.asarray(numpy.zeros(0, numpy.int64)), axis=0), numpy.take(x, numpy.zeros(0, int), axis=0))


@gpu
@pytest.mark.parametrize("mode", ["clip", "wrap"])
def test_take_rows_modes(mode):
    x = _rand((40, 64), numpy.float64)
    idx = numpy.array([-100, -41, -1, 0, 39, 40, 1000])
    _eq(cp.take(cp.asarray(x), cp.asarray(idx), axis=0, mode=mode), numpy.take(x, idx, axis=0, mode=mode))


@gpu
def test_take_rows_raise():
    a = cp.asarray(_rand((40, 64), numpy.float32))
    with pytest.raises(IndexError):
        cp.take(a, cp.asarray([0, 40]), axis=0, mode="raise")
    with pytest.raises(IndexError):
        cp.take(a, cp.asarray([-41]), axis=0, mode="raise")


@gpu
def test_compress_rows():
    x = _rand((64, 40), numpy.complex64)
    cond = numpy.random.default_rng(2).integers(0, 2, 64).astype(bool)
    _eq(cp.compress(cp.asarray(cond), cp.asarray(x), axis=0), numpy.compress(cond, x, axis=0))


@gpu
@pytest.mark.parametrize("dtype", [numpy.bool_, numpy.float16, numpy.float32, numpy.complex128])
def test_scatter_rows(dtype):
    x = _rand((200, 96), dtype)
    idx = numpy.random.default_rng(3).permutation(200)[:70] - 100  # unique, some negative
    v = _rand((70, 96), dtype, seed=5)
    a = cp.asarray(x)
    a[cp.asarray(idx)] = cp.asarray(v)
    want = x.copy()
    want[idx] = v
    _eq(a, want)
    # One row broadcast to every indexed row, and a scalar (the element loop).
    row = _rand((96,), dtype, seed=6)
    a[cp.asarray(idx)] = cp.asarray(row)
    want[idx] = row
    _eq(a, want)
    a[cp.asarray(idx[:3])] = 1
    want[idx[:3]] = 1
    _eq(a, want)


# ---- batched join ----------------------------------------------------------------------------------------------

@gpu
@pytest.mark.parametrize("dtype", DTYPES)
def test_concatenate_many(dtype):
    xs = [_rand((n,), dtype, seed=n) for n in [1000, 0, 7, 4097, 300, 1]]
    _eq(cp.concatenate([cp.asarray(x) for x in xs]), numpy.concatenate(xs))
    ys = [_rand((128, 8), dtype, seed=k) for k in range(70)]  # more inputs than one launch's table
    _eq(cp.stack([cp.asarray(y) for y in ys]), numpy.stack(ys))
    _eq(cp.stack([cp.asarray(y) for y in ys], axis=1), numpy.stack(ys, axis=1))


@gpu
def test_concatenate_axes_and_layouts():
    xs = [_rand((6, 300, n), numpy.float32, seed=n) for n in (130, 129, 200)]
    ds = [cp.asarray(x) for x in xs]
    _eq(cp.concatenate(ds, axis=2), numpy.concatenate(xs, axis=2))
    ys = [_rand((6, n, 300), numpy.int16, seed=n) for n in (3, 1, 40)]
    _eq(cp.concatenate([cp.asarray(y) for y in ys], axis=1), numpy.concatenate(ys, axis=1))
    _eq(cp.concatenate([cp.asarray(y) for y in ys], axis=-2), numpy.concatenate(ys, axis=-2))
    # Misaligned views, non-contiguous and mixed-dtype inputs.
    flat = _rand(5001, numpy.int8)
    a, b = cp.asarray(flat)[1:], cp.asarray(flat)[3:]
    _eq(cp.concatenate([a, b, a]), numpy.concatenate([flat[1:], flat[3:], flat[1:]]))
    z = _rand((300, 200), numpy.float64)
    _eq(cp.concatenate([cp.asarray(z)[:, ::-1], cp.asarray(z).T[:, :200]]),
        numpy.concatenate([z[:, ::-1], z.T[:, :200]]))
    _eq(cp.concatenate([cp.asarray(z), cp.asarray(z.astype(numpy.float32))]),
        numpy.concatenate([z, z.astype(numpy.float32)]))
    ws = [_rand((200, 300), numpy.float32, seed=k) for k in range(3)]
    _eq(cp.hstack([cp.asarray(w) for w in ws]), numpy.hstack(ws))
    _eq(cp.vstack([cp.asarray(w) for w in ws]), numpy.vstack(ws))
    _eq(cp.column_stack([cp.asarray(w) for w in ws]), numpy.column_stack(ws))
    out = cp.empty((600, 300), numpy.float32)
    cp.concatenate([cp.asarray(w) for w in ws], out=out)
    _eq(out, numpy.concatenate(ws))


@gpu
def test_concatenate_long_rows():
    # Rows longer than one block's 16 KiB tile.
    xs = [_rand((3, 9000), numpy.float32, seed=k) for k in range(3)]
    _eq(cp.concatenate([cp.asarray(x) for x in xs], axis=1), numpy.concatenate(xs, axis=1))


# ---- tile and repeat -------------------------------------------------------------------------------------------

@gpu
@pytest.mark.parametrize("dtype", DTYPES)
def test_tile_rows(dtype):
    x = _rand((30, 70), dtype)
    a = cp.asarray(x)
    for reps in [(2, 2), (3,), (2, 1, 3), (1, 5), (4, 1), (0, 2)]:
        _eq(cp.tile(a, reps), numpy.tile(x, reps))
    _eq(cp.tile(a[:, ::-1], (2, 2)), numpy.tile(x[:, ::-1], (2, 2)))
    _eq(cp.tile(a[:, 1:], (2, 2)), numpy.tile(x[:, 1:], (2, 2)))
    big = _rand((2, 5000), dtype)
    _eq(cp.tile(cp.asarray(big), (3, 2)), numpy.tile(big, (3, 2)))


@gpu
@pytest.mark.parametrize("dtype", DTYPES)
def test_repeat_paths(dtype):
    x = _rand((20, 90), dtype)
    a = cp.asarray(x)
    for r in [0, 1, 3, 4, 8]:
        _eq(cp.repeat(a, r), numpy.repeat(x, r))
        _eq(cp.repeat(a, r, axis=1), numpy.repeat(x, r, axis=1))
        _eq(cp.repeat(a, r, axis=0), numpy.repeat(x, r, axis=0))
        _eq(cp.repeat(a, r, axis=-1), numpy.repeat(x, r, axis=-1))
    _eq(cp.repeat(a[:, ::-1], 3, axis=1), numpy.repeat(x[:, ::-1], 3, axis=1))
    _eq(cp.repeat(a.T, 4, axis=1), numpy.repeat(x.T, 4, axis=1))
    _eq(cp.repeat(a[:, 1:], 4), numpy.repeat(x[:, 1:], 4))
    wide = _rand((6, 3000), dtype)
    _eq(cp.repeat(cp.asarray(wide), 3, axis=0), numpy.repeat(wide, 3, axis=0))
    _eq(cp.repeat(cp.asarray(wide[:2]), 100), numpy.repeat(wide[:2], 100))
    counts = numpy.arange(20) % 3
    _eq(cp.repeat(a, counts.tolist(), axis=0), numpy.repeat(x, counts, axis=0))
    _eq(cp.repeat(cp.asarray(numpy.array(x[0, 0])), 5), numpy.repeat(x[0, 0], 5))


@gpu
def test_repeat_misaligned_output_vectors():
    flat = _rand(1001, numpy.int8)
    _eq(cp.repeat(cp.asarray(flat)[1:], 16), numpy.repeat(flat[1:], 16))
    _eq(cp.repeat(cp.asarray(flat)[1:], 5), numpy.repeat(flat[1:], 5))


@gpu
def test_repeat_and_take_large():
    # Over 2**31 output elements: 64-bit offsets in the new kernels (skipped without enough free memory).
    free, _ = cp.cuda.runtime.memGetInfo()
    n = (1 << 31) + 64
    if free < 3 * n:
        pytest.skip("not enough device memory")
    src = cp.zeros(n // 2, dtype=cp.int8)
    src[-2:] = cp.asarray(numpy.array([5, 7], numpy.int8))
    r = cp.repeat(src, 2)
    assert r.size == 2 * (n // 2)
    numpy.testing.assert_array_equal(r[-6:].get(), numpy.array([0, 0, 5, 5, 7, 7], numpy.int8))
    del r
    rows = src[: (n // 2) // 1024 * 1024].reshape(-1, 1024)
    t = cp.take(rows, cp.asarray([-1, 0]), axis=0)
    numpy.testing.assert_array_equal(t.get()[0], rows[-1].get())


# ---- no GPU ----------------------------------------------------------------------------------------------------

def test_benchmark_cases_listed():
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    out = subprocess.run([sys.executable, str(root / "benchmarks" / "run.py"), "--list"], capture_output=True,
                         text=True, check=True).stdout
    for name in ("take_axis0_65536x256_f32", "concatenate_64x2^20_f32", "stack_64x2^20_f32", "tile_2x2_4096^2_f32",
                 "repeat_4_2^24_f32", "broadcast_add_8192x1_1x8192_f32"):
        assert name in out
