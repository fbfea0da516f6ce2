"""Floating-point error control (errstate, seterr, geterr, seterrcall, geterrcall) and the all-NaN warnings of
nanmin/nanmax.

Note [floating-point errors on the GPU]: NumPy reads the CPU's floating-point status flags after each ufunc loop
and warns, raises or calls a function per category (divide, over, under, invalid). A GPU has no such flags that
a kernel could read back cheaply, and CUDA offers no trapping: division by zero, overflow, underflow and invalid
operations in device code silently give inf, 0 or NaN, as IEEE 754 says. So cuarray's error state is
NumPy-shaped (the same functions, keywords, values, defaults, context-manager and decorator behaviour, per
thread and per asyncio task) but device computations never consult it: nothing is warned, raised or called for
them, whatever the setting (CuPy does the same, and its ``cupyx.errstate`` raises NotImplementedError for the
four categories instead). Checks cuarray makes on the host are not floating-point errors and do not depend on
it either: LinAlgError for singular matrices (always raised, as NumPy), the RuntimeWarnings for empty means and
all-NaN slices, ComplexWarning.
"""
import contextlib
import contextvars
import warnings

from cuarray import _core

__all__ = ["errstate", "seterr", "geterr", "seterrcall", "geterrcall", "nanmin", "nanmax"]

_CATEGORIES = ("divide", "over", "under", "invalid")
_ACTIONS = ("ignore", "warn", "raise", "call", "print", "log")
_LINALG_ACTIONS = ("ignore", "raise")

# NumPy's defaults; 'linalg' is cupyx.errstate's key (its default there is 'ignore': CuPy skips the singular-matrix
# check; cuarray always checks, as NumPy does, hence 'raise').
_DEFAULT = {"divide": "warn", "over": "warn", "under": "ignore", "invalid": "warn", "linalg": "raise"}
_state = contextvars.ContextVar("cuarray_errstate", default=None)
_call = contextvars.ContextVar("cuarray_errcall", default=None)


def _full_state():
    state = _state.get()
    return dict(_DEFAULT if state is None else state)


def geterr():
    """The current error handling: a dict with 'divide', 'over', 'under', 'invalid' (NumPy's keys and defaults:
    'warn', 'warn', 'ignore', 'warn').

    The setting is kept for NumPy- and CuPy-compatible code; device computations do not detect floating-point
    errors and never act on it (Note [floating-point errors on the GPU] in cuarray/_errstate.py).
    """
    return {k: v for k, v in _full_state().items() if k in _CATEGORIES}


def seterr(all=None, divide=None, over=None, under=None, invalid=None, *, linalg=None):  # noqa: A002 - NumPy's name
    """Set how floating-point errors are to be handled, as numpy.seterr (values 'ignore', 'warn', 'raise', 'call',
    'print', 'log'; `all` sets every category the others leave None); returns the previous settings.

    GPU kernels cannot detect division by zero, overflow, underflow or invalid operations, so no setting makes a
    device computation warn or raise: results are IEEE 754's inf/0/NaN, silently. ``linalg`` ('ignore' or
    'raise', cupyx.seterr's key) is accepted and stored; cuarray.linalg always raises LinAlgError for singular
    input, as NumPy does.
    """
    new = _full_state()
    old = {k: v for k, v in new.items() if k in _CATEGORIES}
    for name, value in (("divide", divide), ("over", over), ("under", under), ("invalid", invalid)):
        if value is None:
            value = all
        if value is None:
            continue
        if value not in _ACTIONS:
            raise ValueError(f"invalid error mode {value!r}")
        new[name] = value
    if linalg is not None:
        if linalg not in _LINALG_ACTIONS:
            raise ValueError(f"invalid error mode {linalg!r} for 'linalg' (one of 'ignore', 'raise')")
        new["linalg"] = linalg
    _state.set(new)
    return old


def geterrcall():
    """The function (or object with a ``write`` method) set by :func:`seterrcall`, or None. cuarray's device
    computations never call it (see :func:`seterr`)."""
    return _call.get()


def _check_call(func):
    if func is not None and not callable(func):
        if not hasattr(func, "write") or not callable(func.write):
            raise TypeError("python object must be callable or have a callable write method")


def seterrcall(func):
    """Set the floating-point error callback ('call' mode) or log object ('log' mode), as numpy.seterrcall; returns
    the old one. Kept for compatibility: device computations detect no floating-point errors, so it is never
    called by them."""
    _check_call(func)
    old = _call.get()
    _call.set(func)
    return old


_UNSPECIFIED = object()


class errstate(contextlib.ContextDecorator):
    """Context manager and decorator for the floating-point error handling, as numpy.errstate (``call``, ``all``,
    ``divide``, ``over``, ``under``, ``invalid``; plus ``linalg``, cupyx.errstate's key). The settings are
    restored on exit.

    The settings reach no device computation: GPU kernels cannot detect floating-point errors (see
    :func:`seterr`), so ``with cuarray.errstate(divide='raise'): x / 0`` gives inf without an exception.
    """

    def __init__(self, *, call=_UNSPECIFIED, all=None, divide=None, over=None, under=None,  # noqa: A002
                 invalid=None, linalg=None):
        self._call = call
        self._kwargs = {"all": all, "divide": divide, "over": over, "under": under, "invalid": invalid,
                        "linalg": linalg}
        self._tokens = []

    def __enter__(self):
        if self._call is not _UNSPECIFIED:
            _check_call(self._call)
        previous = _state.get()
        seterr(**self._kwargs)  # validates every value before it changes anything
        call_token = _call.set(self._call) if self._call is not _UNSPECIFIED else None
        self._tokens.append((previous, call_token))

    def __exit__(self, *exc_info):
        previous, call_token = self._tokens.pop()
        _state.set(previous)
        if call_token is not None:
            _call.reset(call_token)


# ---------------------------------------------------------------------------------------------------------
# nanmin / nanmax: NumPy's "All-NaN slice encountered" RuntimeWarning. Telling an all-NaN slice needs the
# result on the host (one device-to-host read of a bool), which CuPy does too; integer and bool input cannot
# hold NaN and is not read back.

_isnan = _core.get_ufunc("isnan")


def _warn_all_nan(result):
    if isinstance(result, _core.ndarray) and result.dtype.kind in "fc" and result.size > 0 and bool(_isnan(result).any()):
        warnings.warn("All-NaN slice encountered", RuntimeWarning, stacklevel=3)
    return result


def nanmin(a, axis=None, out=None, keepdims=False, initial=None, where=None):
    """Minimum ignoring NaN, as numpy.nanmin: an all-NaN slice gives NaN and a RuntimeWarning ("All-NaN slice
    encountered"). For float and complex input the warning check reads one bool from the device (a sync)."""
    return _warn_all_nan(_core.nanmin(a, axis=axis, out=out, keepdims=keepdims, initial=initial, where=where))


def nanmax(a, axis=None, out=None, keepdims=False, initial=None, where=None):
    """Maximum ignoring NaN, as numpy.nanmax: an all-NaN slice gives NaN and a RuntimeWarning ("All-NaN slice
    encountered"). For float and complex input the warning check reads one bool from the device (a sync)."""
    return _warn_all_nan(_core.nanmax(a, axis=axis, out=out, keepdims=keepdims, initial=initial, where=where))
