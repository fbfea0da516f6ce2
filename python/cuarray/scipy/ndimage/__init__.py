"""cuarray.scipy.ndimage: SciPy's multidimensional image processing on the GPU (CuPy's cupyx.scipy.ndimage)."""
from cuarray.scipy.ndimage._filters import (  # noqa: F401
    convolve, convolve1d, correlate, correlate1d, gaussian_filter, gaussian_filter1d, gaussian_gradient_magnitude,
    gaussian_laplace, generic_gradient_magnitude, generic_laplace, laplace, maximum_filter, maximum_filter1d,
    median_filter, minimum_filter, minimum_filter1d, percentile_filter, prewitt, rank_filter, sobel,
    uniform_filter, uniform_filter1d)
