"""cuarray.scipy.signal's chirp z-transform, B-spline filters, deconvolve/lfiltic/order_filter, SciPy 1.14's
wavelets and the Kaiser-Bessel derived window, against scipy.signal (and, for the wavelets SciPy 1.15 removed,
against SciPy 1.14's documented formulas written out below).

Each case runs on the GPU (marked gpu) and, without a GPU, through the host emulation (_signal_host_more.py).
"""
import warnings

import numpy
import pytest
import scipy.ndimage as sndi
import scipy.signal as ss

import cuarray as cp
import cuarray.scipy.signal as csig
from cuarray.scipy.signal import _bsplines

from _signal_host import compiler
from _signal_host_more import host_signal_more

gpu = pytest.mark.gpu
needs_cxx = pytest.mark.skipif(compiler() is None, reason="no host C++ compiler")
RNG = numpy.random.default_rng(2024)


# SciPy 1.14's wavelets (removed from SciPy 1.15), from their documented definitions.
class _Wavelets14:
    @staticmethod
    def ricker(points, a):
        A = 2 / (numpy.sqrt(3 * a) * numpy.pi ** 0.25)
        t = numpy.arange(points) - (points - 1.0) / 2
        return A * (1 - t ** 2 / a ** 2) * numpy.exp(-t ** 2 / (2 * a ** 2))

    @staticmethod
    def morlet(M, w=5.0, s=1.0, complete=True):
        x = numpy.linspace(-2 * numpy.pi * s, 2 * numpy.pi * s, M)
        v = numpy.exp(1j * w * x) - (numpy.exp(-0.5 * w ** 2) if complete else 0)
        return v * numpy.exp(-0.5 * x ** 2) * numpy.pi ** -0.25

    @staticmethod
    def morlet2(M, s, w=5):
        x = (numpy.arange(M) - (M - 1.0) / 2) / s
        return numpy.exp(1j * w * x) * numpy.exp(-0.5 * x ** 2) * numpy.pi ** -0.25 * numpy.sqrt(1 / s)

    @staticmethod
    def qmf(hk):
        hk = numpy.asarray(hk)
        return hk[::-1] * numpy.array([(-1) ** k for k in range(len(hk))])

    @classmethod
    def cwt(cls, data, wavelet, widths, dtype=None, **kw):
        wavelet = {'ricker': cls.ricker, 'morlet2': cls.morlet2}.get(getattr(wavelet, '__name__', ''), wavelet)
        if dtype is None:
            dtype = numpy.complex128 if numpy.iscomplexobj(wavelet(1, widths[0], **kw)) else numpy.float64
        out = numpy.empty((len(widths), len(data)), dtype=dtype)
        for i, wd in enumerate(widths):
            n = min(10 * wd, len(data))
            out[i] = numpy.convolve(data, numpy.conj(wavelet(n, wd, **kw)[::-1]), mode='same')
        return out


def _rand(shape, dtype, scale=10.0):
    dt = numpy.dtype(dtype)
    v = RNG.standard_normal(shape) * scale
    if dt.kind == 'c':
        v = v + 1j * RNG.standard_normal(shape) * scale
    return v.astype(dt)


def _tol(dt):
    return 2e-5 if numpy.dtype(dt) in (numpy.float32, numpy.complex64, numpy.float16) else 1e-9


def _c(m, d, x):
    return numpy.ascontiguousarray(x) if m is ss else d(x)


def _cases():
    c = []
    # Chirp z-transform: default (FFT points), other m, spirals, axes, dtypes (always complex128 out).
    for dt in ('float32', 'float64', 'complex64', 'complex128', 'int16'):
        x = _rand((3, 37), dt)
        for j, kw in enumerate((dict(), dict(m=50), dict(m=10, w=0.99 * numpy.exp(-0.1j), a=0.9 + 0.1j),
                                dict(m=5, axis=0), dict(m=1), dict(w=1.01 + 0.01j, a=2))):
            c.append((f'czt-{dt}-{j}', lambda m, d, x=x, kw=kw: m.czt(d(x), **kw), 1e-9))
        c.append((f'zoom_fft-{dt}', lambda m, d, x=x: m.zoom_fft(d(x), [0.1, 0.5], m=64, endpoint=True), 1e-9))
        c.append((f'zoom_fft-scalar-{dt}', lambda m, d, x=x: m.zoom_fft(d(x), 0.3, fs=3, axis=-1), 1e-9))
        c.append((f'zoom_fft-axis0-{dt}', lambda m, d, x=x: m.zoom_fft(d(x), [10, 20], 7, fs=50, axis=0), 1e-9))
    xs = RNG.standard_normal(40)
    c += [('czt-1', lambda m, d: m.czt(d(xs[:1])), 1e-12),
          ('CZT-obj', lambda m, d: m.CZT(40, 60, 0.999 * numpy.exp(-0.05j), 0.8)(d(xs)), 1e-9),
          ('CZT-points', lambda m, d: m.CZT(4, 9, 1.1j, 2).points(), 1e-12),
          ('ZoomFFT-obj', lambda m, d: m.ZoomFFT(40, [1, 3], 25, fs=10)(d(xs)), 1e-9),
          ('ZoomFFT-points', lambda m, d: m.ZoomFFT(40, [1, 3], 25, fs=10, endpoint=True).points(), 1e-12),
          ('czt_points', lambda m, d: m.czt_points(7), 1e-12),
          ('czt_points-wa', lambda m, d: m.czt_points(7, 0.9 + 0.1j, 2), 1e-12)]

    # Symmetric IIR filters and splines over dtypes; integers are promoted to float64.
    for dt in ('float32', 'float64', 'complex64', 'complex128', 'int32'):
        x = _rand((4, 80), dt)
        xt = numpy.asfortranarray(x)
        t = _tol(dt)
        c.append((f'symiirorder1-{dt}', lambda m, d, x=x: m.symiirorder1(d(x), 0.5, 0.6), t))
        # SciPy's boundary sums read non-C-contiguous input as if contiguous, so SciPy is given a C copy.
        c.append((f'symiirorder1-F-{dt}', lambda m, d, x=xt: m.symiirorder1(_c(m, d, x), 0.5, 0.6), t))
        c.append((f'symiirorder1-1d-{dt}', lambda m, d, x=x: m.symiirorder1(d(x[0]), 2.0, -0.6, 1e-4), t))
        c.append((f'symiirorder1-stride-{dt}', lambda m, d, x=x: m.symiirorder1(_c(m, d, x[:, ::-2]), 1.0, 0.3),
                  t))
        y = _rand((30, 40), dt)
        for lam in (0.0, 0.5, 3.0):
            if lam and dt[0] == 'c':
                continue
            c.append((f'cspline2d-{dt}-{lam}', lambda m, d, y=y, lam=lam: m.cspline2d(d(y), lam), t))
        c.append((f'cspline2d-prec-{dt}', lambda m, d, y=y: m.cspline2d(d(y), 0.0, 1e-9), t))
        c.append((f'sepfir2d-{dt}', lambda m, d, y=y: m.sepfir2d(d(y), [1., 2, 3, 4, 5], [3., -1, 2]), t))
        c.append((f'sepfir2d-1-{dt}', lambda m, d, y=y: m.sepfir2d(d(y), [1.], [1 / 7] * 7), t))
        c.append((f'cspline1d-{dt}', lambda m, d, x=x: m.cspline1d(d(x[0])), t))
        c.append((f'qspline1d-{dt}', lambda m, d, x=x: m.qspline1d(d(x[0])), t))
        c.append((f'cspline1d-size1-{dt}', lambda m, d, x=x: m.cspline1d(d(x[0, :1])), t))
        c.append((f'qspline1d-size2-{dt}', lambda m, d, x=x: m.qspline1d(d(x[0, :2])), t))
        if dt[0] != 'c':
            c.append((f'symiirorder2-{dt}', lambda m, d, x=x: m.symiirorder2(d(x), 0.5, 0.6), t))
            c.append((f'symiirorder2-1d-{dt}', lambda m, d, x=x: m.symiirorder2(d(x[1]), 0.3, 1.2, 1e-3), t))
            c.append((f'cspline1d-lam-{dt}', lambda m, d, x=x: m.cspline1d(d(x[0]), 0.7), t))
        if dt != 'int32':
            c.append((f'qspline2d-{dt}', lambda m, d, y=y: m.qspline2d(d(y)), t))
            c.append((f'spline_filter-{dt}', lambda m, d, y=y: m.spline_filter(d(y), 0.001), max(t, 1e-5)))
            if dt[0] != 'c':
                c.append((f'spline_filter-smooth-{dt}', lambda m, d, y=y: m.spline_filter(d(y)), max(t, 1e-5)))
        if dt not in ('int32', 'complex64', 'complex128'):
            cj = ss.cspline1d(x[0].real.astype(float)).astype(dt)
            nx = numpy.linspace(-300, 300, 1001).astype(dt)
            c.append((f'cspline1d_eval-{dt}', lambda m, d, cj=cj, nx=nx: m.cspline1d_eval(d(cj), d(nx), 0.7, 3), t))
            c.append((f'qspline1d_eval-{dt}', lambda m, d, cj=cj, nx=nx: m.qspline1d_eval(d(cj), d(nx), 0.7, 3), t))
    cj = ss.cspline1d(RNG.standard_normal(20)) + 1j
    x3 = RNG.standard_normal((40, 3, 30))
    c += [('cspline1d_eval-complex', lambda m, d: m.cspline1d_eval(d(cj), d(numpy.linspace(-5, 30, 77))), 1e-9),
          ('cspline1d_eval-2d', lambda m, d: m.cspline1d_eval(d(cj.real), d(numpy.ones((2, 3)) * 2.5)), 1e-9),
          ('cspline1d_eval-empty', lambda m, d: m.cspline1d_eval(d(cj.real), d(numpy.ones(0))), 0),
          ('gauss_spline', lambda m, d: m.gauss_spline(d(numpy.linspace(-3, 3, 11)), 3), 1e-12),
          ('gauss_spline-0', lambda m, d: m.gauss_spline(d(numpy.float32(0.5)), 0), 1e-6),
          ('cspline2d-3d', lambda m, d: m.cspline2d(d(x3), 0.0), 1e-9)]

    # deconvolve, lfiltic.
    x = RNG.standard_normal(50)
    c += [('deconvolve', lambda m, d: m.deconvolve(d(x), d(numpy.array([1., 2, 0.5]))), 1e-9),
          ('deconvolve-exact', lambda m, d: m.deconvolve(d(numpy.convolve([1., 2, 3], [4., 5])), d([4., 5])), 1e-12),
          ('deconvolve-short', lambda m, d: m.deconvolve(d(numpy.array([1., 2])), d(numpy.array([1., 2, 3]))), 0),
          ('deconvolve-scalar', lambda m, d: m.deconvolve(d(numpy.array([2., 4, 6])), 2.0), 1e-12),
          ('lfiltic', lambda m, d: m.lfiltic([1, 2, 3], [1, 0.5, 0.2, 0.1], [1, 2], [3]), 1e-12),
          ('lfiltic-a0', lambda m, d: m.lfiltic([1, 2, 3], [2], [1, 2]), 1e-12),
          ('lfiltic-f32', lambda m, d: m.lfiltic(numpy.array([1, 2], numpy.float32), numpy.array([1, .5], numpy.float32),
                                                 numpy.array([1.], numpy.float32)), 1e-6),
          ('lfiltic-complex', lambda m, d: m.lfiltic([1, 2j], [1, .5, .25], [1 + 1j, 2], [1j]), 1e-12),
          ('lfiltic-int', lambda m, d: m.lfiltic([1, 2], [1, 3], [4]), 1e-12)]

    # Kaiser-Bessel derived window.
    for M, beta in ((0, 1), (2, 0.5), (8, 3), (100, 8.6), (-2, 1)):
        c.append((f'kaiser_bessel_derived-{M}', lambda m, d, M=M, b=beta: m.windows.kaiser_bessel_derived(M, b), 1e-12))
    return c


def _wavelet_cases():
    c = []
    for M, w, s, comp in ((10, 5.0, 1.0, True), (33, 3.0, 0.5, False), (1, 5.0, 1.0, True)):
        c.append((f'morlet-{M}', lambda m, M=M, w=w, s=s, co=comp: m.morlet(M, w, s, co), 1e-12))
    for M, s, w in ((10, 2.0, 5), (51, 4.5, 6.0), (1, 1.0, 5)):
        c.append((f'morlet2-{M}', lambda m, M=M, s=s, w=w: m.morlet2(M, s, w), 1e-12))
    for p, a in ((10, 4.0), (101, 7.5), (1, 1.0)):
        c.append((f'ricker-{p}', lambda m, p=p, a=a: m.ricker(p, a), 1e-12))
    c.append(('qmf', lambda m: m.qmf(numpy.array([1., 2, 3, 4, 5])), 0))
    c.append(('qmf-int', lambda m: m.qmf(numpy.arange(6)), 0))
    data = RNG.standard_normal(120)
    c.append(('cwt-ricker', lambda m: m.cwt(data, m.ricker, numpy.arange(1, 11)), 1e-9))
    c.append(('cwt-morlet2', lambda m: m.cwt(data, m.morlet2, numpy.arange(1, 20, 3), w=6.0), 1e-9))
    c.append(('cwt-dtype', lambda m: m.cwt(data, m.ricker, [2, 30], dtype=numpy.complex128), 1e-9))
    return c


def _design_cases():
    """Elliptic/Bessel IIR design, iirdesign and the FIR designs (firls, firwin2, minimum_phase, gammatone)."""
    c = []
    for N in (0, 1, 2, 3, 6, 12):
        for rp, rs in ((1, 40), (0.1, 80), (3, 20), (0.01, 10)):
            c.append((f'ellipap-{N}-{rp}-{rs}', lambda m, d, N=N, rp=rp, rs=rs: m.ellipap(N, rp, rs), 1e-10))
    for N in (0, 1, 2, 5, 13, 25, 40):
        for norm in ('phase', 'delay', 'mag'):
            c.append((f'besselap-{N}-{norm}', lambda m, d, N=N, norm=norm: m.besselap(N, norm),
                      1e-9 if norm == 'mag' else 1e-10))
    bands = (('low', 0.3), ('high', 0.2), ('bandpass', [0.2, 0.5]), ('bandstop', [0.1, 0.6]))
    for N in (1, 2, 4, 7):
        for bt, W in bands:
            for out in ('ba', 'zpk', 'sos'):
                c.append((f'ellip-{N}-{bt}-{out}',
                          lambda m, d, N=N, bt=bt, W=W, out=out: m.ellip(N, 1, 50, W, bt, output=out), 1e-8))
                c.append((f'bessel-{N}-{bt}-{out}',
                          lambda m, d, N=N, bt=bt, W=W, out=out: m.bessel(N, W, bt, output=out), 1e-8))
            # SciPy's analog band-pass zpk2sos fails for N = 3 alone (an IndexError there too): not among these N.
            c.append((f'ellip-analog-{N}-{bt}', lambda m, d, N=N, bt=bt, W=W:
                      m.ellip(N, 0.5, 60, numpy.array(W) * 10, bt, analog=True, output='zpk'), 1e-8))
            for norm in ('delay', 'mag'):
                c.append((f'bessel-analog-{N}-{bt}-{norm}', lambda m, d, N=N, bt=bt, W=W, norm=norm:
                          m.bessel(N, numpy.array(W) * 10, bt, analog=True, norm=norm), 1e-8))
    c += [('iirfilter-cauer-fs', lambda m, d: m.iirfilter(4, d(numpy.array([100., 200.])), rp=1, rs=30,
                                                          ftype='cauer', fs=1000), 1e-8),
          ('iirfilter-bessel_delay', lambda m, d: m.iirfilter(4, 0.3, btype='low', ftype='bessel_delay'), 1e-8),
          ('iirfilter-BESSEL-sos', lambda m, d: m.iirfilter(5, [0.1, 0.4], ftype='Bessel', output='sos'), 1e-8),
          ('band_stop_obj-ellip', lambda m, d: m.band_stop_obj(0.15, 0, d(numpy.array([0.1, 0.6])),
                                                               d(numpy.array([0.2, 0.5])), 1, 40, 'ellip'), 1e-12)]
    specs = ((0.2, 0.3, 1, 40), (0.3, 0.2, 0.5, 60), ([0.2, 0.5], [0.1, 0.6], 1, 40),
             ([0.1, 0.6], [0.2, 0.5], 1, 40), (0.1, 0.12, 0.1, 80))
    for i, (wp, ws, gp, gs) in enumerate(specs):
        wp, ws = numpy.array(wp, float), numpy.array(ws, float)
        c.append((f'ellipord-{i}', lambda m, d, wp=wp, ws=ws, gp=gp, gs=gs: m.ellipord(d(wp), d(ws), gp, gs), 1e-9))
        c.append((f'ellipord-analog-{i}', lambda m, d, wp=wp, ws=ws, gp=gp, gs=gs:
                  m.ellipord(wp * 10, ws * 10, gp, gs, analog=True), 1e-9))
        c.append((f'ellipord-fs-{i}', lambda m, d, wp=wp, ws=ws, gp=gp, gs=gs:
                  m.ellipord(wp * 50, ws * 50, gp, gs, fs=200), 1e-9))
        for ft in ('ellip', 'butter', 'cheby1', 'cheby2'):
            for out in ('ba', 'zpk', 'sos'):
                c.append((f'iirdesign-{i}-{ft}-{out}', lambda m, d, wp=wp, ws=ws, gp=gp, gs=gs, ft=ft, out=out:
                          m.iirdesign(wp, ws, gp, gs, ftype=ft, output=out), 1e-7))
        c.append((f'iirdesign-analog-{i}', lambda m, d, wp=wp, ws=ws, gp=gp, gs=gs:
                  m.iirdesign(wp * 3, ws * 3, gp, gs, analog=True, output='zpk'), 1e-8))
    c.append(('iirdesign-fs', lambda m, d: m.iirdesign(100, 150, 1, 40, fs=1000, ftype='cauer'), 1e-8))
    for nt in (1, 3, 11, 31, 61):
        c.append((f'firls-{nt}', lambda m, d, nt=nt: m.firls(nt, d(numpy.array([0, 0.3, 0.4, 1.])),
                                                             d(numpy.array([1, 1, 0, 0.]))), 1e-10))
        c.append((f'firls-weight-{nt}', lambda m, d, nt=nt: m.firls(nt, [0, 0.2, 0.3, 0.6, 0.7, 1],
                                                                    [0, 0, 1, 0.5, 0, 0], weight=[1, 2, 3]), 1e-10))
        c.append((f'firls-fs-{nt}', lambda m, d, nt=nt: m.firls(nt, [[0, 100], [150, 300], [320, 500]],
                                                                [[1, 1], [0, 0], [0.5, 0.2]], fs=1000), 1e-10))
    c += [('firls-gap', lambda m, d: m.firls(11, [0, 0.3, 0.5, 0.6], [1, 1, 0, 0]), 1e-10),
          ('firls-singular', lambda m, d: m.firls(21, [0, 0.01], [1, 1]), 1e-6)]
    f, g = [0, 0.2, 0.2, 0.5, 1.0], [1.0, 1.0, 0.5, 0.5, 0.0]
    for nt in (1, 2, 5, 30, 31, 64, 65):
        c.append((f'firwin2-{nt}', lambda m, d, nt=nt: m.firwin2(nt, d(numpy.array(f)), d(numpy.array(g))), 1e-10))
        c.append((f'firwin2-nowin-{nt}', lambda m, d, nt=nt: m.firwin2(nt, f, g, window=None), 1e-10))
        c.append((f'firwin2-fs-{nt}', lambda m, d, nt=nt: m.firwin2(nt, [0, 100, 250, 500], [1, 0.5, 0.2, 0.0],
                                                                    fs=1000, window=('kaiser', 5), nfreqs=257),
                  1e-10))
        ga = [0.0, 1.0, 0.5, 0.5, 0.0 if nt % 2 else 1.0]
        c.append((f'firwin2-anti-{nt}', lambda m, d, nt=nt, ga=ga: m.firwin2(nt, f, ga, antisymmetric=True), 1e-10))
    import scipy.signal as _ss
    hl = _ss.remez(31, [0, 0.1, 0.15, 0.5], [1, 0])
    he = _ss.firwin(20, 0.3)
    for nf in (None, 64, 1001):
        c.append((f'minimum_phase-hom-{nf}', lambda m, d, nf=nf: m.minimum_phase(d(hl), n_fft=nf), 1e-9))
        c.append((f'minimum_phase-full-{nf}', lambda m, d, nf=nf: m.minimum_phase(d(hl), n_fft=nf, half=False),
                  1e-9))
    # The Hilbert method takes the log of a response lifted to touch zero: with a short FFT the result depends on
    # the FFT's last-bit rounding (SciPy's scipy.fft against NumPy's differ by 1e-2 at n_fft = 64), so it is
    # compared at the default (long) FFT and a long given one.
    for nf in (None, 4096):
        c.append((f'minimum_phase-hil-{nf}', lambda m, d, nf=nf: m.minimum_phase(d(hl), 'hilbert', nf), 1e-9))
    c += [('minimum_phase-even', lambda m, d: m.minimum_phase(d(he)), 1e-9),
          ('minimum_phase-f32', lambda m, d: m.minimum_phase(d(numpy.array([1, 2, 3, 2, 1], numpy.float32))), 2e-6),
          ('minimum_phase-int', lambda m, d: m.minimum_phase(d(numpy.array([1, 2, 1]))), 1e-10)]
    for fr, fs in ((440, 16000), (1000, 44100), (0.3, None), (100, 1000)):
        c.append((f'gammatone-fir-{fr}', lambda m, d, fr=fr, fs=fs: m.gammatone(fr, 'fir', fs=fs), 1e-10))
        c.append((f'gammatone-fir7-{fr}', lambda m, d, fr=fr, fs=fs: m.gammatone(fr, 'FIR', order=7, numtaps=40,
                                                                                fs=fs), 1e-10))
        c.append((f'gammatone-iir-{fr}', lambda m, d, fr=fr, fs=fs: m.gammatone(fr, 'iir', fs=fs), 1e-10))
    return c


CASES = _cases() + _design_cases()
WAVELET_CASES = _wavelet_cases()


def _host(v):
    if isinstance(v, cp.ndarray):
        return v.get()
    if isinstance(v, (tuple, list)):
        return type(v)(_host(x) for x in v)
    return v


def _compare(got, want, tol, tag):
    if isinstance(want, (tuple, list)) and not (isinstance(want, list) and len(want) == 0):
        assert len(got) == len(want), tag
        for i, (g, w) in enumerate(zip(got, want)):
            _compare(g, w, tol, f'{tag}[{i}]')
        return
    g, w = numpy.asarray(got), numpy.asarray(want)
    assert g.shape == w.shape, (tag, g.shape, w.shape)
    assert g.dtype == w.dtype, (tag, g.dtype, w.dtype)
    if w.dtype.kind in 'fc' and w.size:
        scale = max(1.0, float(numpy.nanmax(numpy.abs(w))))
        numpy.testing.assert_allclose(g, w, rtol=tol, atol=tol * scale, err_msg=tag)
    else:
        numpy.testing.assert_array_equal(g, w, err_msg=tag)


# SciPy 1.18 changed minimum_phase's homomorphic fold (the bin at n_fft // 2 is 1 for even n_fft, 2 for odd);
# cuarray follows 1.18, so the homomorphic cases are compared only against SciPy >= 1.18.
_SCIPY_MIN_PHASE_FOLD = tuple(int(v) for v in __import__('scipy').__version__.split('.')[:2]) >= (1, 18)


def _run(m, fn, dev, tol, cid):
    if cid.startswith('minimum_phase') and '-hil-' not in cid and not _SCIPY_MIN_PHASE_FOLD:
        pytest.skip('SciPy < 1.18 folds the cepstrum differently at n_fft // 2; cuarray follows 1.18')
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        want = fn(ss, lambda a: a)
        got = _host(fn(m, dev))
    _compare(got, want, tol, cid)


def _run_wavelet(m, fn, tol, cid):
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        want = fn(_Wavelets14)
        got = _host(fn(m))
    _compare(got, want, tol, cid)


ERRORS = [
    ('czt-n', lambda m: m.CZT(0), ValueError),
    ('czt-m', lambda m: m.CZT(5, 0), ValueError),
    ('czt-m-float', lambda m: m.CZT(5, 2.0), ValueError),
    ('czt-length', lambda m: m.CZT(5)(numpy.ones(6)), ValueError),
    ('czt_points-m', lambda m: m.czt_points(-1), ValueError),
    ('zoom_fft-fn', lambda m: m.zoom_fft(numpy.ones(8), [1, 2, 3]), ValueError),
    ('symiirorder1-z1', lambda m: m.symiirorder1(numpy.ones(50), 1.0, 1.0), ValueError),
    ('symiirorder1-3d', lambda m: m.symiirorder1(numpy.ones((2, 2, 50)), 1.0, 0.5), ValueError),
    ('symiirorder1-converge', lambda m: m.symiirorder1(numpy.ones(10), 1.0, 0.9), ValueError),
    ('symiirorder2-r', lambda m: m.symiirorder2(numpy.ones(50), 1.0, 0.5), ValueError),
    ('symiirorder2-3d', lambda m: m.symiirorder2(numpy.ones((2, 2, 50)), 0.5, 0.5), ValueError),
    ('symiirorder2-complex', lambda m: m.symiirorder2(numpy.ones(50, complex), 0.5, 0.5), TypeError),
    ('symiirorder2-converge', lambda m: m.symiirorder2(numpy.ones(6), 0.9, 0.5), ValueError),
    ('cspline1d-lamb-short', lambda m: m.cspline1d(numpy.ones(2), 0.7), ValueError),
    ('qspline1d-lamb', lambda m: m.qspline1d(numpy.ones(5), 1.0), ValueError),
    ('qspline2d-lamb', lambda m: m.qspline2d(numpy.ones((5, 5)), 1.0), ValueError),
    ('cspline1d_eval-empty', lambda m: m.cspline1d_eval(numpy.ones(0), numpy.ones(3)), ValueError),
    ('cspline1d_eval-int', lambda m: m.cspline1d_eval(numpy.ones(4, int), numpy.ones(3)), TypeError),
    ('qspline1d_eval-empty', lambda m: m.qspline1d_eval(numpy.ones(0), numpy.ones(3)), ValueError),
    ('sepfir2d-even', lambda m: m.sepfir2d(numpy.ones((4, 4)), [1., 2], [1.]), ValueError),
    ('sepfir2d-1d', lambda m: m.sepfir2d(numpy.ones(4), [1.], [1.]), ValueError),
    ('spline_filter-int', lambda m: m.spline_filter(numpy.ones((5, 5), int)), TypeError),
    ('deconvolve-2d', lambda m: m.deconvolve(numpy.ones((2, 2)), numpy.ones(2)), ValueError),
    ('deconvolve-empty', lambda m: m.deconvolve(numpy.ones(3), numpy.ones(0)), ValueError),
    ('lfiltic-a2d', lambda m: m.lfiltic([1], [[1.]], [1]), ValueError),
    ('lfiltic-a0', lambda m: m.lfiltic([1, 2], [0, 1], [1]), ValueError),
    ('lfiltic-empty-a', lambda m: m.lfiltic([1, 2], [], [1]), ValueError),
    ('order_filter-even', lambda m: m.order_filter(numpy.ones(5), numpy.ones(2), 0), ValueError),
    ('order_filter-dtype', lambda m: m.order_filter(numpy.ones(5, complex), numpy.ones(3), 0), ValueError),
    ('ellipap-order', lambda m: m.ellipap(-1, 1, 40), ValueError),
    ('ellipap-spec', lambda m: m.ellipap(4, 0, 40), ValueError),
    ('ellip-no-rs', lambda m: m.iirfilter(3, 0.3, rp=1, ftype='ellip'), ValueError),
    ('besselap-norm', lambda m: m.besselap(3, 'foo'), ValueError),
    ('besselap-order', lambda m: m.besselap(2.5), ValueError),
    ('bessel-norm', lambda m: m.bessel(3, 0.3, norm='foo'), ValueError),
    ('ellipord-gpass', lambda m: m.ellipord(0.2, 0.3, 0, 40), ValueError),
    ('ellipord-gstop', lambda m: m.ellipord(0.2, 0.3, 3, 1), ValueError),
    ('ellipord-inside', lambda m: m.ellipord([0.2, 0.5], [0.3, 0.6], 1, 40), ValueError),
    ('iirdesign-bessel', lambda m: m.iirdesign(0.2, 0.3, 1, 40, ftype='bessel'), ValueError),
    ('iirdesign-ftype', lambda m: m.iirdesign(0.2, 0.3, 1, 40, ftype='foo'), ValueError),
    ('iirdesign-inside', lambda m: m.iirdesign([0.2, 0.5], [0.3, 0.6], 1, 40), ValueError),
    ('iirdesign-fs', lambda m: m.iirdesign(200, 600, 1, 40, fs=1000), ValueError),
    ('firls-even', lambda m: m.firls(10, [0, 0.5, 0.6, 1], [1, 1, 0, 0]), ValueError),
    ('firls-pairs', lambda m: m.firls(11, [0, 0.5, 1], [1, 1, 0]), ValueError),
    ('firls-overlap', lambda m: m.firls(11, [0, 0.5, 0.4, 1], [1, 1, 0, 0]), ValueError),
    ('firls-negative', lambda m: m.firls(11, [0, 0.5, 0.6, 1], [1, 1, -1, 0]), ValueError),
    ('firls-weight', lambda m: m.firls(11, [0, 0.5, 0.6, 1], [1, 1, 0, 0], weight=[1]), ValueError),
    ('firwin2-len', lambda m: m.firwin2(11, [0, 0.5, 1], [1, 0]), ValueError),
    ('firwin2-start', lambda m: m.firwin2(11, [0.1, 0.5, 1], [1, 1, 0]), ValueError),
    ('firwin2-triple', lambda m: m.firwin2(11, [0, 0.5, 0.5, 0.5, 1], [1, 1, 1, 0, 0]), ValueError),
    ('firwin2-type2', lambda m: m.firwin2(10, [0, 0.5, 1], [1, 1, 1]), ValueError),
    ('firwin2-nfreqs', lambda m: m.firwin2(11, [0, 0.5, 1], [1, 1, 0], nfreqs=8), ValueError),
    ('minimum_phase-complex', lambda m: m.minimum_phase(numpy.ones(5, complex)), ValueError),
    ('minimum_phase-short', lambda m: m.minimum_phase(numpy.ones(2)), ValueError),
    ('minimum_phase-method', lambda m: m.minimum_phase(numpy.ones(5), 'foo'), ValueError),
    ('minimum_phase-half', lambda m: m.minimum_phase(numpy.ones(5), 'hilbert', half=False), ValueError),
    ('minimum_phase-nfft', lambda m: m.minimum_phase(numpy.ones(9), n_fft=4), ValueError),
    ('gammatone-freq', lambda m: m.gammatone(1.5, 'fir'), ValueError),
    ('gammatone-ftype', lambda m: m.gammatone(0.5, 'foo'), ValueError),
    ('gammatone-order', lambda m: m.gammatone(0.5, 'fir', order=25), ValueError),
    ('kbd-odd', lambda m: m.windows.kaiser_bessel_derived(5, 1), ValueError),
    ('kbd-sym', lambda m: m.windows.kaiser_bessel_derived(4, 1, sym=False), ValueError),
]


def test_public_names():
    for n in ('CZT', 'ZoomFFT', 'czt', 'czt_points', 'zoom_fft', 'cspline1d', 'cspline1d_eval', 'cspline2d',
              'qspline1d', 'qspline1d_eval', 'qspline2d', 'spline_filter', 'gauss_spline', 'symiirorder1',
              'symiirorder2', 'sepfir2d', 'deconvolve', 'lfiltic', 'order_filter', 'cwt', 'morlet', 'morlet2',
              'qmf', 'ricker', 'ellip', 'ellipap', 'ellipord', 'iirdesign', 'firls', 'firwin2', 'minimum_phase',
              'gammatone', 'bessel', 'besselap'):
        assert n in csig.__all__ and callable(getattr(csig, n)), n
    assert 'kaiser_bessel_derived' in csig.windows.__all__


@pytest.mark.parametrize('dtype', ['float32', 'float64', 'complex64', 'complex128'])
def test_symiir_kernels_compile(dtype):
    from cuarray.cuda.compiler import compile_using_nvrtc
    assert len(compile_using_nvrtc(_bsplines.source(numpy.dtype(dtype)), arch='80')[0]) > 0


# -- CPU: host emulation ---------------------------------------------------------------------------------------
@needs_cxx
@pytest.mark.parametrize('cid,fn,tol', CASES, ids=[c[0] for c in CASES])
def test_host_emulation_matches_scipy(cid, fn, tol):
    with host_signal_more() as m:
        _run(m, fn, lambda a: a, tol, cid)


@needs_cxx
@pytest.mark.parametrize('cid,fn,tol', WAVELET_CASES, ids=[c[0] for c in WAVELET_CASES])
def test_host_wavelets_match_scipy_1_14(cid, fn, tol):
    with host_signal_more() as m:
        _run_wavelet(m, fn, tol, cid)


@needs_cxx
@pytest.mark.parametrize('eid,fn,exc', ERRORS, ids=[e[0] for e in ERRORS])
def test_host_errors_match_scipy(eid, fn, exc):
    if not eid.startswith(('order_filter',)):
        with pytest.raises(exc):
            fn(ss)
    with host_signal_more() as m, pytest.raises(exc):
        fn(m)


# -- GPU ------------------------------------------------------------------------------------------------------
@gpu
@pytest.mark.parametrize('cid,fn,tol', CASES, ids=[c[0] for c in CASES])
def test_matches_scipy(cid, fn, tol):
    _run(csig, fn, cp.asarray, tol, cid)


@gpu
@pytest.mark.parametrize('cid,fn,tol', WAVELET_CASES, ids=[c[0] for c in WAVELET_CASES])
def test_wavelets_match_scipy_1_14(cid, fn, tol):
    _run_wavelet(csig, fn, tol, cid)


@gpu
@pytest.mark.parametrize('eid,fn,exc', ERRORS, ids=[e[0] for e in ERRORS])
def test_errors_match_scipy(eid, fn, exc):
    with pytest.raises(exc):
        fn(csig)


@gpu
@pytest.mark.parametrize('dtype', ['float32', 'float64', 'int16', 'uint8'])
@pytest.mark.parametrize('rank', [0, 2, -1])
def test_order_filter(dtype, rank):
    a = (RNG.standard_normal((9, 11)) * 20).astype(dtype)
    dom = numpy.array([[1, 0, 1], [0, 1, 0], [1, 1, 1]])
    r = rank if rank >= 0 else int(dom.sum()) - 1
    want = ss.order_filter(a, dom, r)
    got = csig.order_filter(cp.asarray(a), cp.asarray(dom), r).get()
    assert got.dtype == want.dtype
    numpy.testing.assert_array_equal(got, want)
    numpy.testing.assert_array_equal(csig.order_filter(cp.asarray(a[0]), numpy.ones(5), 2).get(),
                                     ss.order_filter(a[0], numpy.ones(5), 2))
    numpy.testing.assert_array_equal(sndi.rank_filter(a, r, footprint=dom, mode='constant'), want)


@gpu
def test_symiirorder1_many_lines():
    x = RNG.standard_normal((3000, 200)).astype(numpy.float32)
    numpy.testing.assert_allclose(csig.symiirorder1(cp.asarray(x), 0.5, 0.6).get(), ss.symiirorder1(x, 0.5, 0.6),
                                  rtol=1e-4, atol=1e-4)
