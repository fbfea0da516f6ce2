"""cuarray.scipy.linalg: scipy.linalg on the GPU (cuSOLVER/cuBLAS), a drop-in for cupyx.scipy.linalg.

SciPy is the specification: signatures, dtypes (float16 and small integers compute in float32, larger integers
in float64), check_finite, LinAlgError/LinAlgWarning, batching over leading axes. Differences: overwrite_* and
lwork are accepted and ignored; qr(pivoting=True) computes on the host with SciPy (cuSOLVER has no pivoted QR);
exact=True pascal/invpascal/invhilbert beyond int64/uint64 raise ValueError (SciPy returns object arrays);
lapack_driver/driver pick nothing (cuSOLVER chooses); zero-size batches are accepted.
"""
from cuarray.scipy.linalg._util import LinAlgError, LinAlgWarning  # noqa: F401
from cuarray.scipy.linalg._decomp import (  # noqa: F401
    cho_factor, cho_solve, cholesky, det, eigh, eigvalsh, inv, lstsq, lu, lu_factor, lu_solve, norm, pinv, pinvh,
    qr, solve, solve_triangular, svd, svdvals)
from cuarray.scipy.linalg._matfuncs import expm, khatri_rao  # noqa: F401
from cuarray.scipy.linalg._special_matrices import (  # noqa: F401
    bandwidth, block_diag, circulant, companion, convolution_matrix, dft, fiedler, fiedler_companion, hadamard,
    hankel, helmert, hilbert, invhilbert, invpascal, kron, leslie, pascal, toeplitz, tri, tril, triu)
