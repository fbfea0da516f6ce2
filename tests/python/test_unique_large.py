"""unique and the compress-based set operations on arrays of many blocks, where the boundary flags are scanned in
place into the positions (select_rows' consume_flags) and the compaction reads flags back from the steps."""
import numpy
import pytest

import cuarray as cp

gpu = pytest.mark.gpu


@gpu
@pytest.mark.parametrize("n", [1, 2, 1000, 200003])
@pytest.mark.parametrize("dtype", ["int64", "float64", "int8"])
def test_unique_all_outputs_on_long_arrays(n, dtype):
    rng = numpy.random.default_rng(n)
    x = rng.integers(-50, 50, n).astype(dtype) if dtype != "float64" else rng.integers(0, n, n) / 7.0
    got = cp.unique(cp.asarray(x), return_index=True, return_inverse=True, return_counts=True)
    want = numpy.unique(x, return_index=True, return_inverse=True, return_counts=True)
    for g, w in zip(got, want):
        numpy.testing.assert_array_equal(g.get(), w)
    numpy.testing.assert_array_equal(cp.unique(cp.asarray(x)).get(), numpy.unique(x))


@gpu
def test_set_operations_on_long_arrays():
    rng = numpy.random.default_rng(3)
    x, y = rng.integers(0, 300000, 150001), rng.integers(0, 300000, 99999)
    a, b = cp.asarray(x), cp.asarray(y)
    numpy.testing.assert_array_equal(cp.setxor1d(a, b).get(), numpy.setxor1d(x, y))
    numpy.testing.assert_array_equal(cp.setdiff1d(a, b).get(), numpy.setdiff1d(x, y))
    numpy.testing.assert_array_equal(cp.intersect1d(a, b).get(), numpy.intersect1d(x, y))
    for g, w in zip(cp.intersect1d(a, b, return_indices=True), numpy.intersect1d(x, y, return_indices=True)):
        numpy.testing.assert_array_equal(g.get(), w)
