"""Shared input handling of cuarray.scipy.linalg: SciPy's dtype choice, check_finite, batch broadcasting."""
import numpy

import cuarray as _cp
from cuarray import _core
from numpy.linalg import LinAlgError  # noqa: F401 - the very class SciPy raises

try:
    from scipy.linalg import LinAlgWarning
except ImportError:  # SciPy is the specification, not a dependency
    class LinAlgWarning(RuntimeWarning):
        """The warning SciPy's linalg gives for ill-conditioned or singular matrices."""


def lapack_dtype(dt):
    """The dtype SciPy's LAPACK wrappers compute in: float32/complex64 where the input fits, else 64-bit."""
    dt = numpy.dtype(dt)
    if dt.kind == 'c':
        if dt.itemsize > 16:
            raise TypeError('The dtype {} cannot be cast to float(32, 64) or complex(64, 128).'.format(dt))
        return dt
    if dt.kind in 'biuf':
        if dt.kind == 'f' and dt.itemsize > 8:
            raise TypeError('The dtype {} cannot be cast to float(32, 64) or complex(64, 128).'.format(dt))
        return numpy.promote_types(dt, numpy.float32)
    raise TypeError('array type {} is unsupported in linalg'.format(dt))


def common_lapack_dtype(*dts):
    return lapack_dtype(numpy.result_type(*[lapack_dtype(d) for d in dts]))


def asarray_validated(a, check_finite=True):
    """cuarray.asarray(a); with check_finite, SciPy's ValueError for inf or NaN (one device-to-host read)."""
    a = _cp.asarray(a)
    if a.dtype.kind not in 'biufc':
        raise ValueError('object arrays are not supported')
    if check_finite and not _core._lapack.all_finite(a):
        raise ValueError('array must not contain infs or NaNs')
    return a


def all_finite(*arrays):
    """Whether every element of `arrays` is finite, with one device-to-host read for all of them.

    The solvers run first and check afterwards (Note [one read per solve], _decomp.py): each read waits for the
    GPU, so two or three of them per call left it idle between calls. One reduction reads each array in place."""
    return _core._lapack.all_finite(*arrays)


def require_finite(*arrays):
    """SciPy's check_finite ValueError unless `arrays` are all finite (one device-to-host read)."""
    if not all_finite(*arrays):
        raise ValueError('array must not contain infs or NaNs')


def as_lapack(a, dt=None):
    return a.astype(lapack_dtype(a.dtype) if dt is None else dt, copy=False)


def require_matrices(a, square=False, what='a'):
    if a.ndim < 2:
        raise ValueError('expected matrix' if not square else 'expected square matrix')
    if square and a.shape[-1] != a.shape[-2]:
        raise ValueError('expected square matrix')


def trans_code(trans):
    codes = {0: 0, 1: 1, 2: 2, 'N': 0, 'T': 1, 'C': 2, 'n': 0, 't': 1, 'c': 2}
    try:
        return codes[trans]
    except (KeyError, TypeError):
        raise ValueError('incorrect value for trans') from None


def broadcast_rhs(a, b, a_core=2):
    """Broadcast the batch dimensions of matrices `a` (..., N, N) and right-hand sides b: SciPy's '1|2' rule
    (a 1-D b is one vector, otherwise b's last two axes are its matrices). Returns (a, b2, vector)."""
    vector = b.ndim == 1
    b2 = b[:, None] if vector else b
    batch = numpy.broadcast_shapes(a.shape[:a.ndim - a_core], b2.shape[:-2])
    a = _cp.broadcast_to(a, batch + a.shape[a.ndim - a_core:])
    b2 = _cp.broadcast_to(b2, batch + b2.shape[-2:])
    return a, b2, vector


def host_ints(x):
    """Small int arrays (cuSOLVER info) to the host."""
    return numpy.asarray(x.get()).reshape(-1)


def eye_like(n, m, dt, batch=()):
    e = _cp.eye(n, m, dtype=dt)
    return _cp.broadcast_to(e, tuple(batch) + (n, m)) if batch else e
