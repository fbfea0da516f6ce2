"""Linear algebra over cuSOLVER"""

from typing import Any


def matrix_power(a: object, n: object) -> Any:
    """A square matrix (or stack) to an integer power."""

def multi_dot(arrays: object, *, out: object | None = None) -> Any:
    """Chained dot products in the cheapest order."""

def matmul(x1: object, x2: object) -> Any:
    """numpy.linalg.matmul."""

def outer(x1: object, x2: object) -> Any:
    """numpy.linalg.outer: outer product of two 1-D arrays."""

def tensordot(x1: object, x2: object, *, axes: object = 2) -> Any:
    """numpy.linalg.tensordot."""

def vecdot(x1: object, x2: object, *, axis: object = -1) -> Any:
    """numpy.linalg.vecdot."""

def cross(x1: object, x2: object, *, axis: object = -1) -> Any:
    """numpy.linalg.cross: 3-element vectors."""

def diagonal(x: object, *, offset: object = 0) -> Any:
    """numpy.linalg.diagonal: a view of the last two axes' diagonals."""

def trace(x: object, *, offset: object = 0, dtype: object | None = None) -> Any:
    """numpy.linalg.trace: sums of the last two axes' diagonals."""

def svd(a: object, full_matrices: bool = True, compute_uv: bool = True, hermitian: bool = False) -> Any: ...

def svdvals(x: object) -> Any: ...

def qr(a: object, mode: object = 'reduced') -> Any: ...

def cholesky(a: object, *, upper: bool = False) -> Any: ...

def eigh(a: object, UPLO: object = 'L') -> Any: ...

def eigvalsh(a: object, UPLO: object = 'L') -> Any: ...

def eig(a: object) -> Any: ...

def eigvals(a: object) -> Any: ...

def inv(a: object) -> Any: ...

def solve(a: object, b: object) -> Any: ...

def det(a: object) -> Any: ...

def slogdet(a: object) -> Any: ...

def pinv(a, rcond=None, hermitian=False, *, rtol=...): ...

def lstsq(a: object, b: object, rcond: object | None = None) -> tuple: ...

def matrix_rank(A: object, tol: object | None = None, hermitian: bool = False, *, rtol: object | None = None) -> Any: ...

def tensorsolve(a: object, b: object, axes: object | None = None) -> Any: ...

def tensorinv(a: object, ind: object = 2) -> Any: ...

def norm(x: object, ord: object | None = None, axis: object | None = None, keepdims: bool = False) -> Any: ...

def matrix_norm(x: object, *, keepdims: bool = False, ord: object | None = 'fro') -> Any: ...

def vector_norm(x: object, *, axis: object | None = None, keepdims: bool = False, ord: object | None = 2) -> Any: ...

def cond(x: object, p: object | None = None) -> Any: ...
