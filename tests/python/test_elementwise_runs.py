"""The strided run loop of the elementwise engine (Note [strided runs] in src/engine/elementwise.cpp) and the
one-item-per-thread grid of its flat loop (Note [flat grids]), against NumPy: innermost rows of 256 elements
or more, whole and partial runs, broadcasting, negative and non-unit strides, masks, casts, 3-d and 5-d layouts,
ElementwiseKernel's C-order index `i` and raw operands, and the kernels of the neighbouring ops (tile,
concatenate, diff) whose launch grids changed with it."""
import numpy
import pytest

import cuarray as cp

gpu = pytest.mark.gpu

# Innermost lengths around the run boundaries: one block row (256), a whole run (2048 = 256 x 8), a run and a
# bit, and odd lengths that leave partial warps.
INNER = [256, 257, 300, 2047, 2048, 2049, 5000]


def _rng():
    return numpy.random.default_rng(11)


@gpu
@pytest.mark.parametrize("inner", INNER)
def test_broadcast_add_column_plus_row(inner):
    rng = _rng()
    a = rng.standard_normal((7, 1)).astype(numpy.float32)
    b = rng.standard_normal((1, inner)).astype(numpy.float32)
    got = cp.asarray(a) + cp.asarray(b)
    numpy.testing.assert_array_equal(cp.asnumpy(got), a + b)


@gpu
@pytest.mark.parametrize("inner", [256, 2049])
@pytest.mark.parametrize("dtype", ["int8", "int64", "float16", "float64", "complex128", "bool"])
def test_transposed_operand_every_dtype(inner, dtype):
    rng = _rng()
    x = (rng.standard_normal((inner, 5)) * 50).astype(dtype)
    y = (rng.standard_normal((5, inner)) * 50).astype(dtype)
    gx, gy = cp.asarray(x), cp.asarray(y)
    if dtype == "bool":
        numpy.testing.assert_array_equal(cp.asnumpy(cp.logical_xor(gx.T, gy)), numpy.logical_xor(x.T, y))
    else:
        numpy.testing.assert_array_equal(cp.asnumpy(gx.T + gy), x.T + y)
        numpy.testing.assert_array_equal(cp.asnumpy(cp.multiply(gx.T, gy)), x.T * y)


@gpu
@pytest.mark.parametrize("inner", INNER)
def test_negative_and_step_strides(inner):
    rng = _rng()
    x = rng.standard_normal((9, 3 * inner)).astype(numpy.float64)
    gx = cp.asarray(x)
    want = x[::-2, ::3] * 2 - x[::-2, 2::3]
    got = gx[::-2, ::3] * 2 - gx[::-2, 2::3]
    numpy.testing.assert_array_equal(cp.asnumpy(got), want)
    rev = x[:, ::-1]  # innermost stride negative
    numpy.testing.assert_array_equal(cp.asnumpy(cp.sqrt(cp.abs(gx[:, ::-1]))), numpy.sqrt(numpy.abs(rev)))


@gpu
@pytest.mark.parametrize("shape", [(2, 3, 4, 5, 300), (3, 1, 4, 2049), (2, 2, 2, 2, 2, 512)])
def test_many_dimensions_with_broadcasting(shape):
    rng = _rng()
    x = rng.standard_normal(shape).astype(numpy.float32)
    y = rng.standard_normal(shape[-3:-1] + (1,)).astype(numpy.float32)  # broadcast along the innermost axis
    gx, gy = cp.asarray(x), cp.asarray(y)
    numpy.testing.assert_allclose(cp.asnumpy(gx * gy + 1), x * y + 1, rtol=1e-6)
    # A permuted (non-mergeable) view on the left.
    perm = tuple(reversed(range(len(shape) - 1))) + (len(shape) - 1,)
    numpy.testing.assert_allclose(cp.asnumpy(cp.transpose(gx, perm) - 3), numpy.transpose(x, perm) - 3, rtol=1e-6)


@gpu
@pytest.mark.parametrize("inner", [256, 2050])
def test_where_mask_and_out_with_cast(inner):
    rng = _rng()
    x = rng.standard_normal((6, inner)).astype(numpy.float32)
    mask = rng.standard_normal((1, inner)) > 0
    out = numpy.full((6, 2 * inner), -7.0)[:, ::2]  # a strided float64 out: the store casts
    gout = cp.full((6, 2 * inner), -7.0)[:, ::2]
    numpy.add(x, numpy.float32(1), out=out, where=mask)
    cp.add(cp.asarray(x), numpy.float32(1), out=gout, where=cp.asarray(mask))
    numpy.testing.assert_array_equal(cp.asnumpy(gout), out)


@gpu
def test_copy_into_strided_destination_and_astype():
    rng = _rng()
    x = rng.standard_normal((5, 4100)).astype(numpy.float64)
    dst = numpy.zeros((10, 4100), numpy.float32)
    gdst = cp.zeros((10, 4100), cp.float32)
    dst[1::2] = x
    gdst[1::2] = cp.asarray(x)
    numpy.testing.assert_array_equal(cp.asnumpy(gdst), dst)
    numpy.testing.assert_array_equal(cp.asnumpy(cp.asarray(x)[:, ::-1].astype(numpy.int32)),
                                     x[:, ::-1].astype(numpy.int32))


@gpu
@pytest.mark.parametrize("inner", [256, 2049])
def test_elementwise_kernel_c_order_index_and_raw(inner):
    # `i` is the C-order index of the element, and a raw operand is indexed by it: the run loop must give the
    # same i as the element-by-element loop, on a transposed (strided) input.
    k = cp.ElementwiseKernel("T x, raw T r", "T y", "y = x + r[_ind.size() - 1 - i] + (T)i", "runs_index")
    rng = _rng()
    x = rng.standard_normal((inner, 3)).astype(numpy.float64)
    r = rng.standard_normal(3 * inner)
    got = k(cp.asarray(x).T, cp.asarray(r))
    idx = numpy.arange(3 * inner).reshape(3, inner)
    want = x.T + r[::-1].reshape(3, inner) + idx
    numpy.testing.assert_allclose(cp.asnumpy(got), want, rtol=1e-12)


@gpu
def test_elementwise_kernel_loop_prep_flat_and_strided():
    k = cp.ElementwiseKernel("float32 x", "float32 y", "y = x * scale", "runs_prep", loop_prep="float scale = 2.0f;")
    x = numpy.arange(3 * 5000, dtype=numpy.float32).reshape(3, 5000)
    gx = cp.asarray(x)
    numpy.testing.assert_array_equal(cp.asnumpy(k(gx)), x * 2)
    numpy.testing.assert_array_equal(cp.asnumpy(k(gx[:, ::-1])), x[:, ::-1] * 2)


@gpu
@pytest.mark.parametrize("n", [1, 255, 256, 257, 4097, (1 << 20) + 3])
def test_flat_loop_sizes(n):
    # Flat loops now take one item per thread: every size, vectorised or not, covers each element once.
    x = numpy.arange(n, dtype=numpy.float32)
    gx = cp.asarray(x)
    numpy.testing.assert_array_equal(cp.asnumpy(gx * 3 + 1), x * 3 + 1)
    numpy.testing.assert_array_equal(cp.asnumpy(gx[1:] + gx[:-1]), x[1:] + x[:-1])  # unaligned: not vectorised
    b = numpy.arange(n, dtype=numpy.int8)
    numpy.testing.assert_array_equal(cp.asnumpy(cp.asarray(b) ^ numpy.int8(5)), b ^ numpy.int8(5))


@gpu
@pytest.mark.parametrize("reps", [(2, 2), (3, 1, 2), (1, 5)])
def test_tile_matches_numpy(reps):
    x = numpy.arange(300 * 257, dtype=numpy.float32).reshape(300, 257)
    numpy.testing.assert_array_equal(cp.asnumpy(cp.tile(cp.asarray(x), reps)), numpy.tile(x, reps))


@gpu
@pytest.mark.parametrize("count,length", [(64, 1 << 14), (3, 5000), (70, 4096 + 3)])
def test_concatenate_and_stack_many(count, length):
    # The batched join with 32 KiB tiles: segments of one row skip the division, several rows keep it.
    rng = _rng()
    parts = [rng.standard_normal(length).astype(numpy.float32) for _ in range(count)]
    gparts = [cp.asarray(p) for p in parts]
    numpy.testing.assert_array_equal(cp.asnumpy(cp.concatenate(gparts)), numpy.concatenate(parts))
    numpy.testing.assert_array_equal(cp.asnumpy(cp.stack(gparts)), numpy.stack(parts))
    rows = [p[: (length // 8) * 8].reshape(8, -1) for p in parts[:5]]
    numpy.testing.assert_array_equal(cp.asnumpy(cp.concatenate([cp.asarray(r) for r in rows], axis=1)),
                                     numpy.concatenate(rows, axis=1))


@gpu
@pytest.mark.parametrize("n", [2, 5, 4096, (1 << 20) + 7])
@pytest.mark.parametrize("dtype", ["float32", "int16", "complex128"])
def test_diff_flat(n, dtype):
    x = (numpy.arange(n) ** 2 % 1000).astype(dtype)
    numpy.testing.assert_array_equal(cp.asnumpy(cp.diff(cp.asarray(x))), numpy.diff(x))
    numpy.testing.assert_array_equal(cp.asnumpy(cp.diff(cp.asarray(x), n=2)), numpy.diff(x, n=2))


# Note [copy runs] (src/kernels/basic_kernels.cu): same-dtype strided assignments and copies whose innermost
# axis has 256 elements or more.
@gpu
@pytest.mark.parametrize("inner", [256, 300, 2048, 2049, 6000])
@pytest.mark.parametrize("dtype", ["uint8", "int16", "float32", "float64", "complex128"])
def test_strided_assignment_runs(inner, dtype):
    rng = _rng()
    x = (rng.standard_normal((4, 2 * inner)) * 100).astype(dtype)
    gx = cp.asarray(x)
    dst = numpy.zeros((8, inner), dtype)
    gdst = cp.zeros((8, inner), dtype)
    dst[::2] = x[:, ::2]  # strided source and destination
    gdst[::2] = gx[:, ::2]
    numpy.testing.assert_array_equal(cp.asnumpy(gdst), dst)
    dst[1::2] = x[::-1, :inner][:, ::-1]  # negative strides on both axes
    gdst[1::2] = gx[::-1, :inner][:, ::-1]
    numpy.testing.assert_array_equal(cp.asnumpy(gdst), dst)
    numpy.testing.assert_array_equal(cp.asnumpy(cp.ascontiguousarray(gx[:, 1::2])), x[:, 1::2])


@gpu
@pytest.mark.parametrize("shape", [(2, 3, 1, 2, 3, 257), (3, 2049)])
def test_broadcast_assignment_runs(shape):
    rng = _rng()
    row = rng.standard_normal(shape[-1]).astype(numpy.float32)
    dst = numpy.zeros(shape, numpy.float32)
    gdst = cp.zeros(shape, cp.float32)
    dst[...] = row
    gdst[...] = cp.asarray(row)
    numpy.testing.assert_array_equal(cp.asnumpy(gdst), dst)
    col = rng.standard_normal(shape[:-1] + (1,)).astype(numpy.float32)
    dst[...] = col  # broadcast along the innermost axis: a source stride of 0
    gdst[...] = cp.asarray(col)
    numpy.testing.assert_array_equal(cp.asnumpy(gdst), dst)
    # copyto of a broadcast view into a 4-d view of a C-contiguous array (tile's layout, by the copy kernel)
    x = rng.standard_normal((3, 300)).astype(numpy.float32)
    out = numpy.empty((2, 3, 2, 300), numpy.float32)
    gout = cp.empty((2, 3, 2, 300), cp.float32)
    numpy.copyto(out, x.reshape(1, 3, 1, 300))
    cp.copyto(gout, cp.asarray(x).reshape(1, 3, 1, 300))
    numpy.testing.assert_array_equal(cp.asnumpy(gout), out)


# Note [wide rows] (src/kernels/basic_kernels.cu): same-dtype copies and fills whose rows are contiguous move
# them as items of up to 16 bytes when the row's bytes, the outer strides and both addresses allow. The row
# lengths give byte counts divisible by 16, by 8 only, by 4 only and by nothing; the column offsets misalign
# the start; negative outer steps and a size-1 axis with an odd stride exercise the stride checks.
@gpu
@pytest.mark.parametrize("inner", [3, 6, 12, 64, 255, 256, 1024, 2050, 8192])
@pytest.mark.parametrize("dtype", ["bool", "uint8", "float16", "int32", "float32", "complex64", "float64"])
@pytest.mark.parametrize("offset", [0, 1, 2])
def test_wide_rows_copy_and_fill(inner, dtype, offset):
    rng = _rng()
    x = (rng.standard_normal((5, inner + 4)) * 50).astype(dtype)
    gx = cp.asarray(x)
    dst = numpy.zeros((10, inner + 4), dtype)
    gdst = cp.zeros((10, inner + 4), dtype)
    cols = slice(offset, offset + inner)
    dst[::2, cols] = x[:, cols]
    gdst[::2, cols] = gx[:, cols]
    numpy.testing.assert_array_equal(cp.asnumpy(gdst), dst)
    dst[-1::-2, cols] = x[:, 4 - offset : 4 - offset + inner]  # negative outer step, another source offset
    gdst[-1::-2, cols] = gx[:, 4 - offset : 4 - offset + inner]
    numpy.testing.assert_array_equal(cp.asnumpy(gdst), dst)
    numpy.testing.assert_array_equal(cp.asnumpy(cp.ascontiguousarray(gx[::-2, cols])), x[::-2, cols])
    value = x[0, 0]
    dst[1::3, cols] = value
    gdst[1::3, cols] = value
    numpy.testing.assert_array_equal(cp.asnumpy(gdst), dst)
    # a 3-d view whose middle axis has length 1 (its stride is never stepped) and whose outer stride is odd
    big = numpy.zeros((3, 2 * inner + 1), dtype)
    gbig = cp.zeros((3, 2 * inner + 1), dtype)
    big.reshape(-1)[: 3 * inner].reshape(3, 1, inner)[...] = x[:3, None, :inner]
    gbig.reshape(-1)[: 3 * inner].reshape(3, 1, inner)[...] = gx[:3, None, :inner]
    numpy.testing.assert_array_equal(cp.asnumpy(gbig), big)
    view, gview = big[:, :inner], gbig[:, :inner]  # rows at an odd element stride
    view[...] = value
    gview[...] = value
    numpy.testing.assert_array_equal(cp.asnumpy(gbig), big)
