"""cuarray.scipy.signal.windows: SciPy's window functions (scipy.signal.windows), as cuarray arrays."""
from cuarray.scipy.signal.windows._windows import (barthann, bartlett, blackman, blackmanharris, bohman, boxcar,
                                                   chebwin, cosine, exponential, flattop, gaussian, general_cosine,
                                                   general_gaussian, general_hamming, get_window, hamming, hann,
                                                   kaiser, lanczos, nuttall, parzen, taylor, triang, tukey)

__all__ = ['barthann', 'bartlett', 'blackman', 'blackmanharris', 'bohman', 'boxcar', 'chebwin', 'cosine',
           'exponential', 'flattop', 'gaussian', 'general_cosine', 'general_gaussian', 'general_hamming',
           'get_window', 'hamming', 'hann', 'kaiser', 'lanczos', 'nuttall', 'parzen', 'taylor', 'triang', 'tukey']

# Kaiser-Bessel derived window (issue 20 item 5).
from cuarray.scipy.signal.windows._kbd import kaiser_bessel_derived

__all__ += ['kaiser_bessel_derived']
