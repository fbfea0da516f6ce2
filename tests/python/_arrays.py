"""Test inputs shared by the test modules: reproducible random arrays of any dtype, on the host or the device."""
import numpy


def random_array(xp, shape, dtype="int64", seed=0, order="C"):
    """Random values of `dtype` and `shape` (bools, small signed/unsigned integers, normal floats scaled by 10,
    complex with both parts random) as an `xp` array, C- or F-ordered."""
    rng = numpy.random.default_rng(seed)
    dt = numpy.dtype(dtype)
    n = int(numpy.prod(shape)) if shape else 1
    if dt.kind == "b":
        v = rng.integers(0, 2, n).astype(bool)
    elif dt.kind in "iu":
        v = rng.integers(0 if dt.kind == "u" else -50, 50, n).astype(dt)
    else:
        v = (rng.standard_normal(n) * 10).astype(dt)
        if dt.kind == "c":
            v = v + 1j * (rng.standard_normal(n) * 10).astype(dt)
    v = numpy.asarray(v, dtype=dt).reshape(shape)
    v = numpy.asfortranarray(v) if order == "F" else v
    return xp.asarray(v, order=order) if xp is not numpy else v


def small_random(shape, dtype, seed=0):
    """NumPy array of `dtype`: small integers (so that integer products and sums stay exact and readable),
    standard normal floats, complex with both parts normal."""
    dt = numpy.dtype(dtype)
    rng = numpy.random.default_rng(seed)
    if dt.kind == "b":
        return rng.integers(0, 2, shape).astype(bool)
    if dt.kind == "u":
        return rng.integers(0, 6, shape).astype(dt)
    if dt.kind == "i":
        return rng.integers(-5, 6, shape).astype(dt)
    v = rng.standard_normal(shape)
    if dt.kind == "c":
        v = v + 1j * rng.standard_normal(shape)
    return v.astype(dt)
