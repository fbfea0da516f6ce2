"""NumPy's remaining univariate distributions (f, t, Wald, von Mises, Zipf...) composed from cuarray's samplers."""
import math
import operator

import numpy

# numpy.random's POISSON_LAM_MAX: the largest Poisson mean whose draws fit int64.
_POISSON_LAM_MAX = float(numpy.iinfo(numpy.int64).max) - math.sqrt(numpy.iinfo(numpy.int64).max) * 10
_INT64_MAX_F = float(numpy.iinfo(numpy.int64).max)


def _parse_size(size):
    """`size` as NumPy's np.empty(size) parses it (checked after the parameters, as NumPy does)."""
    if size is None:
        return None
    if isinstance(size, float):
        raise TypeError("expected a sequence of integers or a single integer, got '{!r}'".format(size))
    try:
        dims = (operator.index(size),)
    except TypeError:
        if isinstance(size, (str, bytes)):
            raise TypeError("'{}' object cannot be interpreted as an integer".format(type(size).__name__)) from None
        try:
            items = tuple(size)
        except TypeError:
            raise TypeError("'{}' object cannot be interpreted as an integer".format(type(size).__name__)) from None
        dims = tuple(operator.index(d) for d in items)
    if any(d < 0 for d in dims):
        raise ValueError('negative dimensions are not allowed')
    return dims


class _Param:
    """A distribution parameter: float64 values on the host (for NumPy's checks) and the value the kernels take
    (a Python float when 0-d, else a float64 cuarray array, made on first use: after the checks)."""
    __slots__ = ('host', 'shape', '_dev')

    def __init__(self, x):
        from cuarray._core import ndarray
        h = x.get() if isinstance(x, ndarray) else numpy.asarray(x)
        if h.ndim == 0:
            # NumPy converts a 0-d parameter with float(): complex is a TypeError, text a ValueError.
            v = float(h.item())
            self.host = numpy.float64(v)
            self._dev = v
            self.shape = ()
            return
        self.host = h.astype(numpy.float64, casting='safe') if h.dtype.kind != 'O' else h.astype(numpy.float64)
        self.shape = self.host.shape
        self._dev = x if isinstance(x, ndarray) and x.dtype == numpy.float64 else None

    @property
    def dev(self):
        if self._dev is None:
            import cuarray
            self._dev = cuarray.asarray(self.host)
        return self._dev


def _params(*xs):
    ps = [_Param(x) for x in xs]
    return ps, all(p.shape == () for p in ps)


def _check(p, name, cons, scalar):
    """NumPy's check_constraint (scalar) / check_array_constraint messages for one parameter."""
    v = p.host
    nan_word = 'is NaN' if scalar else 'contains NaNs'
    with numpy.errstate(invalid='ignore'):
        if cons == 'non_negative':
            if numpy.any(~numpy.isnan(v) & numpy.signbit(v)):
                raise ValueError(name + ' < 0')
        elif cons in ('positive', 'positive_not_nan'):
            if cons == 'positive_not_nan' and numpy.any(numpy.isnan(v)):
                raise ValueError(name + ' must not be NaN')
            if numpy.any(v <= 0):
                raise ValueError(name + ' <= 0')
        elif cons == 'gt_0_le_1':
            if not numpy.all((v > 0) & (v <= 1)):
                raise ValueError('{0} <= 0, {0} > 1 or {0} contains NaNs'.format(name))
        elif cons == 'ge_0_le_1':
            if not numpy.all((v >= 0) & (v <= 1)):
                raise ValueError('{0} < 0, {0} > 1 or {0} {1}'.format(name, nan_word))
        elif cons == 'ge_0_lt_1':
            if not numpy.all((v >= 0) & (v < 1)):
                raise ValueError('{0} < 0, {0} >= 1 or {0} {1}'.format(name, nan_word))
        elif cons == 'gt_1':
            if not numpy.all(v > 1):
                raise ValueError('{0} <= 1 or {0} {1}'.format(name, nan_word))
        else:
            raise AssertionError(cons)


def _shape(size, ps):
    """The output shape: the parameters' broadcast, or `size` when it covers it (NumPy's messages)."""
    dims = _parse_size(size)
    shapes = [p.shape for p in ps]
    if dims is None:
        return numpy.broadcast_shapes(*shapes) if shapes else ()
    r = numpy.broadcast_shapes(dims, *shapes)
    if r != dims:
        raise ValueError('Output size {} is not compatible with broadcast dimensions of inputs {}.'.format(dims, r))
    return dims


def _flat(v, shape):
    """A parameter broadcast to `shape` and flattened (scalars stay Python floats)."""
    if isinstance(v, float):
        return v
    import cuarray
    return cuarray.ascontiguousarray(cuarray.broadcast_to(v, shape)).reshape(-1)


def _rejection(n, params, attempt, dtype):
    """Vectorised rejection sampling: `attempt(m, *params)` returns (values, accepted) for m candidates; the
    rejected positions are redrawn (with their own parameters) until none is left. Returns a flat array."""
    import cuarray
    out, ok = attempt(n, *params)
    out = out.astype(dtype, copy=False)
    todo = cuarray.flatnonzero(~ok)
    while todo.size:
        sub = [p if isinstance(p, float) else p.take(todo) for p in params]
        val, ok = attempt(int(todo.size), *sub)
        good = cuarray.flatnonzero(ok)
        if good.size:
            cuarray.put(out, todo.take(good), val.take(good).astype(dtype, copy=False))
        todo = todo.take(cuarray.flatnonzero(~ok))
    return out


class _Distributions:
    """Methods shared by Generator (and, through it, RandomState): each draws with the Generator's own
    samplers (random, standard_normal, standard_exponential, standard_gamma, chisquare, poisson)."""

    def standard_cauchy(self, size=None):
        shape = _shape(size, [])
        return self.standard_normal(shape) / self.standard_normal(shape)

    def standard_t(self, df, size=None):
        import cuarray
        ps, scalar = _params(df)
        _check(ps[0], 'df', 'positive', scalar)
        shape = _shape(size, ps)
        d = _nan_safe(ps[0].dev, 1.0)
        # t = Z / sqrt(G(df/2) / (df/2)), NumPy's construction.
        z = self.standard_normal(shape)
        g = self.standard_gamma(d / 2, shape)
        return z * cuarray.sqrt(d / 2) / cuarray.sqrt(g) + _nan_of(ps[0].dev)

    def f(self, dfnum, dfden, size=None):
        ps, scalar = _params(dfnum, dfden)
        _check(ps[0], 'dfnum', 'positive', scalar)
        _check(ps[1], 'dfden', 'positive', scalar)
        shape = _shape(size, ps)
        n, d = _nan_safe(ps[0].dev, 1.0), _nan_safe(ps[1].dev, 1.0)
        res = (self.chisquare(n, shape) * d) / (self.chisquare(d, shape) * n)
        return res + _nan_of(ps[0].dev) + _nan_of(ps[1].dev)

    def _noncentral_chisquare(self, df, nonc, shape):
        """NumPy's algorithm (df > 0 and nonc >= 0, no NaN): chi2(df - 1) + (Z + sqrt(nonc))^2 for df > 1, a
        Poisson(nonc / 2) mixture of central chi-squares for df <= 1, the central one for nonc == 0."""
        import cuarray
        if isinstance(df, float) and isinstance(nonc, float):
            if nonc == 0:
                return self.chisquare(df, shape)
            if df > 1:
                z = self.standard_normal(shape) + math.sqrt(nonc)
                return self.chisquare(df - 1, shape) + z * z
            return self.chisquare(df + 2 * self.poisson(nonc / 2, shape), shape)
        df_a, nonc_a = cuarray.asarray(df), cuarray.asarray(nonc)
        big = df_a > 1
        # Every branch draws with parameters valid everywhere; where() keeps the one NumPy takes.
        z = self.standard_normal(shape) + cuarray.sqrt(nonc_a)
        large = self.chisquare(cuarray.where(big, df_a - 1, 1.0), shape) + z * z
        small = self.chisquare(df_a + 2 * self.poisson(nonc_a / 2, shape), shape)
        res = cuarray.where(big, large, small)
        return cuarray.where(nonc_a == 0, self.chisquare(df_a, shape), res)

    def noncentral_chisquare(self, df, nonc, size=None):
        ps, scalar = _params(df, nonc)
        _check(ps[0], 'df', 'positive', scalar)
        _check(ps[1], 'nonc', 'non_negative', scalar)
        shape = _shape(size, ps)
        res = self._noncentral_chisquare(_nan_safe(ps[0].dev, 1.0), _nan_safe(ps[1].dev, 0.0), shape)
        return res + _nan_of(ps[0].dev) + _nan_of(ps[1].dev)

    def noncentral_f(self, dfnum, dfden, nonc, size=None):
        ps, scalar = _params(dfnum, dfden, nonc)
        _check(ps[0], 'dfnum', 'positive', scalar)
        _check(ps[1], 'dfden', 'positive', scalar)
        _check(ps[2], 'nonc', 'non_negative', scalar)
        shape = _shape(size, ps)
        n, d = _nan_safe(ps[0].dev, 1.0), _nan_safe(ps[1].dev, 1.0)
        t = self._noncentral_chisquare(n, _nan_safe(ps[2].dev, 0.0), shape) * d
        res = t / (self.chisquare(d, shape) * n)
        return res + _nan_of(ps[0].dev) + _nan_of(ps[1].dev) + _nan_of(ps[2].dev)

    def negative_binomial(self, n, p, size=None):
        import cuarray
        ps, scalar = _params(n, p)
        _check(ps[0], 'n', 'positive_not_nan', scalar)
        _check(ps[1], 'p', 'gt_0_le_1', scalar)
        hn, hp = ps[0].host, ps[1].host
        with numpy.errstate(all='ignore'):
            if numpy.any((1 - hp) / hp * (hn + 10 * numpy.sqrt(hn)) > _POISSON_LAM_MAX):
                raise ValueError('n too large or p too small, see Generator.negative_binomial Notes')
        shape = _shape(size, ps)
        nd, pd = ps[0].dev, ps[1].dev
        lam = self.standard_gamma(nd, shape) * ((1 - pd) / pd)
        # A gamma draw beyond n + 10 sqrt(n) standard deviations is possible in principle; keep the Poisson
        # mean where the Poisson sampler takes it.
        lam = cuarray.minimum(lam, numpy.nextafter(_POISSON_LAM_MAX, 0))
        return self.poisson(lam, shape)

    def weibull(self, a, size=None):
        import cuarray
        ps, scalar = _params(a)
        _check(ps[0], 'a', 'non_negative', scalar)
        shape = _shape(size, ps)
        av = ps[0].dev
        e = self.standard_exponential(shape)
        if isinstance(av, float):
            return cuarray.zeros(shape) if av == 0 else e ** (1.0 / av)
        return cuarray.where(av == 0, 0.0, e ** (1.0 / av))

    def pareto(self, a, size=None):
        import cuarray
        ps, scalar = _params(a)
        _check(ps[0], 'a', 'positive', scalar)
        shape = _shape(size, ps)
        return cuarray.expm1(self.standard_exponential(shape) / ps[0].dev)

    def power(self, a, size=None):
        import cuarray
        ps, scalar = _params(a)
        _check(ps[0], 'a', 'positive', scalar)
        shape = _shape(size, ps)
        return (-cuarray.expm1(-self.standard_exponential(shape))) ** (1.0 / ps[0].dev)

    def rayleigh(self, scale=1.0, size=None):
        import cuarray
        ps, scalar = _params(scale)
        _check(ps[0], 'scale', 'non_negative', scalar)
        shape = _shape(size, ps)
        return ps[0].dev * cuarray.sqrt(2.0 * self.standard_exponential(shape))

    def wald(self, mean, scale, size=None):
        import cuarray
        ps, scalar = _params(mean, scale)
        _check(ps[0], 'mean', 'positive', scalar)
        _check(ps[1], 'scale', 'positive', scalar)
        shape = _shape(size, ps)
        mu, lam = ps[0].dev, ps[1].dev
        # Michael, Schucany and Haas: the smaller root of the chi-square(1) equation, or mu^2 / it.
        y = self.standard_normal(shape)
        y = mu * y * y
        x = mu + (mu / (2 * lam)) * (y - cuarray.sqrt(4 * lam * y + y * y))
        u = self.random(shape)
        return cuarray.where(u <= mu / (mu + x), x, mu * mu / x)

    def triangular(self, left, mode, right, size=None):
        import cuarray
        ps, scalar = _params(left, mode, right)
        hl, hm, hr = ps[0].host, ps[1].host, ps[2].host
        if numpy.any(numpy.greater(hl, hm)):
            raise ValueError('left > mode')
        if numpy.any(numpy.greater(hm, hr)):
            raise ValueError('mode > right')
        if numpy.any(numpy.equal(hl, hr)):
            raise ValueError('left == right')
        shape = _shape(size, ps)
        lo, mo, hi = ps[0].dev, ps[1].dev, ps[2].dev
        base = hi - lo
        leftbase = mo - lo
        u = self.random(shape)
        below = lo + cuarray.sqrt(u * (leftbase * base))
        above = hi - cuarray.sqrt((1.0 - u) * ((hi - mo) * base))
        return cuarray.where(u <= leftbase / base, below, above)

    def vonmises(self, mu, kappa, size=None):
        ps, scalar = _params(mu, kappa)
        _check(ps[1], 'kappa', 'non_negative', scalar)
        shape = _shape(size, ps)
        n = math.prod(shape)
        m, k = _flat(ps[0].dev, shape), _flat(ps[1].dev, shape)
        res = self._vonmises_flat(n, m, k)
        return res.reshape(shape)

    def _vonmises_flat(self, n, mu, kappa):
        """NumPy's von Mises sampler (Best and Fisher's rejection for 1e-5 <= kappa <= 1e6, its second-order
        expansion below, a uniform angle below 1e-8 and a wrapped normal above 1e6)."""
        import cuarray
        kap = cuarray.asarray(kappa) if isinstance(kappa, float) else kappa
        mid = (kap >= 1e-8) & (kap <= 1e6)
        # s from kappa; positions outside the rejection range take kappa = 1 (accepted or not, unused there).
        kr = cuarray.where(mid, kap, 1.0)
        r = 1 + cuarray.sqrt(1 + 4 * kr * kr)
        rho = (r - cuarray.sqrt(2 * r)) / (2 * kr)
        s = cuarray.where(kr < 1e-5, 1.0 / kr + kr, (1 + rho * rho) / (2 * rho))
        if isinstance(kappa, float):
            # One value for all positions: keep the scalars scalar through the retries.
            s, kr = float(s), float(kr)

        def attempt(m, s_, k_):
            u = self.random((m,))
            z = cuarray.cos(math.pi * u)
            w = (1 + s_ * z) / (s_ + z)
            y = k_ * (s_ - w)
            v = self.random((m,))
            # y >= 0 accepts through the first test whatever v; v == 0 with y < 0 rejects (log(-)/0 is NaN).
            ok = (y * (2 - y) - v >= 0) | (cuarray.log(y / v) + 1 - y >= 0)
            return w, ok

        if isinstance(kappa, float) and not (1e-8 <= kappa <= 1e6):
            w = cuarray.zeros((n,))  # the uniform, wrapped-normal or NaN result replaces it below
        else:
            w = _rejection(n, [s, kr], attempt, numpy.float64)
        u = self.random((n,))
        ang = cuarray.arccos(cuarray.clip(w, -1.0, 1.0))
        ang = cuarray.where(u < 0.5, -ang, ang) + mu
        neg = ang < 0
        mod = cuarray.fmod(cuarray.abs(ang) + math.pi, 2 * math.pi) - math.pi
        res = cuarray.where(neg, -mod, mod)
        # kappa > 1e6: mu + N / sqrt(kappa), folded once into [-pi, pi].
        wn = mu + cuarray.sqrt(1.0 / cuarray.where(mid, 1.0, kap)) * self.standard_normal((n,))
        wn = cuarray.where(wn < -math.pi, wn + 2 * math.pi, wn)
        wn = cuarray.where(wn > math.pi, wn - 2 * math.pi, wn)
        tiny = math.pi * (2 * self.random((n,)) - 1)
        res = cuarray.where(kap > 1e6, wn, res)
        res = cuarray.where(kap < 1e-8, tiny, res)
        return cuarray.where(cuarray.isnan(kap), math.nan, res)

    def logseries(self, p, size=None):
        import cuarray
        ps, scalar = _params(p)
        _check(ps[0], 'p', 'ge_0_lt_1', scalar)
        shape = _shape(size, ps)
        n = math.prod(shape)
        pv = _flat(ps[0].dev, shape)

        def attempt(m, p_):
            # Kemp's second accelerated generator (LK), as NumPy's random_logseries.
            r = cuarray.log1p(-cuarray.asarray(p_))
            v = self.random((m,))
            u = self.random((m,))
            q = -cuarray.expm1(r * u)
            k = cuarray.floor(1 + cuarray.log(v) / cuarray.log(q))
            in_tail = v <= q * q
            res = cuarray.where(v >= p_, 1.0, cuarray.where(in_tail, k, cuarray.where(v >= q, 1.0, 2.0)))
            ok = (v >= p_) | ~in_tail | ((k >= 1) & (v != 0))
            return cuarray.where(ok, res, 1.0), ok

        return _rejection(n, [pv], attempt, numpy.int64).reshape(shape)

    def zipf(self, a, size=None):
        import cuarray
        ps, scalar = _params(a)
        _check(ps[0], 'a', 'gt_1', scalar)
        shape = _shape(size, ps)
        n = math.prod(shape)
        av = _flat(ps[0].dev, shape)

        def attempt(m, a_):
            # NumPy's rejection from a continuous Pareto envelope; a >= 1025 is 1 (P(X > 1) < 3e-309).
            big = cuarray.asarray(a_) >= 1025
            a_s = cuarray.where(big, 2.0, a_)
            am1 = a_s - 1.0
            b = cuarray.power(2.0, am1)
            umin = cuarray.power(_INT64_MAX_F, -am1)
            u01 = self.random((m,))
            u = u01 * umin + (1 - u01)
            v = self.random((m,))
            x = cuarray.floor(cuarray.power(u, -1.0 / am1))
            inrange = (x <= _INT64_MAX_F) & (x >= 1.0)
            xs = cuarray.where(inrange, x, 1.0)
            t = cuarray.power(1.0 + 1.0 / xs, am1)
            ok = big | (inrange & (v * xs * (t - 1.0) / (b - 1.0) <= t / b))
            # x can reach 2**63 (INT64_MAX as a double); keep the cast defined.
            val = cuarray.where(big, 1.0, cuarray.minimum(xs, 9.223372036854775e18))
            return val, ok

        return _rejection(n, [av], attempt, numpy.int64).reshape(shape)


def _nan_safe(v, fill):
    """`v` with NaN replaced by `fill` (a branchy sampler must not see NaN parameters; the NaN is added back)."""
    if isinstance(v, float):
        return fill if math.isnan(v) else v
    import cuarray
    return cuarray.where(cuarray.isnan(v), fill, v)


def _nan_of(v):
    """0 where `v` is a number, NaN where it is NaN: added to a result to propagate NaN parameters (the
    looping samplers - gamma, chi-square - are never given a NaN)."""
    if isinstance(v, float):
        return math.nan if math.isnan(v) else 0.0
    import cuarray
    return cuarray.where(cuarray.isnan(v), math.nan, 0.0)
