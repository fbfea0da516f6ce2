"""cuarray.scipy.sparse.linalg: scipy.sparse.linalg on the GPU (a drop-in for cupyx.scipy.sparse.linalg).

Iterative solvers (cg, cgs, gmres, minres, lsqr, lsmr), eigsh/svds, expm_multiply, norm/onenormest and the
LinearOperator algebra run on the device over sparse matrices, dense cuarray arrays and operators;
spsolve_triangular is one device kernel; spsolve factorises on the device by cuSOLVER's sparse QR (Note [spsolve
by sparse QR]). splu/spilu/factorized factorise with SciPy's SuperLU on the host and solve on the device
(Note [sparse LU on the host] in _solve.py).
"""
from numpy.linalg import LinAlgError  # noqa: F401

from cuarray.scipy.sparse.linalg._interface import LinearOperator, aslinearoperator  # noqa: F401
from cuarray.scipy.sparse.linalg._iterative import cg, cgs, gmres, minres  # noqa: F401
from cuarray.scipy.sparse.linalg._lsq import lsmr, lsqr  # noqa: F401
from cuarray.scipy.sparse.linalg._norm import norm, onenormest  # noqa: F401
from cuarray.scipy.sparse.linalg._eigen import eigsh, svds  # noqa: F401
from cuarray.scipy.sparse.linalg._expm import expm_multiply  # noqa: F401
from cuarray.scipy.sparse.linalg._solve import (  # noqa: F401
    SuperLU, factorized, spilu, splu, spsolve, spsolve_triangular)

__all__ = ["LinearOperator", "SuperLU", "aslinearoperator", "cg", "cgs", "eigsh", "expm_multiply", "factorized",
           "gmres", "lsmr", "lsqr", "minres", "norm", "onenormest", "spilu", "splu", "spsolve",
           "spsolve_triangular", "svds"]
