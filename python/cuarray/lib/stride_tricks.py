"""cuarray.lib.stride_tricks: strided views of device memory without copying (as_strided, sliding_window_view)."""
import operator

import numpy

from cuarray import _core
from cuarray._core import ndarray
from cuarray._creation import asarray

__all__ = ["as_strided", "sliding_window_view"]


def _allocation_span(x):
    """(offset of x's first element from the start of its allocation, the allocation's size) in bytes."""
    if x.data.ptr == 0:  # an empty array may own no allocation at all
        return 0, 0
    mem = x.data.mem
    return x.data.ptr - mem.ptr, mem.size


def as_strided(x, shape=None, strides=None, subok=False, writeable=True):
    """A view of `x`'s device memory with the given shape and byte strides (default: x's own), as NumPy's
    as_strided: no data moves, and the view may repeat elements (a 0 stride) or walk backwards.

    Unlike NumPy, bad strides cannot read or write outside memory: every element the view can reach must lie in
    the allocation that holds `x` (else ValueError), and each stride must be a multiple of the itemsize (else
    ValueError), since a GPU cannot load an element from a misaligned address. cuarray arrays have no read-only
    flag, so the view is writable whatever `writeable` says (as in CuPy); writing through a view that repeats
    elements is a race between threads. `subok` is accepted for NumPy's signature (cuarray has no subclasses).
    """
    x = asarray(x)
    shape = x.shape if shape is None else tuple(operator.index(n) for n in shape)
    strides = x.strides if strides is None else tuple(operator.index(s) for s in strides)
    if len(shape) != len(strides):
        raise ValueError("mismatch in length of strides and shape")
    if any(n < 0 for n in shape):
        raise ValueError("negative dimensions are not allowed")
    itemsize = x.itemsize
    bad = [s for s in strides if s % itemsize != 0]
    if bad:
        raise ValueError(f"as_strided: stride {bad[0]} is not a multiple of the itemsize {itemsize} "
                         f"(a GPU cannot read misaligned {x.dtype} elements)")
    if all(n > 0 for n in shape):
        low = sum((n - 1) * s for n, s in zip(shape, strides) if s < 0)
        high = sum((n - 1) * s for n, s in zip(shape, strides) if s > 0) + itemsize
        start, size = _allocation_span(x)
        if start + low < 0 or start + high > size:
            raise ValueError(
                f"as_strided: a view of shape {shape} and strides {strides} reaches bytes [{start + low}, "
                f"{start + high}) of an allocation of {size} bytes")
    return ndarray(shape, x.dtype, memptr=x.data, strides=strides)


def sliding_window_view(x, window_shape, axis=None, *, subok=False, writeable=False):
    """Every window of `window_shape` over `x` as a view (no copy): the result's shape is x's shape with each
    windowed axis shortened by its window size - 1, followed by the window shape, as NumPy's sliding_window_view.

    `axis` (an int or a tuple; default every axis) names the axes the windows slide along, one window size
    each; an axis may be repeated in `axis` (windows of windows). The view is writable whatever `writeable`
    says (cuarray arrays have no read-only flag), and its windows overlap: write to it with care. `subok` is
    accepted for NumPy's signature.
    """
    window_shape = tuple(window_shape) if numpy.iterable(window_shape) else (window_shape,)
    window_shape = tuple(operator.index(w) for w in window_shape)
    x = asarray(x)
    if any(w < 0 for w in window_shape):
        raise ValueError("`window_shape` cannot contain negative values")
    if axis is None:
        axis = tuple(range(x.ndim))
        if len(window_shape) != len(axis):
            raise ValueError(f"Since axis is `None`, must provide window_shape for all dimensions of `x`; got "
                             f"{len(window_shape)} window_shape elements and `x.ndim` is {x.ndim}.")
    else:
        # Repeats are allowed here (NumPy normalizes with allow_duplicate=True).
        axis = tuple(_core._normalize_axis_tuple(tuple(axis) if numpy.iterable(axis) else axis, x.ndim, True))
        if len(window_shape) != len(axis):
            raise ValueError(f"Must provide matching length window_shape and axis; got {len(window_shape)} "
                             f"window_shape elements and {len(axis)} axes elements.")
    trimmed = list(x.shape)
    for a, w in zip(axis, window_shape):
        if trimmed[a] < w:
            raise ValueError("window shape cannot be larger than input array shape")
        trimmed[a] -= w - 1
    strides = x.strides + tuple(x.strides[a] for a in axis)
    return as_strided(x, shape=tuple(trimmed) + window_shape, strides=strides, subok=subok, writeable=writeable)
