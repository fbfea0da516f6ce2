"""Generator.integers against a host model of its stream: each output i is Lemire's draw from the Philox
stream of counter (start + i), so the values for a seed stay fixed whatever the kernel's thread layout."""
import numpy
import pytest

import cuarray
from cuarray import random as cr
from _philox import M32, block

gpu = pytest.mark.gpu

M64 = 0xFFFFFFFFFFFFFFFF
KEY, COUNTER = 0x0123456789ABCDEF, 1000


def _words(key, index):
    """The 32-bit words of one output's stream: blocks (index, sub = 0, 1, ...) in order."""
    sub = 0
    while True:
        yield from block(key, index, sub)
        sub += 1


def _interval(key, index, rng):
    """A uniform integer in [0, rng] by Lemire's multiply-and-reject on the stream of `index`."""
    if rng == 0:
        return 0
    w = _words(key, index)
    if rng <= M32:
        if rng == M32:
            return next(w)
        r1 = rng + 1
        m = next(w) * r1
        if m & M32 < r1:
            t = (2**32 - r1) % r1
            while m & M32 < t:
                m = next(w) * r1
        return m >> 32
    x = (next(w) << 32) | next(w)
    if rng == M64:
        return x
    r1 = rng + 1
    if (x * r1) & M64 < r1:
        t = (2**64 - r1) % r1
        while (x * r1) & M64 < t:
            x = (next(w) << 32) | next(w)
    return (x * r1) >> 64


def _expected(lows, ranges, dtype):
    """Outputs for per-element `lows` (int) and `ranges` (inclusive widths), wrapped into `dtype` as C casts do."""
    vals = [(lo + _interval(KEY, COUNTER + i, r)) & M64 for i, (lo, r) in enumerate(zip(lows, ranges))]
    return numpy.array(vals, dtype=numpy.uint64).astype(dtype)


def _gen():
    return cr.Generator(cr.Philox(key=KEY, counter=COUNTER))


# (low, high, size, dtype, endpoint): sizes that leave 0..3 outputs after the last group of four; ranges
# that take each branch of the draw, among them ones that reject about half the first words (2**31 + 1 and
# 2**63 + 2 values), so the replayed stream is checked too.
CASES = [
    (0, 1000, 1027, numpy.int64, False),
    (-128, 127, 4099, numpy.int8, True),
    (0, 2**31 + 1, 1001, numpy.int64, False),
    (0, 2**32, 258, numpy.int64, False),
    (5, 5, 9, numpy.int32, True),
    (0, 65535, 515, numpy.uint16, True),
    (0, 2, 1030, numpy.bool_, False),
    (-(2**40), 2**40, 301, numpy.int64, False),
    (0, 2**63 + 2, 402, numpy.uint64, False),
    (0, 2**64 - 1, 131, numpy.uint64, True),
    (-(2**31), 2**31 - 1, 1, numpy.int32, True),
]


@gpu
@pytest.mark.parametrize("low,high,size,dtype,endpoint", CASES)
def test_integers_equal_the_stream_model(low, high, size, dtype, endpoint):
    got = _gen().integers(low, high, size=size, dtype=dtype, endpoint=endpoint)
    assert got.dtype == numpy.dtype(dtype) and got.shape == (size,)
    width = high - low - (0 if endpoint else 1)
    numpy.testing.assert_array_equal(got.get(), _expected([low] * size, [width] * size, dtype))


@gpu
def test_integers_with_array_bounds_equal_the_stream_model():
    lows, highs = [0, 10, -(2**33)], [5, 2**31 + 11, 2**33]
    got = _gen().integers(lows, highs, size=(343, 3)).get()
    n = got.size
    exp = _expected([lows[i % 3] for i in range(n)], [highs[i % 3] - lows[i % 3] - 1 for i in range(n)], numpy.int64)
    numpy.testing.assert_array_equal(got.reshape(-1), exp)


@gpu
def test_split_integer_draws_continue_the_stream():
    g = _gen()
    a, b = g.integers(0, 2**31 + 1, size=7).get(), g.integers(0, 2**31 + 1, size=6).get()
    whole = _gen().integers(0, 2**31 + 1, size=13).get()
    numpy.testing.assert_array_equal(numpy.concatenate([a, b]), whole)
    assert cuarray.asarray(whole).dtype == numpy.int64
