"""Ufunc loop resolution against NumPy without a GPU: result dtypes and errors for every dtype combination."""
import itertools
import warnings

import numpy
import pytest

import cuarray as cp

CHARS = "?bhilBHILefdFD"
NAMES = sorted(n for n in set(cp._core.ufunc_names()) if hasattr(numpy, n))


def _numpy_result(u, args):
    with warnings.catch_warnings(), numpy.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        try:
            r = u(*args)
        except Exception as e:  # noqa: BLE001 - compared by type below
            return TypeError if isinstance(e, TypeError) else type(e)
    return tuple(x.dtype for x in (r if isinstance(r, tuple) else (r,)))


def _ours(name, args):
    try:
        return tuple(cp._core.ufunc_resolve(name, args)[2])
    except Exception as e:  # noqa: BLE001
        return TypeError if isinstance(e, TypeError) else type(e)


@pytest.mark.parametrize("name", NAMES)
def test_array_dtypes_resolve_like_numpy(name):
    u = getattr(numpy, name)
    for combo in itertools.product(CHARS, repeat=u.nin):
        dts = [numpy.dtype(c) for c in combo]
        want = _numpy_result(u, [numpy.ones(2, dtype=d) for d in dts])
        assert _ours(name, dts) == want, (name, combo)


@pytest.mark.parametrize("name", [n for n in NAMES if getattr(numpy, n).nin == 2 and n not in ("ldexp",)])
def test_python_and_numpy_scalars_resolve_like_numpy(name):
    u = getattr(numpy, name)
    scalars = (2, 2.5, 1j, True, -1, 300, -2**62, numpy.float64(2), numpy.float32(2), numpy.int8(3),
               numpy.complex128(1j))
    for c in CHARS:
        for s in scalars:
            for arr_first in (True, False):
                np_args = [numpy.ones(2, dtype=c), s] if arr_first else [s, numpy.ones(2, dtype=c)]
                our_args = [numpy.dtype(c), s] if arr_first else [s, numpy.dtype(c)]
                want = _numpy_result(u, np_args)
                if name in ("power", "pow") and want is ValueError:
                    continue  # integer ** negative: NumPy checks the value; a kernel cannot (see README)
                assert _ours(name, our_args) == want, (name, c, s, arr_first)
