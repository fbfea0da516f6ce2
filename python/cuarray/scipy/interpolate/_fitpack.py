"""FITPACK-style univariate splines of cuarray.scipy.interpolate: UnivariateSpline, InterpolatedUnivariateSpline,
LSQUnivariateSpline.

The knots and coefficients come from a host (Python/NumPy) transcription of the algorithm of Dierckx's curfit
(the same knot-insertion and smoothing-parameter iteration SciPy's FITPACK runs): it is a sequential loop of
Givens rotations over the data points, small and branchy, so it stays on the host. Evaluation, derivatives and
antiderivatives then run on the device through BSpline.
"""
import math
import warnings

import numpy

import cuarray as _cp

_EXT = {0: 0, 1: 1, 2: 2, 3: 3, 'extrapolate': 0, 'zeros': 1, 'raise': 2, 'const': 3}

_MESSAGES = {
    1: "The required storage space exceeds the available storage space: nest too small. Increase s or nest.",
    2: "A theoretically impossible result was found during the iteration process for finding a smoothing "
       "spline with fp = s: s too small. There is an approximation returned but the corresponding weighted sum "
       "of squared residuals does not satisfy the condition abs(fp-s)/s < tol.",
    3: "The maximal number of iterations maxit (set to 20 by the program) allowed for finding a smoothing "
       "spline with fp=s has been reached: s too small. There is an approximation returned but the corresponding "
       "weighted sum of squared residuals does not satisfy the condition abs(fp-s)/s < tol.",
    10: "Error on entry, no approximation returned. The following conditions must hold: xb<=x[0]<x[1]<...<x[-1]"
        "<=xe, w[i]>0, i=0..m-1; if iopt=-1: xb<t[k+1]<t[k+2]<...<t[n-k-2]<xe",
}


# ---- host transcription of the FITPACK building blocks (1-based arrays: index 0 unused) ----

def _fpbspl(t, k, x, l_):
    """The k + 1 nonzero B-splines of degree k at t[l] <= x < t[l+1] (h[1..k+1])."""
    h = [0.0] * (k + 2)
    h[1] = 1.0
    for j in range(1, k + 1):
        hh = h[1:j + 1]
        h[1] = 0.0
        for i in range(1, j + 1):
            li = l_ + i
            lj = li - j
            if t[li] == t[lj]:
                h[i + 1] = 0.0
                continue
            f = hh[i - 1] / (t[li] - t[lj])
            h[i] = h[i] + f * (t[li] - x)
            h[i + 1] = f * (x - t[lj])
    return h


def _givens(piv, ww):
    store = abs(piv)
    if store >= ww:
        dd = store * math.sqrt(1.0 + (ww / piv) ** 2)
    else:
        dd = ww * math.sqrt(1.0 + (piv / ww) ** 2)
    return ww / dd, piv / dd, dd


def _back(a, z, n, k):
    """Back substitution for the upper-triangular band matrix a (n rows, bandwidth k)."""
    c = [0.0] * (n + 1)
    c[n] = z[n] / a[n][1]
    i = n - 1
    for j in range(2, n + 1):
        store = z[i]
        i1 = min(k - 1, j - 1)
        m = i
        for l_ in range(1, i1 + 1):
            m += 1
            store -= c[m] * a[i][l_ + 1]
        c[i] = store / a[i][1]
        i -= 1
    return c


def _disc(t, n, k2):
    """Jumps of the k-th derivative of the B-splines at the interior knots (rows of the smoothing matrix)."""
    k1 = k2 - 1
    k = k1 - 1
    nk1 = n - k1
    nrint = nk1 - k
    fac = nrint / (t[nk1 + 1] - t[k1])
    b = [[0.0] * (k2 + 1) for _ in range(n + 1)]
    h = [0.0] * (2 * k2 + 1)
    for l_ in range(k2, nk1 + 1):
        lmk = l_ - k1
        for j in range(1, k1 + 1):
            h[j] = t[l_] - t[l_ + j - k2]
            h[j + k1] = t[l_] - t[l_ + j]
        lp = lmk
        for j in range(1, k2 + 1):
            jk = j
            prod = h[j]
            for _ in range(k):
                jk += 1
                prod = prod * h[jk] * fac
            b[lmk][j] = (t[lp + k1] - t[lp]) / prod
            lp += 1
    return b


def _rati(p1, f1, p2, f2, p3, f3):
    """Zero of the rational interpolant through (p1,f1), (p2,f2), (p3,f3); returns p and the updated bracket."""
    if p3 > 0:
        h1 = f1 * (f2 - f3)
        h2 = f2 * (f3 - f1)
        h3 = f3 * (f1 - f2)
        p = -(p1 * p2 * h3 + p2 * p3 * h1 + p3 * p1 * h2) / (p1 * h1 + p2 * h2 + p3 * h3)
    else:
        p = (p1 * (f1 - f3) * f2 - p2 * (f2 - f3) * f1) / ((f1 - f2) * f3)
    if f2 < 0:
        p3, f3 = p2, f2
    else:
        p1, f1 = p2, f2
    return p, p1, f1, p3, f3


def _knot(x, t, n, fpint, nrdata, nrint):
    """Insert one knot at a data point in the interval with the largest residual share."""
    k = (n - nrint - 1) // 2
    fpmax = 0.0
    jbegin = 1
    number = maxpt = maxbeg = 0
    for j in range(1, nrint + 1):
        jpoint = nrdata[j]
        if not (fpmax >= fpint[j] or jpoint == 0):
            fpmax = fpint[j]
            number = j
            maxpt = jpoint
            maxbeg = jbegin
        jbegin = jbegin + jpoint + 1
    ihalf = maxpt // 2 + 1
    nrx = maxbeg + ihalf
    nxt = number + 1
    if nxt <= nrint:
        for j in range(nxt, nrint + 1):
            jj = nxt + nrint - j
            fpint[jj + 1] = fpint[jj]
            nrdata[jj + 1] = nrdata[jj]
            jk = jj + k
            t[jk + 1] = t[jk]
    nrdata[number] = ihalf - 1
    nrdata[nxt] = maxpt - ihalf
    am = maxpt
    fpint[number] = fpmax * nrdata[number] / am
    fpint[nxt] = fpmax * nrdata[nxt] / am
    t[nxt + k] = x[nrx]
    return n + 1, nrint + 1


class _State:
    """The result of one curfit call: knots, coefficients, residual and FITPACK's work arrays and ier."""
    __slots__ = ('t', 'n', 'fpint', 'nrdata', 'c', 'fp', 'ier')


def _curfit(iopt, x, y, w, xb, xe, k, s, nest, tknots=None):
    """FITPACK's curfit/fpcurf: iopt -1 (least squares on given knots tknots, 1-based list incl. ends),
    0 or 1 (smoothing spline). SciPy >= 1.18 runs a continued search (iopt=1) with a fresh work array, whose
    zero residual sums make fpcurf restart from the polynomial, so 1 computes what 0 does with the same nest.
    x, y, w are 1-based lists of length m + 1."""
    m = len(x) - 1
    tol, maxit = 0.001, 20
    k1, k2 = k + 1, k + 2
    nmin = 2 * k1
    ier = 0
    t = [0.0] * (nest + 1)
    fpint = [0.0] * (nest + 1)
    nrdata = [0] * (nest + 1)
    n = 0
    fp0 = fpold = 0.0
    nplus = 0
    acc = 0.0
    nmax = m + k1
    q = [None] * (m + 1)
    a = [[0.0] * (k2 + 1) for _ in range(nest + 1)]
    z = [0.0] * (nest + 1)
    c = [0.0] * (nest + 1)
    fp = 0.0

    def interp_knots():
        mk1 = m - k1
        if mk1 == 0:
            return
        k3 = k // 2
        i = k2
        j = k3 + 2
        for _ in range(mk1):
            t[i] = x[j] if k3 * 2 != k else (x[j] + x[j - 1]) * 0.5
            i += 1
            j += 1

    if iopt < 0:
        n = len(tknots) - 1
        for i in range(1, n + 1):
            t[i] = tknots[i]
    else:
        acc = tol * s
        if s <= 0:
            n = nmax
            if nmax > nest:
                return _finish(t, n, c, 0.0, 1, fpint, nrdata)
            interp_knots()
        else:
            n = nmin
            fpold = 0.0
            nplus = 0
            nrdata[1] = m - 2
    # Main loop over knot sets (the interpolation branch restarts it with the knots of the interpolant).
    go_smooth = False
    it_main = 0
    while it_main < m:
        it_main += 1
        if n == nmin:
            ier = -2
        nrint = n - nmin + 1
        nk1 = n - k1
        i = n
        for j in range(1, k1 + 1):
            t[j] = xb
            t[i] = xe
            i -= 1
        fp = 0.0
        for i in range(1, nk1 + 1):
            z[i] = 0.0
            for j in range(1, k1 + 1):
                a[i][j] = 0.0
        l_ = k1
        for it in range(1, m + 1):
            xi = x[it]
            wi = w[it]
            yi = y[it] * wi
            while not (xi < t[l_ + 1] or l_ == nk1):
                l_ += 1
            h = _fpbspl(t, k, xi, l_)
            q[it] = h[1:k1 + 1]
            for i in range(1, k1 + 1):
                h[i] = h[i] * wi
            j = l_ - k1
            for i in range(1, k1 + 1):
                j += 1
                piv = h[i]
                if piv == 0:
                    continue
                cs, sn, a[j][1] = _givens(piv, a[j][1])
                yi, z[j] = cs * yi - sn * z[j], cs * z[j] + sn * yi
                if i == k1:
                    break
                i2 = 1
                for i1 in range(i + 1, k1 + 1):
                    i2 += 1
                    h[i1], a[j][i2] = cs * h[i1] - sn * a[j][i2], cs * a[j][i2] + sn * h[i1]
            fp += yi * yi
        if ier == -2:
            fp0 = fp
        fpint[n] = fp0
        fpint[n - 1] = fpold
        nrdata[n] = nplus
        c = _back(a, z, nk1, k1)
        if iopt < 0:
            return _finish(t, n, c, fp, ier, fpint, nrdata)
        fpms = fp - s
        if abs(fpms) < acc:
            return _finish(t, n, c, fp, ier, fpint, nrdata)
        if fpms < 0:
            go_smooth = True
            break
        if n == nmax:
            return _finish(t, n, c, fp, -1, fpint, nrdata)
        if n == nest:
            return _finish(t, n, c, fp, 1, fpint, nrdata)
        if ier != 0:
            nplus = 1
            ier = 0
        else:
            npl1 = nplus * 2
            rn = nplus
            if fpold - fp > acc:
                npl1 = int(rn * fpms / (fpold - fp))
            nplus = min(nplus * 2, max(npl1, nplus // 2, 1))
        fpold = fp
        # Residual share of each knot interval (a point on a knot is split between its two intervals).
        fpart = 0.0
        i = 1
        l_ = k2
        new = 0
        for it in range(1, m + 1):
            if not (x[it] < t[l_] or l_ > nk1):
                new = 1
                l_ += 1
            l0 = l_ - k2
            term = 0.0
            for j in range(1, k1 + 1):
                l0 += 1
                term += c[l0] * q[it][j - 1]
            term = (w[it] * (term - y[it])) ** 2
            fpart += term
            if new == 0:
                continue
            store = term * 0.5
            fpint[i] = fpart - store
            i += 1
            fpart = store
            new = 0
        fpint[nrint] = fpart
        restart_interp = False
        for _ in range(nplus):
            n, nrint = _knot(x, t, n, fpint, nrdata, nrint)
            if n == nmax:
                restart_interp = True
                break
            if n == nest:
                break
        if restart_interp:
            interp_knots()
            it_main = 0
    if not go_smooth and ier == -2:
        return _finish(t, n, c, fp, ier, fpint, nrdata)
    if ier == -2:
        return _finish(t, n, c, fp, ier, fpint, nrdata)
    # Smoothing: find p with f(p) = sum of squared residuals - s = 0 (rational interpolation of the bracket).
    nk1 = n - k1
    b = _disc(t, n, k2)
    p1, f1 = 0.0, fp0 - s
    p3, f3 = -1.0, fpms
    p = sum(a[i][1] for i in range(1, nk1 + 1))
    p = nk1 / p
    ich1 = ich3 = 0
    n8 = n - nmin
    con1, con9, con4 = 0.1, 0.9, 0.04
    g = [[0.0] * (k2 + 1) for _ in range(nest + 1)]
    for itp in range(1, maxit + 1):
        pinv = 1.0 / p
        cc = [0.0] * (nest + 1)
        for i in range(1, nk1 + 1):
            cc[i] = z[i]
            g[i][k2] = 0.0
            for j in range(1, k1 + 1):
                g[i][j] = a[i][j]
        for it in range(1, n8 + 1):
            h = [0.0] * (k2 + 2)
            for i in range(1, k2 + 1):
                h[i] = b[it][i] * pinv
            yi = 0.0
            for j in range(it, nk1 + 1):
                piv = h[1]
                cs, sn, g[j][1] = _givens(piv, g[j][1])
                yi, cc[j] = cs * yi - sn * cc[j], cs * cc[j] + sn * yi
                if j == nk1:
                    break
                i2 = k1
                if j > n8:
                    i2 = nk1 - j
                for i in range(1, i2 + 1):
                    i1 = i + 1
                    h[i1], g[j][i1] = cs * h[i1] - sn * g[j][i1], cs * g[j][i1] + sn * h[i1]
                    h[i] = h[i1]
                h[i2 + 1] = 0.0
        c = _back(g, cc, nk1, k2)
        fp = 0.0
        l_ = k2
        for it in range(1, m + 1):
            if not (x[it] < t[l_] or l_ > nk1):
                l_ += 1
            l0 = l_ - k2
            term = 0.0
            for j in range(1, k1 + 1):
                l0 += 1
                term += c[l0] * q[it][j - 1]
            fp += (w[it] * (term - y[it])) ** 2
        fpms = fp - s
        if abs(fpms) < acc:
            return _finish(t, n, c, fp, 0, fpint, nrdata)
        if itp == maxit:
            return _finish(t, n, c, fp, 3, fpint, nrdata)
        p2, f2 = p, fpms
        if ich3 == 0:
            if not (f2 - f3 > acc):
                p3, f3 = p2, f2
                p = p * con4
                if p <= p1:
                    p = p1 * con9 + p2 * con1
                continue
            if f2 < 0:
                ich3 = 1
        if ich1 == 0:
            if not (f1 - f2 > acc):
                p1, f1 = p2, f2
                p = p / con4
                if p3 < 0:
                    continue
                if p >= p3:
                    p = p2 * con1 + p3 * con9
                continue
            if f2 > 0:
                ich1 = 1
        if f2 >= f1 or f2 <= f3:
            return _finish(t, n, c, fp, 2, fpint, nrdata)
        p, p1, f1, p3, f3 = _rati(p1, f1, p2, f2, p3, f3)
    return _finish(t, n, c, fp, 3, fpint, nrdata)


def _finish(t, n, c, fp, ier, fpint, nrdata):
    st = _State()
    st.t, st.n, st.fpint, st.nrdata = list(t), n, list(fpint), list(nrdata)
    st.c, st.fp, st.ier = list(c) + [0.0] * max(0, n + 1 - len(c)), fp, ier
    return st


def _fpchec(x, t, k):
    """FITPACK's knot check (0: fine): knot order, the base interval covering x, Schoenberg-Whitney."""
    m = len(x)
    n = len(t)
    k1 = k + 1
    k2 = k1 + 1
    nk1 = n - k1
    nk2 = nk1 + 1
    T = [0.0] + list(t)
    X = [0.0] + list(x)
    if k1 > nk1 or nk1 > m:
        return 10
    j = n
    for i in range(1, k + 1):
        if T[i] > T[i + 1] or T[j] < T[j - 1]:
            return 20
        j -= 1
    for i in range(k2, nk2 + 1):
        if T[i] <= T[i - 1]:
            return 30
    if X[1] < T[k1] or X[m] > T[nk2]:
        return 40
    if X[1] >= T[k2] or X[m] <= T[nk1]:
        return 50
    i = 1
    l_ = k2
    nk3 = nk1 - 1
    if nk3 < 2:
        return 0
    for j in range(2, nk3 + 1):
        tj = T[j]
        l_ += 1
        tl = T[l_]
        while True:
            i += 1
            if i >= m:
                return 50
            if X[i] > tj:
                break
        if X[i] >= tl:
            return 50
    return 0


def _host(v):
    return numpy.asarray(_cp.asnumpy(v) if isinstance(v, _cp.ndarray) else v)


class UnivariateSpline:
    """Smoothing spline of degree k (1 <= k <= 5) with knots chosen so that sum((w * (y - S(x)))**2) <= s."""

    def __init__(self, x, y, w=None, bbox=[None] * 2, k=3, s=None, ext=0, check_finite=False):  # NOQA: B006
        x, y, w, bbox, self.ext = self.validate_input(x, y, w, bbox, k, s, ext, check_finite)
        self._setup(x, y, w, bbox, k)
        m = len(x)
        s = float(m) if s is None else float(s)
        # FITPACK's default storage first (m/2 knots when smoothing); when that runs out, the search continues
        # from where it stopped with the largest storage, as SciPy does. The knots found depend on this.
        nest = m + k + 1 if s == 0 else max(m // 2, 2 * (k + 1))
        self._run(0, s, nest)
        self._grow_nest()

    def _grow_nest(self):
        if self._state is not None and self._state.ier == 1:
            m = len(self._x) - 1
            self._run(1, self._s, m + self._k + 1, quiet=False)

    @staticmethod
    def validate_input(x, y, w, bbox, k, s, ext, check_finite):
        x, y, bbox = _host(x).astype(numpy.float64), _host(y), numpy.asarray(bbox)
        if w is not None:
            w = _host(w).astype(numpy.float64)
        if check_finite:
            w_finite = numpy.isfinite(w).all() if w is not None else True
            if not numpy.isfinite(x).all() or not numpy.isfinite(y).all() or not w_finite:
                raise ValueError("x and y array must not contain NaNs or infs.")
        if s is None or s > 0:
            if not numpy.all(numpy.diff(x) >= 0.0):
                raise ValueError("x must be increasing if s > 0")
        elif not numpy.all(numpy.diff(x) > 0.0):
            raise ValueError("x must be strictly increasing if s = 0")
        if x.size != y.size:
            raise ValueError("x and y should have a same length")
        if w is not None and not x.size == w.size:
            raise ValueError("x, y, and w should have a same length")
        if bbox.shape != (2,):
            raise ValueError("bbox shape should be (2,)")
        if not (1 <= k <= 5):
            raise ValueError("k should be 1 <= k <= 5")
        if s is not None and not s >= 0.0:
            raise ValueError("s should be s >= 0.0")
        try:
            ext = _EXT[ext]
        except (KeyError, TypeError):
            raise ValueError(f"Unknown extrapolation mode {ext}.") from None
        return x, y.astype(numpy.float64), w, bbox, ext

    def _setup(self, x, y, w, bbox, k):
        self._x = [0.0] + [float(v) for v in x]
        self._y = [0.0] + [float(v) for v in numpy.ravel(y)]
        self._w = [0.0] + ([1.0] * len(x) if w is None else [float(v) for v in w])
        xb = bbox[0] if bbox[0] is not None else x[0]
        xe = bbox[1] if bbox[1] is not None else x[-1]
        self._xb, self._xe, self._k = float(xb), float(xe), int(k)

    def _valid_data(self):
        x, w = self._x, self._w
        m = len(x) - 1
        if m <= self._k or not (self._xb <= x[1] and x[m] <= self._xe) or any(v <= 0 for v in w[1:]):
            return False
        return True

    def _run(self, iopt, s, nest, tknots=None, quiet=True):
        self._s = s
        if not self._valid_data():
            self._state = None
            self._set_tck(numpy.zeros(2 * self._k + 2), numpy.zeros(2 * self._k + 2), 0.0, 10)
            return
        st = _curfit(iopt, self._x, self._y, self._w, self._xb, self._xe, self._k, s, nest, tknots=tknots)
        self._state = st
        self._nest = nest
        self._lsq = iopt < 0
        n = st.n
        if st.ier == 1 and quiet and iopt >= 0:
            return  # the caller retries with more storage
        self._set_tck(numpy.asarray(st.t[1:n + 1]), numpy.asarray(st.c[1:n + 1]), st.fp, st.ier)

    def _set_tck(self, t, c, fp, ier):
        from cuarray.scipy.interpolate._bspline import BSpline
        k = self._k
        self._t_h, self._c_h, self._fp, self._ier = t, c, fp, ier
        nc = len(t) - k - 1
        self._spline = BSpline.construct_fast(_cp.asarray(t), _cp.asarray(numpy.ascontiguousarray(c[:nc])), k, True)
        if ier == 0:
            pass
        elif ier == -1:
            self.__class__ = InterpolatedUnivariateSpline
        elif ier == -2:
            self.__class__ = LSQUnivariateSpline
        else:
            if ier == 1:
                self.__class__ = LSQUnivariateSpline
            warnings.warn(_MESSAGES.get(ier, f"ier={ier}"), stacklevel=3)

    @classmethod
    def _from_tck(cls, t, c, k, ext=0):
        self = object.__new__(cls)
        self._k = int(k)
        self.ext = ext
        self._state = None
        self._lsq = True
        from cuarray.scipy.interpolate._bspline import BSpline
        t = _host(t)
        c = _host(c)
        self._t_h, self._c_h, self._fp, self._ier = t, c, 0.0, 0
        self._spline = BSpline.construct_fast(_cp.asarray(t), _cp.asarray(numpy.ascontiguousarray(c)), k, True)
        return self

    def __call__(self, x, nu=0, ext=None):
        """Spline (or its nu-th derivative) at x; outside the base interval by `ext` (0 extrapolate, 1 zeros,
        2 raise, 3 boundary value)."""
        ext = self.ext if ext is None else _EXT.get(ext, None)
        if ext is None:
            raise ValueError("Unknown extrapolation mode")
        nu = int(nu)
        if not 0 <= nu <= self._k:
            raise ValueError(f"0<=der={nu}<=k={self._k} must hold")
        x = x if isinstance(x, _cp.ndarray) else _cp.asarray(x)
        shape = x.shape
        xf = x.reshape(-1).astype(numpy.float64)
        tb, te = float(self._t_h[self._k]), float(self._t_h[len(self._t_h) - self._k - 1])
        outside = (xf < tb) | (xf > te)
        if ext == 2 and xf.size and bool(outside.any()):
            raise ValueError("Found x value not in the domain")
        if ext == 3 and nu == 0:
            xf = _cp.clip(xf, tb, te)
        out = self._spline(_cp.ascontiguousarray(xf), nu)
        if ext == 1:
            out = _cp.where(outside, 0.0, out)
        return out.reshape(shape)

    def get_knots(self):
        """Interior and end knots, t[k:n-k]."""
        k = self._k
        return _cp.asarray(self._t_h[k:len(self._t_h) - k])

    def get_coeffs(self):
        """B-spline coefficients, c[:n-k-1]."""
        return _cp.asarray(self._c_h[:len(self._t_h) - self._k - 1])

    def get_residual(self):
        """Weighted sum of squared residuals sum((w * (y - S(x)))**2)."""
        return self._fp

    def integral(self, a, b):
        """Integral of the spline over [a, b] (zero outside the base interval)."""
        k = self._k
        tb, te = float(self._t_h[k]), float(self._t_h[len(self._t_h) - k - 1])
        a, b = float(a), float(b)
        sign = 1.0
        if b < a:
            a, b, sign = b, a, -1.0
        a, b = min(max(a, tb), te), min(max(b, tb), te)
        return sign * float(self._spline.integrate(a, b, extrapolate=False))

    def derivatives(self, x):
        """All derivatives 0..k at one point x."""
        x = float(x)
        k = self._k
        tb, te = float(self._t_h[k]), float(self._t_h[len(self._t_h) - k - 1])
        if not tb <= x <= te:
            raise ValueError("Error code returned by spalde: 10")
        xs = _cp.asarray([x])
        return _cp.concatenate([self._spline(xs, nu) for nu in range(k + 1)])

    def roots(self):
        """Zeros of a cubic spline inside the base interval."""
        if self._k != 3:
            raise NotImplementedError("finding roots unsupported for non-cubic splines")
        from cuarray.scipy.interpolate._ppoly import PPoly
        pp = PPoly.from_spline(self._spline)
        r = _cp.asnumpy(pp.roots(discontinuity=False, extrapolate=False))
        return _cp.asarray(r[~numpy.isnan(r)])

    def derivative(self, n=1):
        """The n-th derivative as a spline of degree k - n (same ext)."""
        if n > self._k:
            raise ValueError(f"Order of derivative (n = {n!r}) must be <= order of spline (k = {self._k!r})")
        d = self._spline.derivative(n)
        return UnivariateSpline._from_tck(_cp.asnumpy(d.t), _cp.asnumpy(d.c), d.k, self.ext)

    def antiderivative(self, n=1):
        """The n-th antiderivative as a spline of degree k + n (same ext)."""
        d = self._spline.antiderivative(n)
        return UnivariateSpline._from_tck(_cp.asnumpy(d.t), _cp.asnumpy(d.c), d.k, self.ext)

    def set_smoothing_factor(self, s):
        """A new smoothing factor: FITPACK's iopt=1 as SciPy >= 1.18 runs it (the knot search restarts)."""
        if self._lsq or self._state is None:
            warnings.warn("smoothing factor unchanged for LSQ spline with fixed knots", stacklevel=2)
            return
        self.__class__ = UnivariateSpline
        self._run(1, float(s), self._nest)
        self._grow_nest()


class InterpolatedUnivariateSpline(UnivariateSpline):
    """Interpolating spline of degree k through all points (FITPACK's knots for s = 0)."""

    def __init__(self, x, y, w=None, bbox=[None] * 2, k=3, ext=0, check_finite=False):  # NOQA: B006
        x, y, w, bbox, self.ext = self.validate_input(x, y, w, bbox, k, None, ext, check_finite)
        if not numpy.all(numpy.diff(x) > 0.0):
            raise ValueError("x must be strictly increasing")
        self._setup(x, y, w, bbox, k)
        m = len(x)
        self._run(0, 0.0, max(m + k + 1, 2 * k + 3))


class LSQUnivariateSpline(UnivariateSpline):
    """Weighted least-squares spline of degree k on the given interior knots t."""

    def __init__(self, x, y, t, w=None, bbox=[None] * 2, k=3, ext=0, check_finite=False):  # NOQA: B006
        x, y, w, bbox, self.ext = self.validate_input(x, y, w, bbox, k, None, ext, check_finite)
        if not numpy.all(numpy.diff(x) >= 0.0):
            raise ValueError("x must be increasing")
        xb = bbox[0] if bbox[0] is not None else x[0]
        xe = bbox[1] if bbox[1] is not None else x[-1]
        t = numpy.concatenate(([xb] * (k + 1), _host(t).astype(numpy.float64), [xe] * (k + 1)))
        n = len(t)
        if not numpy.all(t[k + 1:n - k] - t[k:n - k - 1] > 0, axis=0):
            raise ValueError("Interior knots t must satisfy Schoenberg-Whitney conditions")
        if _fpchec(x, t, k) != 0:
            raise ValueError("Interior knots t must satisfy Schoenberg-Whitney conditions")
        self._setup(x, y, w, bbox, k)
        self._run(-1, 0.0, n, tknots=[0.0] + [float(v) for v in t])
        self._lsq = True
