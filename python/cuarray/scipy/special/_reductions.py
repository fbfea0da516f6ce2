"""logsumexp, softmax and log_softmax of cuarray.scipy.special, on cuarray's reductions."""
import numpy


def _as_float(a):
    import cuarray
    a = cuarray.asarray(a)
    if a.dtype.kind not in "fc":
        a = a.astype(numpy.float64)
    return a


def _shifted(a, axis):
    """a - max(a) along axis (the max kept with keepdims; a non-finite max is replaced by 0, as SciPy's, so
    that all -inf or an inf stays a well-defined result)."""
    import cuarray
    if a.size == 0:
        return a, cuarray.zeros((1,) * a.ndim if axis is None else
                                tuple(1 if (k in _axes(axis, a.ndim)) else s for k, s in enumerate(a.shape)),
                                dtype=a.dtype)
    m = cuarray.amax(a.real if a.dtype.kind == "c" else a, axis=axis, keepdims=True)
    m = cuarray.where(cuarray.isfinite(m), m, 0).astype(m.dtype)
    return a - m, m


def _axes(axis, ndim):
    if axis is None:
        return tuple(range(ndim))
    if isinstance(axis, int):
        axis = (axis,)
    return tuple(k % ndim for k in axis)


def logsumexp(a, axis=None, b=None, keepdims=False, return_sign=False):
    """log(sum(b * exp(a))) along axis, computed stably (SciPy's signature)."""
    import cuarray
    a = _as_float(a)
    if b is not None:
        b = cuarray.asarray(b)
        a, b = cuarray.broadcast_arrays(a, b)
        dt = numpy.result_type(a.dtype, b.dtype)
        if dt.kind not in "fc":
            dt = numpy.dtype(numpy.float64)
        a = a.astype(dt, copy=False)
    shifted, m = _shifted(a, axis)
    tmp = cuarray.exp(shifted)
    if b is not None:
        tmp = b * tmp
    s = cuarray.sum(tmp, axis=axis, keepdims=True)
    if return_sign:
        if s.dtype.kind == "c":
            sgn = s / cuarray.abs(s)
            s = cuarray.abs(s)
        else:
            sgn = cuarray.sign(s)
            s = cuarray.abs(s)
    out = cuarray.log(s) + m
    if not keepdims:
        ax = None if axis is None else axis
        out = cuarray.squeeze(out, axis=ax) if ax is not None else out.reshape(())
        if return_sign:
            sgn = cuarray.squeeze(sgn, axis=ax) if ax is not None else sgn.reshape(())
    if return_sign:
        return out, sgn
    return out


def softmax(x, axis=None):
    """exp(x) / sum(exp(x)) along axis (SciPy's signature)."""
    import cuarray
    x = _as_float(x)
    shifted, _ = _shifted(x, axis)
    e = cuarray.exp(shifted)
    return e / cuarray.sum(e, axis=axis, keepdims=True)


def log_softmax(x, axis=None):
    """x - logsumexp(x) along axis, without forming softmax's quotient (SciPy's signature)."""
    import cuarray
    x = _as_float(x)
    shifted, _ = _shifted(x, axis)
    return shifted - cuarray.log(cuarray.sum(cuarray.exp(shifted), axis=axis, keepdims=True))
