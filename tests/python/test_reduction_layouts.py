"""The reduction engine's row layouts against NumPy (src/engine/reduction.cpp): 16-byte vector rows (Note [vector
rows]) for every storage size, with tails, misaligned and strided rows that keep the element loop, split ranges
and several inputs; narrow groups for many short rows; and the two-pass form of a short innermost reduced run
between kept axes (Note [inner reduced run]); and 16-byte vector columns, several outputs a thread (Note [vector
columns]), with the widths, offsets and strides that keep the element loop."""
import numpy
import pytest

import cuarray as cp

gpu = pytest.mark.gpu

DTYPES = ["bool", "int8", "uint8", "int16", "float16", "int32", "float32", "int64", "float64", "complex64",
          "complex128"]
# Row lengths around the vector sizes (2, 4, 8 and 16 elements) and the unrolled loop (4 vectors a lane).
ROWS = [1, 3, 7, 8, 15, 16, 17, 64, 100, 1000, 4099]


def _rng():
    return numpy.random.default_rng(23)


def _data(rng, shape, dtype):
    if dtype == "bool":
        return rng.random(shape) < 0.5
    if numpy.dtype(dtype).kind in "iu":
        return rng.integers(0, 5, shape).astype(dtype)
    x = rng.standard_normal(shape)
    if numpy.dtype(dtype).kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dtype)


def _np(x):
    """The NumPy reference's input: float16 summed in float64 (NumPy accumulates float16 in float16 along
    non-contiguous axes, far less exactly than the float32 accumulator under test)."""
    return x.astype(numpy.float64) if x.dtype == numpy.float16 else x


def _close(got, want, dtype):
    got = cp.asnumpy(got)
    kind = numpy.dtype(dtype).kind
    if kind in "biu":
        numpy.testing.assert_array_equal(got, want)
    elif dtype == "float16":
        numpy.testing.assert_allclose(got.astype(numpy.float64), want.astype(numpy.float64), rtol=2e-2, atol=0.5)
    elif dtype in ("float32", "complex64"):
        numpy.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-3)
    else:
        numpy.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-10)


@gpu
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("rows", [5, 3000])  # a block per output; a warp (or narrower group), or a block for long rows
def test_sum_last_axis_every_dtype_and_length(dtype, rows):
    rng = _rng()
    for n in ROWS:
        x = _data(rng, (rows, n), dtype)
        _close(cp.asarray(x).sum(axis=-1), _np(x).sum(axis=-1), dtype)


@gpu
@pytest.mark.parametrize("dtype", ["int8", "float16", "float32", "float64"])
def test_rows_that_cannot_be_vectors(dtype):
    # Misaligned starts and row strides, a non-unit inner stride, a negative one: the element loop, same answers.
    rng = _rng()
    x = _data(rng, (3001, 70), dtype)
    g = cp.asarray(x)
    for sl in [(slice(None), slice(1, None)), (slice(None), slice(3, 67)), (slice(1, None), slice(None)),
               (slice(None), slice(None, None, 2)), (slice(None), slice(None, None, -1)),
               (slice(None, None, 3), slice(None))]:
        _close(g[sl].sum(axis=-1), _np(x)[sl].sum(axis=-1), dtype)
    flat = g.ravel()
    for start in range(0, 5):
        _close(flat[start:].sum(), _np(x).ravel()[start:].sum(), dtype)


@gpu
@pytest.mark.parametrize("shape", [(1, (1 << 22) + 5), (2, 3_000_001), (7, 123_457), ((1 << 20) + 3,)])
def test_split_ranges_stay_whole_vectors(shape):
    # Few long rows: the range splits over blocks in multiples of the vector; then the partials fold.
    rng = _rng()
    x = rng.standard_normal(shape).astype(numpy.float32)
    g = cp.asarray(x)
    numpy.testing.assert_allclose(cp.asnumpy(g.sum(axis=-1)), x.astype(numpy.float64).sum(axis=-1), rtol=1e-4)
    numpy.testing.assert_allclose(cp.asnumpy(g.mean(axis=-1)), x.astype(numpy.float64).mean(axis=-1), rtol=1e-4,
                                  atol=1e-6)
    assert int(cp.argmax(g.ravel())) == int(numpy.argmax(x.ravel()))
    numpy.testing.assert_allclose(cp.asnumpy(cp.linalg.norm(g, axis=-1)),
                                  numpy.linalg.norm(x.astype(numpy.float64), axis=-1), rtol=1e-4)


@gpu
@pytest.mark.parametrize("dtype", ["int8", "float16", "float32", "float64", "int64"])
@pytest.mark.parametrize("n", [7, 16, 33, 1000])
def test_argmax_min_max_ties_and_nans_across_vectors(dtype, n):
    rng = _rng()
    x = rng.integers(0, 3, (2500, n)).astype(dtype)  # many ties: the first index must win
    g = cp.asarray(x)
    numpy.testing.assert_array_equal(cp.asnumpy(cp.argmax(g, axis=-1)), numpy.argmax(x, axis=-1))
    numpy.testing.assert_array_equal(cp.asnumpy(cp.argmin(g, axis=-1)), numpy.argmin(x, axis=-1))
    numpy.testing.assert_array_equal(cp.asnumpy(g.max(axis=-1)), x.max(axis=-1))
    if numpy.dtype(dtype).kind == "f":
        x = x.copy()
        x[::3, n // 2] = numpy.nan
        x[1::7, -1] = numpy.nan
        g = cp.asarray(x)
        numpy.testing.assert_array_equal(cp.asnumpy(g.max(axis=-1)), x.max(axis=-1))
        numpy.testing.assert_array_equal(cp.asnumpy(cp.argmax(g, axis=-1)), numpy.argmax(x, axis=-1))
        numpy.testing.assert_array_equal(cp.asnumpy(cp.nanmin(g, axis=-1)), numpy.nanmin(x, axis=-1))


@gpu
@pytest.mark.parametrize("dtypes", [("float32", "float32"), ("float64", "float64"), ("int16", "int16"),
                                    ("float32", "float64"), ("int8", "int8")])
@pytest.mark.parametrize("n", [5, 64, 1001, 8192])
def test_fused_row_dot_products(dtypes, n):
    rng = _rng()
    x = _data(rng, (300, n), dtypes[0])
    y = _data(rng, (300, n), dtypes[1])
    f = cp.fuse(lambda a, b: (a * b).sum(axis=-1))
    got = f(cp.asarray(x), cp.asarray(y))
    _close(got, (x * y).sum(axis=-1), numpy.result_type(*dtypes).name)
    _close(f(cp.asarray(x)[:, 1:], cp.asarray(y)[:, 1:]), (x[:, 1:] * y[:, 1:]).sum(axis=-1),
           numpy.result_type(*dtypes).name)


@gpu
@pytest.mark.parametrize("n", [1, 15, 16, 17, 100, 5000])
def test_logical_counts_and_moments_along_rows(n):
    rng = _rng()
    b = rng.random((2200, n)) < 0.3
    gb = cp.asarray(b)
    numpy.testing.assert_array_equal(cp.asnumpy(gb.any(axis=-1)), b.any(axis=-1))
    numpy.testing.assert_array_equal(cp.asnumpy(gb.all(axis=-1)), b.all(axis=-1))
    numpy.testing.assert_array_equal(cp.asnumpy(cp.count_nonzero(gb, axis=-1)), numpy.count_nonzero(b, axis=-1))
    x = rng.standard_normal((2200, n))
    gx = cp.asarray(x)
    numpy.testing.assert_allclose(cp.asnumpy(gx.var(axis=-1)), x.var(axis=-1), rtol=1e-9, atol=1e-12)
    numpy.testing.assert_allclose(cp.asnumpy(gx.std(axis=-1, ddof=0)), x.std(axis=-1), rtol=1e-9, atol=1e-12)
    numpy.testing.assert_allclose(cp.asnumpy(cp.nansum(gx, axis=-1)), numpy.nansum(x, axis=-1), rtol=1e-10)
    if n <= 100:  # longer products underflow, in an order-dependent way
        numpy.testing.assert_allclose(cp.asnumpy(gx.prod(axis=-1)), x.prod(axis=-1), rtol=1e-9)


@gpu
@pytest.mark.parametrize("dtype", ["int8", "float16", "float32", "float64", "complex64"])
def test_many_long_rows_take_a_block_each(dtype):
    # Thousands of rows of at least 1024 16-byte vectors (or elements, where the rows cannot be vectors): a
    # block a row (Note [long rows]), with the vector tail, misaligned and strided rows, ties and NaNs.
    rng = _rng()
    n = 1024 * (16 // numpy.dtype(dtype).itemsize) + 3
    x = _data(rng, (2200, n), dtype)
    if numpy.dtype(dtype).kind == "f":
        x[::5, n // 3] = numpy.nan
    g = cp.asarray(x)
    for sl in [(slice(None), slice(None)), (slice(None), slice(1, None)), (slice(None), slice(None, None, -1)),
               (slice(None, None, 2), slice(None)), (slice(None), slice(None, 1030))]:
        _close(g[sl].sum(axis=-1), _np(x)[sl].sum(axis=-1), dtype)
        if dtype != "complex64":
            numpy.testing.assert_array_equal(cp.asnumpy(cp.argmax(g[sl], axis=-1)), numpy.argmax(x[sl], axis=-1))
            numpy.testing.assert_array_equal(cp.asnumpy(g[sl].min(axis=-1)), x[sl].min(axis=-1))
    if dtype in ("float32", "float64"):
        x64 = x.astype(numpy.float64)  # means near 0: compared with float64's, to float32's absolute error
        numpy.testing.assert_allclose(cp.asnumpy(cp.nanmean(g, axis=-1)), numpy.nanmean(x64, axis=-1), rtol=1e-5,
                                      atol=1e-6)
        numpy.testing.assert_allclose(cp.asnumpy(cp.nanvar(g, axis=-1)), numpy.nanvar(x64, axis=-1), rtol=1e-4,
                                      atol=1e-6)


@gpu
@pytest.mark.parametrize("dtype", ["bool", "int8", "float16", "float32", "int64", "float64", "complex128"])
@pytest.mark.parametrize("e", [1, 2, 3, 5, 8, 15, 16, 17, 31, 32, 33])
def test_many_short_rows(dtype, e):
    # Thousands of outputs of a few elements: the group narrows down to one thread per output.
    rng = _rng()
    x = _data(rng, (48, 64, e), dtype)
    g = cp.asarray(x)
    _close(g.sum(axis=2), _np(x).sum(axis=2), dtype)
    if dtype != "complex128":
        numpy.testing.assert_array_equal(cp.asnumpy(g.max(axis=2)), x.max(axis=2))
        numpy.testing.assert_array_equal(cp.asnumpy(cp.argmin(g, axis=2)), numpy.argmin(x, axis=2))


@gpu
@pytest.mark.parametrize("e", [2, 5, 16, 31])
@pytest.mark.parametrize("dtype", ["int8", "float16", "float32", "float64", "complex64"])
def test_inner_reduced_run_between_kept_axes(e, dtype):
    rng = _rng()
    x = _data(rng, (300, 70, e), dtype)
    g = cp.asarray(x)
    r = _np(x)
    _close(g.sum(axis=(0, 2)), r.sum(axis=(0, 2)), dtype)
    if dtype != "int8":
        _close(g.mean(axis=(0, 2)), r.mean(axis=(0, 2)), dtype)
    _close(g.sum(axis=(0, 2), keepdims=True), r.sum(axis=(0, 2), keepdims=True), dtype)
    _close(g[:, ::2, :].sum(axis=(0, 2)), r[:, ::2, :].sum(axis=(0, 2)), dtype)
    if numpy.dtype(dtype).kind != "c":
        numpy.testing.assert_array_equal(cp.asnumpy(g.max(axis=(0, 2))), x.max(axis=(0, 2)))
    # Four dimensions, two kept axes between three reduced ones.
    y = _data(rng, (6, 9, 5, 11, e), dtype)
    _close(cp.asarray(y).sum(axis=(0, 2, 4)), _np(y).sum(axis=(0, 2, 4)), dtype)


@gpu
def test_inner_reduced_run_moments_masks_and_splits():
    rng = _rng()
    x = rng.standard_normal((4096, 40, 16))
    g = cp.asarray(x)
    numpy.testing.assert_allclose(cp.asnumpy(g.var(axis=(0, 2))), x.var(axis=(0, 2)), rtol=1e-9)
    numpy.testing.assert_allclose(cp.asnumpy(g.std(axis=(0, 2), ddof=1)), x.std(axis=(0, 2), ddof=1), rtol=1e-9)
    w = rng.random(x.shape) < 0.5
    numpy.testing.assert_allclose(cp.asnumpy(cp.sum(g, axis=(0, 2), where=cp.asarray(w))),
                                  numpy.sum(x, axis=(0, 2), where=w), rtol=1e-10)
    x[5, 3, 7] = numpy.nan
    g = cp.asarray(x)
    numpy.testing.assert_allclose(cp.asnumpy(cp.nanmean(g, axis=(0, 2))), numpy.nanmean(x, axis=(0, 2)),
                                  rtol=1e-10)
    numpy.testing.assert_array_equal(numpy.isnan(cp.asnumpy(g.sum(axis=(0, 2)))), numpy.isnan(x.sum(axis=(0, 2))))
    # Few kept outputs and long outer axes: the first pass splits its range, the second folds S x E partials.
    z = rng.standard_normal((200_000, 2, 3)).astype(numpy.float32)
    numpy.testing.assert_allclose(cp.asnumpy(cp.asarray(z).sum(axis=(0, 2))),
                                  z.astype(numpy.float64).sum(axis=(0, 2)), rtol=1e-4)
    numpy.testing.assert_allclose(cp.asnumpy(cp.asarray(z).mean(axis=(0, 2))),
                                  z.astype(numpy.float64).mean(axis=(0, 2)), rtol=1e-3, atol=1e-5)


@gpu
def test_vector_rows_with_64_bit_indexing():
    # 2**31 + 64 int8 values in 16 rows: byte offsets past 2**31 take the 64-bit kernel.
    n = ((1 << 31) + 64) // 16
    x = cp.ones((16, n), dtype=cp.int8)
    x[15, -1] = 3
    got = cp.asnumpy(x.sum(axis=-1, dtype=cp.int64))
    want = numpy.full(16, n, dtype=numpy.int64)
    want[15] += 2
    numpy.testing.assert_array_equal(got, want)
    assert int(cp.argmax(x[15])) == n - 1
    del x


@gpu
def test_inner_reduced_run_with_short_outer_axes_keeps_one_pass():
    # Outer reduced axes of 2: the first pass's partials would be half the input, so the one-pass mapping runs.
    rng = _rng()
    x = rng.standard_normal((2, 1 << 20, 16)).astype(numpy.float32)
    g = cp.asarray(x)
    numpy.testing.assert_allclose(cp.asnumpy(g.sum(axis=(0, 2))), x.astype(numpy.float64).sum(axis=(0, 2)),
                                  rtol=1e-4, atol=1e-4)
    numpy.testing.assert_allclose(cp.asnumpy(g.mean(axis=(0, 2))), x.astype(numpy.float64).mean(axis=(0, 2)),
                                  rtol=1e-4, atol=1e-5)


# Widths around the vector (2 to 16 outputs), rows around the unrolled loop (4 elements of 8 lanes).
COL_WIDTHS = [2, 4, 8, 16, 24, 100, 1024, 4100]
COL_ROWS = [1, 3, 17, 33, 5000]


@gpu
@pytest.mark.parametrize("dtype", DTYPES)
def test_sum_first_axis_every_dtype_and_width(dtype):
    rng = _rng()
    for c in COL_WIDTHS:
        for r in COL_ROWS:
            x = _data(rng, (r, c), dtype)
            g = cp.asarray(x)
            _close(g.sum(axis=0), _np(x).sum(axis=0), dtype)
            # Misaligned (an offset of one element), a row offset, and a column stride keep the element loop
            # where they must; every form must agree with NumPy.
            _close(g[:, 1:].sum(axis=0), _np(x)[:, 1:].sum(axis=0), dtype)
            _close(g[1:].sum(axis=0), _np(x)[1:].sum(axis=0), dtype)
            _close(g[:, ::2].sum(axis=0), _np(x)[:, ::2].sum(axis=0), dtype)
            _close(g[::-1].sum(axis=0), _np(x)[::-1].sum(axis=0), dtype)


@gpu
@pytest.mark.parametrize("dtype", ["int8", "float16", "float32", "int64", "float64", "complex64"])
def test_columns_over_several_kept_and_reduced_axes(dtype):
    rng = _rng()
    x = _data(rng, (7, 300, 3, 64), dtype)
    g, r = cp.asarray(x), _np(x)
    for axes in [0, 1, (0, 1), (0, 2), (1, 2), (0, 1, 2)]:
        _close(g.sum(axis=axes), r.sum(axis=axes), dtype)
        _close(g.sum(axis=axes, keepdims=True), r.sum(axis=axes, keepdims=True), dtype)
    # A split reduced range: few outputs, many rows.
    y = _data(rng, (60000, 8), dtype)
    _close(cp.asarray(y).sum(axis=0), _np(y).sum(axis=0), dtype)


@gpu
@pytest.mark.parametrize("dtype", ["int8", "float16", "float32", "float64", "int64"])
@pytest.mark.parametrize("r", [5, 40, 3000])
def test_arg_and_extrema_along_columns(dtype, r):
    rng = _rng()
    x = rng.integers(0, 3, (r, 64)).astype(dtype)  # many ties: the first index must win
    g = cp.asarray(x)
    numpy.testing.assert_array_equal(cp.asnumpy(cp.argmax(g, axis=0)), numpy.argmax(x, axis=0))
    numpy.testing.assert_array_equal(cp.asnumpy(cp.argmin(g, axis=0)), numpy.argmin(x, axis=0))
    numpy.testing.assert_array_equal(cp.asnumpy(g.min(axis=0)), x.min(axis=0))
    if numpy.dtype(dtype).kind == "f":
        x = x.copy()
        x[r // 2, ::3] = numpy.nan
        x[-1, 1::5] = numpy.nan
        g = cp.asarray(x)
        numpy.testing.assert_array_equal(cp.asnumpy(g.max(axis=0)), x.max(axis=0))
        numpy.testing.assert_array_equal(cp.asnumpy(cp.argmax(g, axis=0)), numpy.argmax(x, axis=0))
        numpy.testing.assert_array_equal(cp.asnumpy(cp.nanmax(g, axis=0)), numpy.nanmax(x, axis=0))


@gpu
@pytest.mark.parametrize("r", [1, 17, 4000])
def test_logical_counts_moments_and_fused_columns(r):
    rng = _rng()
    b = rng.random((r, 96)) < 0.3
    gb = cp.asarray(b)
    numpy.testing.assert_array_equal(cp.asnumpy(gb.any(axis=0)), b.any(axis=0))
    numpy.testing.assert_array_equal(cp.asnumpy(gb.all(axis=0)), b.all(axis=0))
    numpy.testing.assert_array_equal(cp.asnumpy(cp.count_nonzero(gb, axis=0)), numpy.count_nonzero(b, axis=0))
    x = rng.standard_normal((r, 96))
    gx = cp.asarray(x)
    numpy.testing.assert_allclose(cp.asnumpy(gx.var(axis=0)), x.var(axis=0), rtol=1e-9, atol=1e-12)
    numpy.testing.assert_allclose(cp.asnumpy(gx.std(axis=0, ddof=1)), x.std(axis=0, ddof=1), rtol=1e-9, atol=1e-12)
    numpy.testing.assert_allclose(cp.asnumpy(gx.mean(axis=0)), x.mean(axis=0), rtol=1e-10, atol=1e-12)
    y = rng.standard_normal((r, 96))
    f = cp.fuse(lambda a, c: (a * c).sum(axis=0))
    numpy.testing.assert_allclose(cp.asnumpy(f(gx, cp.asarray(y))), (x * y).sum(axis=0), rtol=1e-10, atol=1e-10)


@gpu
@pytest.mark.parametrize("shape", [(1, 64), (2, 64), (7, 4096), (100_000, 64), (3000, 2, 32)])
def test_float32_moments_with_an_offset(shape):
    # var and std in float32 by Welford's step (Note [one-pass var]) along rows and columns: a common offset
    # 1000 times the spread, against float64 on the same values. A cancelling formula would be off by 0.06.
    rng = _rng()
    x = (1000 + rng.standard_normal(shape)).astype(numpy.float32)
    g = cp.asarray(x)
    ref = x.astype(numpy.float64)
    for axis in range(len(shape)):
        got = cp.asnumpy(g.var(axis=axis))
        assert got.dtype == numpy.float32
        numpy.testing.assert_allclose(got, ref.var(axis=axis), rtol=1e-4, atol=3e-4)
        numpy.testing.assert_allclose(cp.asnumpy(g.std(axis=axis, ddof=1)), ref.std(axis=axis, ddof=1), rtol=1e-4,
                                      atol=3e-4)
    numpy.testing.assert_allclose(float(g.var()), ref.var(), rtol=1e-4, atol=3e-4)
    c = (x + 1j * x[..., ::-1]).astype(numpy.complex64)
    numpy.testing.assert_allclose(cp.asnumpy(cp.asarray(c).var(axis=0)), c.astype(numpy.complex128).var(axis=0),
                                  rtol=1e-4, atol=6e-4)
    h = x.astype(numpy.float16)  # float16 accumulates in float32: one ulp of 1000 in float16 is 0.5
    numpy.testing.assert_allclose(cp.asnumpy(cp.asarray(h).var(axis=0)).astype(numpy.float64),
                                  h.astype(numpy.float64).var(axis=0), rtol=1e-2, atol=2e-2)


@gpu
def test_vector_columns_with_64_bit_indexing():
    # 2**31 + 64 int8 values in rows of 16: byte offsets past 2**31 take the 64-bit kernel of the columns form.
    n = ((1 << 31) + 64) // 16
    x = cp.ones((n, 16), dtype=cp.int8)
    x[-1, 15] = 3
    got = cp.asnumpy(x.sum(axis=0, dtype=cp.int64))
    want = numpy.full(16, n, dtype=numpy.int64)
    want[15] += 2
    numpy.testing.assert_array_equal(got, want)
    numpy.testing.assert_array_equal(cp.asnumpy(cp.argmax(x, axis=0))[15], n - 1)
    del x
