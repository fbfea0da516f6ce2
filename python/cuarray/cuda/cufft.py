"""Explicit cuFFT plans with CuPy's cupy.cuda.cufft API: Plan1d, PlanNd, get_current_plan, the CUFFT_* constants.

A plan holds its cuFFT handle and its work area (from the memory pool) until it is deleted, and is not in the
plan cache of cuarray.fft.config. ``with plan:`` makes it the thread's current plan: the cuarray.fft functions
called inside run their transforms with it, and raise ValueError when a transform does not match it (type,
lengths, batch), as CuPy's do. Transforms run on one GPU: multi-GPU plans (cufftXt) are not supported.
"""
import threading

import numpy

from cuarray import _core

_c = _core._cufft

CUFFT_C2C = 0x29
CUFFT_R2C = 0x2a
CUFFT_C2R = 0x2c
CUFFT_Z2Z = 0x69
CUFFT_D2Z = 0x6a
CUFFT_Z2D = 0x6c
CUFFT_FORWARD = -1
CUFFT_INVERSE = 1

_TYPES = {
    # fft_type: (input dtype, output dtype)
    CUFFT_C2C: (numpy.complex64, numpy.complex64),
    CUFFT_Z2Z: (numpy.complex128, numpy.complex128),
    CUFFT_R2C: (numpy.float32, numpy.complex64),
    CUFFT_D2Z: (numpy.float64, numpy.complex128),
    CUFFT_C2R: (numpy.complex64, numpy.float32),
    CUFFT_Z2D: (numpy.complex128, numpy.float64),
}

_local = threading.local()


def get_current_plan():
    """The plan of the innermost ``with plan:`` block of this thread, or None."""
    return getattr(_local, "plan", None)


def _check_type(fft_type):
    fft_type = int(fft_type)
    if fft_type not in _TYPES:
        raise ValueError(f"invalid cuFFT type {fft_type:#x}: use one of the CUFFT_* types")
    return fft_type


def _no_multi_gpu():
    raise RuntimeError("cuarray runs cuFFT plans on one GPU: multi-GPU transforms (cufftXt) are not supported")


class _PlanBase:
    def __enter__(self):
        _local.plan = self
        self._plan.make_current()
        return self

    def __exit__(self, exc_type, exc_value, traceback):
        _local.plan = None
        _c._clear_current()

    def fft(self, a, out, direction):
        """Run the transform from ``a`` into ``out`` (cuarray arrays of the plan's dtypes, C-contiguous) on the
        current stream; ``direction`` is CUFFT_FORWARD or CUFFT_INVERSE (c2c only; the real types' direction is
        their own). Unnormalised, as cuFFT computes."""
        if self.fft_type in (CUFFT_R2C, CUFFT_D2Z):
            direction = CUFFT_FORWARD
        elif self.fft_type in (CUFFT_C2R, CUFFT_Z2D):
            direction = CUFFT_INVERSE
        self._plan.execute(a, out, int(direction))

    @property
    def work_size(self):
        """Bytes of the work area the plan holds."""
        return self._plan.work_size

    @property
    def handle(self):
        """The cufftHandle."""
        return self._plan.handle

    @property
    def gpus(self):
        return None


class Plan1d(_PlanBase):
    """A batched 1-D plan of ``nx`` points (the real length for R2C/C2R and their double forms), ``batch``
    transforms one after another in memory (cuFFT's basic layout)."""

    def __init__(self, nx, fft_type, batch, *, devices=None, out=None):
        if devices is not None:
            _no_multi_gpu()
        self.nx = int(nx)
        self.fft_type = _check_type(fft_type)
        self.batch = int(batch)
        self._plan = _c._make_plan([self.nx], None, 1, 0, None, 1, 0, self.fft_type, self.batch)

    def get_output_array(self, a):
        """A new array for the result of fft(a): a's shape, the last axis nx // 2 + 1 for R2C/D2Z, nx for
        C2R/Z2D."""
        import cuarray
        shape = list(a.shape)
        if self.fft_type in (CUFFT_R2C, CUFFT_D2Z):
            shape[-1] = shape[-1] // 2 + 1
        elif self.fft_type in (CUFFT_C2R, CUFFT_Z2D):
            shape[-1] = self.nx
        return cuarray.empty(shape, _TYPES[self.fft_type][1])


class PlanNd(_PlanBase):
    """An n-dimensional plan (1 to 3 dimensions) over ``shape`` with cuFFT's advanced layout (``inembed``,
    ``istride``, ``idist``, ``onembed``, ``ostride``, ``odist``; both embeddings None: the basic layout).
    ``order`` ('C' or 'F'), ``last_axis`` and ``last_size`` describe the arrays the plan is for: the halved axis
    of R2C/C2R and its real length (None for C2C)."""

    def __init__(self, shape, inembed, istride, idist, onembed, ostride, odist, fft_type, batch, order, last_axis,
                 last_size):
        if order not in ("C", "F"):
            raise ValueError(f"order must be 'C' or 'F', not {order!r}")
        self.shape = tuple(int(n) for n in shape)
        self.fft_type = _check_type(fft_type)
        self.batch = int(batch)
        self.order = order
        self.last_axis = last_axis
        self.last_size = last_size
        self._plan = _c._make_plan(list(self.shape), None if inembed is None else list(inembed), int(istride),
                                   int(idist), None if onembed is None else list(onembed), int(ostride), int(odist),
                                   self.fft_type, self.batch)

    def get_output_array(self, a, order="C"):
        """A new array for the result of fft(a) in ``order``: a's shape, the axis ``last_axis`` of length
        ``last_size`` for C2R/Z2D and halved for R2C/D2Z."""
        import cuarray
        shape = list(a.shape)
        if self.fft_type in (CUFFT_R2C, CUFFT_D2Z):
            shape[self.last_axis] = shape[self.last_axis] // 2 + 1
        elif self.fft_type in (CUFFT_C2R, CUFFT_Z2D):
            shape[self.last_axis] = self.last_size
        return cuarray.empty(shape, _TYPES[self.fft_type][1], order=order)


__all__ = ["CUFFT_C2C", "CUFFT_C2R", "CUFFT_D2Z", "CUFFT_FORWARD", "CUFFT_INVERSE", "CUFFT_R2C", "CUFFT_Z2D",
           "CUFFT_Z2Z", "Plan1d", "PlanNd", "get_current_plan"]
