"""cuarray.scipy.stats against scipy.stats on the same inputs.

Every case runs on the GPU (marked gpu) and, without a GPU, with NumPy in place of cuarray
(tests/python/_scipy_extra_host.py); the name test checks the module against CuPy's names
(tests/python/data/cupyx_scipy_stats_names.txt).
"""
import pathlib
import warnings

import numpy
import pytest
import scipy.stats as sst

import cuarray as cp
import cuarray.scipy.stats as cst

from _scipy_extra_cases import run, same
from _scipy_extra_host import host_modules

gpu = pytest.mark.gpu
RNG = numpy.random.default_rng(11)

# Names of CuPy's cupyx.scipy.stats not provided (none).
NOT_DONE = {}


def _cases():
    c = []
    for dt in ('float32', 'float64', 'int64', 'bool'):
        x = (RNG.random((5, 4)) * 10 + 0.1).astype(dt) if dt != 'bool' else RNG.random((5, 4)) > 0.3
        q = (RNG.random((5, 4)) * 10 + 0.1).astype(dt) if dt != 'bool' else RNG.random((5, 4)) > 0.3
        xn = x.astype(float).copy()
        xn[1, 2] = numpy.nan
        tol = 2e-5 if dt == 'float32' else 1e-10
        for ax in (0, 1, -1, None):
            for kd in (False, True):
                t = f'{dt}-{ax}-{kd}'
                if ax is not None:
                    c.append((f'entropy-{t}', lambda m, d, x=x, ax=ax, kd=kd: m.entropy(d(x), axis=ax, keepdims=kd),
                              tol))
                    c.append((f'entropy-qk-{t}', lambda m, d, x=x, q=q, ax=ax, kd=kd:
                              m.entropy(d(x), d(q), base=2, axis=ax, keepdims=kd), tol))
                c.append((f'trim_mean-{t}', lambda m, d, x=x, ax=ax, kd=kd:
                          m.trim_mean(d(x), 0.2, axis=ax, keepdims=kd), tol))
                if dt != 'bool':
                    for lmb in (0, 0.7, -1.5, 2):
                        c.append((f'boxcox_llf-{lmb}-{t}', lambda m, d, x=x, ax=ax, kd=kd, lmb=lmb:
                                  m.boxcox_llf(lmb, d(x), axis=ax, keepdims=kd), max(tol, 1e-6)))
                for pol in ('propagate', 'omit'):
                    if ax is not None:
                        c.append((f'entropy-nan-{pol}-{t}', lambda m, d, x=xn, q=q, ax=ax, kd=kd, pol=pol:
                                  m.entropy(d(x), d(q), axis=ax, keepdims=kd, nan_policy=pol), 1e-10))
                    c.append((f'trim_mean-nan-{pol}-{t}', lambda m, d, x=xn, ax=ax, kd=kd, pol=pol:
                              m.trim_mean(d(x), 0.3, axis=ax, keepdims=kd, nan_policy=pol), 1e-10))
                    c.append((f'boxcox_llf-nan-{pol}-{t}', lambda m, d, x=xn, ax=ax, kd=kd, pol=pol:
                              m.boxcox_llf(0.5, d(x), axis=ax, keepdims=kd, nan_policy=pol), 1e-8))
            for ddof in (0, 1):
                t = f'{dt}-{ax}-{ddof}'
                c.append((f'zscore-{t}', lambda m, d, x=x, ax=ax, dd=ddof: m.zscore(d(x), axis=ax, ddof=dd), tol))
                c.append((f'zmap-{t}', lambda m, d, x=x, q=q, ax=ax, dd=ddof: m.zmap(d(q), d(x), axis=ax, ddof=dd),
                          tol))
                c.append((f'zscore-omit-{t}', lambda m, d, x=xn, ax=ax, dd=ddof:
                          m.zscore(d(x), axis=ax, ddof=dd, nan_policy='omit'), 1e-10))
                c.append((f'zscore-propagate-{t}', lambda m, d, x=xn, ax=ax, dd=ddof: m.zscore(d(x), axis=ax, ddof=dd),
                          1e-10))
    c += [
        ('entropy-empty', lambda m, d: m.entropy(d(numpy.zeros(0))), 0),
        ('entropy-empty-2d', lambda m, d: m.entropy(d(numpy.zeros((0, 3)))), 0),
        ('entropy-zeros', lambda m, d: m.entropy(d(numpy.zeros(3))), 0),
        ('entropy-noncontig', lambda m, d: m.entropy(d(numpy.arange(1.0, 13).reshape(3, 4))[:, ::-2], axis=1), 1e-12),
        ('entropy-broadcast', lambda m, d: m.entropy(d(numpy.arange(1.0, 7).reshape(2, 3)), d(numpy.arange(1.0, 4)),
                                                     axis=1), 1e-12),
        ('entropy-shape-mismatch', lambda m, d: m.entropy(d([1.0, 2]), d([1.0, 2, 3])), 0),
        ('entropy-raise', lambda m, d: m.entropy(d([1.0, numpy.nan]), nan_policy='raise'), 0),
        ('entropy-badpolicy', lambda m, d: m.entropy(d([1.0, 2.0]), nan_policy='bad'), 0),
        ('entropy-badaxis', lambda m, d: m.entropy(d([1.0, 2.0]), axis=3), 0),
        ('trim_mean-too-big', lambda m, d: m.trim_mean(d([1.0, 2, 3]), 0.7), 0),
        ('trim_mean-half', lambda m, d: m.trim_mean(d([1.0, 2]), 0.6), 0),
        ('trim_mean-zero', lambda m, d: m.trim_mean(d(numpy.arange(10.0)), 0), 1e-12),
        ('trim_mean-f16', lambda m, d: m.trim_mean(d(numpy.arange(10.0).astype(numpy.float16)), 0.1), 1e-3),
        ('zscore-const', lambda m, d: m.zscore(d([1.0, 1, 1])), 0),
        ('zscore-empty', lambda m, d: m.zscore(d(numpy.zeros(0))), 0),
        ('zscore-raise', lambda m, d: m.zscore(d([1.0, numpy.nan]), nan_policy='raise'), 0),
        ('zmap-zero-std', lambda m, d: m.zmap(d([2.0, 1.0]), d([1.0, 1.0])), 0),
        ('zmap-complex', lambda m, d: m.zmap(d(numpy.array([1 + 2j, 3 - 1j])), d(numpy.array([1 + 1j, 2 - 2j, 0j]))),
         1e-12),
        ('boxcox_llf-empty', lambda m, d: m.boxcox_llf(1.0, d(numpy.zeros(0))), 0),
        ('boxcox_llf-empty-2d', lambda m, d: m.boxcox_llf(1.0, d(numpy.zeros((0, 3)))), 0),
        ('boxcox_llf-negative', lambda m, d: m.boxcox_llf(1.0, d([-1.0, 2.0])), 0),
        ('boxcox_llf-big', lambda m, d: m.boxcox_llf(30.0, d([1e3, 2e3, 5e3])), 1e-8),
    ]
    return c


CASES = _cases()
IDS = [c[0] for c in CASES]


def _ref(fn):
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        return run(fn, sst, lambda a: a)


@pytest.mark.parametrize('case', CASES, ids=IDS)
def test_host_emulated_matches_scipy(case):
    _, fn, tol = case
    with host_modules() as (_, stats, _), warnings.catch_warnings():
        warnings.simplefilter('ignore')
        ours = run(fn, stats, lambda a: a)
    same(ours, _ref(fn), tol)


@gpu
@pytest.mark.parametrize('case', CASES, ids=IDS)
def test_gpu_matches_scipy(case):
    _, fn, tol = case
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        ours = run(fn, cst, cp.asarray)
    same(ours, _ref(fn), tol)


def test_every_cupy_name_exists():
    path = pathlib.Path(__file__).parent / 'data' / 'cupyx_scipy_stats_names.txt'
    names = [ln.strip() for ln in path.read_text().splitlines() if ln.strip() and not ln.startswith('#')]
    assert names
    assert [n for n in names if not hasattr(cst, n) and n not in NOT_DONE] == []
