"""NumPy arrays in pinned host memory (CuPy's cupyx.empty_pinned and friends)."""
import math
import operator

import numpy

from cuarray.cuda.pinned_memory import alloc_pinned_memory


def _shape_tuple(shape):
    if isinstance(shape, (int, numpy.integer)):
        return (int(shape),)
    return tuple(operator.index(s) for s in shape)


def _like_layout(a, dtype, order, shape):
    """(order, strides) of numpy.empty_like(a, dtype, order, shape=shape), without allocating: strides
    follow `a`'s axis order for 'K' (and 'A' on a Fortran array), else None with a plain 'C' or 'F'."""
    order = "K" if order is None else str(order).upper()
    if order not in ("C", "F", "A", "K"):
        raise ValueError(f"order must be one of 'C', 'F', 'A', or 'K' (got {order!r})")
    a_shape = tuple(a.shape)
    f_only = a.ndim > 1 and bool(a.flags.f_contiguous) and not bool(a.flags.c_contiguous)
    if order == "A":
        return ("F" if f_only else "C"), None
    if order != "K":
        return order, None
    if shape != a_shape and len(shape) != len(a_shape):
        return "C", None
    if bool(a.flags.c_contiguous):
        return "C", None
    if f_only:
        return "F", None
    # Axes from the largest |stride| to the smallest (ties keep the axis order), packed in that order.
    perm = sorted(range(len(a_shape)), key=lambda ax: -abs(a.strides[ax]))
    itemsize = numpy.dtype(dtype).itemsize
    strides = [0] * len(shape)
    step = itemsize
    for ax in reversed(perm):
        strides[ax] = step
        step *= max(shape[ax], 1)
    return "C", tuple(strides)


def _pinned_ndarray(shape, dtype, order, strides=None):
    dtype = numpy.dtype(dtype)
    nbytes = math.prod(shape) * dtype.itemsize
    mem = alloc_pinned_memory(nbytes)
    # numpy.ndarray keeps `mem` alive as its base; the block returns to the pool when the array goes.
    return numpy.ndarray(shape, dtype=dtype, buffer=mem, order=order, strides=strides)


def empty_pinned(shape, dtype=float, order="C"):
    """numpy.empty in pinned (page-locked) host memory from cuarray's pinned memory pool: transfers to and
    from the device use it directly, without staging."""
    shape = _shape_tuple(shape)
    if any(s < 0 for s in shape):
        raise ValueError("negative dimensions are not allowed")
    if order not in ("C", "F", "c", "f"):
        raise ValueError(f"order must be one of 'C' or 'F' (got {order!r})")
    return _pinned_ndarray(shape, dtype, order.upper())


def zeros_pinned(shape, dtype=float, order="C"):
    """numpy.zeros in pinned host memory."""
    out = empty_pinned(shape, dtype, order)
    numpy.copyto(out, 0, casting="unsafe")
    return out


def empty_like_pinned(a, dtype=None, order="K", subok=None, shape=None):
    """numpy.empty_like(a) in pinned host memory; ``a`` may be a NumPy or a cuarray array."""
    if subok is not None:
        raise TypeError("subok is not supported yet")
    if dtype is None:
        dtype = a.dtype
    shape = tuple(a.shape) if shape is None else _shape_tuple(shape)
    if any(s < 0 for s in shape):
        raise ValueError("negative dimensions are not allowed")
    layout_order, strides = _like_layout(a, dtype, order, shape)
    return _pinned_ndarray(shape, dtype, layout_order, strides)


def zeros_like_pinned(a, dtype=None, order="K", subok=None, shape=None):
    """numpy.zeros_like(a) in pinned host memory."""
    out = empty_like_pinned(a, dtype, order, subok, shape)
    numpy.copyto(out, 0, casting="unsafe")
    return out
