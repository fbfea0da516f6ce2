"""cuarray.scipy.signal against scipy.signal on the same inputs.

Every case runs twice: on the GPU (marked gpu) and, without a GPU, with the module's generated kernels compiled
for the host and NumPy in place of cuarray (tests/python/_signal_host.py), so CI checks the kernels' logic and
the Python glue's indexing, modes and dtypes. CPU tests also compile every kernel variant with NVRTC.
"""
import re
import warnings

import numpy
import pytest
import scipy.signal as ss
import scipy.signal.windows as sw

import cuarray as cp
import cuarray.scipy.signal as csig
from cuarray.scipy.signal import _kernels

from _signal_host import compiler, host_signal

gpu = pytest.mark.gpu
needs_cxx = pytest.mark.skipif(compiler() is None, reason="no host C++ compiler")

RNG = numpy.random.default_rng(1234)


def _rand(shape, dtype, scale=1.0):
    dt = numpy.dtype(dtype)
    if dt.kind in 'iu':
        return RNG.integers(-9 if dt.kind == 'i' else 0, 10, shape).astype(dt)
    if dt.kind == 'b':
        return RNG.integers(0, 2, shape).astype(bool)
    v = RNG.standard_normal(shape) * scale
    if dt.kind == 'c':
        v = v + 1j * RNG.standard_normal(shape) * scale
    return v.astype(dt)


def _tol(*dts):
    return 2e-3 if any(numpy.dtype(d) in (numpy.float32, numpy.complex64) for d in dts) else 1e-8


BUTTER_B, BUTTER_A = ss.butter(4, 0.1)
SOS = ss.butter(6, 0.2, output='sos')


def _cases():
    """(id, fn(m, dev), tol): fn runs one call through module m (scipy.signal or cuarray's); dev converts inputs."""
    c = []
    c.append(('convolve-bool-1d', lambda m, d, a=_rand(20, 'bool'), b=_rand(5, 'bool'): m.convolve(d(a), d(b)), 0))
    for dt in ('float32', 'float64', 'complex64', 'complex128', 'int32'):
        a, b = _rand((7, 9), dt, 5), _rand((3, 4), dt, 5)
        a1, b1 = _rand(40, dt, 5), _rand(6, dt, 5)
        for mode in ('full', 'same', 'valid'):
            for method in ('direct', 'fft', 'auto'):
                c.append((f'convolve-{dt}-{mode}-{method}',
                          lambda m, d, a=a, b=b, mode=mode, me=method: m.convolve(d(a), d(b), mode, me), _tol(dt)))
                c.append((f'correlate-{dt}-{mode}-{method}',
                          lambda m, d, a=a1, b=b1, mode=mode, me=method: m.correlate(d(a), d(b), mode, me), _tol(dt)))
                c.append((f'correlate-swap-{dt}-{mode}-{method}',
                          lambda m, d, a=a1, b=b1, mode=mode, me=method: m.correlate(d(b), d(a), mode, me), _tol(dt)))
            for bnd in ('fill', 'wrap', 'symm'):
                c.append((f'convolve2d-{dt}-{mode}-{bnd}',
                          lambda m, d, a=a, b=b, mode=mode, bnd=bnd: m.convolve2d(d(a), d(b), mode, bnd, 2),
                          _tol(dt)))
                c.append((f'correlate2d-{dt}-{mode}-{bnd}',
                          lambda m, d, a=a, b=b, mode=mode, bnd=bnd: m.correlate2d(d(a), d(b), mode, bnd), _tol(dt)))
            c.append((f'fftconvolve-{dt}-{mode}', lambda m, d, a=a, b=b, mode=mode: m.fftconvolve(d(a), d(b), mode),
                      _tol(dt)))
            c.append((f'fftconvolve-axes-{dt}-{mode}',
                      lambda m, d, a=a, b=b, mode=mode: m.fftconvolve(d(a), d(b[:1]), mode, axes=1), _tol(dt)))
            c.append((f'oaconvolve-{dt}-{mode}',
                      lambda m, d, a=_rand(1000, dt), b=_rand(77, dt), mode=mode: m.oaconvolve(d(a), d(b), mode),
                      _tol(dt)))
            c.append((f'oaconvolve-axes-{dt}-{mode}',
                      lambda m, d, a=a, b=b, mode=mode: m.oaconvolve(d(a.T), d(b[:1].T), mode, axes=0), _tol(dt)))
    # Long 1-D signals against short ones: Note [overlap-save convolution] (blocks of 4096 and more).
    # (own generator: the shared one's sequence feeds the cases below)
    rng = numpy.random.default_rng(20)
    for dt in ('float32', 'float64', 'complex64', 'complex128', 'int16'):
        if dt == 'int16':
            a, b = rng.integers(-9, 10, 12000).astype(dt), rng.integers(-9, 10, 300).astype(dt)
        else:
            a = rng.standard_normal(12000) + (1j * rng.standard_normal(12000) if dt[0] == 'c' else 0)
            b = rng.standard_normal(300) + (1j * rng.standard_normal(300) if dt[0] == 'c' else 0)
            a, b = (a * 3).astype(dt), (b * 3).astype(dt)
        for mode in ('full', 'same', 'valid'):
            c.append((f'fftconvolve-long-{dt}-{mode}',
                      lambda m, d, a=a, b=b, mode=mode: m.fftconvolve(d(a), d(b), mode), _tol(dt)))
            c.append((f'fftconvolve-long-swap-{dt}-{mode}',
                      lambda m, d, a=a, b=b, mode=mode: m.fftconvolve(d(b), d(a), mode), _tol(dt)))
            c.append((f'correlate-long-fft-{dt}-{mode}',
                      lambda m, d, a=a, b=b, mode=mode: m.correlate(d(a), d(b[::-1]), mode, 'fft'), _tol(dt)))
            c.append((f'oaconvolve-long-{dt}-{mode}', lambda m, d, a=a, b=b, mode=mode: m.oaconvolve(d(a), d(b), mode),
                      _tol(dt)))
    c.append(('convolve-len1', lambda m, d: m.convolve(d(numpy.ones(1)), d(numpy.ones(3))), 0))
    c.append(('fftconvolve-empty-2d', lambda m, d: m.fftconvolve(d(numpy.ones((0, 2))), d(numpy.ones((2, 2)))), 0))
    c.append(('convolve-0d', lambda m, d: m.convolve(d(numpy.array(2.0)), d(numpy.array(3.0))), 0))
    c.append(('convolve-3d', lambda m, d, a=_rand((4, 5, 6), 'float64'), b=_rand((2, 3, 2), 'float64'):
              m.convolve(d(a), d(b), 'same'), 1e-8))
    c.append(('convolve-noncontig', lambda m, d, a=_rand((8, 10), 'float64'), b=_rand((3, 3), 'float64'):
              m.convolve(d(a)[::2, ::-1], d(b), 'full'), 1e-8))
    c.append(('correlation_lags', lambda m, d: [m.correlation_lags(n1, n2, mode) for n1, n2 in
                                                ((5, 3), (4, 4), (3, 7), (6, 2)) for mode in ('full', 'same', 'valid')],
              0))
    # lfilter: FIR and IIR, along every axis, with and without zi; lengths that span several scan chunks.
    for dt in ('float32', 'float64', 'complex128', 'int64'):
        for shape, axis in (((3000,), 0), ((4, 2500), 1), ((2600, 3), 0), ((2, 5, 1500), 1), ((5,), 0), ((1,), 0)):
            x = _rand(shape, dt)
            zs = list(shape)
            zs[axis] = 4
            zi = RNG.standard_normal(zs)
            tol = _tol(dt)
            tag = f'{dt}-{shape}-{axis}'
            c.append((f'lfilter-iir-{tag}', lambda m, d, x=x, axis=axis: m.lfilter(BUTTER_B, BUTTER_A, d(x), axis),
                      tol))
            c.append((f'lfilter-fir-{tag}', lambda m, d, x=x, axis=axis: m.lfilter([1, 2, 3.], [2.], d(x), axis),
                      tol))
            c.append((f'lfilter-zi-{tag}',
                      lambda m, d, x=x, axis=axis, zi=zi: m.lfilter(BUTTER_B, BUTTER_A, d(x), axis, d(zi)), tol))
            zs[axis] = 3
            z3 = numpy.ones(zs)
            c.append((f'lfilter-zi-longb-{tag}',
                      lambda m, d, x=x, axis=axis, z=z3: m.lfilter([1, .5, .2, .1], [1, -.3], d(x), axis, d(z)), tol))
    c.append(('lfilter-f32coef', lambda m, d, x=_rand(3000, 'float32'):
              m.lfilter(numpy.float32([1, .5]), numpy.float32([1, -.9]), d(x)), 2e-3))
    c.append(('lfilter_zi', lambda m, d: [m.lfilter_zi(BUTTER_B, BUTTER_A), m.lfilter_zi([1, 2, 3], [4, 5])], 1e-10))
    c.append(('sosfilt_zi', lambda m, d: m.sosfilt_zi(SOS), 1e-10))
    for dt in ('float32', 'float64'):
        for shape, axis in (((3000,), 0), ((4, 2500), 1), ((300, 3), 0)):
            x = _rand(shape, dt)
            tol = _tol(dt)
            tag = f'{dt}-{shape}-{axis}'
            for pt in ('odd', 'even', 'constant', None):
                c.append((f'filtfilt-{pt}-{tag}',
                          lambda m, d, x=x, axis=axis, pt=pt: m.filtfilt(BUTTER_B, BUTTER_A, d(x), axis, pt), tol))
                c.append((f'sosfiltfilt-{pt}-{tag}',
                          lambda m, d, x=x, axis=axis, pt=pt: m.sosfiltfilt(SOS, d(x), axis, pt), tol))
            c.append((f'filtfilt-padlen-{tag}',
                      lambda m, d, x=x, axis=axis: m.filtfilt(BUTTER_B, BUTTER_A, d(x), axis, padlen=20), tol))
            c.append((f'sosfilt-{tag}', lambda m, d, x=x, axis=axis: m.sosfilt(SOS, d(x), axis), tol))
            zs = [SOS.shape[0]] + list(shape)
            zs[axis + 1] = 2
            zi = RNG.standard_normal(zs)
            c.append((f'sosfilt-zi-{tag}', lambda m, d, x=x, axis=axis, zi=zi: m.sosfilt(SOS, d(x), axis, d(zi)), tol))
    for dt in ('float32', 'float64', 'int32'):
        x = _rand((6, 50), dt, 10)
        for ax in (0, 1):
            for ty in ('linear', 'constant'):
                c.append((f'detrend-{dt}-{ax}-{ty}', lambda m, d, x=x, ax=ax, ty=ty: m.detrend(d(x), ax, ty),
                          1e-3))
            c.append((f'detrend-bp-{dt}-{ax}', lambda m, d, x=x, ax=ax: m.detrend(d(x), ax, bp=[3, 5]), 1e-3))
        c.append((f'medfilt-{dt}', lambda m, d, x=x: m.medfilt(d(x)), 0))
        c.append((f'medfilt-35-{dt}', lambda m, d, x=x: m.medfilt(d(x), [3, 5]), 0))
        c.append((f'medfilt-1d-{dt}', lambda m, d, x=x: m.medfilt(d(x[0]), 7), 0))
        c.append((f'wiener-{dt}', lambda m, d, x=x: m.wiener(d(x)), 1e-6))
        c.append((f'wiener-noise-{dt}', lambda m, d, x=x: m.wiener(d(x), [3, 5], 2.0), 1e-6))
        if dt != 'int32':
            c.append((f'medfilt2d-{dt}', lambda m, d, x=x: m.medfilt2d(d(x), 5), 0))
            c.append((f'hilbert-{dt}', lambda m, d, x=x: m.hilbert(d(x)), 1e-4))
            c.append((f'hilbert-N-{dt}', lambda m, d, x=x: m.hilbert(d(x), 64, 0), 1e-4))
            c.append((f'hilbert2-{dt}', lambda m, d, x=x: m.hilbert2(d(x)), 1e-4))
            c.append((f'hilbert2-N-{dt}', lambda m, d, x=x: m.hilbert2(d(x), (7, 51)), 1e-4))
    for wl, po, dv in ((5, 2, 0), (7, 3, 1), (6, 2, 0), (11, 4, 2)):
        c.append((f'savgol_coeffs-{wl}-{po}-{dv}', lambda m, d, wl=wl, po=po, dv=dv:
                  [m.savgol_coeffs(wl, po, dv), m.savgol_coeffs(wl, po, dv, pos=1, use='dot')], 1e-8))
        for dt in ('float32', 'float64'):
            x = _rand((3, 40), dt)
            for mode in ('mirror', 'constant', 'nearest', 'wrap', 'interp'):
                c.append((f'savgol_filter-{wl}-{po}-{dv}-{dt}-{mode}', lambda m, d, x=x, wl=wl, po=po, dv=dv, mode=mode:
                          m.savgol_filter(d(x), wl, po, dv, mode=mode, cval=0.5), 1e-4))
    for dt in ('float32', 'float64', 'complex128'):
        x = _rand((4, 37), dt)
        h = RNG.standard_normal(9)
        for up, down in ((1, 1), (3, 1), (1, 3), (3, 2), (2, 5)):
            for mode in ('constant', 'symmetric', 'reflect', 'edge', 'wrap', 'smooth', 'line', 'antisymmetric',
                         'antireflect'):
                c.append((f'upfirdn-{dt}-{up}-{down}-{mode}', lambda m, d, x=x, h=h, up=up, down=down, mode=mode:
                          m.upfirdn(h, d(x), up, down, 1, mode), 1e-4))
            c.append((f'upfirdn-axis0-{dt}-{up}-{down}', lambda m, d, x=x, h=h, up=up, down=down:
                      m.upfirdn(h, d(x.T), up, down, 0, cval=2.0), 1e-4))
            if dt != 'complex128':
                for pt in ('constant', 'mean', 'median', 'line', 'maximum', 'minimum', 'symmetric', 'smooth'):
                    c.append((f'resample_poly-{dt}-{up}-{down}-{pt}', lambda m, d, x=x, up=up, down=down, pt=pt:
                              m.resample_poly(d(x), up, down, 1, padtype=pt), 1e-4))
        for num in (20, 37, 50, 11):
            c.append((f'resample-{dt}-{num}', lambda m, d, x=x, num=num: m.resample(d(x), num, axis=1), 1e-4))
            c.append((f'resample-hann-{dt}-{num}', lambda m, d, x=x, num=num:
                      m.resample(d(x), num, axis=1, window='hann'), 1e-4))
        xl = _rand((2, 300), dt)
        for q in (2, 3):
            for ft in ('iir', 'fir'):
                for zp in (True, False):
                    c.append((f'decimate-{dt}-{q}-{ft}-{zp}', lambda m, d, x=xl, q=q, ft=ft, zp=zp:
                              m.decimate(d(x), q, ftype=ft, zero_phase=zp), 1e-4))
    return c


CASES = _cases()

WINDOWS = [('boxcar', ()), ('triang', ()), ('parzen', ()), ('bohman', ()), ('blackman', ()), ('nuttall', ()),
           ('blackmanharris', ()), ('flattop', ()), ('bartlett', ()), ('hann', ()), ('barthann', ()),
           ('hamming', ()), ('kaiser', (7.,)), ('gaussian', (2.5,)), ('general_gaussian', (1.5, 3.)),
           ('general_cosine', ([0.5, 0.3, 0.2],)), ('general_hamming', (0.6,)), ('chebwin', (60,)), ('cosine', ()),
           ('exponential', ()), ('tukey', (0.3,)), ('taylor', ()), ('lanczos', ())]
GET_WINDOW = ['hann', ('kaiser', 4.), ('tukey', 0.2), 'boxcar', 5.0, ('general_gaussian', 1, 2), 'taylor',
              ('exponential', None, 2.), ('chebwin', 80)]

ERRORS = [
    ('mode', lambda m: m.convolve([1., 2.], [1.], 'bad'), ValueError),
    ('method', lambda m: m.convolve([1., 2.], [1.], method='bad'), ValueError),
    ('ndim', lambda m: m.convolve(numpy.ones(3), numpy.ones((1, 3))), ValueError),
    ('valid-size', lambda m: m.convolve(numpy.ones((2, 3)), numpy.ones((3, 2)), 'valid'), ValueError),
    ('conv2d-1d', lambda m: m.convolve2d(numpy.ones(3), numpy.ones(3)), ValueError),
    ('conv2d-boundary', lambda m: m.convolve2d(numpy.ones((2, 2)), numpy.ones((1, 1)), boundary='x'), ValueError),
    ('lfilter-a0', lambda m: m.lfilter([1.], [0., 1.], numpy.ones(4)), ValueError),
    ('lfilter-zi', lambda m: m.lfilter([1., 1.], [1., 1.], numpy.ones(4), zi=[1., 2.]), ValueError),
    ('lfilter-axis', lambda m: m.lfilter([1., 1.], [1., .5], numpy.ones(4), axis=3), ValueError),
    ('filtfilt-short', lambda m: m.filtfilt([1., 1.], [1., .5], numpy.ones(4)), ValueError),
    ('filtfilt-padtype', lambda m: m.filtfilt([1., 1.], [1., .5], numpy.ones(50), padtype='bad'), ValueError),
    ('sos-shape', lambda m: m.sosfilt(numpy.ones((2, 5)), numpy.ones(4)), ValueError),
    ('sos-a0', lambda m: m.sosfilt([[1, 1, 1, 2, 1, 1]], numpy.ones(4)), ValueError),
    ('medfilt-even', lambda m: m.medfilt(numpy.ones(8), 4), ValueError),
    ('hilbert-complex', lambda m: m.hilbert(numpy.ones(4) + 1j), ValueError),
    ('hilbert-N', lambda m: m.hilbert(numpy.ones(4), N=0), ValueError),
    ('savgol-order', lambda m: m.savgol_coeffs(5, 5), ValueError),
    ('savgol-interp', lambda m: m.savgol_filter(numpy.ones(8), 9, 2), ValueError),
    ('savgol-mode', lambda m: m.savgol_filter(numpy.ones(8), 5, 2, mode='x'), ValueError),
    ('upfirdn-h', lambda m: m.upfirdn([], numpy.ones(4)), ValueError),
    ('upfirdn-up', lambda m: m.upfirdn([1.], numpy.ones(4), 0), ValueError),
    ('detrend-type', lambda m: m.detrend(numpy.ones(4), type='x'), ValueError),
    ('detrend-bp', lambda m: m.detrend(numpy.ones(4), bp=[20]), ValueError),
    ('decimate-ftype', lambda m: m.decimate(numpy.ones(40), 2, ftype='x'), ValueError),
    ('resample-domain', lambda m: m.resample(numpy.ones(8), 4, domain='x'), ValueError),
    ('resample_poly-padtype', lambda m: m.resample_poly(numpy.ones(8), 1, 2, padtype='x'), ValueError),
    ('window-params', lambda m: m.get_window('kaiser', 8), ValueError),
    ('window-unknown', lambda m: m.get_window('nope', 8), ValueError),
    ('window-length', lambda m: m.windows.hann(-1), ValueError),
]


def _host(r):
    if isinstance(r, (list, tuple)):
        return [_host(v) for v in r]
    return r.get() if isinstance(r, cp.ndarray) else numpy.asarray(r)


def _compare(got, want, tol, what):
    if isinstance(want, (list, tuple)):
        assert len(got) == len(want), what
        for i, (g, w) in enumerate(zip(got, want)):
            _compare(g, w, tol, f'{what}[{i}]')
        return
    want = numpy.asarray(want)
    assert got.shape == want.shape, (what, got.shape, want.shape)
    assert got.dtype == want.dtype, (what, got.dtype, want.dtype)
    if tol == 0:
        numpy.testing.assert_array_equal(got, want, err_msg=what)
    else:
        numpy.testing.assert_allclose(got, want, rtol=tol, atol=tol, err_msg=what)


def _run_case(m, fn, dev, tol, cid):
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        want = fn(ss, lambda a: a)
        got = _host(fn(m, dev))
    _compare(got, want, tol, cid)


# -- CPU tests ---------------------------------------------------------------------------------------------
def test_public_names():
    for n in ('convolve', 'correlate', 'fftconvolve', 'oaconvolve', 'convolve2d', 'correlate2d',
              'choose_conv_method', 'correlation_lags', 'lfilter', 'lfilter_zi', 'filtfilt', 'sosfilt',
              'sosfilt_zi', 'sosfiltfilt', 'detrend', 'hilbert', 'hilbert2', 'medfilt', 'medfilt2d', 'wiener',
              'savgol_coeffs', 'savgol_filter', 'resample', 'resample_poly', 'upfirdn', 'decimate', 'get_window'):
        assert callable(getattr(csig, n)), n
    for n, _ in WINDOWS:
        assert callable(getattr(csig.windows, n)), n
    import cuarray.scipy
    assert cuarray.scipy.signal is csig


# SciPy 1.15 removed its wavelet functions; cuarray keeps them, as CuPy does, with SciPy 1.14's parameters.
REMOVED_FROM_SCIPY = {'cwt': ['data', 'wavelet', 'widths', 'dtype', 'kwargs'], 'morlet': ['M', 'w', 's', 'complete'],
                      'morlet2': ['M', 's', 'w'], 'qmf': ['hk'], 'ricker': ['points', 'a']}


def _scipy_parameters(f):
    import inspect
    try:
        return list(inspect.signature(f).parameters)
    except ValueError:
        # A compiled function without a text signature (sepfir2d): its docstring opens with the call.
        call = re.match(r'\s*(?:\w+\s*=\s*)?\w+\(([^)]*)\)', f.__doc__)
        return [a.split('=')[0].strip() for a in call.group(1).split(',') if a.strip()]


def test_signatures_match_scipy():
    import inspect
    for n in csig.__all__:
        if n == 'windows':
            continue
        mine = list(inspect.signature(getattr(csig, n)).parameters)
        if not hasattr(ss, n):
            # Only the names SciPy removed may be missing from the installed SciPy.
            assert mine == REMOVED_FROM_SCIPY[n], (n, mine)
            continue
        theirs = [p for p in _scipy_parameters(getattr(ss, n)) if p not in ('xp', 'device')]
        assert mine == theirs, (n, mine, theirs)
    for n, _ in WINDOWS:
        mine = list(inspect.signature(getattr(csig.windows, n)).parameters)
        theirs = [p for p in inspect.signature(getattr(sw, n)).parameters if p != 'xp' and p != 'device']
        assert mine == theirs, (n, mine, theirs)


@needs_cxx
def test_choose_conv_method_heuristic():
    with host_signal() as m:
        # Integer inputs must stay exact: always the direct method.
        assert m.choose_conv_method(numpy.ones(10000, int), numpy.ones(10000, int)) == 'direct'
        assert m.choose_conv_method(numpy.ones(5), numpy.ones(3)) == 'direct'
        assert m.choose_conv_method(numpy.ones(2 ** 20), numpy.ones(2 ** 12)) == 'fft'
        assert m.choose_conv_method(numpy.ones((512, 512)), numpy.ones((3, 3))) == 'direct'


@pytest.mark.parametrize('dtype', ['bool', 'int32', 'int64', 'float32', 'float64', 'complex64', 'complex128'])
def test_generated_kernels_compile(dtype):
    from cuarray.cuda.compiler import compile_using_nvrtc
    from cuarray.scipy.signal import _conv
    if numpy.dtype(dtype).kind in 'fc':
        for role in (('complex',) if numpy.dtype(dtype).kind == 'c' else ('pairs', 'real')):
            assert len(compile_using_nvrtc(_conv.os_source(dtype, role), arch='80')[0]) > 0
    for nd in (1, 2, 3):
        assert len(compile_using_nvrtc(_kernels.conv_source(nd, dtype), arch='80')[0]) > 0
    if numpy.dtype(dtype).kind != 'c':
        assert len(compile_using_nvrtc(_kernels.median_source(2, dtype, 9), arch='80')[0]) > 0
    if numpy.dtype(dtype).kind in 'fc':
        for order in (1, 2, 4, 8):
            assert len(compile_using_nvrtc(_kernels.iir_source(order, dtype), arch='80')[0]) > 0


@needs_cxx
@pytest.mark.parametrize('cid,fn,tol', CASES, ids=[c[0] for c in CASES])
def test_host_emulation_matches_scipy(cid, fn, tol):
    with host_signal() as m:
        _run_case(m, fn, lambda a: a, tol, cid)


@needs_cxx
@pytest.mark.parametrize('block_min', [16, 64, 4096])
def test_host_overlap_save(block_min, monkeypatch):
    """Note [overlap-save convolution] in one block, many, an odd count of real blocks (a half-empty pair), a
    kernel of length 1, every mode and order, real and complex; the path is taken where it should be."""
    from cuarray.scipy.signal import _conv
    taken = []
    real_os = _conv._overlap_save
    monkeypatch.setattr(_conv, '_overlap_save', lambda *a: taken.append(a[3]) or real_os(*a))
    rng = numpy.random.default_rng(8)
    with host_signal(block_min=block_min) as m:
        for dt in ('float32', 'float64', 'complex64', 'complex128'):
            for n1, n2 in ((1000, 7), (7, 1000), (3000, 40), (20000, 300), (9000, 1), (2 * block_min + 5, 3),
                           (5000, 5000)):
                a = rng.standard_normal(n1) + (1j * rng.standard_normal(n1) if dt[0] == 'c' else 0)
                b = rng.standard_normal(n2) + (1j * rng.standard_normal(n2) if dt[0] == 'c' else 0)
                a, b = a.astype(dt), b.astype(dt)
                for mode in ('full', 'same', 'valid'):
                    taken.clear()
                    got, want = m.fftconvolve(a, b, mode), ss.fftconvolve(a, b, mode)
                    k = min(n1, n2)
                    assert bool(taken) == (2 * _conv.block_len(k) <= n1 + n2 - 1), (dt, n1, n2, mode)
                    assert got.dtype == want.dtype and got.shape == want.shape
                    tol = 1e-5 if dt in ('float32', 'complex64') else 1e-12
                    numpy.testing.assert_allclose(got, want, rtol=0, atol=tol * numpy.abs(want).max())


@needs_cxx
@pytest.mark.parametrize('chunk', [5, 16, 64])
def test_host_emulation_iir_scan_levels(chunk):
    """Short chunks make short signals walk every level of the IIR block scan (groups of chunks included)."""
    x = _rand((3, 2000), 'float64')
    zi = RNG.standard_normal((3, 4))
    with host_signal(chunk=chunk) as m:
        y, zf = m.lfilter(BUTTER_B, BUTTER_A, x, 1, zi)
        y2 = m.lfilter([1., 0.], [1., -1.], x, 1)
    ey, ezf = ss.lfilter(BUTTER_B, BUTTER_A, x, 1, zi)
    numpy.testing.assert_allclose(y, ey, rtol=1e-9, atol=1e-9)
    numpy.testing.assert_allclose(zf, ezf, rtol=1e-9, atol=1e-9)
    numpy.testing.assert_allclose(y2, numpy.cumsum(x, axis=1), rtol=1e-9, atol=1e-9)


@needs_cxx
@pytest.mark.parametrize('name,args', WINDOWS, ids=[w[0] for w in WINDOWS])
def test_host_windows_match_scipy(name, args):
    with host_signal() as m, warnings.catch_warnings():
        warnings.simplefilter('ignore')
        for M in (0, 1, 2, 5, 6, 17, 32):
            for sym in (True, False):
                _compare(getattr(m.windows, name)(M, *args, sym=sym), getattr(sw, name)(M, *args, sym=sym),
                         1e-12, f'{name}({M}, sym={sym})')
        for fb in (True, False):
            for w in GET_WINDOW:
                _compare(m.get_window(w, 16, fftbins=fb), ss.get_window(w, 16, fftbins=fb), 1e-12, str(w))


@needs_cxx
@pytest.mark.parametrize('eid,fn,exc', ERRORS, ids=[e[0] for e in ERRORS])
def test_host_errors_match_scipy(eid, fn, exc):
    with pytest.raises(exc):
        fn(ss)
    with host_signal() as m, pytest.raises(exc):
        fn(m)


# -- GPU tests ---------------------------------------------------------------------------------------------
@gpu
@pytest.mark.parametrize('cid,fn,tol', CASES, ids=[c[0] for c in CASES])
def test_matches_scipy(cid, fn, tol):
    _run_case(csig, fn, cp.asarray, tol, cid)


@gpu
@pytest.mark.parametrize('name,args', WINDOWS, ids=[w[0] for w in WINDOWS])
def test_windows_match_scipy(name, args):
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        for M in (0, 1, 6, 17):
            for sym in (True, False):
                _compare(_host(getattr(csig.windows, name)(M, *args, sym=sym)), getattr(sw, name)(M, *args, sym=sym),
                         1e-12, f'{name}({M})')


@gpu
@pytest.mark.parametrize('eid,fn,exc', ERRORS, ids=[e[0] for e in ERRORS])
def test_errors_match_scipy(eid, fn, exc):
    with pytest.raises(exc):
        fn(csig)


@gpu
@pytest.mark.parametrize('dtype', ['float32', 'float64'])
def test_lfilter_long_iir(dtype):
    """2**20 samples of a 4th-order IIR: the block scan's three levels at the real chunk length."""
    x = _rand(2 ** 20, dtype)
    zi = numpy.arange(4.0)
    y, zf = csig.lfilter(BUTTER_B, BUTTER_A, cp.asarray(x), zi=cp.asarray(zi))
    ey, ezf = ss.lfilter(BUTTER_B, BUTTER_A, x.astype(numpy.float64), zi=zi)
    tol = 1e-3 if dtype == 'float32' else 1e-9
    numpy.testing.assert_allclose(y.get(), ey, rtol=tol, atol=tol)
    numpy.testing.assert_allclose(zf.get(), ezf, rtol=tol, atol=tol)


@gpu
def test_choose_conv_method_measure():
    method, times = csig.choose_conv_method(cp.ones(4096), cp.ones(64), measure=True)
    assert method in ('fft', 'direct') and set(times) == {'fft', 'direct'}


@gpu
@pytest.mark.parametrize('dtype', ['float32', 'float64', 'complex64'])
def test_fftconvolve_long(dtype):
    """The benchmark's shape class (2**20 by 2**12): overlap-save against SciPy's single transform."""
    a, b = _rand(2 ** 20, dtype), _rand(2 ** 12, dtype)
    for mode in ('full', 'valid'):
        got = csig.fftconvolve(cp.asarray(a), cp.asarray(b), mode).get()
        want = ss.fftconvolve(a, b, mode)
        assert got.dtype == want.dtype and got.shape == want.shape
        tol = 1e-5 if dtype in ('float32', 'complex64') else 1e-12
        numpy.testing.assert_allclose(got, want, rtol=0, atol=tol * numpy.abs(want).max())
