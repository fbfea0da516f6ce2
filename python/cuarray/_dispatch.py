"""NumPy's dispatch protocols on cuarray arrays: ``__array_ufunc__`` (NEP 13) and ``__array_function__`` (NEP 18).

``numpy.add(gpu_a, gpu_b)``, ``numpy.add.reduce(gpu_a)``, ``numpy.linalg.svd(gpu_a)`` or ``numpy.concatenate(...)``
run cuarray's implementation and return cuarray arrays. A NumPy function cuarray lacks answers ``NotImplemented``,
so NumPy raises its TypeError, as CuPy does; so does a call that involves array types other than cuarray's and
NumPy's. Arguments are passed through untouched: a mix of cuarray and NumPy arrays behaves as the cuarray
function behaves with them (as in CuPy).
"""

import numpy

_UFUNC_METHODS = ("reduce", "accumulate", "reduceat", "outer", "at")

# NumPy function -> cuarray function (or None), filled on first use: the per-call cost is one dict lookup.
_functions = {}


def _package():
    import cuarray
    return cuarray


def _resolve(func):
    """cuarray's function of the same module path and name as NumPy's ``func``, or None."""
    module = getattr(func, "__module__", None) or ""
    name = getattr(func, "__name__", None)
    parts = module.split(".")
    if parts[0] != "numpy" or not name:
        return None
    target = _package()
    for part in parts[1:]:
        target = getattr(target, part, None)
        if target is None:
            return None
    impl = getattr(target, name, None)
    # A name cuarray takes from NumPy itself (dtype helpers) would only send the call back here.
    if impl is None or impl is func or not callable(impl):
        return None
    return impl


def implementation(func):
    """The cuarray function that ``__array_function__`` runs for NumPy's ``func`` (None if there is none)."""
    try:
        return _functions[func]
    except KeyError:
        impl = _functions[func] = _resolve(func)
        return impl
    except TypeError:  # an unhashable callable
        return _resolve(func)


def array_function(self, func, types, args, kwargs):
    impl = implementation(func)
    if impl is None:
        return NotImplemented
    nd = type(self)
    for t in types:
        if t is not nd and not issubclass(t, (nd, numpy.ndarray)):
            return NotImplemented
    return impl(*args, **kwargs)


# NumPy ufunc -> cuarray ufunc (or None), filled on first use.
_ufuncs = {}
_host_array = numpy.ndarray


class _GufuncCall:
    """NumPy's generalised ufuncs (numpy.matmul, numpy.vecdot) on cuarray arrays: their call only, through
    cuarray's function of the same name (dask.array's matmul calls numpy.matmul on its chunks, as on CuPy's)."""

    def __init__(self, func):
        self.func = func

    def __call__(self, *inputs, out=None, **kwargs):
        if isinstance(out, tuple):
            if len(out) != 1:
                raise ValueError(f"{self.func.__name__} takes one output, got {len(out)}")
            out = out[0]
        if kwargs.pop("subok", True) is not True:
            raise ValueError("subok=False is not supported")
        if out is not None:
            kwargs["out"] = out
        return self.func(*inputs, **kwargs)


def _ufunc_of(uf):
    cuarray = _package()
    ours = getattr(cuarray, getattr(uf, "__name__", ""), None)
    if isinstance(ours, cuarray.ufunc):
        return ours
    if ours is not None and getattr(uf, "signature", None) is not None and callable(ours):
        return _GufuncCall(ours)
    return None


def array_ufunc(self, uf, method, *inputs, **kwargs):
    try:
        ours = _ufuncs[uf]
    except KeyError:
        ours = _ufuncs[uf] = _ufunc_of(uf)
    if ours is None:
        return NotImplemented
    # NumPy hands its own scalars over as 0-d host arrays (numpy.complex64(1j) == gpu_a); as scalars they are
    # strong operands of their dtype, which is what a 0-d array is to NumPy.
    for x in inputs:
        if type(x) is _host_array:
            inputs = tuple(y[()] if type(y) is _host_array and y.ndim == 0 else y for y in inputs)
            break
    if method == "__call__":
        return ours(*inputs, **kwargs)
    if type(ours) is _GufuncCall:
        return NotImplemented  # NumPy's gufuncs have no reduce/accumulate/outer/at either
    if method in _UFUNC_METHODS:
        return getattr(ours, method)(*inputs, **kwargs)
    return NotImplemented
