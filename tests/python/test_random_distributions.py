"""Issue 16's random distributions and bit generators (Philox4x3210, XORWOW, MRG32k3a) against NumPy and SciPy.

CPU tests: NumPy's parameter errors and `size` errors (raised before any device use), the public names and
signatures. GPU tests: shapes, dtypes, broadcasting, reproducibility, moments over 1e6 draws and a KS or
chi-square test against scipy.stats with a fixed seed, and the bit generators' streams against a Python model.
"""
import inspect
import math

import numpy
import pytest

import cuarray as cp

gpu = pytest.mark.gpu
NAN = math.nan

# name -> (valid parameters, float or integer results)
DISTS = {
    'standard_cauchy': ((), numpy.float64),
    'standard_t': ((5.0,), numpy.float64),
    'f': ((3.0, 7.0), numpy.float64),
    'noncentral_f': ((3.0, 7.0, 2.5), numpy.float64),
    'noncentral_chisquare': ((3.0, 2.0), numpy.float64),
    'negative_binomial': ((3.5, 0.4), numpy.int64),
    'weibull': ((1.5,), numpy.float64),
    'pareto': ((3.0,), numpy.float64),
    'power': ((2.5,), numpy.float64),
    'rayleigh': ((2.0,), numpy.float64),
    'wald': ((1.5, 2.0), numpy.float64),
    'triangular': ((-1.0, 0.5, 2.0), numpy.float64),
    'vonmises': ((0.0, 2.0), numpy.float64),
    'logseries': ((0.7,), numpy.int64),
    'zipf': ((2.5,), numpy.int64),
}

BAD = {
    'weibull': [(-1,), (-0.0,)], 'pareto': [(-1,), (0,)], 'power': [(-1,), (0,)], 'rayleigh': [(-1,), (-0.0,)],
    'standard_t': [(-1,), (0,)], 'f': [(0, 1), (1, 0)], 'noncentral_f': [(0, 1, 1), (1, 0, 1), (1, 1, -1)],
    'noncentral_chisquare': [(0, 1), (1, -1)],
    'negative_binomial': [(0, 0.5), (NAN, 0.5), (1, 0), (1, 1.5), (1, NAN), (1e20, 1e-20)],
    'logseries': [(-0.1,), (1,), (NAN,)], 'vonmises': [(0, -1)], 'wald': [(0, 1), (1, 0)],
    'triangular': [(1, 0, 2), (0, 3, 2), (0, 0, 0)], 'zipf': [(1,), (0.5,), (NAN,)],
}
# NumPy's legacy negative_binomial takes p == 0 and NaN n (and returns garbage); cuarray refuses them.
LEGACY_DIFFERS = {('negative_binomial', (NAN, 0.5)), ('negative_binomial', (1, 0)),
                  ('negative_binomial', (1e20, 1e-20))}


def _err(f, *args, **kw):
    try:
        f(*args, **kw)
    except Exception as e:  # noqa: BLE001 - the comparison is of the exception itself
        return type(e), str(e)
    return None


# -- CPU: the checks NumPy makes before drawing anything

@pytest.mark.parametrize('name', sorted(BAD))
@pytest.mark.parametrize('as_array', [False, True])
def test_parameter_errors_match_numpy(name, as_array):
    pairs = [(cp.random.default_rng(0), numpy.random.default_rng(0), False),
             (cp.random.RandomState(0), numpy.random.RandomState(0), True)]
    for params in BAD[name]:
        args = [numpy.array([v]) for v in params] if as_array else params
        for ours, theirs, legacy in pairs:
            if legacy and (name, params) in LEGACY_DIFFERS:
                assert _err(getattr(ours, name), *args)[0] is ValueError
                continue
            expected = _err(getattr(theirs, name), *args)
            assert expected is not None
            assert _err(getattr(ours, name), *args) == expected, (name, params)


@pytest.mark.parametrize('size', [1.5, -1, (2, -1), 'a', (2, 1.5)])
def test_size_errors_match_numpy(size):
    assert _err(cp.random.default_rng(0).weibull, 1.0, size=size) == _err(
        numpy.random.default_rng(0).weibull, 1.0, size=size)


def test_broadcast_errors_match_numpy():
    g, ng = cp.random.default_rng(0), numpy.random.default_rng(0)
    assert _err(g.f, [1, 2], [1, 2, 3]) == _err(ng.f, [1, 2], [1, 2, 3])
    assert _err(g.f, [1, 2], [1, 2], size=(3, 1)) == _err(ng.f, [1, 2], [1, 2], size=(3, 1))
    assert _err(g.wald, 1j, 1.0)[0] is TypeError
    assert _err(g.wald, numpy.array([1j]), 1.0) == _err(ng.wald, numpy.array([1j]), 1.0)


def test_names_and_signatures():
    for name in list(DISTS) + ['bytes']:
        assert callable(getattr(cp.random, name))
        ref = inspect.signature(getattr(numpy.random.Generator, name))
        assert inspect.signature(getattr(cp.random.Generator, name)) == ref, name
        legacy = list(inspect.signature(getattr(numpy.random.RandomState, name)).parameters)
        ours = list(inspect.signature(getattr(cp.random.RandomState, name)).parameters)
        assert ours[:len(legacy)] == legacy and ours[len(legacy):] in ([], ['dtype']), name
    for cls in (cp.random.Philox4x3210, cp.random.XORWOW, cp.random.MRG32k3a):
        params = inspect.signature(cls).parameters
        assert list(params) == ['seed', 'size'] and params['size'].kind is inspect.Parameter.KEYWORD_ONLY
    assert issubclass(cp.random.Philox4x3210, cp.random.Philox)


def test_bit_generator_arguments():
    with pytest.raises(ValueError):
        cp.random.XORWOW(0, size=0)
    with pytest.raises(ValueError):
        cp.random.MRG32k3a(0, size=-2)
    with pytest.raises(TypeError):
        cp.random.XORWOW(0, size=1.5)
    for cls in (cp.random.XORWOW, cp.random.MRG32k3a, cp.random.Philox4x3210):
        g = cp.random.default_rng(cls(3))
        assert isinstance(g, cp.random.Generator) and isinstance(g.bit_generator, cls)
    with pytest.raises(TypeError):
        cp.random.Generator(numpy.random.PCG64(0))


def test_bit_generator_base_class():
    # CuPy's and NumPy's BitGenerator: the base of every bit generator, itself not instantiable (NumPy's error).
    for cls in (cp.random.XORWOW, cp.random.MRG32k3a, cp.random.Philox4x3210, cp.random.Philox):
        assert issubclass(cls, cp.random.BitGenerator)
    with pytest.raises(NotImplementedError):
        numpy.random.BitGenerator(0)
    with pytest.raises(NotImplementedError):
        cp.random.BitGenerator(0)
    params = inspect.signature(cp.random.BitGenerator).parameters
    assert list(params) == ['seed'] and params['seed'].default is None
    assert 'output' in inspect.signature(cp.random.XORWOW.random_raw).parameters
    assert 'output' in inspect.signature(cp.random.Philox4x3210.random_raw).parameters
    # seed_seq and spawn: children keep the kind and the number of states, and come from seed_seq's children.
    for cls in (cp.random.XORWOW, cp.random.MRG32k3a, cp.random.Philox4x3210):
        bg = cls(7, size=12)
        assert bg.seed_seq.entropy == 7
        children = bg.spawn(3)
        assert [type(c) for c in children] == [cls] * 3 and all(c._state_size() == 12 for c in children)
        assert [c.seed_seq.spawn_key for c in children] == [(0,), (1,), (2,)]
        assert cls(numpy.random.SeedSequence(7), size=12).seed_seq.entropy == 7
    with pytest.raises(TypeError):
        cp.random.Philox(key=3).spawn(1)


# -- GPU: shapes, dtypes, broadcasting, reproducibility

def _arrays(params):
    """Each parameter as a (3, 1) / (4,) alternating array around its valid value (kept valid)."""
    out = []
    for i, v in enumerate(params):
        shape = (3, 1) if i % 2 == 0 else (4,)
        out.append(numpy.full(shape, v))
    return out


@gpu
@pytest.mark.parametrize('name', sorted(DISTS))
def test_shapes_dtypes_broadcasting(name):
    params, dtype = DISTS[name]
    g = cp.random.default_rng(1)
    r = getattr(g, name)(*params)
    assert r.shape == () and r.dtype == dtype
    r = getattr(g, name)(*params, size=(2, 3))
    assert r.shape == (2, 3) and r.dtype == dtype
    assert getattr(g, name)(*params, size=0).shape == (0,)
    if params:
        arrs = _arrays(params)
        expected = numpy.broadcast_shapes(*[a.shape for a in arrs])
        assert getattr(g, name)(*arrs).shape == expected
        assert getattr(g, name)(*[cp.asarray(a) for a in arrs], size=(5,) + expected).shape == (5,) + expected
    rs = cp.random.RandomState(2)
    r = getattr(rs, name)(*params, size=7)
    assert r.shape == (7,) and r.dtype == dtype
    target = numpy.float32 if dtype == numpy.float64 else numpy.int32
    assert getattr(rs, name)(*params, size=3, dtype=target).dtype == target
    cp.random.seed(5)
    a = getattr(cp.random, name)(*params, size=4)
    cp.random.seed(5)
    b = getattr(cp.random, name)(*params, size=4)
    numpy.testing.assert_array_equal(a.get(), b.get())


@gpu
@pytest.mark.parametrize('name', sorted(DISTS))
def test_reproducible_with_seed(name):
    params, _ = DISTS[name]
    a = getattr(cp.random.default_rng(42), name)(*params, size=1000).get()
    b = getattr(cp.random.default_rng(42), name)(*params, size=1000).get()
    c = getattr(cp.random.default_rng(43), name)(*params, size=1000).get()
    numpy.testing.assert_array_equal(a, b)
    assert not numpy.array_equal(a, c)


@gpu
def test_nan_parameters_give_nan():
    g = cp.random.default_rng(0)
    for name, params in [('standard_t', (NAN,)), ('f', (NAN, 1.0)), ('f', (1.0, NAN)),
                         ('noncentral_chisquare', (NAN, 1.0)), ('noncentral_chisquare', (1.0, NAN)),
                         ('noncentral_f', (1.0, 1.0, NAN)), ('weibull', (NAN,)), ('pareto', (NAN,)),
                         ('power', (NAN,)), ('rayleigh', (NAN,)), ('wald', (NAN, 1.0)), ('vonmises', (0.0, NAN)),
                         ('vonmises', (NAN, 1.0)), ('triangular', (NAN, 1.0, 2.0))]:
        for args in (params, [numpy.array([v, 1.0 if v != v else v]) for v in params]):
            r = getattr(g, name)(*args, size=None if args is params else (2,)).get()
            assert numpy.isnan(numpy.ravel(r)[0]), (name, args)


@gpu
def test_degenerate_parameters():
    g = cp.random.default_rng(0)
    assert (g.weibull(0.0, size=10).get() == 0).all()
    assert (g.weibull(numpy.array([0.0, 1.0]), size=(5, 2)).get()[:, 0] == 0).all()
    assert (g.rayleigh(0.0, size=10).get() == 0).all()
    assert (g.logseries(0.0, size=10).get() == 1).all()
    assert (g.negative_binomial(2.0, 1.0, size=10).get() == 0).all()
    assert (g.zipf(2000.0, size=10).get() == 1).all()
    v = g.vonmises(0.3, 1e9, size=1000).get()
    assert numpy.abs(v - 0.3).max() < 1e-3
    v = g.vonmises(0.0, 0.0, size=100000).get()
    assert numpy.abs(v).max() <= math.pi
    _assert_moment(v.mean(), 0.0, math.pi / math.sqrt(3), v.size, 'uniform angle mean')


@gpu
def test_bytes():
    b = cp.random.default_rng(3).bytes(1000)
    assert isinstance(b, bytes) and len(b) == 1000 and len(set(b)) > 200
    assert cp.random.RandomState(3).bytes(5) == cp.random.RandomState(3).bytes(5)
    assert isinstance(cp.random.bytes(4), bytes)


# -- GPU: statistics against scipy.stats (fixed seeds: a p-value below 1e-4 means a wrong distribution)

N = 1_000_000


def _assert_moment(got, want, sd, n, what):
    """|got - want| within 6 standard errors sd / sqrt(n) of an estimate over n draws: a fixed tolerance is
    too tight at one sample size and too loose at another, and 6 standard errors is never reached by chance
    (p ~ 2e-9 for a normal estimate) while a wrong parameter or distribution moves the estimate far beyond."""
    got, want, sd = numpy.broadcast_arrays(numpy.asarray(got, float), numpy.asarray(want, float),
                                           numpy.asarray(sd, float))
    tol = 6 * sd / math.sqrt(n)
    assert (numpy.abs(got - want) <= tol).all(), (what, got.tolist(), want.tolist(), tol.tolist())


def _continuous_cases():
    from scipy import stats
    return [
        ('standard_cauchy', (), stats.cauchy()),
        ('standard_t', (5.0,), stats.t(5.0)),
        ('standard_t', (0.7,), stats.t(0.7)),
        ('f', (3.0, 7.0), stats.f(3.0, 7.0)),
        ('noncentral_f', (3.0, 7.0, 2.5), stats.ncf(3.0, 7.0, 2.5)),
        ('noncentral_f', (0.8, 5.0, 1.5), stats.ncf(0.8, 5.0, 1.5)),
        ('noncentral_chisquare', (3.0, 2.0), stats.ncx2(3.0, 2.0)),
        ('noncentral_chisquare', (0.5, 2.0), stats.ncx2(0.5, 2.0)),
        ('noncentral_chisquare', (2.0, 0.0), stats.chi2(2.0)),
        ('weibull', (1.5,), stats.weibull_min(1.5)),
        ('pareto', (3.0,), stats.lomax(3.0)),
        ('power', (2.5,), stats.powerlaw(2.5)),
        ('rayleigh', (2.0,), stats.rayleigh(scale=2.0)),
        ('wald', (1.5, 2.0), stats.invgauss(1.5 / 2.0, scale=2.0)),
        ('triangular', (-1.0, 0.5, 2.0), stats.triang(0.5, loc=-1.0, scale=3.0)),
        ('vonmises', (0.0, 2.0), stats.vonmises(2.0)),
        ('vonmises', (0.0, 1e-6), stats.vonmises(1e-6)),
        ('vonmises', (0.0, 50.0), stats.vonmises(50.0)),
    ]


@gpu
@pytest.mark.parametrize('case', range(18))
def test_continuous_ks(case):
    from scipy import stats
    name, params, dist = _continuous_cases()[case]
    x = getattr(cp.random.default_rng(1234 + case), name)(*params, size=N).get()
    assert x.dtype == numpy.float64 and numpy.isfinite(x).all()
    assert stats.kstest(x, dist.cdf).pvalue > 1e-4, (name, params)
    if numpy.isfinite(dist.var()):
        _assert_moment(x.mean(), dist.mean(), dist.std(), N, (name, params))


def _discrete_cases():
    from scipy import stats
    return [
        ('negative_binomial', (3.5, 0.4), stats.nbinom(3.5, 0.4)),
        ('negative_binomial', (40.0, 0.9), stats.nbinom(40.0, 0.9)),
        ('logseries', (0.7,), stats.logser(0.7)),
        ('logseries', (0.999,), stats.logser(0.999)),
        ('zipf', (2.5,), stats.zipf(2.5)),
        ('zipf', (1.3,), stats.zipf(1.3)),
    ]


@gpu
@pytest.mark.parametrize('case', range(6))
def test_discrete_chisquare(case):
    from scipy import stats
    name, params, dist = _discrete_cases()[case]
    x = getattr(cp.random.default_rng(99 + case), name)(*params, size=N).get()
    assert x.dtype == numpy.int64 and x.min() >= dist.support()[0]
    # Bins: every value with an expected count >= 20, then one tail bin.
    lo = int(dist.support()[0])
    ks = [k for k in range(lo, lo + 10000) if N * dist.pmf(k) >= 20]
    top = max(ks)
    obs = numpy.bincount(numpy.minimum(x, top + 1) - lo, minlength=top + 2 - lo)
    exp = numpy.array([N * dist.pmf(k) for k in range(lo, top + 1)] + [N * dist.sf(top)])
    exp *= obs.sum() / exp.sum()
    assert stats.chisquare(obs, exp).pvalue > 1e-4, (name, params)


@gpu
def test_moments_with_array_parameters():
    from scipy import special, stats
    g = cp.random.default_rng(7)
    n = N // 4
    df = numpy.array([6.0, 8.0, 20.0])
    x = g.standard_t(cp.asarray(df), size=(n, 3)).get()
    # The sample variance's standard deviation is sqrt(mu4 - sigma^4) (the fourth moment exists for df > 4).
    var, kurt = stats.t(df).stats(moments='vk')
    _assert_moment(x.var(axis=0), var, numpy.sqrt((kurt + 2) * var**2), n, 'standard_t variance')
    lam = numpy.array([0.5, 2.0])
    dof = numpy.array([[0.5], [4.0]])
    x = g.noncentral_chisquare(dof, lam, size=(n, 2, 2)).get()
    _assert_moment(x.mean(axis=0), dof + lam, numpy.sqrt(2 * (dof + 2 * lam)), n, 'noncentral_chisquare mean')
    p = numpy.array([0.2, 0.5, 0.9])
    x = g.logseries(p, size=(n, 3)).get()
    _assert_moment(x.mean(axis=0), stats.logser(p).mean(), stats.logser(p).std(), n, 'logseries mean')
    mu = numpy.array([1.0, -2.0, 3.0])
    k = numpy.array([0.5, 5.0, 2e6])
    x = g.vonmises(mu, k, size=(n, 3)).get()
    assert numpy.abs(x).max() <= math.pi
    # E cos(X - mu) = I1(kappa) / I0(kappa) and E cos 2(X - mu) = I2(kappa) / I0(kappa) for the von Mises
    # distribution, which give the variance of cos(X - mu).
    a1 = special.i1e(k) / special.i0e(k)
    a2 = special.ive(2, k) / special.i0e(k)
    _assert_moment(numpy.cos(x - mu).mean(axis=0), a1, numpy.sqrt((1 + a2) / 2 - a1**2), n, 'vonmises E cos')


# -- GPU: the bit generators' streams

_M64 = (1 << 64) - 1


def _splitmix(x):
    x = (x + 0x9E3779B97F4A7C15) & _M64
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _M64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _M64
    return x ^ (x >> 31)


def _thread_seed(seed, t):
    key = int(numpy.random.SeedSequence(seed).generate_state(1, numpy.uint64)[0])
    return _splitmix(key ^ _splitmix(t))


def _xorwow_stream(seed, t, count):
    s = _thread_seed(seed, t)
    m = 0xFFFFFFFF
    s0, s1 = (s & m) ^ 0xaad26b49, (s >> 32) ^ 0xf7dcefdd
    t0, t1 = (1099087573 * s0) & m, (2591861531 * s1) & m
    v = [(123456789 + t0) & m, 362436069 ^ t0, (521288629 + t1) & m, 88675123 ^ t1, (5783321 + t0) & m]
    d = (6615241 + t1 + t0) & m
    out = []
    for _ in range(count):
        x = v[0] ^ (v[0] >> 2)
        v = v[1:] + [((v[4] ^ (v[4] << 4)) ^ (x ^ (x << 1))) & m]
        d = (d + 362437) & m
        out.append((v[4] + d) & m)
    return out


def _mrg_stream(seed, t, count):
    s = _thread_seed(seed, t)
    m1, m2 = 4294967087, 4294944443
    x1, x2 = (s & 0xFFFFFFFF) ^ 0x55555555, (s >> 32) ^ 0xaaaaaaaa
    a = [x1 * 12345 % m1, x2 * 12345 % m1, x1 * 12345 % m1]
    b = [x2 * 12345 % m2, x1 * 12345 % m2, x2 * 12345 % m2]
    out = []
    for _ in range(count):
        p1 = (1403580 * a[1] - 810728 * a[0]) % m1
        a = [a[1], a[2], p1]
        p2 = (527612 * b[2] - 1370589 * b[0]) % m2
        b = [b[1], b[2], p2]
        z = float(p1 - p2 if p1 > p2 else p1 - p2 + m1)
        out.append(min(int(z * 1.000000048662), 4294967295))
    return out


@gpu
@pytest.mark.parametrize('cls, model', [(cp.random.XORWOW, _xorwow_stream), (cp.random.MRG32k3a, _mrg_stream)])
def test_bit_generator_streams(cls, model):
    bg = cls(11, size=3)
    first = bg.random_raw(7).get()   # states 0, 1, 2 give outputs (0, 3, 6), (1, 4), (2, 5)
    second = bg.random_raw(2).get()  # states 0 and 1 continue
    assert first.dtype == numpy.uint64 and first.shape == (7,)
    streams = [model(11, t, 4) for t in range(3)]
    numpy.testing.assert_array_equal(first, [streams[0][0], streams[1][0], streams[2][0], streams[0][1],
                                             streams[1][1], streams[2][1], streams[0][2]])
    numpy.testing.assert_array_equal(second, [streams[0][3], streams[1][2]])
    assert bg.random_raw().shape == ()
    assert bg.random_raw(4, output=False) is None
    assert isinstance(bg.state(), int) and bg.state() != 0


@gpu
@pytest.mark.parametrize('cls', [cp.random.XORWOW, cp.random.MRG32k3a])
def test_bit_generator_uniformity(cls):
    from scipy import stats
    raw = cls(5).random_raw(N).get()
    assert raw.max() < 2**32
    assert stats.kstest(raw / 2.0**32, 'uniform').pvalue > 1e-4
    assert cls(5).random_raw(100).get().tolist() == cls(5).random_raw(100).get().tolist()


@gpu
@pytest.mark.parametrize('cls', [cp.random.XORWOW, cp.random.MRG32k3a, cp.random.Philox4x3210])
def test_generators_over_each_bit_generator(cls):
    a = cp.random.Generator(cls(8)).standard_normal(1000).get()
    b = cp.random.default_rng(cls(8)).standard_normal(1000).get()
    numpy.testing.assert_array_equal(a, b)
    _assert_moment(cp.random.Generator(cls(9)).random(N).get().mean(), 0.5, math.sqrt(1 / 12), N, 'uniform mean')
    assert cp.random.Generator(cls(9)).zipf(3.0, size=5).dtype == numpy.int64
