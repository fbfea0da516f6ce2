"""cuarray.random: NumPy's Generator and RandomState APIs on Philox4x32-10, checked against NumPy and SciPy."""
import warnings

import numpy
import pytest

import cuarray
from cuarray import random as cr

gpu = pytest.mark.gpu
np_rng = numpy.random.default_rng(0)


def _host(a):
    return a.get() if isinstance(a, cuarray.ndarray) else numpy.asarray(a)


# --------------------------------------------------------------------------------------------------------
# A reference Philox4x32-10 in Python: the device's words must equal it bit for bit.

from _philox import block as _block, philox as _philox  # noqa: E402


def test_reference_philox_matches_random123():
    assert _philox([0, 0, 0, 0], 0) == [0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8]


# --------------------------------------------------------------------------------------------------------
# Host-only behaviour: seeding, state, and argument errors raised before any device work.

def test_default_rng_seeds():
    a, b = cr.default_rng(1234), cr.default_rng(1234)
    assert a.bit_generator.state == b.bit_generator.state
    assert cr.default_rng(1).bit_generator.state != cr.default_rng(2).bit_generator.state
    ss = numpy.random.SeedSequence(99)
    assert cr.default_rng(ss).bit_generator.state == cr.default_rng(99).bit_generator.state
    assert cr.default_rng([1, 2]).bit_generator.state['state']['counter'] == 0
    assert cr.default_rng(None).bit_generator.state != cr.default_rng(None).bit_generator.state
    g = cr.default_rng(5)
    assert cr.default_rng(g) is g
    assert cr.default_rng(g.bit_generator).bit_generator is g.bit_generator
    assert isinstance(cr.Generator(cr.Philox(3)), cr.Generator)
    with pytest.raises(TypeError):
        cr.Generator(3)


def test_philox_state_roundtrip_and_key():
    bg = cr.Philox(key=0x1234, counter=7)
    assert bg.state['state'] == {'key': 0x1234, 'counter': 7}
    other = cr.Philox(0)
    other.state = bg.state
    assert other.state == bg.state
    assert bg.advance(3).state['state']['counter'] == 10
    assert bg.jumped().state['state']['counter'] == 10 + 2**63
    with pytest.raises(ValueError):
        cr.Philox(1, key=2)
    assert len(cr.Philox(0).spawn(2)) == 2


def test_legacy_seed_range():
    rs = cr.RandomState(7)
    assert rs.get_state() == cr.RandomState(7).get_state()
    with pytest.raises(ValueError, match='Seed must be between 0 and 2\\*\\*32 - 1'):
        cr.RandomState(-1)
    with pytest.raises(ValueError):
        cr.RandomState(2**32)
    cr.seed(3)
    assert cr.get_random_state().get_state() == cr.RandomState(3).get_state()


# Calls whose error NumPy raises from scalar arguments: same type and message here, and no counters taken.
SCALAR_ERRORS = [
    ('normal', (0, -1), {}),
    ('exponential', (-1,), {}),
    ('gamma', (-1,), {}),
    ('gamma', (1, -1), {}),
    ('standard_gamma', (-1,), {}),
    ('beta', (0, 1), {}),
    ('beta', (1, -1), {}),
    ('chisquare', (0,), {}),
    ('lognormal', (0, -1), {}),
    ('logistic', (0, -1), {}),
    ('laplace', (0, -1), {}),
    ('gumbel', (0, -1), {}),
    ('binomial', (-1, 0.5), {}),
    ('binomial', (3, 1.5), {}),
    ('binomial', (3, float('nan')), {}),
    ('poisson', (-1,), {}),
    ('poisson', (1e20,), {}),
    ('geometric', (0,), {}),
    ('geometric', (1.5,), {}),
    ('hypergeometric', (1, 1, 3), {}),
    ('hypergeometric', (2**31, 1, 3), {}),
    ('hypergeometric', (1, 1, -1), {}),
    ('uniform', (0, float('inf')), {}),
    ('uniform', (1, 0), {}),
    ('integers', (5, 3), {}),
    ('integers', (3, 3), {}),
    ('integers', (5, 3), {'endpoint': True}),
    ('integers', (0, 300), {'dtype': numpy.uint8}),
    ('integers', (-1, 3), {'dtype': numpy.uint8}),
    ('integers', (0, 3), {'dtype': numpy.float64}),
    ('integers', (0, 3), {'dtype': numpy.bool_}),
    ('integers', (0, 2**64 + 1), {'dtype': numpy.uint64}),
    ('random', (), {'dtype': numpy.int32}),
    ('standard_normal', (), {'dtype': numpy.float16}),
    ('standard_exponential', (), {'dtype': numpy.int64}),
    ('random', (-1,), {}),
    ('random', ((2, -1),), {}),
    ('random', (2.5,), {}),
    ('normal', (0j, 1), {}),
    ('choice', (0, 3), {}),
    ('choice', (-1,), {}),
    ('choice', (3, 4), {'replace': False}),
]


@pytest.mark.parametrize('name,args,kwargs', SCALAR_ERRORS)
def test_scalar_argument_errors_match_numpy(name, args, kwargs):
    with pytest.raises(Exception) as expected:
        getattr(numpy.random.default_rng(0), name)(*args, **kwargs)
    g = cr.default_rng(0)
    with pytest.raises(expected.type) as got:
        getattr(g, name)(*args, **kwargs)
    if name != 'normal' or args[0] != 0j:  # NumPy names the complex type its own way
        assert str(got.value) == str(expected.value)
    assert g.bit_generator.state['state']['counter'] == 0


def test_module_namespace():
    for name in ('seed', 'get_random_state', 'RandomState', 'rand', 'randn', 'random', 'random_sample', 'ranf',
                 'sample', 'randint', 'random_integers', 'normal', 'uniform', 'choice', 'permutation', 'shuffle',
                 'gamma', 'beta', 'binomial', 'poisson', 'hypergeometric', 'multinomial', 'dirichlet',
                 'multivariate_normal', 'default_rng', 'Generator', 'Philox'):
        assert hasattr(cuarray.random, name), name


# --------------------------------------------------------------------------------------------------------
# Bits: the device's numbers are Philox's words, converted as documented.

@gpu
def test_random_raw_and_uniforms_are_reference_philox():
    key = 0x0123456789ABCDEF
    words = _host(cr.Philox(key=key, counter=5).random_raw(4))
    b0, b1 = _block(key, 5), _block(key, 6)
    assert list(words) == [(b0[0] << 32) | b0[1], (b0[2] << 32) | b0[3], (b1[0] << 32) | b1[1],
                           (b1[2] << 32) | b1[3]]
    f = _host(cr.Generator(cr.Philox(key=key, counter=5)).random(6, dtype=numpy.float32))
    expect = [(w >> 8) * 2.0**-24 for w in b0 + b1[:2]]
    numpy.testing.assert_array_equal(f, numpy.array(expect, numpy.float32))
    d = _host(cr.Generator(cr.Philox(key=key, counter=5)).random(3))
    expect = [(((b0[0] << 32) | b0[1]) >> 11) * 2.0**-53, (((b0[2] << 32) | b0[3]) >> 11) * 2.0**-53,
              (((b1[0] << 32) | b1[1]) >> 11) * 2.0**-53]
    numpy.testing.assert_array_equal(d, expect)


@gpu
def test_same_seed_same_numbers_and_calls_differ():
    a = cr.default_rng(42).standard_normal(1000)
    b = cr.default_rng(42).standard_normal(1000)
    numpy.testing.assert_array_equal(_host(a), _host(b))
    g = cr.default_rng(42)
    x, y = _host(g.random(1000)), _host(g.random(1000))
    assert not numpy.array_equal(x, y)


@pytest.mark.parametrize('dtype,per_counter', [(numpy.float32, 4), (numpy.float64, 2)])
@gpu
def test_split_draws_equal_one_draw_at_counter_boundaries(dtype, per_counter):
    # Documented property: n then m values equal n + m values when n is a multiple of the values per counter.
    n, m = 3 * per_counter, 1001
    for method in ('random', 'standard_normal', 'standard_exponential'):
        g1, g2 = cr.default_rng(7), cr.default_rng(7)
        whole = _host(getattr(g1, method)(n + m, dtype=dtype))
        parts = numpy.concatenate([_host(getattr(g2, method)(n, dtype=dtype)),
                                   _host(getattr(g2, method)(m, dtype=dtype))])
        numpy.testing.assert_array_equal(whole, parts)
        assert g1.bit_generator.state == g2.bit_generator.state


@gpu
def test_split_draws_of_looping_samplers_are_one_counter_per_value():
    for method, args in (('gamma', (0.7,)), ('poisson', (30.0,)), ('binomial', (1000, 0.3)),
                         ('hypergeometric', (20, 30, 15)), ('beta', (0.5, 0.5))):
        g1, g2 = cr.default_rng(11), cr.default_rng(11)
        whole = _host(getattr(g1, method)(*args, size=12))
        parts = numpy.concatenate([_host(getattr(g2, method)(*args, size=5)),
                                   _host(getattr(g2, method)(*args, size=7))])
        numpy.testing.assert_array_equal(whole, parts, err_msg=method)


@gpu
@pytest.mark.parametrize('high,per_counter', [(1000, 4), (2**40, 2)])
def test_split_integer_draws_equal_one_draw_at_counter_boundaries(high, per_counter):
    # Note [integers per counter]: four outputs per counter for a 32-bit range, two for a wider one.
    n, m = 3 * per_counter, 1001
    g1, g2 = cr.default_rng(11), cr.default_rng(11)
    whole = _host(g1.integers(0, high, size=n + m))
    parts = numpy.concatenate([_host(g2.integers(0, high, size=n)), _host(g2.integers(0, high, size=m))])
    numpy.testing.assert_array_equal(whole, parts)
    assert g1.bit_generator.state == g2.bit_generator.state


@gpu
def test_large_draw_prefix_is_the_small_draw():
    # Grid-stride launches of different sizes give each index the same value. 2^24 + 3 float32 values are
    # 4M+ Philox groups: more than the capped grid has threads (a few waves of resident blocks), so each
    # thread loops, and the partial last group takes the scalar tail.
    for method in ('standard_normal', 'random'):
        small = _host(getattr(cr.default_rng(3), method)(1001, dtype=numpy.float32))
        large = _host(getattr(cr.default_rng(3), method)((1 << 24) + 3, dtype=numpy.float32))
        numpy.testing.assert_array_equal(small, large[:1001])
        assert numpy.isfinite(large).all()


# --------------------------------------------------------------------------------------------------------
# Shapes, dtypes, out= and broadcasting against NumPy.

SHAPE_CASES = [
    ('random', (), {}), ('random', (), {'dtype': numpy.float32}), ('standard_normal', (), {}),
    ('standard_normal', (), {'dtype': 'f4'}), ('standard_exponential', (), {'dtype': numpy.float32}),
    ('standard_gamma', (2.0,), {'dtype': numpy.float32}), ('integers', (10,), {}),
    ('integers', (-5, 5), {'dtype': numpy.int8}), ('integers', (0, 1), {'dtype': numpy.bool_, 'endpoint': True}),
    ('integers', (0, 2**64 - 1), {'dtype': numpy.uint64}), ('integers', (0, 65535), {'dtype': numpy.uint16}),
    ('uniform', (), {}), ('normal', (1, 2), {}), ('exponential', (), {}), ('gamma', (2.0,), {}),
    ('beta', (2, 3), {}), ('chisquare', (3,), {}), ('lognormal', (), {}), ('logistic', (), {}), ('laplace', (), {}),
    ('gumbel', (), {}), ('binomial', (10, 0.5), {}), ('poisson', (), {}), ('geometric', (0.3,), {}),
    ('hypergeometric', (5, 5, 3), {}),
]


@pytest.mark.parametrize('name,args,kwargs', SHAPE_CASES)
@pytest.mark.parametrize('size', [None, 0, 5, (2, 3), (2, 0, 4)])
@gpu
def test_shapes_and_dtypes_match_numpy(name, args, kwargs, size):
    raw = getattr(numpy.random.default_rng(0), name)(*args, size=size, **kwargs)
    expected = numpy.asarray(raw)
    got = getattr(cr.default_rng(0), name)(*args, size=size, **kwargs)
    assert isinstance(got, cuarray.ndarray)
    assert got.shape == expected.shape
    # With size=None NumPy returns a Python float even for dtype=float32, which loses the dtype; like CuPy we
    # return a 0-d array of the requested dtype.
    want = numpy.dtype(kwargs['dtype']) if isinstance(raw, float) and 'dtype' in kwargs else expected.dtype
    assert got.dtype == want


@gpu
def test_parameters_broadcast():
    loc = cuarray.asarray(numpy.array([[0.0], [100.0], [-100.0]]))
    x = cr.default_rng(1).normal(loc, numpy.array([1.0, 2.0, 3.0, 4.0]))
    assert x.shape == (3, 4)
    assert numpy.all(numpy.abs(_host(x) - _host(loc)) < 30)
    y = cr.default_rng(1).normal([0, 1], 1, size=(5, 2))
    assert y.shape == (5, 2)
    with pytest.raises(ValueError, match='not compatible with broadcast dimensions'):
        cr.default_rng(1).normal(cuarray.zeros((2, 3)), 1, size=(3,))
    with pytest.raises(ValueError, match='shape mismatch'):
        cr.default_rng(1).normal(cuarray.zeros(3), cuarray.ones(2))
    z = cr.default_rng(1).gamma(cuarray.asarray([0.5, 5.0, 50.0]), size=(1000, 3))
    numpy.testing.assert_allclose(_host(z).mean(axis=0), [0.5, 5.0, 50.0], rtol=0.15)
    k = _host(cr.default_rng(1).integers([0, 10, 100], [5, 20, 1000], size=(2000, 3)))
    assert k[:, 0].min() >= 0 and k[:, 0].max() < 5 and k[:, 1].min() >= 10 and k[:, 2].max() < 1000


@gpu
def test_array_parameter_errors_match_numpy():
    g = cr.default_rng(0)
    with pytest.raises(ValueError, match='scale < 0'):
        g.normal(0, cuarray.asarray([1.0, -1.0]))
    with pytest.raises(ValueError, match='p < 0, p > 1 or p is NaN'):
        g.binomial(3, cuarray.asarray([0.5, numpy.nan]))
    with pytest.raises(ValueError, match='low >= high'):
        g.integers(cuarray.asarray([0, 5]), 3)
    with pytest.raises(ValueError, match='ngood \\+ nbad < nsample'):
        g.hypergeometric(cuarray.asarray([1, 5]), 1, 3)
    with pytest.raises(OverflowError, match='Range exceeds valid bounds'):
        g.uniform(0, cuarray.asarray([1.0, numpy.inf]))
    assert g.bit_generator.state['state']['counter'] == 0


@pytest.mark.parametrize('method', ['random', 'standard_normal', 'standard_exponential'])
@pytest.mark.parametrize('dtype', [numpy.float32, numpy.float64])
@gpu
def test_out(method, dtype):
    out = cuarray.empty((3, 5), dtype=dtype)
    r = getattr(cr.default_rng(2), method)(out=out, dtype=dtype)
    assert r is out or r.data.ptr == out.data.ptr
    expect = getattr(cr.default_rng(2), method)((3, 5), dtype=dtype)
    numpy.testing.assert_array_equal(_host(out), _host(expect))
    # An unaligned view (offset of one element) takes the scalar stores.
    big = cuarray.zeros(17, dtype=dtype)
    getattr(cr.default_rng(2), method)(out=big[1:], dtype=dtype)
    numpy.testing.assert_array_equal(_host(big[1:]), _host(getattr(cr.default_rng(2), method)(16, dtype=dtype)))
    g = cr.default_rng(2)
    with pytest.raises(TypeError, match='Supplied output array has the wrong type'):
        getattr(g, method)(out=cuarray.empty(3, dtype=numpy.int32), dtype=dtype)
    with pytest.raises(ValueError, match='size must match out.shape when used together'):
        getattr(g, method)(size=4, out=cuarray.empty(3, dtype=dtype), dtype=dtype)
    with pytest.raises(ValueError, match='contiguous'):
        getattr(g, method)(out=cuarray.empty((3, 3), dtype=dtype)[:, 0], dtype=dtype)


@gpu
def test_standard_gamma_out_and_float32():
    out = cuarray.empty(1000, dtype=numpy.float32)
    cr.default_rng(3).standard_gamma(2.0, dtype=numpy.float32, out=out)
    assert abs(float(_host(out).mean()) - 2.0) < 0.2


# --------------------------------------------------------------------------------------------------------
# Statistics: Kolmogorov-Smirnov tests against SciPy at fixed seeds, chi-square tests for discrete laws.

stats = pytest.importorskip('scipy.stats')
N = 20000
P_MIN = 1e-4  # deterministic at these seeds; a wrong law gives p-values far below


def _ks(sample, dist):
    return stats.kstest(numpy.asarray(sample, numpy.float64), dist.cdf).pvalue


CONTINUOUS = [
    ('random', (), {}, stats.uniform()),
    ('random', (), {'dtype': numpy.float32}, stats.uniform()),
    ('standard_normal', (), {}, stats.norm()),
    ('standard_normal', (), {'dtype': numpy.float32}, stats.norm()),
    ('normal', (2.0, 3.0), {}, stats.norm(2.0, 3.0)),
    ('uniform', (-1.0, 3.0), {}, stats.uniform(-1.0, 4.0)),
    ('exponential', (2.0,), {}, stats.expon(scale=2.0)),
    ('standard_exponential', (), {'dtype': numpy.float32}, stats.expon()),
    ('gamma', (0.5, 2.0), {}, stats.gamma(0.5, scale=2.0)),
    ('gamma', (3.0,), {}, stats.gamma(3.0)),
    ('gamma', (50.0, 0.5), {}, stats.gamma(50.0, scale=0.5)),
    ('standard_gamma', (0.3,), {'dtype': numpy.float32}, stats.gamma(0.3)),
    ('beta', (0.5, 0.7), {}, stats.beta(0.5, 0.7)),
    ('beta', (2.0, 5.0), {}, stats.beta(2.0, 5.0)),
    ('chisquare', (3.0,), {}, stats.chi2(3.0)),
    ('lognormal', (0.5, 0.8), {}, stats.lognorm(0.8, scale=numpy.exp(0.5))),
    ('logistic', (1.0, 2.0), {}, stats.logistic(1.0, 2.0)),
    ('laplace', (1.0, 2.0), {}, stats.laplace(1.0, 2.0)),
    ('gumbel', (1.0, 2.0), {}, stats.gumbel_r(1.0, 2.0)),
]


@pytest.mark.parametrize('name,args,kwargs,dist', CONTINUOUS, ids=[c[0] + str(i) for i, c in enumerate(CONTINUOUS)])
@gpu
def test_continuous_ks(name, args, kwargs, dist):
    x = _host(getattr(cr.default_rng(12345), name)(*args, size=N, **kwargs))
    assert _ks(x, dist) > P_MIN
    m, v = dist.stats()
    assert abs(x.mean() - m) < 6 * numpy.sqrt(v / N)


@gpu
def test_float32_normal_tails_and_range():
    # The tails come from log(u) near 0 and 1: a coarse log would show here first.
    x = _host(cr.default_rng(5).standard_normal(1 << 22, dtype=numpy.float32)).astype(numpy.float64)
    assert _ks(x, stats.norm()) > P_MIN
    for t in (3.0, 4.0):
        frac = numpy.mean(numpy.abs(x) > t)
        expect = 2 * stats.norm.sf(t)
        assert abs(frac - expect) < 6 * numpy.sqrt(expect / x.size), t
    u = _host(cr.default_rng(5).random(1 << 20, dtype=numpy.float32))
    assert u.min() >= 0 and u.max() < 1


def _chi2_discrete(sample, pmf, support):
    """Chi-square goodness of fit over `support`, pooling cells with expected counts below 5."""
    n = sample.size
    values, freq = numpy.unique(sample, return_counts=True)
    lookup = dict(zip(values.tolist(), freq.tolist()))
    counts = numpy.array([lookup.get(k, 0) for k in support], numpy.float64)
    expect = n * numpy.array([pmf(k) for k in support])
    obs, exp_, acc_o, acc_e = [], [], 0.0, 0.0
    for o, e in zip(counts, expect):
        acc_o += o
        acc_e += e
        if acc_e >= 5:
            obs.append(acc_o)
            exp_.append(acc_e)
            acc_o = acc_e = 0.0
    if acc_e > 0 and obs:
        obs[-1] += acc_o
        exp_[-1] += acc_e
    obs, exp_ = numpy.array(obs), numpy.array(exp_)
    exp_ *= obs.sum() / exp_.sum()
    return stats.chisquare(obs, exp_).pvalue


DISCRETE = [
    ('binomial', (10, 0.3), stats.binom(10, 0.3), range(0, 11)),
    ('binomial', (100, 0.9), stats.binom(100, 0.9), range(60, 101)),
    ('binomial', (1000, 0.4), stats.binom(1000, 0.4), range(300, 500)),
    ('binomial', (2**40, 1e-11), stats.binom(2**40, 1e-11), range(0, 40)),
    ('poisson', (3.0,), stats.poisson(3.0), range(0, 30)),
    ('poisson', (50.0,), stats.poisson(50.0), range(0, 120)),
    ('poisson', (1e6,), stats.poisson(1e6), range(995000, 1005000)),
    ('geometric', (0.2,), stats.geom(0.2), range(1, 80)),
    ('geometric', (0.6,), stats.geom(0.6), range(1, 30)),
    ('hypergeometric', (20, 30, 15), stats.hypergeom(50, 20, 15), range(0, 16)),
    ('hypergeometric', (5, 1000, 600), stats.hypergeom(1005, 5, 600), range(0, 6)),
    ('integers', (0, 7), stats.randint(0, 7), range(0, 7)),
    ('integers', (-3, 3), stats.randint(-3, 4), range(-3, 4)),
]


@pytest.mark.parametrize('name,args,dist,support', DISCRETE, ids=[d[0] + str(i) for i, d in enumerate(DISCRETE)])
@gpu
def test_discrete_chi_square(name, args, dist, support):
    kwargs = {'endpoint': True} if args == (-3, 3) else {}
    x = _host(getattr(cr.default_rng(2024), name)(*args, size=N, **kwargs))
    assert x.dtype == numpy.int64
    assert _chi2_discrete(x, dist.pmf, support) > P_MIN
    m, v = dist.stats()
    assert abs(x.mean() - m) < 6 * numpy.sqrt(v / N) + 1e-12


@gpu
def test_integers_edge_ranges():
    g = cr.default_rng(9)
    full = _host(g.integers(0, 2**64 - 1, size=4096, dtype=numpy.uint64, endpoint=True))
    assert 0.4 < numpy.mean(full >> numpy.uint64(63)) < 0.6
    i8 = _host(g.integers(-128, 127, size=4096, dtype=numpy.int8, endpoint=True))
    assert i8.min() == -128 and i8.max() == 127
    b = _host(g.integers(0, 2, size=1000, dtype=bool))
    assert b.dtype == numpy.bool_ and 300 < b.sum() < 700
    big = _host(g.integers(-2**62, 2**62, size=4096))
    assert big.min() < -2**60 and big.max() > 2**60
    same = _host(g.integers(5, 5, size=10, endpoint=True))
    assert numpy.all(same == 5)
    assert g.integers(0, 0, size=0).shape == (0,)


@gpu
def test_multinomial():
    g = cr.default_rng(4)
    p = [0.2, 0.3, 0.5]
    x = _host(g.multinomial(100, p, size=5000))
    assert x.shape == (5000, 3) and x.dtype == numpy.int64
    assert numpy.all(x.sum(axis=1) == 100)
    numpy.testing.assert_allclose(x.mean(axis=0), [20, 30, 50], atol=0.5)
    numpy.testing.assert_allclose(x.var(axis=0), [16, 21, 25], rtol=0.1)
    y = g.multinomial(cuarray.asarray([3, 4]), [[0.5, 0.5]], size=(6, 2))
    assert y.shape == (6, 2, 2)
    assert numpy.all(_host(y).sum(axis=2) == [3, 4])
    with pytest.raises(ValueError, match='pvals < 0, pvals > 1 or pvals contains NaNs'):
        g.multinomial(3, [0.5, -0.1, 0.6])
    with pytest.raises(ValueError, match='sum\\(pvals\\[:-1\\]\\) > 1.0'):
        g.multinomial(3, [0.7, 0.6, 0.0])


@gpu
def test_dirichlet_marginals_are_beta():
    alpha = numpy.array([0.5, 2.0, 3.5])
    x = _host(cr.default_rng(8).dirichlet(alpha, size=N))
    assert x.shape == (N, 3)
    numpy.testing.assert_allclose(x.sum(axis=1), 1.0, rtol=1e-12)
    for i, a in enumerate(alpha):
        assert _ks(x[:, i], stats.beta(a, alpha.sum() - a)) > P_MIN
    with pytest.raises(ValueError, match='alpha < 0'):
        cr.default_rng(8).dirichlet([1.0, -1.0])


@pytest.mark.parametrize('method', ['svd', 'eigh', 'cholesky'])
@gpu
def test_multivariate_normal(method):
    mean = numpy.array([1.0, -2.0, 0.5])
    a = numpy.array([[2.0, 0.3, 0.1], [0.3, 1.0, -0.4], [0.1, -0.4, 0.8]])
    x = _host(cr.default_rng(6).multivariate_normal(mean, a, size=N, method=method))
    assert x.shape == (N, 3)
    numpy.testing.assert_allclose(x.mean(axis=0), mean, atol=0.05)
    numpy.testing.assert_allclose(numpy.cov(x.T), a, atol=0.06)
    proj = x @ numpy.array([1.0, 1.0, -1.0])
    var = numpy.array([1.0, 1.0, -1.0]) @ a @ numpy.array([1.0, 1.0, -1.0])
    assert _ks(proj, stats.norm(mean @ [1, 1, -1], numpy.sqrt(var))) > P_MIN
    assert cr.default_rng(6).multivariate_normal(mean, a, size=(2, 4)).shape == (2, 4, 3)
    assert cr.default_rng(6).multivariate_normal(mean, a).shape == (3,)


@gpu
def test_multivariate_normal_checks():
    g = cr.default_rng(0)
    with pytest.warns(RuntimeWarning, match='positive-semidefinite'):
        g.multivariate_normal([0, 0], [[1, 2], [0, 1]])
    with pytest.raises(ValueError, match='positive-semidefinite'):
        g.multivariate_normal([0, 0], [[1, 2], [0, 1]], check_valid='raise')
    with pytest.raises(ValueError, match='cov must be 2 dimensional and square'):
        g.multivariate_normal([0, 0], [[1, 0], [0, 1], [1, 1]])
    with pytest.raises(ValueError, match='mean must be 1 dimensional'):
        g.multivariate_normal([[0, 0]], [[1, 0], [0, 1]])


# --------------------------------------------------------------------------------------------------------
# Permutations and choice.

@gpu
def test_permutation_is_a_permutation():
    g = cr.default_rng(10)
    assert g.permutation(-1).shape == (0,)
    for n in (0, 1, 2, 1000, 100003):
        p = _host(g.permutation(n))
        assert p.dtype == numpy.int64
        numpy.testing.assert_array_equal(numpy.sort(p), numpy.arange(n))
    assert not numpy.array_equal(_host(g.permutation(1000)), numpy.arange(1000))
    x = cuarray.asarray(numpy.arange(24, dtype=numpy.float32).reshape(4, 6))
    px = _host(g.permutation(x, axis=1))
    assert sorted(map(tuple, px.T)) == sorted(map(tuple, numpy.arange(24, dtype=numpy.float32).reshape(4, 6).T))
    with pytest.raises(numpy.exceptions.AxisError):
        g.permutation(cuarray.zeros((2, 3)), axis=2)
    with pytest.raises(numpy.exceptions.AxisError):
        g.permutation(cuarray.asarray(numpy.float64(3.0)))


@pytest.mark.parametrize('dtype', [numpy.bool_, numpy.int8, numpy.float16, numpy.float32, numpy.int64,
                                   numpy.complex128])
@gpu
def test_shuffle_in_place_along_axes(dtype):
    host = (numpy.arange(60) % 7).astype(dtype).reshape(3, 4, 5)
    for axis in (0, 1, -1):
        x = cuarray.asarray(host)
        cr.default_rng(axis + 3).shuffle(x, axis=axis)
        h = numpy.moveaxis(_host(x), axis, 0)
        ref = numpy.moveaxis(host, axis, 0)
        key = lambda a: a.tobytes()  # noqa: E731
        assert sorted(map(key, h)) == sorted(map(key, ref))
    strided = cuarray.asarray(numpy.arange(20.0))[::-2]
    cr.default_rng(1).shuffle(strided)
    assert sorted(_host(strided)) == sorted(numpy.arange(20.0)[::-2])


@gpu
def test_permuted_shuffles_each_slice_independently():
    host = numpy.tile(numpy.arange(50), (20, 1))
    x = cuarray.asarray(host)
    y = _host(cr.default_rng(2).permuted(x, axis=1))
    assert all(numpy.array_equal(numpy.sort(r), numpy.arange(50)) for r in y)
    assert len({tuple(r) for r in y}) > 15
    numpy.testing.assert_array_equal(_host(x), host)  # input untouched
    out = cuarray.empty_like(x)
    r = cr.default_rng(2).permuted(x, axis=1, out=out)
    assert r is out
    numpy.testing.assert_array_equal(_host(out), y)
    flat = _host(cr.default_rng(2).permuted(x))
    assert flat.shape == (20, 50)
    numpy.testing.assert_array_equal(numpy.sort(flat.ravel()), numpy.sort(host.ravel()))
    with pytest.raises(ValueError, match='out must have the same shape as x'):
        cr.default_rng(2).permuted(x, out=cuarray.empty((50, 20), dtype=x.dtype))
    with pytest.raises(numpy.exceptions.AxisError):
        cr.default_rng(2).permuted(x, axis=2)


@gpu
def test_choice():
    g = cr.default_rng(12)
    assert g.choice(5).shape == ()
    c = _host(g.choice(10, size=N))
    assert c.dtype == numpy.int64 and c.min() >= 0 and c.max() < 10
    assert _chi2_discrete(c, lambda k: 0.1, range(10)) > P_MIN
    u = _host(g.choice(100, size=100, replace=False))
    numpy.testing.assert_array_equal(numpy.sort(u), numpy.arange(100))
    u = _host(g.choice(1000, size=(5, 6), replace=False))
    assert u.shape == (5, 6) and len(set(u.ravel())) == 30
    p = numpy.array([0.1, 0.0, 0.6, 0.3])
    w = _host(g.choice(4, size=N, p=p))
    assert numpy.sum(w == 1) == 0
    assert _chi2_discrete(w, lambda k: p[k], range(4)) > P_MIN
    nr = _host(g.choice(4, size=3, replace=False, p=p))
    assert sorted(nr) == [0, 2, 3]
    # Without replacement and with p, the first draw follows p.
    firsts = numpy.array([int(_host(cr.default_rng(s).choice(4, size=2, replace=False, p=p))[0])
                          for s in range(400)])
    assert numpy.sum(firsts == 2) > 180
    a = cuarray.asarray(numpy.arange(6).reshape(2, 3))
    assert g.choice(a).shape == (3,)
    assert g.choice(a, axis=1).shape == (2,)
    assert g.choice(a, (4, 5), axis=1).shape == (2, 4, 5)
    picked = _host(g.choice(a, 3, axis=1, replace=False))
    numpy.testing.assert_array_equal(numpy.sort(picked, axis=1), [[0, 1, 2], [3, 4, 5]])
    assert g.choice([], 0).shape == (0,)
    with pytest.raises(ValueError, match='a cannot be empty unless no samples are taken'):
        g.choice(cuarray.zeros(0), 1)
    with pytest.raises(ValueError, match='Probabilities do not sum to 1'):
        g.choice(3, 2, p=[0.5, 0.6, 0.1])
    with pytest.raises(ValueError, match='a and p must have same size'):
        g.choice(3, 2, p=[0.5, 0.5])
    with pytest.raises(ValueError, match='Probabilities are not non-negative'):
        g.choice(3, 2, p=[1.5, -0.5, 0])
    with pytest.raises(ValueError, match='Fewer non-zero entries in p than size'):
        g.choice(5, 3, replace=False, p=[0.5, 0.5, 0, 0, 0])
    with pytest.raises(ValueError, match='p must be 1-dimensional'):
        g.choice(1, 2, p=[[1.0]])


# --------------------------------------------------------------------------------------------------------
# The legacy API.

@gpu
def test_legacy_functions():
    cr.seed(5)
    a = _host(cr.rand(3, 4))
    cr.seed(5)
    numpy.testing.assert_array_equal(_host(cr.rand(3, 4)), a)
    assert cr.rand().shape == () and cr.randn(2).shape == (2,)
    assert cr.rand(2, dtype=numpy.float32).dtype == numpy.float32
    for f in (cr.random, cr.random_sample, cr.ranf, cr.sample):
        assert f((2, 2)).shape == (2, 2)
    r = _host(cr.randint(3, 7, size=1000))
    assert r.min() == 3 and r.max() == 6
    with pytest.warns(DeprecationWarning):
        ri = _host(cr.random_integers(3, size=1000))
    assert ri.min() == 1 and ri.max() == 3
    rs = cr.RandomState(1)
    assert rs.normal(size=3).shape == (3,) and _host(rs.uniform(1, 2, 5)).min() >= 1
    assert rs.binomial(10, 0.5, 4).dtype == numpy.int64
    assert rs.poisson(3.0, 4).shape == (4,)
    assert rs.multivariate_normal([0, 0], [[1, 0], [0, 1]], 5).shape == (5, 2)
    assert rs.choice(5, 3, replace=False).shape == (3,)
    assert sorted(_host(rs.permutation(6))) == list(range(6))
    x = cuarray.arange(10)
    cr.shuffle(x)
    assert sorted(_host(x)) == list(range(10))
    for name in ('standard_exponential', 'standard_gamma', 'exponential', 'gamma', 'beta', 'chisquare',
                 'lognormal', 'logistic', 'laplace', 'gumbel', 'geometric', 'hypergeometric', 'dirichlet',
                 'multinomial'):
        args = {'standard_gamma': (2.0,), 'gamma': (2.0,), 'beta': (1.0, 2.0), 'chisquare': (2.0,),
                'geometric': (0.5,), 'hypergeometric': (3, 4, 2), 'dirichlet': ([1.0, 1.0],),
                'multinomial': (5, [0.5, 0.5])}.get(name, ())
        with warnings.catch_warnings():
            warnings.simplefilter('error')
            assert getattr(cr, name)(*args, size=3).shape[0] == 3, name


# --------------------------------------------------------------------------------------------------------
# Issue 14: with several faults in one call, the exception NumPy raises. NumPy checks dtype= and out= first,
# then the parameters, and parses `size` last (a float size is a TypeError only when the parameters are
# fine); integers() returns early for an empty size. Scalar parameters need no device.

def _same_error(np_call, cu_call):
    with pytest.raises(Exception) as expected:
        np_call()
    with pytest.raises(Exception) as got:
        cu_call()
    etype = expected.type
    if issubclass(etype, numpy.exceptions.AxisError):
        etype = numpy.exceptions.AxisError
    assert isinstance(got.value, etype), (expected.value, got.value)


ORDER_FAULTS = [
    ('normal', (0, -1), {'size': 1.5}),
    ('normal', (0, -1), {'size': 'a'}),
    ('normal', (0, -1), {'size': (2, -1)}),
    ('normal', (0, 1), {'size': 1.5}),
    ('normal', (0, 1), {'size': (2.0,)}),
    ('normal', (0, 1), {'size': (2, 'a')}),
    ('normal', (0, 1), {'size': (2, -1)}),
    ('exponential', (-1,), {'size': 1.5}),
    ('gamma', (1, -1), {'size': 1.5}),
    ('beta', (0, 0), {'size': 1.5}),
    ('chisquare', (0,), {'size': 1.5}),
    ('poisson', (-1,), {'size': 1.5}),
    ('poisson', (1e20,), {'size': 1.5}),
    ('binomial', (1, 2), {'size': 1.5}),
    ('geometric', (2,), {'size': 1.5}),
    ('hypergeometric', (-1, -1, 5), {'size': 1.5}),
    ('hypergeometric', (1, 1, -1), {'size': 1.5}),
    ('hypergeometric', (2e9, 1, 1), {'size': 1.5}),
    ('lognormal', (0, -1), {'size': 1.5}),
    ('logistic', (0, -1), {'size': 1.5}),
    ('laplace', (0, -1), {'size': 1.5}),
    ('gumbel', (0, -1), {'size': 1.5}),
    ('uniform', (1, 0), {'size': 1.5}),
    ('uniform', (0, float('inf')), {'size': 1.5}),
    ('random', (), {'size': -1, 'dtype': numpy.int64}),
    ('random', (), {'size': 1.5, 'dtype': numpy.int64}),
    ('random', (), {'size': 1.5, 'dtype': 'foo'}),
    ('standard_normal', (), {'size': 1.5, 'dtype': numpy.int64}),
    ('standard_exponential', (), {'size': -1, 'dtype': numpy.int64}),
    ('standard_gamma', (-1,), {'size': 1.5}),
    ('standard_gamma', (1,), {'size': 1.5, 'dtype': numpy.int64}),
    ('standard_gamma', (-1,), {'size': -1, 'dtype': numpy.int64}),
    ('integers', (5, 1), {'size': 1.5}),
    ('integers', (5, 1), {'size': -1}),
    ('integers', (1, 5), {'size': 1.5}),
    ('integers', (1, 5), {'size': -1, 'dtype': numpy.float64}),
    ('integers', (-1, 5), {'size': 1.5, 'dtype': numpy.uint8}),
    ('integers', (0,), {'size': 1.5}),
    ('integers', (5, 1), {'size': (0, -1)}),
    ('integers', (5, 1), {'size': (0, 1.5)}),
    ('choice', (-1,), {'size': 1.5}),
    ('choice', (0,), {'size': 1.5}),
    ('choice', (3,), {'size': 1.5}),
    ('choice', (3,), {'size': 1.5, 'replace': False}),
    ('choice', (3,), {'size': 5, 'replace': False}),
    ('normal', (0, 1), {'size': 2 ** 70}),
    ('normal', (0, -1), {'size': 2 ** 70}),
    ('integers', (5, 0), {'size': 2 ** 70}),
    ('integers', (0, 5), {'size': (2 ** 40, 2 ** 40)}),
]


@pytest.mark.parametrize('name,args,kwargs', ORDER_FAULTS)
def test_fault_order_matches_numpy(name, args, kwargs):
    g = cr.default_rng(0)
    _same_error(lambda: getattr(numpy.random.default_rng(0), name)(*args, **kwargs),
                lambda: getattr(g, name)(*args, **kwargs))
    assert g.bit_generator.state['state']['counter'] == 0


def test_float_size_message_names_the_size():
    with pytest.raises(TypeError, match="got '1.5'"):
        cr.default_rng(0).normal(0, 1, size=1.5)
    with pytest.raises(TypeError, match="'str' object cannot be interpreted as an integer"):
        cr.default_rng(0).normal(0, 1, size=(2, 'a'))


LEGACY_ORDER_FAULTS = [
    ('normal', (0, -1), {'size': 1.5}),
    ('randint', (5, 1), {'size': 1.5}),
    ('randint', (1, 5), {'size': 1.5}),
    ('randint', (5, 1), {'dtype': numpy.float64}),
    ('uniform', (1, 0), {'size': 1.5}),
    ('uniform', (0, 1), {'size': 1.5}),
    ('hypergeometric', (1, 1, 0), {'size': 1.5}),
    ('hypergeometric', (1, 1, -1), {}),
    ('rand', (1.5,), {}),
    ('rand', (-1,), {}),
    ('randn', (None,), {}),
    ('random_sample', (1.5,), {}),
]


@pytest.mark.parametrize('name,args,kwargs', LEGACY_ORDER_FAULTS)
def test_legacy_fault_order_matches_numpy(name, args, kwargs):
    _same_error(lambda: getattr(numpy.random.RandomState(0), name)(*args, **kwargs),
                lambda: getattr(cr.RandomState(0), name)(*args, **kwargs))


ARRAY_ORDER_FAULTS = [
    ('g', 'choice', (3,), {'p': [0.5, 0.5, 0.5], 'size': 1.5}),
    ('g', 'choice', (3,), {'p': [0.5, 0.5], 'size': -1}),
    ('g', 'choice', (3,), {'p': [-1, 1, 1], 'size': 1.5}),
    ('g', 'choice', (3,), {'p': [numpy.nan, 1, 0], 'size': 1.5}),
    ('g', 'choice', (3,), {'p': [[0.5, 0.5]], 'size': 1.5}),
    ('g', 'choice', (3.5,), {}),
    ('g', 'multinomial', (5, [0.7, 0.7, 0.1]), {'size': 1.5}),
    ('g', 'multinomial', (5, [-0.7, 0.7, 0.1]), {'size': 1.5}),
    ('g', 'multinomial', (-1, [0.5, 0.5]), {'size': 1.5}),
    ('g', 'multinomial', (5, [0.5, 0.5]), {'size': 1.5}),
    ('g', 'multinomial', (5, [1j, 0]), {}),
    ('g', 'multinomial', (1j, [1, 0]), {}),
    ('g', 'multinomial', (-1, [1j, 0]), {}),
    ('g', 'dirichlet', ([1, -1],), {'size': 1.5}),
    ('g', 'dirichlet', ([1, 1],), {'size': 1.5}),
    ('g', 'dirichlet', (5,), {}),
    ('g', 'normal', (0, [1.0, -1.0]), {'size': 1.5}),
    ('g', 'integers', ([5, 6], 5), {'size': 1.5}),
    ('g', 'integers', ([5, 6], 5), {'size': 3}),
    ('g', 'hypergeometric', ([1, 5], 1, 3), {'size': 1.5}),
    ('rs', 'choice', (numpy.zeros((2, 2)),), {}),
    ('rs', 'dirichlet', ([0.0, 0.0],), {}),
    ('rs', 'multinomial', (5, 5), {}),
    ('rs', 'multinomial', (5, [[0.5, 0.5], [0.5, 0.5]]), {}),
    ('rs', 'multinomial', (numpy.array([1, 2]), [0.5, 0.5]), {}),
]


def _device_args(args):
    return tuple(cuarray.asarray(a) if isinstance(a, numpy.ndarray) else a for a in args)


@gpu
@pytest.mark.parametrize('api,name,args,kwargs', ARRAY_ORDER_FAULTS)
def test_array_fault_order_matches_numpy(api, name, args, kwargs):
    np_gen = numpy.random.default_rng(0) if api == 'g' else numpy.random.RandomState(0)
    cu_gen = cr.default_rng(0) if api == 'g' else cr.RandomState(0)
    _same_error(lambda: getattr(np_gen, name)(*args, **kwargs),
                lambda: getattr(cu_gen, name)(*_device_args(args), **kwargs))


@gpu
def test_out_checks_come_before_size_and_parameters():
    g, n = cr.default_rng(0), numpy.random.default_rng(0)
    cases = [
        ('random', (), {'size': 1.5}, lambda xp: xp.zeros(3)),
        ('random', (), {'size': -1}, lambda xp: xp.zeros(3)),
        ('random', (), {'size': 4}, lambda xp: xp.zeros((3, 3))[:, 0]),
        ('random', (), {'size': 4}, lambda xp: xp.zeros(3, numpy.float32)),
        ('standard_normal', (), {'size': 1.5, 'dtype': numpy.float32}, lambda xp: xp.zeros(3)),
        ('standard_gamma', (-1,), {}, lambda xp: xp.zeros(3, numpy.float32)),
        ('standard_gamma', (-1,), {'size': 4}, lambda xp: xp.zeros(3)),
    ]
    for name, args, kwargs, out in cases:
        _same_error(lambda: getattr(n, name)(*args, out=out(numpy), **kwargs),
                    lambda: getattr(g, name)(*args, out=out(cuarray), **kwargs))
    assert g.bit_generator.state['state']['counter'] == 0


@gpu
def test_shuffle_of_0d_is_a_type_error():
    for axis in (0, 2):
        _same_error(lambda: numpy.random.default_rng(0).shuffle(numpy.zeros(()), axis=axis),
                    lambda: cr.default_rng(0).shuffle(cuarray.zeros(()), axis=axis))


@gpu
def test_numpy_accepts_what_it_accepts():
    # NumPy takes any method but 'zig' as 'inv'; its legacy uniform takes high < low.
    assert cr.default_rng(0).standard_exponential(3, method='foo').shape == (3,)
    r = _host(cr.RandomState(0).uniform(1.0, 0.0, size=1000))
    assert r.min() >= 0.0 and r.max() <= 1.0
    r = _host(cr.RandomState(0).uniform(cuarray.asarray([1.0, 2.0]), cuarray.asarray([0.0, 3.0]), size=(500, 2)))
    assert r[:, 0].min() >= 0.0 and r[:, 0].max() <= 1.0 and r[:, 1].min() >= 2.0 and r[:, 1].max() <= 3.0
    # integers() with array bounds repeated by `size`, and an empty size whatever the bounds.
    k = _host(cr.default_rng(0).integers(cuarray.asarray([0, 10]), cuarray.asarray([5, 20]), size=(300, 2)))
    assert k[:, 0].min() >= 0 and k[:, 0].max() < 5 and k[:, 1].min() >= 10 and k[:, 1].max() < 20
    assert cr.default_rng(0).integers(5, 1, size=(0, 3)).shape == (0, 3)


# -- fuzz regressions ------------------------------------------------------------------------------------------

def test_integers_text_size_is_a_type_error_first():
    # NumPy's integers() evaluates np.prod(size) before the bounds (fuzz 0:7294, 0:9910).
    for size in ('x', (2, 'x')):
        with pytest.raises(TypeError):
            numpy.random.default_rng(0).integers(0, None, size=size)
        with pytest.raises(TypeError):
            cr.default_rng(0).integers(0, None, size=size)


@gpu
def test_choice_of_an_int_with_a_str_size():
    # NumPy's choice takes np.prod(size): for a population of 0 or less that is multiply's TypeError on the
    # str; otherwise, after p's checks, np.prod(size, dtype=intp)'s ValueError (fuzz 3:4678, 3:5206, 4:7810).
    for lib in (numpy.random, cr):
        with pytest.raises(TypeError):
            lib.default_rng(0).choice(0, size='x')
        with pytest.raises(TypeError):
            lib.default_rng(0).choice(-1, size='x', replace=False)
        with pytest.raises(ValueError):
            lib.default_rng(0).choice(5, size='x')
        with pytest.raises(ValueError, match="probabilities do not sum to 1|Probabilities"):
            lib.default_rng(0).choice(2, size='x', p=[0.2, 0.2])


@gpu
def test_integers_uint64_full_range_and_choice_of_nothing():
    # 2**64 is uint64's exclusive high (fuzz 0:5830); ints just past it stay out of bounds.
    r = cr.default_rng(548).integers(0, 2 ** 64, size=(), dtype='uint64')
    assert r.dtype == numpy.uint64 and r.shape == ()
    for high in (2 ** 64 + 1, 2 ** 64 + 2 ** 11, 2 ** 65):
        with pytest.raises(ValueError):
            numpy.random.default_rng(0).integers(0, high, dtype='uint64')
        with pytest.raises(ValueError):
            cr.default_rng(0).integers(0, high, dtype='uint64')
    with pytest.raises(ValueError):
        cr.default_rng(0).integers(0, 2 ** 64, endpoint=True, dtype='uint64')
    # A population <= 0 is fine when no samples are taken (fuzz 0:9250).
    r = cr.default_rng(868).choice(-1, size=(3, 0))
    assert r.shape == (3, 0) and r.dtype == numpy.int64
    with pytest.raises(ValueError):
        cr.default_rng(868).choice(-1, size=2)
