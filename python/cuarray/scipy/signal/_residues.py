"""Partial-fraction expansion and its inverse (residue, residuez, invres, invresz) and unique_roots.

These work on a filter's few polynomial coefficients and roots: float64/complex128 NumPy on the host, results
returned as cuarray arrays (as CuPy returns them).
"""
import numpy

import cuarray as _cp


def _host(a):
    return a.get() if isinstance(a, _cp.ndarray) else numpy.asarray(a)


_REDUCE = {'max': numpy.max, 'maximum': numpy.max, 'min': numpy.min, 'minimum': numpy.min, 'avg': numpy.mean,
           'mean': numpy.mean}


def _reducer(rtype):
    if rtype not in _REDUCE:
        raise ValueError("`rtype` must be one of {'max', 'maximum', 'min', 'minimum', 'avg', 'mean'}")
    return _REDUCE[rtype]


def _unique_roots(p, tol, rtype):
    # Each not yet grouped root gathers every other ungrouped root within distance tol of it (a disc in the
    # complex plane); a handful of roots, so all pairwise distances are fine.
    reduce = _reducer(rtype)
    p = numpy.asarray(p)
    used = numpy.zeros(len(p), dtype=bool)
    uniq, mult = [], []
    for i in range(len(p)):
        if used[i]:
            continue
        group = numpy.nonzero((numpy.abs(p - p[i]) <= tol) & ~used)[0]
        uniq.append(reduce(p[group]))
        mult.append(len(group))
        used[group] = True
    return numpy.asarray(uniq), numpy.asarray(mult)


def unique_roots(p, tol=1e-3, rtype='min'):
    """Unique roots and their multiplicities, merging roots closer than tol (scipy.signal.unique_roots)."""
    u, m = _unique_roots(_host(p), tol, rtype)
    return _cp.asarray(u), _cp.asarray(m)


def _by_magnitude(p):
    order = numpy.argsort(numpy.abs(p))
    return numpy.take(p, order, 0), order


def _group_sorted(poles, tol, rtype):
    # Runs of consecutive poles within tol of the run's first pole; a run counts as one pole of that
    # multiplicity, its value being the first pole (as SciPy does for invres/invresz).
    reduce = _reducer(rtype)
    uniq, mult = [], []
    first = poles[0]
    run = [first]
    for q in poles[1:]:
        if abs(q - first) <= tol:
            run.append(first)
        else:
            uniq.append(reduce(run))
            mult.append(len(run))
            first = q
            run = [q]
    uniq.append(reduce(run))
    mult.append(len(run))
    return numpy.asarray(uniq), numpy.asarray(mult)


def _factors(roots, mult, include_powers=False):
    """Polynomials prod_{other roots}(x - r)^m times (x - root)^(m-1-i) for each root and power (highest power
    first within a root), and the full denominator prod (x - r)^m."""
    suffix = [numpy.array([1])]
    acc = numpy.array([1])
    for r, m in zip(roots[:0:-1], mult[:0:-1]):
        for _ in range(m):
            acc = numpy.polymul(acc, numpy.array([1, -r]))
        suffix.append(acc)
    suffix = suffix[::-1]
    out = []
    prefix = numpy.array([1])
    for r, m, suf in zip(roots, mult, suffix):
        block = []
        for i in range(m):
            if i == 0 or include_powers:
                block.append(numpy.polymul(prefix, suf))
            prefix = numpy.polymul(prefix, numpy.array([1, -r]))
        out += block[::-1]
    return out, prefix


def _residues_of(poles, mult, num):
    factors, _ = _factors(poles, mult)
    num = num.astype(poles.dtype)
    res = []
    for r, m, f in zip(poles, mult, factors):
        if m == 1:
            res.append(numpy.polyval(num, r) / numpy.polyval(f, r))
            continue
        # Repeated pole: peel off one power of (x - r) at a time by synthetic division.
        lin = numpy.array([1, -r])
        f, rem_f = numpy.polydiv(f, lin)
        block = []
        cur = num.copy()
        for _ in range(m):
            cur, rem = numpy.polydiv(cur, lin)
            c = rem[0] / rem_f[0]
            cur = numpy.polysub(cur, c * f)
            block.append(c)
        res += block[::-1]
    return numpy.asarray(res)


def _as_float_or_complex(b, a):
    b, a = numpy.asarray(_host(b)), numpy.asarray(_host(a))
    dt = complex if (b.dtype.kind == 'c' or a.dtype.kind == 'c') else float
    return b.astype(dt), a.astype(dt)


def residue(b, a, tol=1e-3, rtype='avg'):
    """Partial-fraction expansion of b(s)/a(s) (scipy.signal.residue); returns residues, poles, direct terms."""
    b, a = _as_float_or_complex(b, a)
    b = numpy.trim_zeros(numpy.atleast_1d(b), 'f')
    a = numpy.trim_zeros(numpy.atleast_1d(a), 'f')
    if a.size == 0:
        raise ValueError("Denominator `a` is zero.")
    poles = numpy.roots(a)
    if b.size == 0:
        return _cp.zeros(poles.shape), _cp.asarray(_by_magnitude(poles)[0]), _cp.asarray(numpy.array([]))
    if len(b) < len(a):
        k = numpy.empty(0)
    else:
        k, b = numpy.polydiv(b, a)
    uniq, mult = _unique_roots(poles, tol, rtype)
    uniq, order = _by_magnitude(uniq)
    mult = mult[order]
    res = _residues_of(uniq, mult, b)
    at = 0
    for r, m in zip(uniq, mult):
        poles[at:at + m] = r
        at += m
    return _cp.asarray(res / a[0]), _cp.asarray(poles), _cp.asarray(k)


def residuez(b, a, tol=1e-3, rtype='avg'):
    """Partial-fraction expansion of b(z)/a(z) in powers of z^-1 (scipy.signal.residuez)."""
    b, a = _as_float_or_complex(b, a)
    b = numpy.trim_zeros(numpy.atleast_1d(b), 'b')
    a = numpy.trim_zeros(numpy.atleast_1d(a), 'b')
    if a.size == 0:
        raise ValueError("Denominator `a` is zero.")
    if a[0] == 0:
        raise ValueError("First coefficient of determinant `a` must be non-zero.")
    poles = numpy.roots(a)
    if b.size == 0:
        return _cp.zeros(poles.shape), _cp.asarray(_by_magnitude(poles)[0]), _cp.asarray(numpy.array([]))
    # In z^-1 the polynomials read backwards; expand in w = z^-1 around the reciprocal poles.
    br, ar = b[::-1], a[::-1]
    if len(br) < len(ar):
        kr = numpy.empty(0)
    else:
        kr, br = numpy.polydiv(br, ar)
    uniq, mult = _unique_roots(poles, tol, rtype)
    uniq, order = _by_magnitude(uniq)
    mult = mult[order]
    res = _residues_of(1 / uniq, mult, br)
    at = 0
    powers = numpy.empty(len(res), dtype=int)
    for r, m in zip(uniq, mult):
        poles[at:at + m] = r
        powers[at:at + m] = 1 + numpy.arange(m)
        at += m
    res = res * (-poles) ** powers / ar[0]
    return _cp.asarray(res), _cp.asarray(poles), _cp.asarray(kr[::-1])


def invres(r, p, k, tol=1e-3, rtype='avg'):
    """b(s), a(s) from a partial-fraction expansion (scipy.signal.invres)."""
    r = numpy.atleast_1d(_host(r))
    p = numpy.atleast_1d(_host(p))
    k = numpy.trim_zeros(numpy.atleast_1d(_host(k)), 'f')
    uniq, mult = _group_sorted(p, tol, rtype)
    factors, den = _factors(uniq, mult, include_powers=True)
    num = 0 if len(k) == 0 else numpy.polymul(k, den)
    for c, f in zip(r, factors):
        num = numpy.polyadd(num, c * f)
    return _cp.asarray(num), _cp.asarray(den)


def invresz(r, p, k, tol=1e-3, rtype='avg'):
    """b(z), a(z) in powers of z^-1 from a partial-fraction expansion (scipy.signal.invresz)."""
    r = numpy.atleast_1d(_host(r))
    p = numpy.atleast_1d(_host(p))
    k = numpy.trim_zeros(numpy.atleast_1d(_host(k)), 'b')
    uniq, mult = _group_sorted(p, tol, rtype)
    factors, den = _factors(uniq, mult, include_powers=True)
    num = 0 if len(k) == 0 else numpy.polymul(k[::-1], den[::-1])
    for c, f in zip(r, factors):
        num = numpy.polyadd(num, c * f[::-1])
    return _cp.asarray(num[::-1]), _cp.asarray(den)
