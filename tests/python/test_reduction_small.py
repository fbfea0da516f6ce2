"""Full reductions of short arrays (the one-launch path of Note [small full reduction]) against NumPy and, bit for
bit, against the general reduction path, over dtypes, sizes around the one-pass limit (8192 elements), layouts,
NaN, empty and 0-d inputs."""
import numpy
import pytest

import cuarray as cp
from _arrays import small_random

gpu = pytest.mark.gpu

DTYPES = [numpy.dtype(t) for t in ("bool", "int8", "uint8", "int16", "int32", "int64", "uint32", "uint64", "float16",
                                   "float32", "float64", "complex64", "complex128")]
FLOATS = [numpy.dtype(t) for t in ("float16", "float32", "float64", "complex64", "complex128")]
# Around the warp and block sizes and around the point where the general path starts splitting (8192 on any GPU:
# a split must leave each of the 256 lanes 16 elements).
SIZES = [1, 2, 31, 255, 256, 257, 1023, 1024, 4095, 4096, 8191, 8192, 8193]


def _data(dtype, n, seed=0):
    return small_random(n, dtype, seed + n)


def _expect_sum(x, result_dtype):
    """The exact sum of `x`, rounded once to `result_dtype`, and the error a float accumulation may add."""
    rd = numpy.dtype(result_dtype)
    if rd.kind in "iub":
        return x.sum(dtype=rd), 0.0
    wide = numpy.complex128 if rd.kind == "c" else numpy.float64
    exact = x.astype(wide).sum()
    acc_eps = numpy.finfo(numpy.float32 if rd == numpy.float16 else rd).eps
    tol = 4 * acc_eps * numpy.abs(x.astype(wide)).sum() + (numpy.finfo(rd).eps * abs(exact) if rd.kind == "f" else 0)
    return exact.astype(rd), tol + (1e-3 if rd == numpy.float16 else 0)


@gpu
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("n", SIZES)
def test_sum_of_short_arrays_matches_numpy(dtype, n):
    x = _data(dtype, n)
    r = cp.asarray(x).sum()
    exp_dtype = numpy.sum(x).dtype
    assert r.shape == () and r.dtype == exp_dtype
    exp, tol = _expect_sum(x, exp_dtype)
    got = r.get()
    if tol == 0:
        assert got == exp
    else:
        assert abs(complex(got) - complex(exp)) <= tol, (got, exp, tol)


@gpu
@pytest.mark.parametrize("dtype", FLOATS + [numpy.dtype(numpy.int8)], ids=str)
@pytest.mark.parametrize("n", [257, 1024, 8191, 8192, 8193])
@pytest.mark.parametrize("layout", ["contiguous", "step2", "reversed", "2d"])
def test_short_sum_is_bitwise_the_general_path(dtype, n, layout):
    # The same view behind a leading axis of one, reduced over its own axes only, skips the short path and
    # takes the general one (run(): same merged layout, plan and kernel, vector rows included), which must
    # give the same bits; where= (all true) takes the general path with a mask, the element loop, and must
    # agree to rounding.
    base = cp.asarray(_data(dtype, 2 * n))
    if layout == "contiguous":
        a = base[:n]
    elif layout == "step2":
        a = base[::2]
    elif layout == "reversed":
        a = base[n - 1::-1]
    else:
        a = base[: (n // 3) * 3].reshape(3, n // 3)
    fast = a.sum()
    general = a[None].sum(axis=tuple(range(1, a.ndim + 1)))[0]
    assert fast.dtype == general.dtype
    assert fast.get().tobytes() == general.get().tobytes()
    masked = a.sum(where=cp.ones(a.shape, dtype=bool))
    assert masked.dtype == fast.dtype
    numpy.testing.assert_allclose(masked.get(), fast.get(), rtol=1e-5 if dtype in ("float32", "complex64") else 1e-12)


@gpu
@pytest.mark.parametrize("name", ["sum", "prod", "max", "min", "any", "all", "mean", "nansum", "nanmax"])
@pytest.mark.parametrize("dtype", ["int8", "float16", "float32", "float64", "complex64"])
@pytest.mark.parametrize("n", [1, 1000, 8191])
def test_other_full_reductions_of_short_arrays(name, dtype, n):
    if dtype == "complex64" and name in ("nanmax",):
        pytest.skip("NumPy orders complex by the real part first; covered in test_reduction.py")
    rng = numpy.random.default_rng(n)
    x = (rng.choice([-1, 1], n) * (1 + 0.001 * rng.standard_normal(n))).astype(dtype) if name == "prod" \
        else _data(dtype, n)
    if name.startswith("nan") and x.dtype.kind in "fc" and n > 3:
        x[[0, n // 2]] = numpy.nan
    got = getattr(cp, name)(cp.asarray(x))
    exp = getattr(numpy, name)(x)
    assert got.shape == () and got.dtype == numpy.asarray(exp).dtype
    if x.dtype.kind in "fc" and name not in ("max", "min", "nanmax", "any", "all"):
        # NumPy folds float16 in float16; the reference is the float64 result rounded once.
        exact = getattr(numpy, name)(x.astype(numpy.complex128 if x.dtype.kind == "c" else numpy.float64))
        exp = numpy.asarray(exact).astype(numpy.asarray(exp).dtype)
        numpy.testing.assert_allclose(got.get(), exp, rtol=1e-2 if dtype == "float16" else 1e-4, atol=1e-3)
    else:
        numpy.testing.assert_array_equal(got.get(), exp)


@gpu
@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "complex128"])
def test_short_sum_propagates_nan_and_inf(dtype):
    x = _data(dtype, 4000)
    x[3999] = numpy.nan
    assert numpy.isnan(cp.asarray(x).sum().get())
    x[3999] = numpy.inf
    assert numpy.isinf(cp.asarray(x).sum().get()) and numpy.isinf(cp.asarray(x).max().get())


@gpu
@pytest.mark.parametrize("dtype", ["bool", "int8", "float16", "complex64"])
def test_short_sum_edge_shapes(dtype):
    x = _data(dtype, 12)
    zero_d = cp.asarray(x[5]).reshape(())
    assert zero_d.sum().get() == numpy.sum(x[5])
    assert zero_d.sum().dtype == numpy.sum(x[5]).dtype
    empty = cp.asarray(x[:0])
    assert empty.sum().get() == 0 and empty.sum().dtype == numpy.sum(x[:0]).dtype
    assert cp.asarray(x.reshape(3, 4)).sum(axis=(0, 1), keepdims=True).shape == (1, 1)
    # Twelve complex64 values summed in another order than NumPy's may round differently in the last bit.
    numpy.testing.assert_allclose(cp.asarray(x.reshape(3, 4)).sum(axis=(1, 0), keepdims=True).get(),
                                  x.reshape(3, 4).sum(axis=(1, 0), keepdims=True), rtol=1e-6)
    one = cp.asarray(x[:1])
    assert one.sum().get() == x[:1].sum()


@gpu
def test_short_sum_of_a_broadcast_view_and_dtype_argument():
    b = cp.broadcast_to(cp.asarray([1.5], dtype=cp.float32), (1000,))
    assert b.strides == (0,)
    assert b.sum().get() == numpy.float32(1500.0)
    x = numpy.full(300, 100, dtype=numpy.int8)
    assert cp.asarray(x).sum(dtype=numpy.int8).get() == x.sum(dtype=numpy.int8)  # wraps as NumPy
    assert cp.asarray(x).sum(dtype=numpy.float16).dtype == numpy.float16
    out = cp.empty((), dtype=cp.int64)
    assert cp.asarray(x).sum(out=out) is out and out.get() == 30000
    assert cp.asarray(x).sum(initial=5).get() == 30005


@gpu
def test_interleaved_short_reductions_each_get_their_own_kernel():
    # Note [small plan cache]: each thread keeps its last plans by spec, length, vector width, types and device.
    # Calls that differ in any one of those, interleaved in a random order and repeated (so that plans are kept,
    # collide in a slot and are replaced), must each give NumPy's answer.
    rng = numpy.random.default_rng(7)
    cases = []
    for dtype in (numpy.float32, numpy.float64, numpy.int32, numpy.int8, numpy.complex64):
        for n in (1, 3, 64, 1000, 1024, 4096):
            base = _data(numpy.dtype(dtype), n + 3, seed=11)
            for offset in (0, 1, 3):  # a shifted start changes the vector width the kernel may load with
                x = base[offset:offset + n]
                cases.append((x, cp.asarray(base)[offset:offset + n]))
    kinds = [("sum", lambda v: v.sum()), ("max", lambda v: v.max()), ("min", lambda v: v.min()),
             ("prod", lambda v: (v[:8] if v.dtype.kind != "c" else v[:4]).prod())]
    order = [(c, k) for c in range(len(cases)) for k in range(len(kinds))] * 3
    rng.shuffle(order)
    for c, k in order:
        x, d = cases[c]
        name, fn = kinds[k]
        if name in ("max", "min") and x.dtype.kind == "c":
            continue
        got, want = fn(d).get(), fn(x)
        assert got.dtype == want.dtype, (name, x.dtype, x.size)
        if name == "sum":
            exp, tol = _expect_sum(x, want.dtype)
            assert abs(complex(got) - complex(exp)) <= tol, (x.dtype, x.size, got, exp)
        elif name == "prod" and x.dtype.kind in "fc":
            numpy.testing.assert_allclose(got, want, rtol=1e-5, err_msg=f"prod {x.dtype} {x.size}")
        else:
            assert got == want, (name, x.dtype, x.size)
