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
