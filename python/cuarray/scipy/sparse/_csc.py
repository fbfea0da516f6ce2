"""Compressed sparse column matrices: csc_matrix and csc_array."""
from cuarray.scipy.sparse import _base
from cuarray.scipy.sparse._compressed import _compressed


class _csc_base(_compressed):
    format = 'csc'

    def tocsc(self, copy=False):
        return self.copy() if copy else self

    def tocsr(self, copy=False):
        data, indices, indptr = self._transposed_arrays()
        return _base._cls('csr', self._is_array)._from_arrays(
            data, indices, indptr, self._shape, True if self._canonical else None)  # duplicates survive the transpose


class csc_matrix(_csc_base, _base.spmatrix):
    """Compressed sparse column matrix (scipy.sparse.csc_matrix on the GPU)."""


class csc_array(_csc_base, _base.sparray):
    """Compressed sparse column array (scipy.sparse.csc_array on the GPU)."""
    _is_array = True


_base._classes[('csc', False)] = csc_matrix
_base._classes[('csc', True)] = csc_array


def isspmatrix_csc(x):
    """Whether `x` is a csc_matrix."""
    return isinstance(x, csc_matrix)
