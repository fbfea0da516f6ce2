"""get_fft_plan (CuPy's cupyx.scipy.fftpack.get_fft_plan) and the `plan=` keyword of cuarray.scipy.fft/fftpack."""
import contextlib
import operator

import numpy

from cuarray.scipy.fft import _helper

_VALUE_TYPES = ("C2C", "R2C", "C2R")


@contextlib.contextmanager
def _no_plan():
    yield


def using(plan):
    """The context a transform runs in: ``with plan:`` (cuarray.cuda.cufft's current plan) or nothing. A plan that
    does not fit the transform makes cuarray.fft raise ValueError, as CuPy does."""
    if plan is None:
        return _no_plan()
    if not hasattr(plan, "__enter__") or not hasattr(plan, "fft_type"):
        raise TypeError("plan must be a cuFFT plan (cuarray.cuda.cufft.Plan1d or PlanNd), not {}".format(
            type(plan).__name__))
    return plan


def is_nd_c2r(plan):
    """A multi-dimensional C2R/Z2D plan: cuarray.fft computes irfftn as NumPy does (c2c passes, then one 1-D C2R),
    which such a plan cannot run; those transforms check the plan's lengths and run without it."""
    if plan is None:
        return False
    from cuarray.cuda import cufft
    return getattr(plan, "fft_type", None) in (cufft.CUFFT_C2R, cufft.CUFFT_Z2D) and \
        len(getattr(plan, "shape", ())) > 1


def _fft_type(dtype, value_type):
    from cuarray.cuda import cufft
    dtype = numpy.dtype(dtype)
    single = dtype in (numpy.float16, numpy.float32, numpy.complex64)
    if value_type == "C2C":
        return cufft.CUFFT_C2C if single else cufft.CUFFT_Z2Z
    if value_type == "R2C":
        if dtype.kind == "c":
            raise ValueError("value_type 'R2C' needs a real input array, not {}".format(dtype))
        return cufft.CUFFT_R2C if single else cufft.CUFFT_D2Z
    return cufft.CUFFT_C2R if single else cufft.CUFFT_Z2D


def get_fft_plan(a, shape=None, axes=None, value_type="C2C"):
    """A cuFFT plan for transforming `a` (CuPy's cupyx.scipy.fftpack.get_fft_plan), to pass as ``plan=`` or to use
    as ``with plan:``. `shape` is the transform's lengths along `axes` (for 'C2R' the real output lengths), `axes`
    one to three axes (default: the last len(shape), or all), `value_type` 'C2C', 'R2C' or 'C2R'. One axis gives
    a cuarray.cuda.cufft.Plan1d, several a PlanNd. The plan is not put in the plan cache."""
    from cuarray.cuda import cufft
    if value_type not in _VALUE_TYPES:
        raise ValueError("value_type must be 'C2C', 'R2C' or 'C2R', not {!r}".format(value_type))
    a = _helper.as_array(a)
    if a.flags.c_contiguous:
        order = "C"
    elif a.flags.f_contiguous:
        order = "F"
    else:
        raise ValueError("Input array a must be contiguous")
    if shape is not None:
        shape = (operator.index(shape),) if numpy.ndim(shape) == 0 else tuple(
            None if k is None else operator.index(k) for k in shape)
    if axes is not None:
        axes = (operator.index(axes),) if numpy.ndim(axes) == 0 else tuple(operator.index(k) for k in axes)
    if shape is not None and axes is not None and len(shape) != len(axes):
        raise ValueError("Shape and axes have different lengths.")
    ndim = a.ndim
    if axes is None:
        count = ndim if shape is None else len(shape)
        axes = tuple(range(-count, 0))
    for ax in axes:
        if ax < -ndim or ax >= ndim:
            raise ValueError("The chosen axis ({}) exceeds the number of dimensions of a ({})".format(ax, ndim))
    axes = tuple(ax % ndim for ax in axes)
    if not axes:
        raise ValueError("at least one axis must be transformed")
    if len(axes) > 3:
        raise ValueError("Only up to three axes is supported")
    if len(set(axes)) != len(axes):
        raise ValueError("repeated axes are not supported by a cuFFT plan")
    # The array as the transform sees it: for C2R the halved axis holds s // 2 + 1 terms.
    full = list(a.shape)
    if shape is not None:
        for k, ax in zip(shape, axes):
            if k is not None:
                full[ax] = k // 2 + 1 if (value_type == "C2R" and ax == axes[-1]) else k
    last = axes[-1]
    if value_type == "C2R":
        real_len = shape[-1] if (shape is not None and shape[-1] is not None) else 2 * (full[last] - 1)
    else:
        real_len = full[last]
    lengths = [full[ax] for ax in axes]
    lengths[-1] = real_len
    for k in lengths:
        _helper.check_n(k)
    fft_type = _fft_type(a.dtype, value_type)
    batch = 1
    for ax in range(ndim):
        if ax not in axes:
            batch *= full[ax]
    if len(axes) == 1:
        return cufft.Plan1d(real_len, fft_type, max(batch, 1))
    if value_type != "C2C" and order == "F" and ndim > 1 and not a.flags.c_contiguous:
        raise ValueError("C2R/R2C PlanNd for F-order arrays is not supported")
    if sorted(axes) != list(range(min(axes), max(axes) + 1)):
        raise ValueError("the axes of a cuFFT plan must be adjacent in memory, not {}".format(axes))
    # cuarray.fft runs a group of axes outermost first in memory order (the halved axis last); a plan made for
    # that order matches the transform after cuarray.fft makes the batch axes outermost.
    strides = a.strides
    if value_type == "C2C":
        plan_axes = sorted(axes, key=lambda ax: -abs(strides[ax]))
    else:
        plan_axes = sorted(axes[:-1], key=lambda ax: -abs(strides[ax])) + [last]
    n = [real_len if ax == last else full[ax] for ax in plan_axes]
    return cufft.PlanNd(n, None, 1, 0, None, 1, 0, fft_type, max(batch, 1), order, last,
                        None if value_type == "C2C" else real_len)
