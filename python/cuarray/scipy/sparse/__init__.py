"""cuarray.scipy.sparse: SciPy's sparse matrices on the GPU over cuSPARSE, a drop-in for cupyx.scipy.sparse.

Formats csr, csc, coo and dia as *_matrix and *_array; values float32/64 and complex64/128 (integer and bool
input is stored as float64, float16 as float32); indices int32, int64 when sizes exceed int32. Products with
dense arrays run cuSPARSE SpMV/SpMM, in row blocks when the pool's limit leaves too little room for one shot
(Note [blocked products] in _compressed.py); sparse products run cuSPARSE SpGEMM.
"""
from cuarray.scipy.sparse._base import issparse, isspmatrix, spmatrix, sparray  # noqa: F401
from cuarray.scipy.sparse._csr import csr_matrix, csr_array, isspmatrix_csr  # noqa: F401
from cuarray.scipy.sparse._csc import csc_matrix, csc_array, isspmatrix_csc  # noqa: F401
from cuarray.scipy.sparse._coo import coo_matrix, coo_array, isspmatrix_coo  # noqa: F401
from cuarray.scipy.sparse._dia import dia_matrix, dia_array, isspmatrix_dia  # noqa: F401
from cuarray.scipy.sparse._construct import (  # noqa: F401
    eye, identity, diags, diags_array, spdiags, random, rand, vstack, hstack, bmat, block_diag, kron, kronsum,
    tril, triu, find, save_npz, load_npz)

from cuarray.scipy.sparse import linalg, csgraph  # noqa: E402,F401 - the solvers and graph routines
