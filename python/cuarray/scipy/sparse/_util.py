"""Helpers shared by cuarray.scipy.sparse: dtypes, index dtypes, shapes, and the compiled primitives."""
import operator

import numpy

import cuarray as xp

# The dtypes cuSPARSE computes in; others are upcast on construction (integers and bool to float64, float16 to
# float32, as SciPy's upcast would compute them) or refused.
SUPPORTED = (numpy.dtype('float32'), numpy.dtype('float64'), numpy.dtype('complex64'), numpy.dtype('complex128'))
_INT32_MAX = numpy.iinfo(numpy.int32).max


def prims():
    """The compiled cuSPARSE primitives (cuarray._core.sparse)."""
    from cuarray import _core
    return _core.sparse


def out_of_memory_error():
    return xp.cuda.memory.OutOfMemoryError


def to_host(a):
    return xp.asnumpy(a)


def coerce_dtype(dtype):
    """The storage dtype for a requested or inferred dtype (see SUPPORTED)."""
    dt = numpy.dtype(dtype)
    if dt in SUPPORTED:
        return dt
    if dt.kind in 'biu':
        return numpy.dtype('float64')
    if dt == numpy.float16:
        return numpy.dtype('float32')
    raise ValueError('Only float32, float64, complex64 and complex128 are supported, not {}'.format(dt))


def upcast(*dtypes):
    return coerce_dtype(numpy.result_type(*dtypes))


def index_dtype(*arrays, maxval=None, check_contents=False):
    """int32 when every value fits (SciPy's get_index_dtype), int64 otherwise."""
    need64 = maxval is not None and maxval > _INT32_MAX
    for a in arrays:
        if a is None:
            continue
        if a.dtype == numpy.int64 and not need64 and check_contents and a.size:
            if int(a.max()) > _INT32_MAX or int(a.min()) < -_INT32_MAX:
                need64 = True
        elif a.dtype.itemsize > 4 or a.dtype == numpy.uint32:
            if not check_contents:
                need64 = True
    return numpy.dtype('int64') if need64 else numpy.dtype('int32')


def check_shape(shape):
    """A 2-tuple of non-negative ints; ValueError / TypeError as SciPy."""
    try:
        shape = tuple(operator.index(s) for s in shape)
    except TypeError:
        raise TypeError('invalid shape: {!r}'.format(shape)) from None
    if len(shape) != 2:
        raise ValueError('shape must be a 2-tuple, got {!r}'.format(shape))
    if shape[0] < 0 or shape[1] < 0:
        raise ValueError("'shape' elements cannot be negative")
    return shape


def isscalarlike(x):
    return numpy.isscalar(x) or (isdense(x) and x.ndim == 0) or (isinstance(x, numpy.ndarray) and x.ndim == 0)


def isdense(x):
    return isinstance(x, xp.ndarray)


def isintlike(x):
    if isinstance(x, (bool, numpy.bool_)):
        return False
    try:
        operator.index(x)
        return True
    except TypeError:
        return False


def segment_sum(idx, vals, n, dtype):
    """out[i] = sum of vals where idx == i, for i < n, in `dtype` (bincount on the real and imaginary parts)."""
    if vals.dtype.kind == 'c':
        re = xp.bincount(idx, weights=vals.real, minlength=n)
        im = xp.bincount(idx, weights=vals.imag, minlength=n)
        return (re[:n] + 1j * im[:n]).astype(dtype, copy=False)
    if vals.dtype == numpy.bool_:
        vals = vals.astype(numpy.int64)
    return xp.bincount(idx, weights=vals, minlength=n)[:n].astype(dtype, copy=False)


def expand_ptr(indptr, n_major, nnz=None):
    """The major index of each stored entry: row indices of a CSR matrix."""
    # Entry k lies in line r where indptr[r] <= k < indptr[r + 1], i.e. r = #{indptr[1:] <= k}: one binary search
    # per entry on the device. xp.repeat with device counts would copy them to the host and build the nnz-long
    # index map there (hundreds of ms at 10**7 entries).
    if nnz is None:
        nnz = int(indptr[-1]) if indptr.size else 0
    if nnz == 0 or n_major == 0:
        return xp.empty(0, dtype=indptr.dtype)
    pos = xp.arange(nnz, dtype=indptr.dtype)
    return xp.searchsorted(indptr[1:], pos, side='right').astype(indptr.dtype, copy=False)


def repeat_counts(values, counts, total=None):
    """xp.repeat(values, counts) for a 1-D device `counts` (non-negative), computed on the device."""
    # xp.repeat copies device counts to the host and builds the output's index map there; here output slot k takes
    # the value whose cumulative-count interval holds k.
    ends = xp.cumsum(counts.astype(numpy.int64))
    if total is None:
        total = int(ends[-1]) if ends.size else 0
    if total == 0:
        return values[:0]
    src = xp.searchsorted(ends, xp.arange(total, dtype=numpy.int64), side='right')
    return values[src]


def make_indptr(major, n_major, dtype):
    """indptr of entries with the given (sorted) major indices."""
    counts = xp.bincount(major, minlength=n_major)[:n_major] if major.size else xp.zeros(n_major, dtype=numpy.int64)
    out = xp.zeros(n_major + 1, dtype=dtype)
    if n_major:
        out[1:] = xp.cumsum(counts)
    return out
