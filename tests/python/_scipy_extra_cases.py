"""Shared runner of tests/python/test_scipy_{stats,interpolate,spatial}.py: one case body, run on SciPy and on
cuarray (on the GPU, or on the host through _scipy_extra_host), compared value by value, dtype and shape, or by
exception type."""
import numpy

import cuarray as cp


def to_host(x):
    if isinstance(x, cp.ndarray):
        return cp.asnumpy(x)
    if isinstance(x, tuple):
        return tuple(to_host(v) for v in x)
    if isinstance(x, list):
        return [to_host(v) for v in x]
    if hasattr(x, 'toarray') and not isinstance(x, numpy.ndarray):
        return to_host(x.toarray())
    return x


def run(fn, m, dev):
    try:
        return ('ok', to_host(fn(m, dev)))
    except Exception as e:  # NOQA: BLE001 -- the exception type is the result being compared
        return ('exc', type(e))


def same(ours, ref, tol, check_dtype=True):
    kind_o, o = ours
    kind_r, r = ref
    assert kind_o == kind_r, f"cuarray gave {ours}, SciPy gave {ref}"
    if kind_o == 'exc':
        assert issubclass(o, r) or issubclass(r, o), f"cuarray raised {o}, SciPy raised {r}"
        return
    _cmp(o, r, tol, check_dtype)


def _cmp(o, r, tol, check_dtype):
    if isinstance(r, (tuple, list)) and not (isinstance(r, list) and r and isinstance(r[0], int)):
        assert len(o) == len(r)
        for a, b in zip(o, r):
            _cmp(a, b, tol, check_dtype)
        return
    if isinstance(r, (set, dict, list)):
        assert o == r
        return
    o = numpy.asarray(o)
    r = numpy.asarray(r)
    assert o.shape == r.shape, (o.shape, r.shape)
    if r.dtype == object:
        assert [list(v) for v in o.ravel()] == [list(v) for v in r.ravel()]
        return
    if check_dtype:
        assert o.dtype == r.dtype, (o.dtype, r.dtype)
    if r.dtype.kind in 'biu':
        numpy.testing.assert_array_equal(o, r)
    else:
        numpy.testing.assert_allclose(o, r, rtol=tol, atol=tol, equal_nan=True)
