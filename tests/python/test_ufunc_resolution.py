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


# dtype= names the output: NumPy first takes a loop with that output whose inputs take the operands safely, then
# the homogeneous loop (casting rule applies). less(int16, 7, dtype=bool) is 'hh->?', never 'bb->?' with the
# int16 operand cast to int8 (fuzz 0:3589:elementwise gave wrong values through that).
@pytest.mark.parametrize("name", [n for n in NAMES if not n.startswith("logical_") and getattr(numpy, n).nin <= 2])
def test_dtype_keyword_picks_numpys_loop(name):
    u = getattr(numpy, name)
    for combo in itertools.product(CHARS, repeat=u.nin):
        dts = [numpy.dtype(c) for c in combo]
        for out in "?bhfdD":
            with warnings.catch_warnings(), numpy.errstate(all="ignore"):
                warnings.simplefilter("ignore")
                try:
                    sig = (None,) * u.nin + (numpy.dtype(out),) * u.nout
                    want = tuple(u.resolve_dtypes(tuple(dts) + (None,) * u.nout, signature=sig))
                    u(*[numpy.ones(1, dtype=d) for d in dts], dtype=out)
                except Exception:  # noqa: BLE001
                    want = TypeError
            try:
                _, ins, outs, _ = cp._core.ufunc_resolve(name, dts, out)
                got = tuple(ins) + tuple(outs)
            except TypeError:
                got = TypeError
            assert got == want, (name, combo, out)


def test_comparison_with_dtype_bool_keeps_the_operand_type():
    for name in ("less", "less_equal", "greater", "greater_equal", "equal", "not_equal"):
        for c in "bhilBHILefdFD":
            if c in "FD" and name not in ("equal", "not_equal"):
                continue
            types = cp._core.ufunc_resolve(name, [numpy.dtype(c), 7], "?")[0]
            assert types == c + c + "->?", (name, c, types)


# A unary ufunc takes a lone Python int as NumPy's array of it: uint64 in [2**63, 2**64); an object array beyond
# 64 bits, which cuarray cannot hold (TypeError; NumPy's object loop raises TypeError for expm1, fuzz 0:709).
@pytest.mark.parametrize("name", [n for n in NAMES if getattr(numpy, n).nin == 1])
def test_unary_ufunc_of_python_ints_like_numpy(name):
    u = getattr(numpy, name)
    for v in (2 ** 63, 2 ** 64 - 1, 2 ** 70, -2 ** 70):
        with warnings.catch_warnings(), numpy.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            try:
                r = u(v)
                r0 = r[0] if isinstance(r, tuple) else r
                want = numpy.asarray(r0).dtype if isinstance(r0, numpy.generic) else TypeError  # object: refused
            except Exception as e:  # noqa: BLE001
                want = TypeError if isinstance(e, TypeError) else type(e)
        got = _ours(name, [v])
        got = got[0] if isinstance(got, tuple) else got
        assert got == want, (name, v)
