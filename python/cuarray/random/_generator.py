"""NumPy's Generator API on the GPU: a Philox4x32-10 bit generator and the distributions over it."""
import operator

import numpy

from cuarray import _core
from cuarray.random._bit_generator import BitGenerator, _CurandLike
from cuarray.random._distributions import _Distributions


class Philox(BitGenerator):
    """Philox4x32-10 counter-based bit generator: state (key, counter).

    The same seed gives the same numbers on any device and launch configuration. Each call takes a range
    of counters known on the host and advances ``counter`` past it (Note [random counters] in the
    sources): float32 distributions take one counter per 4 values, float64 ones per 2, ``integers`` one per
    4 values when its bounds are one pair spanning at most 2**32 values and one per 2 otherwise, samplers that loop
    (gamma, beta, binomial, poisson, hypergeometric) one per value. So drawing ``n`` then ``m`` values equals
    drawing ``n + m`` at once when ``n`` is a multiple of that count.
    """

    def __init__(self, seed=None, counter=None, key=None):
        if key is not None:
            if seed is not None:
                raise ValueError('seed and key cannot be both used')
            key = int(numpy.asarray(key, dtype=numpy.uint64).ravel()[0])
            self._seed_seq = None
        else:
            super().__init__(seed)
            key = int(self._seed_seq.generate_state(1, numpy.uint64)[0])
        counter = 0 if counter is None else int(numpy.asarray(counter, dtype=numpy.uint64).ravel()[0])
        self._engine = _core._RandomEngine(key, counter)

    @property
    def state(self):
        return {'bit_generator': 'Philox', 'state': {'key': self._engine.key, 'counter': self._engine.counter}}

    @state.setter
    def state(self, value):
        if not isinstance(value, dict) or value.get('bit_generator') != 'Philox':
            raise ValueError('state must be a dict from a Philox bit generator')
        self._engine.key = int(value['state']['key'])
        self._engine.counter = int(value['state']['counter'])

    def advance(self, delta):
        """Skip ``delta`` counters (NumPy's Philox.advance)."""
        self._engine.counter = (self._engine.counter + int(delta)) % 2**64
        return self

    def jumped(self, jumps=1):
        """A new bit generator 2**63 counters ahead per jump."""
        bg = Philox(key=self._engine.key, counter=(self._engine.counter + int(jumps) * 2**63) % 2**64)
        bg._seed_seq = self._seed_seq
        return bg

    def random_raw(self, size=None, output=True):
        """Raw 64-bit words (uint64); `output=False` advances the counter the same way and returns None."""
        n = 1 if size is None else int(numpy.prod(size))
        out = self._engine.random_raw(n)
        return out.reshape(() if size is None else size) if output else None

    def __repr__(self):
        return 'Philox(key={:#x}, counter={})'.format(self._engine.key, self._engine.counter)


class Philox4x3210(Philox):
    """CuPy's name of the Philox4x32-10 bit generator: ``Philox4x3210(seed=None, *, size=-1)``. ``size`` (CuPy's
    number of cuRAND states) is accepted and kept; a counter-based stream needs no per-thread states."""

    def __init__(self, seed=None, *, size=-1):
        size = operator.index(size)
        if size == 0 or size < -1:
            raise ValueError('size must be a positive integer (or -1 for the default 256000)')
        self._size = 1000 * 256 if size == -1 else size
        super().__init__(seed)

    def _spawned(self, seed_seq):
        return type(self)(seed_seq, size=self._size)

    def _state_size(self):
        return self._size

    def __repr__(self):
        return 'Philox4x3210(key={:#x}, counter={})'.format(self._engine.key, self._engine.counter)


class Generator(_Distributions):
    """numpy.random.Generator on cuarray arrays. ``size=None`` gives a 0-d array (CuPy's rule), not a
    Python scalar; parameters may be scalars or arrays (broadcast with each other and with ``size``).

    The bit generator is Philox (or Philox4x3210), XORWOW or MRG32k3a. The distribution kernels are
    counter-based Philox4x32-10 kernels: over XORWOW or MRG32k3a they draw from a Philox stream keyed from
    that bit generator's seed (shared by every Generator over it), while the bit generator's own recurrence
    gives its random_raw."""

    def __init__(self, bit_generator):
        if isinstance(bit_generator, _CurandLike):
            if getattr(bit_generator, '_engine', None) is None:
                bit_generator._engine = _core._RandomEngine(bit_generator._philox_key(), 0)
        elif not isinstance(bit_generator, Philox):
            raise TypeError('Generator takes a cuarray.random bit generator (Philox4x3210, XORWOW, MRG32k3a, '
                            'Philox), not {}'.format(type(bit_generator).__name__))
        self._bit_generator = bit_generator
        self._e = bit_generator._engine

    @property
    def bit_generator(self):
        return self._bit_generator

    def __repr__(self):
        return 'Generator({})'.format(type(self._bit_generator).__name__)

    def spawn(self, n_children):
        return [Generator(bg) for bg in self._bit_generator.spawn(n_children)]

    # -- uniform, normal, exponential, gamma: the ones with dtype= and out=
    def random(self, size=None, dtype=numpy.float64, out=None):
        r = self._e.random(size, dtype, out)
        return r if out is None else out

    def standard_normal(self, size=None, dtype=numpy.float64, out=None):
        r = self._e.standard_normal(size, dtype, out)
        return r if out is None else out

    def standard_exponential(self, size=None, dtype=numpy.float64, method='zig', out=None):
        r = self._e.standard_exponential(size, dtype, method, out)
        return r if out is None else out

    def standard_gamma(self, shape, size=None, dtype=numpy.float64, out=None):
        r = self._e.standard_gamma(shape, size, dtype, out)
        return r if out is None else out

    def integers(self, low, high=None, size=None, dtype=numpy.int64, endpoint=False):
        return self._e.integers(low, high, size, dtype, bool(endpoint))

    def bytes(self, length):
        """``length`` random bytes (a Python bytes object)."""
        words = self._e.integers(0, 255, (int(length),), numpy.uint8, True)
        return words.get().tobytes()

    # -- distributions with parameters (float64 results; the discrete ones int64)
    def uniform(self, low=0.0, high=1.0, size=None):
        return self._e.uniform(low, high, size)

    def normal(self, loc=0.0, scale=1.0, size=None):
        return self._e.normal(loc, scale, size)

    def exponential(self, scale=1.0, size=None):
        return self._e.exponential(scale, size)

    def gamma(self, shape, scale=1.0, size=None):
        return self._e.gamma(shape, scale, size)

    def beta(self, a, b, size=None):
        return self._e.beta(a, b, size)

    def chisquare(self, df, size=None):
        return self._e.chisquare(df, size)

    def lognormal(self, mean=0.0, sigma=1.0, size=None):
        return self._e.lognormal(mean, sigma, size)

    def logistic(self, loc=0.0, scale=1.0, size=None):
        return self._e.logistic(loc, scale, size)

    def laplace(self, loc=0.0, scale=1.0, size=None):
        return self._e.laplace(loc, scale, size)

    def gumbel(self, loc=0.0, scale=1.0, size=None):
        return self._e.gumbel(loc, scale, size)

    def binomial(self, n, p, size=None):
        return self._e.binomial(n, p, size)

    def poisson(self, lam=1.0, size=None):
        return self._e.poisson(lam, size)

    def geometric(self, p, size=None):
        return self._e.geometric(p, size)

    def hypergeometric(self, ngood, nbad, nsample, size=None):
        return self._e.hypergeometric(ngood, nbad, nsample, size)

    def multinomial(self, n, pvals, size=None):
        return self._e.multinomial(n, pvals, size)

    def dirichlet(self, alpha, size=None):
        return self._e.dirichlet(alpha, size)

    def multivariate_normal(self, mean, cov, size=None, check_valid='warn', tol=1e-8, *, method='svd'):
        """NumPy's multivariate_normal. The d x d factorisation of ``cov`` runs on the host with NumPy (d is
        small); the draw is ``standard_normal(size + (d,)) @ factor + mean`` on the device."""
        from cuarray._core import ndarray
        mean_h = mean.get() if isinstance(mean, ndarray) else numpy.asarray(mean)
        cov_h = cov.get() if isinstance(cov, ndarray) else numpy.asarray(cov)
        factor = _mvn_factor(mean_h, cov_h, check_valid, tol, method)
        import cuarray
        return self._e.multivariate_normal_factor(cuarray.asarray(mean_h.astype(numpy.float64)),
                                                  cuarray.asarray(factor), size)

    # -- permutations and sampling
    def permutation(self, x, axis=0):
        if isinstance(x, (int, numpy.integer)) and not isinstance(x, (bool, numpy.bool_)):
            return self._e.permutation_n(operator.index(x))
        return self._e.permutation(x, axis)

    def shuffle(self, x, axis=0):
        self._e.shuffle(x, axis)

    def permuted(self, x, *, axis=None, out=None):
        return self._e.permuted(x, axis, out)

    def choice(self, a, size=None, replace=True, p=None, axis=0, shuffle=True):
        return self._e.choice(a, size, bool(replace), p, axis, bool(shuffle))


def _mvn_factor(mean, cov, check_valid, tol, method):
    """NumPy's factor F of cov (cov = F.T @ F) with its checks and warnings."""
    if method not in ('svd', 'eigh', 'cholesky'):
        raise ValueError("method must be one of {'eigh', 'svd', 'cholesky'}")
    if mean.ndim != 1:
        raise ValueError('mean must be 1 dimensional')
    if cov.ndim != 2 or cov.shape[0] != cov.shape[1]:
        raise ValueError('cov must be 2 dimensional and square')
    if mean.shape[0] != cov.shape[0]:
        raise ValueError('mean and cov must have same length')
    cov = cov.astype(numpy.float64)
    if method == 'cholesky':
        return numpy.linalg.cholesky(cov).T.copy()
    if check_valid not in ('warn', 'raise', 'ignore'):
        raise ValueError("check_valid must equal 'warn', 'raise', or 'ignore'")
    if method == 'eigh':
        s, u = numpy.linalg.eigh(cov)
        psd = not numpy.any(s < -tol)
        factor = (u * numpy.sqrt(numpy.abs(s))).T
    else:
        _, s, vh = numpy.linalg.svd(cov)
        psd = numpy.allclose(numpy.dot(vh.T * s, vh), cov, rtol=tol, atol=tol)
        factor = numpy.sqrt(s)[:, None] * vh
    if not psd and check_valid != 'ignore':
        if check_valid == 'warn':
            import warnings
            warnings.warn('covariance is not symmetric positive-semidefinite.', RuntimeWarning, stacklevel=3)
        else:
            raise ValueError('covariance is not symmetric positive-semidefinite.')
    return numpy.ascontiguousarray(factor)


def default_rng(seed=None):
    """A Generator over Philox: ``seed`` an int, a sequence of ints, None (OS entropy), a
    numpy.random.SeedSequence, a bit generator (Philox, Philox4x3210, XORWOW, MRG32k3a: wrapped), or a
    Generator (returned as is)."""
    if isinstance(seed, Generator):
        return seed
    if isinstance(seed, (Philox, _CurandLike)):
        return Generator(seed)
    return Generator(Philox(seed))
