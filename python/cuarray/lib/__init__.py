"""cuarray.lib: NumPy's ``numpy.lib`` submodules that cuarray has (``stride_tricks``)."""
from cuarray.lib import stride_tricks  # noqa: F401

__all__ = ["stride_tricks"]
