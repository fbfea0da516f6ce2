"""NumPy's legacy RandomState API (and CuPy's dtype= extensions) over the same Philox engine."""
import inspect
import operator
import warnings
from typing import TYPE_CHECKING

import numpy

from cuarray.random._generator import Generator, Philox


def _dims(size):
    return None if len(size) == 0 else tuple(size)


def _as(x, dtype):
    dtype = numpy.dtype(dtype)
    return x if x.dtype == dtype else x.astype(dtype)


def _ndim(x):
    """numpy.ndim, which refuses cuarray arrays (their __array_function__ defers to cuarray)."""
    return x.ndim if hasattr(x, 'ndim') else numpy.ndim(x)


def _host(x):
    """A parameter's values on the host, for the checks NumPy's legacy API makes beyond the Generator's."""
    from cuarray._core import ndarray
    return x.get() if isinstance(x, ndarray) else numpy.asarray(x)


class RandomState:
    """numpy.random.RandomState on cuarray arrays (not NumPy's Mersenne Twister stream: a Philox one)."""

    def __init__(self, seed=None):
        self.seed(seed)

    def seed(self, seed=None):
        """Reseed: None (OS entropy), or an int / array of ints in [0, 2**32) as NumPy's RandomState."""
        if seed is not None:
            arr = numpy.asarray(seed)
            if arr.dtype.kind not in 'iub':
                raise TypeError("Cannot cast scalar from {!r} to dtype('int64') according to the rule 'safe'".format(
                    arr.dtype))
            if arr.size and (int(arr.min()) < 0 or int(arr.max()) > 2**32 - 1):
                raise ValueError('Seed must be between 0 and 2**32 - 1')
            seed = [int(v) for v in arr.ravel()] if arr.ndim else int(arr)
        self._gen = Generator(Philox(seed))

    def get_state(self):
        return self._gen.bit_generator.state

    def set_state(self, state):
        self._gen.bit_generator.state = state

    # -- uniform and normal variates (CuPy's dtype= on the float ones)
    def rand(self, *size, dtype=float):
        return self.random_sample(_dims(size), dtype)

    def randn(self, *size, dtype=float):
        return self.standard_normal(_dims(size), dtype)

    def random_sample(self, size=None, dtype=float):
        dt = numpy.dtype(dtype)
        if dt.char in 'fd':
            return self._gen.random(size, dt)
        return _as(self._gen.random(size), dt)

    random = random_sample
    ranf = random_sample
    sample = random_sample

    def standard_normal(self, size=None, dtype=float):
        dt = numpy.dtype(dtype)
        if dt.char in 'fd':
            return self._gen.standard_normal(size, dt)
        return _as(self._gen.standard_normal(size), dt)

    def randint(self, low, high=None, size=None, dtype=int):
        return self._gen.integers(low, high, size, dtype)

    def random_integers(self, low, high=None, size=None):
        warnings.warn('This function is deprecated. Please call randint({}, {} + 1) instead'.format(
            1 if high is None else low, low if high is None else high), DeprecationWarning, stacklevel=2)
        if high is None:
            low, high = 1, low
        return self._gen.integers(low, high, size, numpy.int64, endpoint=True)

    def tomaxint(self, size=None):
        return self._gen.integers(0, numpy.iinfo(numpy.int64).max, size, numpy.int64, endpoint=True)

    # -- distributions: the Generator's samplers; CuPy's dtype= casts the float64 result
    def normal(self, loc=0.0, scale=1.0, size=None, dtype=float):
        return _as(self._gen.normal(loc, scale, size), dtype)

    def uniform(self, low=0.0, high=1.0, size=None, dtype=float):
        # NumPy's legacy uniform takes high < low (low + (high - low) * U); the Generator refuses it. The draw
        # between min(low, high) and max(low, high) has that distribution.
        from cuarray._core import ndarray
        if isinstance(low, ndarray) or isinstance(high, ndarray) or _ndim(low) or _ndim(high):
            import cuarray
            lo, hi = cuarray.asarray(low), cuarray.asarray(high)
            low, high = cuarray.minimum(lo, hi), cuarray.maximum(lo, hi)
        elif float(high) < float(low):
            low, high = high, low
        return _as(self._gen.uniform(low, high, size), dtype)

    def standard_exponential(self, size=None, dtype=float):
        return _as(self._gen.standard_exponential(size), dtype)

    def standard_gamma(self, shape, size=None, dtype=float):
        return _as(self._gen.standard_gamma(shape, size), dtype)

    def exponential(self, scale=1.0, size=None, dtype=float):
        return _as(self._gen.exponential(scale, size), dtype)

    def gamma(self, shape, scale=1.0, size=None, dtype=float):
        return _as(self._gen.gamma(shape, scale, size), dtype)

    def beta(self, a, b, size=None, dtype=float):
        return _as(self._gen.beta(a, b, size), dtype)

    def chisquare(self, df, size=None, dtype=float):
        return _as(self._gen.chisquare(df, size), dtype)

    def lognormal(self, mean=0.0, sigma=1.0, size=None, dtype=float):
        return _as(self._gen.lognormal(mean, sigma, size), dtype)

    def logistic(self, loc=0.0, scale=1.0, size=None, dtype=float):
        return _as(self._gen.logistic(loc, scale, size), dtype)

    def laplace(self, loc=0.0, scale=1.0, size=None, dtype=float):
        return _as(self._gen.laplace(loc, scale, size), dtype)

    def gumbel(self, loc=0.0, scale=1.0, size=None, dtype=float):
        return _as(self._gen.gumbel(loc, scale, size), dtype)

    def binomial(self, n, p, size=None, dtype=int):
        return _as(self._gen.binomial(n, p, size), dtype)

    def poisson(self, lam=1.0, size=None, dtype=int):
        return _as(self._gen.poisson(lam, size), dtype)

    def geometric(self, p, size=None, dtype=int):
        return _as(self._gen.geometric(p, size), dtype)

    def hypergeometric(self, ngood, nbad, nsample, size=None, dtype=int):
        # The legacy sampler also refuses an empty sample (a ValueError, before `size` is looked at, as the
        # Generator's own checks).
        s = _host(nsample)
        if s.dtype.kind in 'biuf' and numpy.any(~(s >= 1)):
            raise ValueError('nsample < 1 or nsample is NaN')
        return _as(self._gen.hypergeometric(ngood, nbad, nsample, size), dtype)

    def multinomial(self, n, pvals, size=None):
        # The legacy API takes a scalar n and a 1-d pvals only.
        if _ndim(n) != 0:
            raise TypeError('only 0-dimensional arrays can be converted to Python scalars')
        nd = _ndim(pvals)
        if nd == 0:
            raise TypeError('pvals must be a 1-d sequence')
        if nd > 1:
            raise ValueError('object too deep for desired array: pvals must be a 1-d sequence')
        return self._gen.multinomial(n, pvals, size)

    def dirichlet(self, alpha, size=None):
        if _ndim(alpha) == 1 and numpy.any(_host(alpha) <= 0):
            raise ValueError('alpha <= 0')  # the Generator takes alpha == 0, the legacy API does not
        return self._gen.dirichlet(alpha, size)

    def multivariate_normal(self, mean, cov, size=None, check_valid='warn', tol=1e-8, method='cholesky',
                            dtype=float):
        return _as(self._gen.multivariate_normal(mean, cov, size, check_valid, tol, method=method), dtype)

    # -- the distributions composed in _distributions.py (CuPy's dtype= casts the float64 / int64 result)
    def f(self, dfnum, dfden, size=None, dtype=float):
        return _as(self._gen.f(dfnum, dfden, size), dtype)

    def noncentral_f(self, dfnum, dfden, nonc, size=None, dtype=float):
        return _as(self._gen.noncentral_f(dfnum, dfden, nonc, size), dtype)

    def noncentral_chisquare(self, df, nonc, size=None, dtype=float):
        return _as(self._gen.noncentral_chisquare(df, nonc, size), dtype)

    def negative_binomial(self, n, p, size=None, dtype=int):
        # The legacy API checks p in [0, 1] (NumPy then returns garbage for p == 0); p == 0 and a NaN n are
        # refused here with the Generator's messages.
        from cuarray.random._distributions import _check, _params
        ps, scalar = _params(n, p)
        _check(ps[0], 'n', 'positive', scalar)
        _check(ps[1], 'p', 'ge_0_le_1', scalar)
        return _as(self._gen.negative_binomial(n, p, size), dtype)

    def standard_cauchy(self, size=None, dtype=float):
        return _as(self._gen.standard_cauchy(size), dtype)

    def standard_t(self, df, size=None, dtype=float):
        return _as(self._gen.standard_t(df, size), dtype)

    def weibull(self, a, size=None, dtype=float):
        return _as(self._gen.weibull(a, size), dtype)

    def pareto(self, a, size=None, dtype=float):
        return _as(self._gen.pareto(a, size), dtype)

    def power(self, a, size=None, dtype=float):
        return _as(self._gen.power(a, size), dtype)

    def rayleigh(self, scale=1.0, size=None, dtype=float):
        return _as(self._gen.rayleigh(scale, size), dtype)

    def wald(self, mean, scale, size=None, dtype=float):
        return _as(self._gen.wald(mean, scale, size), dtype)

    def triangular(self, left, mode, right, size=None, dtype=float):
        return _as(self._gen.triangular(left, mode, right, size), dtype)

    def vonmises(self, mu, kappa, size=None, dtype=float):
        return _as(self._gen.vonmises(mu, kappa, size), dtype)

    def logseries(self, p, size=None, dtype=int):
        return _as(self._gen.logseries(p, size), dtype)

    def zipf(self, a, size=None, dtype=int):
        return _as(self._gen.zipf(a, size), dtype)

    def bytes(self, length):
        """``length`` random bytes (a Python bytes object, read back from the device)."""
        return self._gen.bytes(length)

    # -- sampling and permutations
    def choice(self, a, size=None, replace=True, p=None):
        if _ndim(a) > 1:
            raise ValueError('a must be 1-dimensional')  # the Generator's choice takes rows, the legacy one not
        return self._gen.choice(a, size, replace, p)

    def permutation(self, x):
        return self._gen.permutation(x)

    def shuffle(self, x):
        self._gen.shuffle(x)


_random_state = None


def get_random_state():
    """The module's RandomState (created on first use; seeded from $CUPY_SEED when set, as CuPy)."""
    global _random_state
    if _random_state is None:
        import os
        seed = os.environ.get('CUARRAY_SEED', os.environ.get('CUPY_SEED'))
        _random_state = RandomState(None if seed is None else int(seed))
    return _random_state


def set_random_state(rs):
    global _random_state
    if not isinstance(rs, RandomState):
        raise TypeError('Random state must be an instance of RandomState. Actual: {}'.format(type(rs)))
    _random_state = rs


def seed(seed=None):
    """Reseed the module's RandomState."""
    get_random_state().seed(seed)


def reset_states():
    global _random_state
    _random_state = None


def _module_function(name):
    def f(*args, **kwargs):
        return getattr(get_random_state(), name)(*args, **kwargs)
    f.__name__ = name
    f.__qualname__ = name
    f.__doc__ = 'cuarray.random.{0}: RandomState.{0} of get_random_state().'.format(name)
    # inspect.signature and help() show the method's parameters (less self), as NumPy's module functions do.
    params = list(inspect.signature(getattr(RandomState, name)).parameters.values())[1:]
    f.__signature__ = inspect.Signature(params)
    return f


_LEGACY_FUNCTIONS = (
    'rand', 'randn', 'random', 'random_sample', 'ranf', 'sample', 'randint', 'random_integers', 'standard_normal',
    'standard_exponential', 'standard_gamma', 'normal', 'uniform', 'exponential', 'gamma', 'beta', 'chisquare',
    'lognormal', 'logistic', 'laplace', 'gumbel', 'binomial', 'poisson', 'geometric', 'hypergeometric',
    'multinomial', 'dirichlet', 'multivariate_normal', 'choice', 'permutation', 'shuffle',
    'f', 'noncentral_f', 'noncentral_chisquare', 'negative_binomial', 'standard_cauchy', 'standard_t', 'weibull',
    'pareto', 'power', 'rayleigh', 'wald', 'triangular', 'vonmises', 'logseries', 'zipf', 'bytes')

for _name in _LEGACY_FUNCTIONS:
    globals()[_name] = _module_function(_name)
del _name

if TYPE_CHECKING:
    # The loop above is opaque to type checkers: each module function has its RandomState method's parameters.
    _rs = RandomState()
    rand, randn, random, random_sample, ranf, sample = _rs.rand, _rs.randn, _rs.random, _rs.random_sample, _rs.ranf, _rs.sample
    randint, random_integers, standard_normal = _rs.randint, _rs.random_integers, _rs.standard_normal
    standard_exponential, standard_gamma, normal = _rs.standard_exponential, _rs.standard_gamma, _rs.normal
    uniform, exponential, gamma, beta, chisquare = _rs.uniform, _rs.exponential, _rs.gamma, _rs.beta, _rs.chisquare
    lognormal, logistic, laplace, gumbel, binomial = _rs.lognormal, _rs.logistic, _rs.laplace, _rs.gumbel, _rs.binomial
    poisson, geometric, hypergeometric, multinomial = _rs.poisson, _rs.geometric, _rs.hypergeometric, _rs.multinomial
    dirichlet, multivariate_normal, choice = _rs.dirichlet, _rs.multivariate_normal, _rs.choice
    permutation, shuffle, f, noncentral_f = _rs.permutation, _rs.shuffle, _rs.f, _rs.noncentral_f
    noncentral_chisquare, negative_binomial = _rs.noncentral_chisquare, _rs.negative_binomial
    standard_cauchy, standard_t, weibull, pareto = _rs.standard_cauchy, _rs.standard_t, _rs.weibull, _rs.pareto
    power, rayleigh, wald, triangular, vonmises = _rs.power, _rs.rayleigh, _rs.wald, _rs.triangular, _rs.vonmises
    logseries, zipf, bytes = _rs.logseries, _rs.zipf, _rs.bytes
del operator
