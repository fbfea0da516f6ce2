"""Argument normalisation shared by cuarray.scipy.ndimage: modes, sequences, axes, origins and output arrays."""
import numbers
import operator
from collections.abc import Iterable

import numpy

from cuarray import _core
from cuarray._core import ndarray as _DeviceArray

# Filters treat the grid-* modes as their plain counterparts (SciPy's _extend_mode_to_code for filters).
_MODES = {'reflect': 'reflect', 'grid-mirror': 'reflect', 'mirror': 'mirror', 'nearest': 'nearest',
          'wrap': 'wrap', 'grid-wrap': 'wrap', 'constant': 'constant', 'grid-constant': 'constant'}
# Element types the generated kernels read and write (SciPy's ndimage supports the same set).
_CTYPES = {'bool': 'bool', 'int8': 'signed char', 'uint8': 'unsigned char', 'int16': 'short',
           'uint16': 'unsigned short', 'int32': 'int', 'uint32': 'unsigned int', 'int64': 'long long',
           'uint64': 'unsigned long long', 'float32': 'float', 'float64': 'double'}


def check_input(input):
    """The input as a cuarray.ndarray (host arrays are refused, as CuPy's ndimage does)."""
    if not isinstance(input, _core.ndarray):
        raise TypeError(f"input must be a cuarray.ndarray, not {type(input).__name__}")
    return input


def check_dtype(dtype):
    dtype = numpy.dtype(dtype)
    if dtype.name not in _CTYPES and dtype.kind != 'c':
        raise RuntimeError(f"array type not supported: {dtype}")
    return dtype


def mode_code(mode):
    """The boundary rule a filter applies for ``mode`` (RuntimeError as SciPy for unknown modes)."""
    if isinstance(mode, str):
        m = _MODES.get(mode)
        if m is not None:
            return m
    raise RuntimeError('boundary mode not supported')


def is_sequence(x):
    return not isinstance(x, str) and isinstance(x, Iterable)


def normalize_sequence(value, rank):
    """A scalar repeated ``rank`` times, or a sequence of exactly ``rank`` items."""
    if not isinstance(value, str) and numpy.iterable(value):
        out = list(value)
        if len(out) != rank:
            raise RuntimeError("sequence argument must have length equal to input rank")
        return out
    return [value] * rank


def check_axes(axes, ndim):
    """Non-negative, unique axes (all axes for None)."""
    if axes is None:
        return tuple(range(ndim))
    if numpy.isscalar(axes):
        axes = (axes,)
    elif not isinstance(axes, Iterable):
        raise ValueError("axes must be an integer, iterable of integers, or None")
    out = []
    for ax in axes:
        ax = _index(ax)
        if ax < -ndim or ax > ndim - 1:
            raise ValueError(f"specified axis: {ax} is out of range")
        out.append(ax % ndim if ax < 0 else ax)
    if len(set(out)) != len(out):
        raise ValueError("axes must be unique")
    return tuple(out)


def _index(x):
    return operator.index(x)


def normalize_axis(axis, ndim):
    axis = _index(axis)
    if not -ndim <= axis < ndim:
        raise numpy.exceptions.AxisError(axis, ndim)
    return axis % ndim


def invalid_origin(origin, lenw):
    return origin < -(lenw // 2) or origin > (lenw - 1) // 2


def expand_origin(ndim, axes, origin):
    origins = normalize_sequence(origin, len(axes))
    if len(axes) < ndim:
        full = [0] * ndim
        for o, ax in zip(origins, axes):
            full[ax] = o
        origins = full
    return [_index(o) for o in origins]


def expand_footprint(ndim, axes, footprint, name="footprint"):
    if len(axes) < ndim:
        if footprint.ndim != len(axes):
            raise RuntimeError(f"{name}.ndim ({footprint.ndim}) must match len(axes) ({len(axes)})")
        footprint = numpy.expand_dims(footprint, tuple(ax for ax in range(ndim) if ax not in axes))
    return footprint


def expand_mode(ndim, axes, mode):
    if is_sequence(mode):
        modes = normalize_sequence(mode, len(axes))
        full = ['constant'] * ndim
        for m, ax in zip(modes, axes):
            full[ax] = m
        return full
    return mode


def output_dtype(output, input, complex_output=False, shape=None):
    """(dtype, array or None) for ``output=``: None (input's dtype), a dtype or type, a dtype string, or an
    array of the result's ``shape`` (default: input's; SciPy's rules and exceptions)."""
    if output is None:
        if complex_output:
            return numpy.promote_types(input.dtype, numpy.complex64), None
        return input.dtype, None
    if isinstance(output, (type, numpy.dtype)):
        dt = numpy.dtype(output)
        if complex_output and dt.kind != 'c':
            import warnings
            warnings.warn("promoting specified output dtype to complex", stacklevel=4)
            dt = numpy.promote_types(dt, numpy.complex64)
        return dt, None
    if isinstance(output, str):
        dt = numpy.dtype(output)
        if complex_output and dt.kind != 'c':
            raise RuntimeError("output must have complex dtype")
        if not issubclass(dt.type, numpy.number):
            raise RuntimeError("output must have numeric dtype")
        return dt, None
    if not isinstance(output, _core.ndarray):
        raise TypeError(f"output must be None, a dtype or a cuarray.ndarray, not {type(output).__name__}")
    if output.shape != (input.shape if shape is None else tuple(shape)):
        raise RuntimeError("output shape not correct")
    if complex_output and output.dtype.kind != 'c':
        raise RuntimeError("output must have complex dtype")
    return output.dtype, output


def host_array(x, dtype=None):
    """Small parameter arrays (weights, footprints) on the host: validation and offsets need their values."""
    if isinstance(x, _DeviceArray):
        x = x.get()
    return numpy.asarray(x, dtype=dtype)


def is_integral(x):
    return isinstance(x, numbers.Integral)
