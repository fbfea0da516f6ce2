"""cuarray.scipy.stats functions: entropy, trim_mean, zscore, zmap, boxcox_llf with SciPy's axis/nan_policy/keepdims."""
import numpy

import cuarray as _cp

_POLICIES = ('propagate', 'omit', 'raise')


def _asarray(x):
    return x if isinstance(x, _cp.ndarray) else _cp.asarray(x)


def _float(a):
    # SciPy keeps float16/32/64 and computes integers and bools in float64.
    return a if a.dtype.kind in 'fc' else a.astype(numpy.float64)


def _policy(nan_policy):
    if nan_policy not in _POLICIES:
        raise ValueError(f"nan_policy must be one of {set(_POLICIES)}.")
    return nan_policy


def _raise_on_nan(*arrays):
    for a in arrays:
        if a.size and bool(_cp.isnan(a).any()):
            raise ValueError("The input contains nan values")


def _axis(a, axis):
    """(array with the reduced axis last, normalised axis); axis=None ravels."""
    if axis is None:
        return a.reshape(-1), None
    nd = a.ndim
    if not -nd <= axis < nd:
        raise numpy.exceptions.AxisError(f"axis {axis} is out of bounds for array of dimension {nd}")
    axis %= nd
    return _cp.moveaxis(a, axis, -1), axis


def _restore(r, ndim, axis, keepdims):
    """r has the reduced axis removed; keepdims puts a length-1 axis back where it was (all axes for None)."""
    if not keepdims:
        return r
    if axis is None:
        return r.reshape((1,) * ndim)
    return _cp.expand_dims(r, axis)


def entropy(pk, qk=None, base=None, axis=0, *, nan_policy='propagate', keepdims=False):
    """Shannon entropy of the distribution pk, or the relative entropy D(pk || qk), along `axis`."""
    _policy(nan_policy)
    pk = _float(_asarray(pk))
    if qk is not None:
        qk = _float(_asarray(qk))
        try:
            shape = numpy.broadcast_shapes(pk.shape, qk.shape)
        except ValueError:
            raise ValueError("Array shapes are incompatible for broadcasting.") from None
        dt = numpy.result_type(pk.dtype, qk.dtype)
        pk = _cp.broadcast_to(pk, shape).astype(dt)
        qk = _cp.broadcast_to(qk, shape).astype(dt)
    ndim = pk.ndim
    if nan_policy == 'raise':
        _raise_on_nan(pk, *(() if qk is None else (qk,)))
    pk, ax = _axis(pk, axis)
    if qk is not None:
        qk, _ = _axis(qk, axis)
    if nan_policy == 'omit':
        # Positions where either sample is NaN drop out of the slice: zero mass contributes nothing.
        bad = _cp.isnan(pk) if qk is None else (_cp.isnan(pk) | _cp.isnan(qk))
        pk = _cp.where(bad, 0, pk)
        if qk is not None:
            qk = _cp.where(bad, 0, qk)
    pk = pk / pk.sum(axis=-1, keepdims=True)
    if qk is None:
        vec = _entr(pk)
    else:
        qk = qk / qk.sum(axis=-1, keepdims=True)
        vec = _rel_entr(pk, qk)
    S = vec.sum(axis=-1)
    if base is not None:
        S = S / numpy.log(base)
    S = S.astype(pk.dtype, copy=False)
    return _restore(S, ndim, ax, keepdims)


def _entr(x):
    pos = x > 0
    v = -x * _cp.log(_cp.where(pos, x, 1))
    return _cp.where(pos, v, _cp.where(x == 0, 0, _cp.where(_cp.isnan(x), x, -numpy.inf)))


def _rel_entr(x, y):
    ok = (x > 0) & (y > 0)
    v = x * _cp.log(_cp.where(ok, x, 1) / _cp.where(ok, y, 1))
    nan = _cp.isnan(x) | _cp.isnan(y)
    other = _cp.where((x == 0) & (y >= 0), 0, numpy.inf)
    return _cp.where(ok, v, _cp.where(nan, numpy.nan, other))


def trim_mean(a, proportiontocut, axis=0, *, nan_policy='propagate', keepdims=False):
    """Mean of `a` along `axis` after cutting int(proportiontocut * n) of the smallest and of the largest values."""
    _policy(nan_policy)
    a = _float(_asarray(a))
    ndim = a.ndim
    if nan_policy == 'raise':
        _raise_on_nan(a)
    if a.ndim == 0:
        a = a.reshape(1)
    x, ax = _axis(a, axis)
    n = x.shape[-1]
    if nan_policy == 'propagate':
        lowercut = int(proportiontocut * n)
        uppercut = n - lowercut
        if lowercut > uppercut:
            raise ValueError("Proportion too big.")
    s = _cp.sort(x, axis=-1)  # NaNs sort last
    if nan_policy == 'omit':
        cnt = (~_cp.isnan(x)).sum(axis=-1)
        lc = _cp.floor(proportiontocut * cnt.astype(numpy.float64)).astype(numpy.int64)
        if n and bool((lc > cnt - lc).any()):
            raise ValueError("Proportion too big.")
        uc = cnt - lc
    else:
        lc = _cp.full(x.shape[:-1], lowercut, dtype=numpy.int64)
        uc = _cp.full(x.shape[:-1], uppercut, dtype=numpy.int64)
    idx = _cp.arange(n)
    keep = (idx >= lc[..., None]) & (idx < uc[..., None])
    total = _cp.where(keep, s, 0).sum(axis=-1, dtype=numpy.float64 if s.dtype == numpy.float16 else None)
    r = (total / (uc - lc)).astype(x.dtype)
    if nan_policy == 'propagate' and n:
        r = _cp.where(_cp.isnan(x).any(axis=-1), numpy.nan, r).astype(x.dtype)
    return _restore(r, ndim, ax, keepdims)


def zmap(scores, compare, axis=0, ddof=0, nan_policy='propagate'):
    """(scores - mean(compare)) / std(compare, ddof) along `axis`, broadcast back over scores."""
    _policy(nan_policy)
    scores = _float(_asarray(scores))
    compare = _float(_asarray(compare))
    if nan_policy == 'raise':
        _raise_on_nan(compare, scores)
    if axis is None:
        c = compare.reshape(-1)
        red, kd = 0, False
    else:
        c = compare
        red, kd = axis, True
    if nan_policy == 'omit':
        mn = _cp.nanmean(c, axis=red, keepdims=kd)
        std = _cp.nanstd(c, axis=red, ddof=ddof, keepdims=kd)
    else:
        mn = c.mean(axis=red, keepdims=kd)
        std = c.std(axis=red, ddof=ddof, keepdims=kd)
    z = (scores - mn) / std
    return z.astype(numpy.result_type(scores.dtype, compare.dtype), copy=False)


def zscore(a, axis=0, ddof=0, nan_policy='propagate'):
    """Standard score of each value of `a` relative to the mean and std of `a` along `axis`."""
    a = _asarray(a)
    return zmap(a, a, axis=axis, ddof=ddof, nan_policy=nan_policy)


def boxcox_llf(lmb, data, *, axis=0, keepdims=False, nan_policy='propagate'):
    """Box-Cox log-likelihood (lmb - 1) sum(log x) - n/2 log(var(boxcox(x, lmb))) along `axis`."""
    _policy(nan_policy)
    data = _float(_asarray(data))
    ndim = data.ndim
    if nan_policy == 'raise':
        _raise_on_nan(data)
    if data.ndim == 0:
        data = data.reshape(1)
    x, ax = _axis(data, axis)
    dt = x.dtype
    logx = _cp.log(x.astype(numpy.float64))
    omit = nan_policy == 'omit'
    n = (~_cp.isnan(x)).sum(axis=-1) if omit else x.shape[-1]
    sm = _cp.nansum if omit else _cp.sum
    lmb = float(lmb)
    if lmb == 0:
        logvar = _cp.log((_cp.nanvar if omit else _cp.var)(logx, axis=-1))
    else:
        # var((x^l - 1) / l) = var(exp(l log x)) / l^2; shifting by the largest exponent keeps exp finite.
        z = lmb * logx
        zmax = (_cp.nanmax if omit else _cp.max)(z, axis=-1, keepdims=True) if z.shape[-1] else \
            _cp.zeros(z.shape[:-1] + (1,))
        zmax = _cp.where(_cp.isfinite(zmax), zmax, 0)
        v = (_cp.nanvar if omit else _cp.var)(_cp.exp(z - zmax), axis=-1)
        logvar = _cp.log(v) + 2 * zmax[..., 0] - 2 * numpy.log(abs(lmb))
    llf = (lmb - 1) * sm(logx, axis=-1) - n / 2.0 * logvar
    if x.shape[-1] == 0:
        llf = _cp.full(x.shape[:-1], numpy.nan)
    return _restore(llf.astype(dt), ndim, ax, keepdims)
