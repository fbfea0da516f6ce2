"""cuarray.scipy.ndimage: SciPy's multidimensional image processing on the GPU (CuPy's cupyx.scipy.ndimage)."""
from cuarray.scipy.ndimage._filters import (  # noqa: F401
    convolve, convolve1d, correlate, correlate1d, gaussian_filter, gaussian_filter1d, gaussian_gradient_magnitude,
    gaussian_laplace, generic_gradient_magnitude, generic_laplace, laplace, maximum_filter, maximum_filter1d,
    median_filter, minimum_filter, minimum_filter1d, percentile_filter, prewitt, rank_filter, sobel,
    uniform_filter, uniform_filter1d)
# morphology and measurements
from cuarray.scipy.ndimage._morphology import (  # noqa: F401
    binary_closing, binary_dilation, binary_erosion, binary_fill_holes, binary_hit_or_miss, binary_opening,
    binary_propagation, black_tophat, distance_transform_edt, generate_binary_structure, grey_closing, grey_dilation,
    grey_erosion, grey_opening, iterate_structure, morphological_gradient, morphological_laplace, white_tophat)
from cuarray.scipy.ndimage._measurements import (  # noqa: F401
    center_of_mass, extrema, find_objects, histogram, label, labeled_comprehension, maximum, maximum_position,
    mean, median, minimum, minimum_position, standard_deviation, sum, sum_labels, value_indices, variance)
# interpolation and Fourier filters
from cuarray.scipy.ndimage._interpolation import (  # noqa: F401
    affine_transform, map_coordinates, rotate, shift, spline_filter, spline_filter1d, zoom)
from cuarray.scipy.ndimage._fourier import (  # noqa: F401
    fourier_ellipsoid, fourier_gaussian, fourier_shift, fourier_uniform)
