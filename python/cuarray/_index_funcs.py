"""Index-producing and diagonal/triangle functions (diagonal, tril, indices, select, choose, ...), in C++ (_core)."""
from cuarray._core import (  # noqa: F401
    choose, diag, diagflat, diagonal, fill_diagonal, indices, ix_, nonzero, ones, ravel_multi_index, select, tril,
    tril_indices, tril_indices_from, triu, triu_indices, triu_indices_from, unravel_index)

__all__ = ["choose", "diag", "diagflat", "diagonal", "fill_diagonal", "indices", "ix_", "mask_indices",
           "ravel_multi_index", "select", "tril", "tril_indices", "tril_indices_from", "triu", "triu_indices",
           "triu_indices_from", "unravel_index"]


def mask_indices(n, mask_func, k=0):
    """Indices of the nonzero entries of ``mask_func(ones((n, n), int), k)``, as NumPy's mask_indices.

    Python by nature: ``mask_func`` is a Python callable (e.g. ``cuarray.triu``) applied to a device array.
    """
    m = ones((n, n), int)
    a = mask_func(m, k)
    return nonzero(a != 0)
