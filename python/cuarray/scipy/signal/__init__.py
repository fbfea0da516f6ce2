"""cuarray.scipy.signal: SciPy's signal processing on the GPU (CuPy's cupyx.scipy.signal)."""
from cuarray.scipy.signal import windows
from cuarray.scipy.signal._conv import (choose_conv_method, convolve, convolve2d, correlate, correlate2d,
                                        correlation_lags, fftconvolve, oaconvolve)
from cuarray.scipy.signal._filter import filtfilt, lfilter, lfilter_zi, sosfilt, sosfilt_zi, sosfiltfilt
from cuarray.scipy.signal._misc import (decimate, detrend, hilbert, hilbert2, medfilt, medfilt2d, resample,
                                        resample_poly, savgol_coeffs, savgol_filter, upfirdn, wiener)
from cuarray.scipy.signal.windows import get_window

__all__ = ['choose_conv_method', 'convolve', 'convolve2d', 'correlate', 'correlate2d', 'correlation_lags',
           'decimate', 'detrend', 'fftconvolve', 'filtfilt', 'get_window', 'hilbert', 'hilbert2', 'lfilter',
           'lfilter_zi', 'medfilt', 'medfilt2d', 'oaconvolve', 'resample', 'resample_poly', 'savgol_coeffs',
           'savgol_filter', 'sosfilt', 'sosfilt_zi', 'sosfiltfilt', 'upfirdn', 'wiener', 'windows']

# Spectral analysis, peak finding, waveforms, filter design and frequency responses (issue 20 item 5, the rest).
from cuarray.scipy.signal._filter_design import (BadCoefficients, band_stop_obj, bilinear, bilinear_zpk, buttap,
                                                 butter, buttord, cheb1ap, cheb1ord, cheb2ap, cheb2ord, cheby1,
                                                 cheby2, findfreqs, firwin, freqs, freqs_zpk, freqz, freqz_sos,
                                                 freqz_zpk, group_delay, iircomb, iirfilter, iirnotch, iirpeak,
                                                 kaiser_atten, kaiser_beta, kaiserord, lp2bp, lp2bp_zpk, lp2bs,
                                                 lp2bs_zpk, lp2hp, lp2hp_zpk, lp2lp, lp2lp_zpk, normalize, sos2tf,
                                                 sos2zpk, sosfreqz, tf2sos, tf2zpk, zpk2sos, zpk2tf)
from cuarray.scipy.signal._peaks import (argrelextrema, argrelmax, argrelmin, find_peaks, peak_prominences,
                                         peak_widths)
from cuarray.scipy.signal._spectral import (check_COLA, check_NOLA, coherence, csd, istft, lombscargle,
                                            periodogram, spectrogram, stft, vectorstrength, welch)
from cuarray.scipy.signal._waveforms import (chirp, gausspulse, max_len_seq, sawtooth, square, sweep_poly,
                                             unit_impulse)

__all__ += ['argrelextrema', 'argrelmax', 'argrelmin', 'band_stop_obj', 'bilinear', 'bilinear_zpk', 'buttap',
            'butter', 'buttord', 'check_COLA', 'check_NOLA', 'cheb1ap', 'cheb1ord', 'cheb2ap', 'cheb2ord', 'cheby1',
            'cheby2', 'chirp', 'coherence', 'csd', 'find_peaks', 'findfreqs', 'firwin', 'freqs', 'freqs_zpk',
            'freqz', 'freqz_sos', 'freqz_zpk', 'gausspulse', 'group_delay', 'iircomb', 'iirfilter', 'iirnotch',
            'iirpeak', 'istft', 'kaiser_atten', 'kaiser_beta', 'kaiserord', 'lombscargle', 'lp2bp', 'lp2bp_zpk',
            'lp2bs', 'lp2bs_zpk', 'lp2hp', 'lp2hp_zpk', 'lp2lp', 'lp2lp_zpk', 'max_len_seq', 'normalize',
            'peak_prominences', 'peak_widths', 'periodogram', 'sawtooth', 'sos2tf', 'sos2zpk', 'sosfreqz',
            'spectrogram', 'square', 'stft', 'sweep_poly', 'tf2sos', 'tf2zpk', 'unit_impulse', 'vectorstrength',
            'welch', 'zpk2sos', 'zpk2tf']

# Chirp z-transform, B-spline filters, more filters and SciPy 1.14's wavelets (issue 20 item 5, more names).
from cuarray.scipy.signal._bsplines import (cspline1d, cspline1d_eval, cspline2d, gauss_spline, qspline1d,
                                            qspline1d_eval, qspline2d, sepfir2d, spline_filter, symiirorder1,
                                            symiirorder2)
from cuarray.scipy.signal._czt import CZT, ZoomFFT, czt, czt_points, zoom_fft
from cuarray.scipy.signal._filters_more import deconvolve, lfiltic, order_filter
from cuarray.scipy.signal._wavelets import cwt, morlet, morlet2, qmf, ricker

__all__ += ['CZT', 'ZoomFFT', 'cspline1d', 'cspline1d_eval', 'cspline2d', 'cwt', 'czt', 'czt_points',
            'deconvolve', 'gauss_spline', 'lfiltic', 'morlet', 'morlet2', 'order_filter', 'qmf', 'qspline1d',
            'qspline1d_eval', 'qspline2d', 'ricker', 'sepfir2d', 'spline_filter', 'symiirorder1', 'symiirorder2',
            'zoom_fft']

# LTI systems, their responses and conversions, pole placement, partial fractions (issue 20 item 5, LTI names).
from cuarray.scipy.signal._lti import (StateSpace, TransferFunction, ZerosPolesGain, bode, dbode, dfreqresp,
                                       dimpulse, dlsim, dlti, dstep, freqresp, impulse, lsim, lti, step)
from cuarray.scipy.signal._lti_conversion import (abcd_normalize, cont2discrete, ss2tf, ss2zpk, tf2ss, zpk2ss)
from cuarray.scipy.signal._place_poles import place_poles
from cuarray.scipy.signal._residues import invres, invresz, residue, residuez, unique_roots

__all__ += ['StateSpace', 'TransferFunction', 'ZerosPolesGain', 'abcd_normalize', 'bode', 'cont2discrete', 'dbode',
            'dfreqresp', 'dimpulse', 'dlsim', 'dlti', 'dstep', 'freqresp', 'impulse', 'invres', 'invresz', 'lsim',
            'lti', 'place_poles', 'residue', 'residuez', 'ss2tf', 'ss2zpk', 'step', 'tf2ss', 'unique_roots',
            'zpk2ss']

# Elliptic and Bessel IIR design, iirdesign, and least-squares / frequency-sampling / minimum-phase / gammatone FIR
# design (issue 20 item 5, the last names).
from cuarray.scipy.signal._filter_design_more import (bessel, besselap, ellip, ellipap, ellipord, firls, firwin2,
                                                      gammatone, iirdesign, minimum_phase)

__all__ += ['bessel', 'besselap', 'ellip', 'ellipap', 'ellipord', 'firls', 'firwin2', 'gammatone', 'iirdesign',
            'minimum_phase']
