"""cuarray.scipy: SciPy's modules on the GPU (CuPy's cupyx.scipy); submodules load on first access."""
import importlib as _importlib

_SUBMODULES = ('sparse', 'special', 'linalg', 'fft', 'fftpack', 'ndimage', 'signal', 'stats', 'interpolate',
               'spatial')


def __getattr__(name):
    if name in _SUBMODULES:
        return _importlib.import_module('cuarray.scipy.' + name)
    raise AttributeError("module 'cuarray.scipy' has no attribute {!r}".format(name))
