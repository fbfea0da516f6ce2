"""cuarray.linalg: numpy.linalg on the GPU (cuSOLVER for decompositions and solvers), a drop-in for cupy.linalg.

Stacks of matrices (..., M, N) are accepted wherever NumPy accepts them; dtypes follow NumPy (float32/complex64
stay single precision, integers and bool compute in float64, float16 raises TypeError). Errors are
numpy.linalg.LinAlgError itself. eig/eigvals need cuSOLVER's Xgeev (CUDA >= 12.6); with an older toolkit they
compute on the host with NumPy and copy the results back.
"""
from numpy.linalg import LinAlgError  # noqa: F401 - the very class NumPy raises

from cuarray import _core

_m = _core.linalg

svd = _m.svd
svdvals = _m.svdvals
qr = _m.qr
cholesky = _m.cholesky
eigh = _m.eigh
eigvalsh = _m.eigvalsh
eig = _m.eig
eigvals = _m.eigvals
inv = _m.inv
pinv = _m.pinv
solve = _m.solve
lstsq = _m.lstsq
det = _m.det
slogdet = _m.slogdet
norm = _m.norm
matrix_norm = _m.matrix_norm
vector_norm = _m.vector_norm
cond = _m.cond
matrix_rank = _m.matrix_rank
tensorsolve = _m.tensorsolve
tensorinv = _m.tensorinv
# Products (cuBLAS and generated kernels; python/src/products.cpp).
matrix_power = _m.matrix_power
multi_dot = _m.multi_dot
matmul = _m.matmul
outer = _m.outer
tensordot = _m.tensordot
vecdot = _m.vecdot
cross = _m.cross
diagonal = _m.diagonal
trace = _m.trace
# numpy.linalg.matrix_transpose (the Array API's spelling) is the top-level one: a view with the last two axes swapped.
matrix_transpose = _core.matrix_transpose
