"""cuarray.scipy.signal's spectral analysis, peak finding, waveforms and filter design against scipy.signal.

Each case runs on the GPU (marked gpu) and, without a GPU, through the host emulation (NumPy in place of cuarray,
kernels compiled for the host: _signal_host_spectral.py). The name-coverage test checks every public name of
CuPy's cupyx.scipy.signal (tests/python/data/cupyx_scipy_signal_names.txt) against cuarray.scipy.signal.
"""
import pathlib
import warnings

import numpy
import pytest
import scipy.signal as ss

import cuarray as cp
import cuarray.scipy.signal as csig
from cuarray.scipy.signal import _peaks

from _signal_host import compiler
from _signal_host_spectral import host_signal_all

gpu = pytest.mark.gpu
needs_cxx = pytest.mark.skipif(compiler() is None, reason="no host C++ compiler")
RNG = numpy.random.default_rng(20)

# CuPy names not provided yet (none now: the test keeps the list so that it stays honest if names are added).
NOT_YET = set()


def _cupy_names():
    path = pathlib.Path(__file__).parent / 'data' / 'cupyx_scipy_signal_names.txt'
    return [ln.strip() for ln in path.read_text().splitlines() if ln.strip() and not ln.startswith('#')]


def _has(mod, dotted):
    for part in dotted.split('.'):
        if not hasattr(mod, part):
            return False
        mod = getattr(mod, part)
    return True


def test_cupy_name_coverage():
    names = _cupy_names()
    assert len(names) > 150
    missing = sorted(n for n in names if n not in NOT_YET and not _has(csig, n))
    assert missing == []
    # The exclusion list only names what is really absent, so it shrinks as names arrive.
    stale = sorted(n for n in NOT_YET if _has(csig, n))
    assert stale == []


def test_peak_kernels_compile():
    from cuarray.cuda.compiler import compile_using_nvrtc
    assert len(compile_using_nvrtc(_peaks.source(), arch='80')[0]) > 0


# -- cases ---------------------------------------------------------------------------------------------------
def _rand(shape, dtype, scale=1.0):
    dt = numpy.dtype(dtype)
    v = RNG.standard_normal(shape) * scale
    if dt.kind == 'c':
        v = v + 1j * RNG.standard_normal(shape) * scale
    if dt.kind in 'iu':
        return (v * 10).astype(dt)
    return v.astype(dt)


def _tol(dt):
    return 2e-4 if numpy.dtype(dt) in (numpy.float32, numpy.complex64, numpy.int16) else 1e-8


def _cases():
    c = []
    # find_peaks: small integer signals give plateaus, ties and every condition's edge cases.
    for i in range(40):
        x = RNG.integers(0, 5, int(RNG.integers(0, 50))).astype(float)
        kw = [dict(), dict(height=1), dict(height=(1, 3)), dict(threshold=0), dict(threshold=(0, 2)),
              dict(distance=2.5), dict(distance=1), dict(prominence=1), dict(prominence=(1, 2), wlen=5),
              dict(width=1.5), dict(width=0, rel_height=1.0, wlen=7.5), dict(plateau_size=(2, 3)),
              dict(plateau_size=1, height=2, distance=3, prominence=0, width=0)][i % 13]
        c.append((f'find_peaks-{i}', lambda m, d, x=x, kw=kw: m.find_peaks(d(x), **kw), 1e-12))
    x = RNG.standard_normal(3000)
    h = numpy.full(3000, 0.5)
    c.append(('find_peaks-array-height', lambda m, d, x=x: m.find_peaks(d(x), height=(d(h), None)), 1e-12))
    c.append(('find_peaks-long', lambda m, d, x=x: m.find_peaks(d(x), distance=7, prominence=0.5, width=1), 1e-12))
    pk = ss.find_peaks(x)[0]
    for w in (None, 5, 20.5):
        c.append((f'peak_prominences-{w}', lambda m, d, w=w, x=x: m.peak_prominences(d(x), d(pk), w), 1e-12))
        for rh in (0.0, 0.5, 1.0):
            c.append((f'peak_widths-{w}-{rh}', lambda m, d, w=w, rh=rh, x=x: m.peak_widths(d(x), d(pk), rh, wlen=w),
                      1e-12))
    y = RNG.integers(0, 4, (5, 30))
    for order in (1, 3):
        for mode in ('clip', 'wrap'):
            for ax in (0, 1):
                c.append((f'argrelmax-{order}-{mode}-{ax}',
                          lambda m, d, o=order, mo=mode, a=ax: m.argrelmax(d(y), a, o, mo), 0))
                c.append((f'argrelmin-{order}-{mode}-{ax}',
                          lambda m, d, o=order, mo=mode, a=ax: m.argrelmin(d(y), a, o, mo), 0))
    c.append(('argrelextrema-ge', lambda m, d: m.argrelextrema(d(y), numpy.greater_equal, 1), 0))

    # Spectral estimators over dtypes, axes and options.
    for dt in ('float32', 'float64', 'complex64', 'complex128', 'int16'):
        x = _rand((3, 700), dt, 5)
        xt = numpy.ascontiguousarray(x.T)
        yy = _rand(700, 'float64')
        t = _tol(dt)
        for j, kw in enumerate((dict(), dict(nperseg=100, noverlap=30, nfft=128, detrend='linear',
                                              scaling='spectrum'),
                                dict(average='median', nperseg=64), dict(window='hamming', return_onesided=False,
                                                                         nperseg=50, nfft=51),
                                dict(detrend=False, window=numpy.hanning(40)))):
            c.append((f'welch-{dt}-{j}', lambda m, d, x=x, kw=kw: m.welch(d(x), **kw), t))
            c.append((f'csd-{dt}-{j}', lambda m, d, x=x, kw=kw: m.csd(d(x), d(yy), **kw), t))
        c.append((f'welch-axis0-{dt}', lambda m, d, x=xt: m.welch(d(x), axis=0, nperseg=100), t))
        if dt[0] != 'c':
            c.append((f'coherence-{dt}', lambda m, d, x=x: m.coherence(d(x), d(yy), nperseg=64), max(t, 1e-7)))
        for j, kw in enumerate((dict(), dict(nfft=1000), dict(nfft=300, window='hann', scaling='spectrum'),
                                dict(return_onesided=False))):
            c.append((f'periodogram-{dt}-{j}', lambda m, d, x=x, kw=kw: m.periodogram(d(x), **kw), t))
        for j, kw in enumerate((dict(), dict(nperseg=64, noverlap=10, mode='complex'),
                                dict(mode='magnitude', nperseg=100), dict(mode='angle', nperseg=100),
                                dict(mode='phase', nperseg=100, nfft=128),
                                dict(window='hann', scaling='spectrum', detrend='linear', nperseg=77))):
            tt = t * 10 if kw.get('mode') in ('angle', 'phase') else t
            c.append((f'spectrogram-{dt}-{j}', lambda m, d, x=x, kw=kw: m.spectrogram(d(x), **kw), tt))
            c.append((f'spectrogram-axis0-{dt}-{j}', lambda m, d, x=xt, kw=kw: m.spectrogram(d(x), axis=0, **kw),
                      tt))
        for j, kw in enumerate((dict(), dict(nperseg=64, noverlap=48, boundary='even', padded=False),
                                dict(nperseg=100, boundary='odd', scaling='psd', nfft=128),
                                dict(nperseg=33, boundary=None, window='hamming'),
                                dict(boundary='constant', nperseg=50, return_onesided=False))):
            c.append((f'stft-{dt}-{j}', lambda m, d, x=x, kw=kw: m.stft(d(x), **kw), t))
            c.append((f'stft-axis0-{dt}-{j}', lambda m, d, x=xt, kw=kw: m.stft(d(x), axis=0, **kw), t))
            ikw = {k: v for k, v in kw.items() if k in ('nperseg', 'noverlap', 'nfft', 'window', 'scaling')}
            ikw['boundary'] = kw.get('boundary', 'zeros') is not None
            ikw['input_onesided'] = kw.get('return_onesided', True) and dt[0] != 'c'
            Z = ss.stft(x, **kw)[2]
            Z0 = ss.stft(xt, axis=0, **kw)[2]
            c.append((f'istft-{dt}-{j}', lambda m, d, Z=Z, ikw=ikw: m.istft(d(Z), **ikw), t))
            c.append((f'istft-axes-{dt}-{j}',
                      lambda m, d, Z=Z0, ikw=ikw: m.istft(d(Z), time_axis=-1, freq_axis=0, **ikw), t))
    tl = numpy.sort(RNG.uniform(0, 10, 200))
    yl = numpy.sin(3 * tl) + RNG.standard_normal(200) * .1
    fl = numpy.linspace(0.1, 10, 300)
    wl = RNG.uniform(0, 1, 200)
    for j, kw in enumerate((dict(), dict(normalize=True), dict(normalize='amplitude'), dict(floating_mean=True))):
        c.append((f'lombscargle-{j}', lambda m, d, kw=kw: m.lombscargle(d(tl), d(yl), d(fl), **kw), 1e-8))
    c.append(('lombscargle-weights',
              lambda m, d: m.lombscargle(d(tl), d(yl), d(fl), weights=d(wl), floating_mean=True, normalize=True),
              1e-8))
    ev = RNG.uniform(0, 10, 50)
    c.append(('vectorstrength', lambda m, d: m.vectorstrength(d(ev), 0.7), 1e-10))
    c.append(('vectorstrength-2', lambda m, d: m.vectorstrength(d(ev), d(numpy.array([0.7, 1.3]))), 1e-10))
    for w, n, o in (('hann', 256, 128), ('boxcar', 10, 3), (('tukey', .5), 100, 40), (numpy.ones(10), 10, 7)):
        c.append((f'check_COLA-{n}-{o}', lambda m, d, w=w, n=n, o=o: (m.check_COLA(w, n, o), m.check_NOLA(w, n, o)),
                  0))

    # Filter design (host coefficients, returned as device arrays) and responses (device).
    for N in (1, 2, 5, 8):
        for bt, wn in (('low', .3), ('high', .3), ('bandpass', [.2, .5]), ('bandstop', [.2, .5])):
            for out in ('ba', 'zpk', 'sos'):
                c.append((f'butter-{N}-{bt}-{out}', lambda m, d, N=N, bt=bt, wn=wn, o=out:
                          m.butter(N, wn, bt, output=o), 1e-8))
                c.append((f'cheby1-{N}-{bt}-{out}', lambda m, d, N=N, bt=bt, wn=wn, o=out:
                          m.cheby1(N, 1, wn, bt, output=o), 1e-8))
                c.append((f'cheby2-{N}-{bt}-{out}', lambda m, d, N=N, bt=bt, wn=wn, o=out:
                          m.cheby2(N, 40, wn, bt, output=o), 1e-8))
            c.append((f'butter-analog-{N}-{bt}', lambda m, d, N=N, bt=bt, wn=wn:
                      m.butter(N, numpy.array(wn) * 10, bt, analog=True, output='zpk'), 1e-8))
            c.append((f'butter-fs-{N}-{bt}', lambda m, d, N=N, bt=bt, wn=wn:
                      m.butter(N, numpy.array(wn) * 100, bt, fs=400), 1e-8))
    b, a = ss.butter(4, .2)
    z, p, k = ss.butter(5, .3, output='zpk')
    sos = ss.butter(6, .3, output='sos')
    c += [('freqz', lambda m, d, b=b, a=a: m.freqz(d(b), d(a)), 1e-8),
          ('freqz-points', lambda m, d: m.freqz(d(b), d(a), worN=d(numpy.linspace(0, 100, 33)), fs=300), 1e-8),
          ('freqz-whole', lambda m, d: m.freqz(d(b), d(a), 64, whole=True), 1e-8),
          ('freqz-nyquist', lambda m, d: m.freqz(d(b), 1, 65, include_nyquist=True), 1e-8),
          ('freqz_zpk', lambda m, d: m.freqz_zpk(d(z), d(p), k, 100, fs=10), 1e-8),
          ('freqz_sos', lambda m, d: m.freqz_sos(d(sos), 200), 1e-8),
          ('sosfreqz', lambda m, d: m.sosfreqz(d(sos), 200, whole=True), 1e-8),
          ('group_delay', lambda m, d: m.group_delay((b, a)), 1e-8),
          ('group_delay-points', lambda m, d: m.group_delay((b, a), w=d(numpy.linspace(0, 1, 9)), fs=2), 1e-8),
          ('tf2zpk', lambda m, d: m.tf2zpk(d(b), d(a)), 1e-8),
          ('zpk2tf', lambda m, d: m.zpk2tf(d(z), d(p), k), 1e-8),
          ('zpk2sos', lambda m, d: m.zpk2sos(d(z), d(p), k), 1e-8),
          ('zpk2sos-keep_odd', lambda m, d: m.zpk2sos(d(z), d(p), k, 'keep_odd'), 1e-8),
          ('zpk2sos-minimal', lambda m, d: m.zpk2sos(d(z), d(p), k, 'minimal'), 1e-8),
          ('sos2zpk', lambda m, d: m.sos2zpk(d(sos)), 1e-8),
          ('sos2tf', lambda m, d: m.sos2tf(d(sos)), 1e-8),
          ('tf2sos', lambda m, d: m.tf2sos(d(b), d(a)), 1e-8),
          ('normalize', lambda m, d: m.normalize([0, 0, 2, 4], [2, 1]), 1e-12),
          ('bilinear', lambda m, d: m.bilinear([1, 2], [1, 3, 5], 10), 1e-10),
          ('bilinear_zpk', lambda m, d: m.bilinear_zpk([-1], [-1 + 1j, -1 - 1j], 3, 10), 1e-10),
          ('iirnotch', lambda m, d: m.iirnotch(60, 30, 1000), 1e-12),
          ('iirpeak', lambda m, d: m.iirpeak(60, 30, 1000), 1e-12),
          ('iircomb', lambda m, d: m.iircomb(50, 30, fs=1000), 1e-12),
          ('iircomb-peak', lambda m, d: m.iircomb(50, 30, 'peak', fs=1000, pass_zero=True), 1e-12),
          ('kaiserord', lambda m, d: m.kaiserord(65, .1), 1e-12),
          ('kaiser_beta', lambda m, d: [m.kaiser_beta(v) for v in (10, 30, 60)], 1e-12),
          ('kaiser_atten', lambda m, d: m.kaiser_atten(31, .2), 1e-12)]
    ba = ss.butter(3, 2.0, analog=True)
    zpa = ss.butter(3, 2.0, analog=True, output='zpk')
    c += [('freqs', lambda m, d: m.freqs(*ba), 1e-8),
          ('freqs-points', lambda m, d: m.freqs(*ba, worN=d(numpy.linspace(0.1, 10, 20))), 1e-8),
          ('freqs_zpk', lambda m, d: m.freqs_zpk(*zpa), 1e-8),
          ('findfreqs', lambda m, d: m.findfreqs(*ba, 30), 1e-8)]
    for fn in ('lp2lp', 'lp2hp'):
        c.append((fn, lambda m, d, fn=fn: getattr(m, fn)([1, 2], [1, 3, 5], 2.5), 1e-10))
        c.append((fn + '_zpk', lambda m, d, fn=fn: getattr(m, fn + '_zpk')([-1], [-1 + 1j, -1 - 1j], 3, 2.5), 1e-10))
    for fn in ('lp2bp', 'lp2bs'):
        c.append((fn, lambda m, d, fn=fn: getattr(m, fn)([1, 2], [1, 3, 5], 2.5, 0.7), 1e-10))
        c.append((fn + '_zpk', lambda m, d, fn=fn: getattr(m, fn + '_zpk')([-1], [-1 + 1j, -1 - 1j], 3, 2.5, 0.7),
                  1e-10))
    for N in (0, 1, 4, 5):
        c.append((f'buttap-{N}', lambda m, d, N=N: m.buttap(N), 1e-12))
        c.append((f'cheb1ap-{N}', lambda m, d, N=N: m.cheb1ap(N, 1.), 1e-12))
        c.append((f'cheb2ap-{N}', lambda m, d, N=N: m.cheb2ap(N, 30.), 1e-12))
    for wp, ws in ((.2, .3), (.3, .2), ([.2, .5], [.1, .6]), ([.1, .6], [.2, .5])):
        for fn in ('buttord', 'cheb1ord', 'cheb2ord'):
            c.append((f'{fn}-{wp}', lambda m, d, fn=fn, wp=wp, ws=ws: getattr(m, fn)(wp, ws, 3, 40), 1e-6))
            c.append((f'{fn}-analog-{wp}', lambda m, d, fn=fn, wp=wp, ws=ws:
                      getattr(m, fn)(numpy.array(wp) * 10, numpy.array(ws) * 10, 1, 60, analog=True), 1e-6))
    for j, kw in enumerate((dict(numtaps=31, cutoff=.3), dict(numtaps=30, cutoff=[.2, .5], pass_zero=False),
                            dict(numtaps=31, cutoff=.3, pass_zero='highpass', window='hann'),
                            dict(numtaps=41, cutoff=[10, 30], fs=100, width=5),
                            dict(numtaps=31, cutoff=[.2, .5], pass_zero='bandstop', scale=False))):
        c.append((f'firwin-{j}', lambda m, d, kw=kw: m.firwin(**kw), 1e-12))

    # Waveforms.
    t = numpy.linspace(-1, 1, 201)
    for meth in ('linear', 'quadratic', 'logarithmic', 'hyperbolic'):
        c.append((f'chirp-{meth}', lambda m, d, me=meth: m.chirp(d(t + 1.5), 1, 2, 10, me, phi=30), 1e-10))
        c.append((f'chirp-complex-{meth}', lambda m, d, me=meth: m.chirp(d(t + 1.5), 1, 2, 10, me, complex=True),
                  1e-10))
    c.append(('chirp-vertex', lambda m, d: m.chirp(d(t), 1, 2, 10, 'quadratic', vertex_zero=False), 1e-10))
    for j, w in enumerate((0, .3, 1, 1.5, numpy.linspace(-.2, 1.2, 201))):
        c.append((f'sawtooth-{j}', lambda m, d, w=w: m.sawtooth(d(t * 20), d(w) if numpy.ndim(w) else w), 1e-10))
        c.append((f'square-{j}', lambda m, d, w=w: m.square(d(t * 20), d(w) if numpy.ndim(w) else w), 1e-10))
    c.append(('sawtooth-float32', lambda m, d: m.sawtooth(d((t * 20).astype(numpy.float32)), .5), 1e-5))
    c += [('gausspulse', lambda m, d: m.gausspulse(d(t), 5, retquad=True, retenv=True), 1e-10),
          ('gausspulse-cutoff', lambda m, d: m.gausspulse('cutoff', 5), 1e-12),
          ('sweep_poly', lambda m, d: m.sweep_poly(d(t), [1, 2, 3], 10), 1e-10),
          ('sweep_poly-poly1d', lambda m, d: m.sweep_poly(d(t), numpy.poly1d([1, 2, 3])), 1e-10),
          ('unit_impulse', lambda m, d: m.unit_impulse(7), 0),
          ('unit_impulse-mid', lambda m, d: m.unit_impulse((3, 4), 'mid'), 0),
          ('unit_impulse-idx', lambda m, d: m.unit_impulse((3, 4), (1, 2), dtype=int), 0),
          ('max_len_seq-taps', lambda m, d: m.max_len_seq(5, state=[1, 0, 1, 0, 0], length=20, taps=[3, 2]), 0)]
    for nb in (2, 3, 8, 10):
        c.append((f'max_len_seq-{nb}', lambda m, d, nb=nb: m.max_len_seq(nb), 0))
    return c


CASES = _cases()


def _host(v):
    if isinstance(v, cp.ndarray):
        return v.get()
    if isinstance(v, dict):
        return {k: _host(x) for k, x in v.items()}
    if isinstance(v, (tuple, list)):
        return type(v)(_host(x) for x in v)
    return v


def _compare(got, want, tol, tag):
    if isinstance(want, dict):
        assert isinstance(got, dict) and sorted(got) == sorted(want), tag
        for k in want:
            _compare(got[k], want[k], tol, f'{tag}[{k}]')
        return
    if isinstance(want, (tuple, list)):
        assert len(got) == len(want), tag
        for i, (g, w) in enumerate(zip(got, want)):
            _compare(g, w, tol, f'{tag}[{i}]')
        return
    g, w = numpy.asarray(got), numpy.asarray(want)
    assert g.shape == w.shape, (tag, g.shape, w.shape)
    if w.dtype.kind in 'fc' and w.size:
        # dtype matters where SciPy's result dtype follows the input's (estimators, waveforms, peaks).
        assert g.dtype.kind == w.dtype.kind, (tag, g.dtype, w.dtype)
        scale = max(1.0, float(numpy.nanmax(numpy.abs(w))))
        numpy.testing.assert_allclose(g, w, rtol=tol, atol=tol * scale, err_msg=tag)
    else:
        numpy.testing.assert_array_equal(g, w, err_msg=tag)


def _run(m, fn, dev, tol, cid):
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        want = fn(ss, lambda a: a)
        got = _host(fn(m, dev))
    _compare(got, want, tol, cid)


ERRORS = [
    ('find_peaks-2d', lambda m: m.find_peaks(numpy.ones((2, 2))), ValueError),
    ('find_peaks-distance', lambda m: m.find_peaks(numpy.array([1., 2, 1]), distance=0.5), ValueError),
    ('find_peaks-height-size', lambda m: m.find_peaks(numpy.array([1., 2, 1]), height=(numpy.ones(2), None)),
     ValueError),
    ('peak_prominences-index', lambda m: m.peak_prominences(numpy.array([1., 2, 1]), numpy.array([5])), ValueError),
    ('peak_prominences-float', lambda m: m.peak_prominences(numpy.array([1., 2, 1]), numpy.array([1.0])),
     TypeError),
    ('peak_prominences-wlen', lambda m: m.peak_prominences(numpy.array([1., 2, 1]), numpy.array([1]), wlen=1),
     ValueError),
    ('peak_widths-rel', lambda m: m.peak_widths(numpy.array([1., 2, 1]), numpy.array([1]), rel_height=-1),
     ValueError),
    ('peak_widths-data', lambda m: m.peak_widths(numpy.array([1., 2, 1]), numpy.array([1]),
                                                 prominence_data=(numpy.ones(1), numpy.zeros(1, int),
                                                                  numpy.array([5]))), ValueError),
    ('argrelmax-order', lambda m: m.argrelmax(numpy.array([1, 2, 1]), order=0), ValueError),
    ('welch-nperseg', lambda m: m.welch(numpy.ones(10), nperseg=0), ValueError),
    ('welch-noverlap', lambda m: m.welch(numpy.ones(100), nperseg=10, noverlap=10), ValueError),
    ('welch-nfft', lambda m: m.welch(numpy.ones(100), nperseg=10, nfft=5), ValueError),
    ('welch-average', lambda m: m.welch(numpy.ones(100), nperseg=10, average='x'), ValueError),
    ('welch-scaling', lambda m: m.welch(numpy.ones(100), nperseg=10, scaling='x'), ValueError),
    ('csd-broadcast', lambda m: m.csd(numpy.ones((2, 100)), numpy.ones((3, 100))), ValueError),
    ('stft-boundary', lambda m: m.stft(numpy.ones(100), boundary='x'), ValueError),
    ('stft-scaling', lambda m: m.stft(numpy.ones(100), scaling='x'), ValueError),
    ('spectrogram-mode', lambda m: m.spectrogram(numpy.ones(100), mode='x'), ValueError),
    ('istft-1d', lambda m: m.istft(numpy.ones(10)), ValueError),
    ('istft-axes', lambda m: m.istft(numpy.ones((5, 5)), time_axis=0, freq_axis=0), ValueError),
    ('check_COLA', lambda m: m.check_COLA('hann', 10, 10), ValueError),
    ('check_NOLA', lambda m: m.check_NOLA('hann', 10, -1), ValueError),
    ('lombscargle-shape', lambda m: m.lombscargle(numpy.ones(3), numpy.ones(4), numpy.ones(2)), ValueError),
    ('lombscargle-normalize', lambda m: m.lombscargle(numpy.ones(3), numpy.ones(3), numpy.ones(2),
                                                      normalize='x'), ValueError),
    ('butter-wn', lambda m: m.butter(4, 1.5), ValueError),
    ('butter-btype', lambda m: m.butter(4, .5, 'x'), ValueError),
    ('butter-output', lambda m: m.butter(4, .5, output='x'), ValueError),
    ('butter-band-single', lambda m: m.butter(4, .5, 'bandpass'), ValueError),
    ('cheby1-rp', lambda m: m.iirfilter(4, .5, ftype='cheby1'), ValueError),
    ('buttap-order', lambda m: m.buttap(-1), ValueError),
    ('zpk2sos-pairing', lambda m: m.zpk2sos([1], [0.5], 1, 'x'), ValueError),
    ('zpk2sos-analog', lambda m: m.zpk2sos([1], [0.5], 1, 'nearest', analog=True), ValueError),
    ('zpk2sos-conj', lambda m: m.zpk2sos([1j], [0.5, 0.2], 1), ValueError),
    ('lp2lp_zpk-improper', lambda m: m.lp2lp_zpk([1, 2], [1], 1), ValueError),
    ('firwin-cutoff', lambda m: m.firwin(11, 1.5), ValueError),
    ('firwin-even', lambda m: m.firwin(10, .3, pass_zero=False), ValueError),
    ('firwin-pass_zero', lambda m: m.firwin(11, .3, pass_zero='x'), ValueError),
    ('kaiserord-ripple', lambda m: m.kaiserord(5, .1), ValueError),
    ('iircomb-divisible', lambda m: m.iircomb(33, 30, fs=1000), ValueError),
    ('iirnotch-w0', lambda m: m.iirnotch(600, 30, 1000), ValueError),
    ('chirp-method', lambda m: m.chirp(numpy.ones(3), 1, 2, 3, 'x'), ValueError),
    ('chirp-log', lambda m: m.chirp(numpy.ones(3), -1, 2, 3, 'log'), ValueError),
    ('gausspulse-fc', lambda m: m.gausspulse(numpy.ones(3), fc=-1), ValueError),
    ('gausspulse-str', lambda m: m.gausspulse('x'), ValueError),
    ('max_len_seq-nbits', lambda m: m.max_len_seq(40), ValueError),
    ('max_len_seq-state', lambda m: m.max_len_seq(4, state=[0, 0, 0, 0]), ValueError),
]


# -- CPU: host emulation ---------------------------------------------------------------------------------------
@needs_cxx
@pytest.mark.parametrize('cid,fn,tol', CASES, ids=[c[0] for c in CASES])
def test_host_emulation_matches_scipy(cid, fn, tol):
    with host_signal_all() as m:
        _run(m, fn, lambda a: a, tol, cid)


@needs_cxx
@pytest.mark.parametrize('eid,fn,exc', ERRORS, ids=[e[0] for e in ERRORS])
def test_host_errors_match_scipy(eid, fn, exc):
    with pytest.raises(exc):
        fn(ss)
    with host_signal_all() as m, pytest.raises(exc):
        fn(m)


@needs_cxx
def test_host_peak_warnings():
    x = numpy.array([0., 1, 1, 0, 2, 0])
    with host_signal_all() as m:
        with pytest.warns(RuntimeWarning, match='prominence of 0'):
            m.peak_prominences(x, numpy.array([0]))
        with pytest.warns(RuntimeWarning, match='width of 0'):
            m.peak_widths(x, numpy.array([4]), rel_height=0)


# -- GPU ------------------------------------------------------------------------------------------------------
@gpu
@pytest.mark.parametrize('cid,fn,tol', CASES, ids=[c[0] for c in CASES])
def test_matches_scipy(cid, fn, tol):
    _run(csig, fn, cp.asarray, tol, cid)


@gpu
@pytest.mark.parametrize('eid,fn,exc', ERRORS, ids=[e[0] for e in ERRORS])
def test_errors_match_scipy(eid, fn, exc):
    with pytest.raises(exc):
        fn(csig)


@gpu
def test_find_peaks_long_signal():
    x = numpy.sin(numpy.linspace(0, 400 * numpy.pi, 1 << 20)) + RNG.standard_normal(1 << 20) * 0.01
    got, props = csig.find_peaks(cp.asarray(x), prominence=0.5, width=10, distance=100)
    want, wprops = ss.find_peaks(x, prominence=0.5, width=10, distance=100)
    numpy.testing.assert_array_equal(got.get(), want)
    for k in wprops:
        numpy.testing.assert_allclose(props[k].get(), wprops[k], rtol=1e-10, atol=1e-10)


@gpu
def test_welch_returns_device_arrays():
    f, p = csig.welch(cp.asarray(RNG.standard_normal(1 << 16)), nperseg=1024)
    assert isinstance(f, cp.ndarray) and isinstance(p, cp.ndarray)
    ef, ep = ss.welch(RNG.standard_normal(8), nperseg=8)
    assert p.dtype == ep.dtype
