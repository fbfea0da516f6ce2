"""cuarray.typing: type aliases for annotations, as cupy.typing: ``NDArray[numpy.float32]``, ``ArrayLike``,
``DTypeLike`` (and NumPy's ``NBitBase``)."""
import types
from typing import Any, TypeVar

import numpy
from numpy.typing import ArrayLike, DTypeLike, NBitBase  # noqa: F401 - NumPy's, as CuPy's are

from cuarray._core import ndarray


def _class_getitem(cls, item):
    return types.GenericAlias(cls, item)


# ``cuarray.ndarray[Any, numpy.dtype[numpy.float32]]`` in annotations, as ``numpy.ndarray[...]``.
ndarray.__class_getitem__ = classmethod(_class_getitem)

_ScalarT = TypeVar("_ScalarT", bound=numpy.generic, covariant=True)

# ``NDArray[numpy.float32]`` is ``cuarray.ndarray[Any, numpy.dtype[numpy.float32]]``.
NDArray = ndarray[Any, numpy.dtype[_ScalarT]]

__all__ = ["ArrayLike", "DTypeLike", "NBitBase", "NDArray"]
