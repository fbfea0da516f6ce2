"""Compressed sparse row matrices: csr_matrix and csr_array."""
from cuarray.scipy.sparse import _base
from cuarray.scipy.sparse._compressed import _compressed


class _csr_base(_compressed):
    format = 'csr'

    def tocsr(self, copy=False):
        return self.copy() if copy else self

    def tocsc(self, copy=False):
        data, indices, indptr = self._transposed_arrays()
        return _base._cls('csc', self._is_array)._from_arrays(
            data, indices, indptr, self._shape, True if self._canonical else None)  # duplicates survive the transpose


class csr_matrix(_csr_base, _base.spmatrix):
    """Compressed sparse row matrix (scipy.sparse.csr_matrix on the GPU)."""


class csr_array(_csr_base, _base.sparray):
    """Compressed sparse row array (scipy.sparse.csr_array on the GPU)."""
    _is_array = True


_base._classes[('csr', False)] = csr_matrix
_base._classes[('csr', True)] = csr_array


def isspmatrix_csr(x):
    """Whether `x` is a csr_matrix."""
    return isinstance(x, csr_matrix)
