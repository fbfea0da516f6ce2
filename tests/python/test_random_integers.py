"""Generator.integers against a host model of its stream (Note [integers per counter] in src/kernels/random_misc.cu):
a call with one bound pair whose range fits 32 bits draws four outputs per Philox counter, one word each; any other
call two outputs per counter, two words each. A rejected first draw goes on with the output's own sub-streams of
its counter. The values for a seed stay fixed whatever the kernel's thread layout."""
import numpy
import pytest

import cuarray
from cuarray import random as cr
from _philox import M32, block

gpu = pytest.mark.gpu

M64 = 0xFFFFFFFFFFFFFFFF
KEY, COUNTER = 0x0123456789ABCDEF, 1000


def _more(key, counter, k):
    """The words output k of a counter draws after its first: sub-streams (k + 1) << 32, +1, ... in order."""
    sub = (k + 1) << 32
    while True:
        yield from block(key, counter, sub)
        sub += 1


def _interval(key, counter, k, per, rng):
    """A uniform integer in [0, rng] by Lemire's multiply-and-reject, for output k of `per` on `counter`."""
    if rng == 0:
        return 0
    first = block(key, counter, 0)
    w0, w1 = (first[k], 0) if per == 4 else (first[2 * k], first[2 * k + 1])
    more = _more(key, counter, k)
    if rng <= M32:
        if rng == M32:
            return w0
        r1 = rng + 1
        m = w0 * r1
        if m & M32 < r1:
            t = (2**32 - r1) % r1
            while m & M32 < t:
                m = next(more) * r1
        return m >> 32
    x = (w0 << 32) | w1
    if rng == M64:
        return x
    r1 = rng + 1
    if (x * r1) & M64 < r1:
        t = (2**64 - r1) % r1
        while (x * r1) & M64 < t:
            x = (next(more) << 32) | next(more)
    return (x * r1) >> 64


def _expected(lows, ranges, dtype, scalar_bounds, start=COUNTER):
    """Outputs for per-element `lows` (int) and `ranges` (inclusive widths), wrapped into `dtype` as C casts do;
    `scalar_bounds`: the call had one bound pair (four outputs per counter when its range fits 32 bits)."""
    per = 4 if scalar_bounds and ranges[0] <= M32 else 2
    vals = [(lo + _interval(KEY, start + i // per, i % per, per, r)) & M64
            for i, (lo, r) in enumerate(zip(lows, ranges))]
    return numpy.array(vals, dtype=numpy.uint64).astype(dtype)


def _gen():
    return cr.Generator(cr.Philox(key=KEY, counter=COUNTER))


# (low, high, size, dtype, endpoint): sizes that leave 0..3 outputs after the last counter; ranges
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
    numpy.testing.assert_array_equal(got.get(), _expected([low] * size, [width] * size, dtype, True))


@gpu
def test_integers_with_array_bounds_equal_the_stream_model():
    lows, highs = [0, 10, -(2**33)], [5, 2**31 + 11, 2**33]
    got = _gen().integers(lows, highs, size=(343, 3)).get()
    n = got.size
    exp = _expected([lows[i % 3] for i in range(n)], [highs[i % 3] - lows[i % 3] - 1 for i in range(n)], numpy.int64,
                    False)
    numpy.testing.assert_array_equal(got.reshape(-1), exp)


@gpu
@pytest.mark.parametrize("high,per", [(2**31 + 1, 4), (2**40, 2)])
def test_split_integer_draws_continue_the_stream(high, per):
    # A call owns whole counters: the next call starts at the first counter after them, never reusing a word.
    g = _gen()
    a, b = g.integers(0, high, size=7).get(), g.integers(0, high, size=6).get()
    numpy.testing.assert_array_equal(a, _expected([0] * 7, [high - 1] * 7, numpy.int64, True))
    numpy.testing.assert_array_equal(b, _expected([0] * 6, [high - 1] * 6, numpy.int64, True,
                                                  start=COUNTER + (7 + per - 1) // per))
    assert cuarray.asarray(a).dtype == numpy.int64
