"""cuarray.scipy.stats: SciPy's statistical functions on the GPU (CuPy's cupyx.scipy.stats)."""
from cuarray.scipy.stats._stats import boxcox_llf, entropy, trim_mean, zmap, zscore  # NOQA
