"""Sparse matrix primitives over cuSPARSE"""



def spmm(rows: int, cols: int, indptr: object, indices: object, data: object, x: object, out: object, op: str = 'N', accumulate: bool = False) -> None:
    """
    out = op(A) @ x (or out += op(A) @ x) for the CSR matrix A; x and out 1-D (SpMV) or 2-D C-contiguous (SpMM).
    """

def spmm_buffer_size(rows: int, cols: int, indptr: object, indices: object, data: object, x: object, out: object, op: str = 'N') -> int:
    """Bytes of work area cuSPARSE asks for the product spmm would run."""

def spgemm(a_rows: int, a_cols: int, a_indptr: object, a_indices: object, a_data: object, b_cols: int, b_indptr: object, b_indices: object, b_data: object) -> tuple:
    """(indptr, indices, data) of the CSR product A @ B (int32 indices)."""

def csr_transpose(rows: int, cols: int, indptr: object, indices: object, data: object) -> tuple:
    """
    (indptr, indices, data) of the CSR form of A^T (int32 indices; row indices sorted).
    """

def cusparse_path() -> str:
    """The path of the loaded cuSPARSE library (loads it)."""

def csrlsvqr(n: int, indptr: object, indices: object, data: object, b: object, x: object, tol: float = 0.0, reorder: int = 1) -> int:
    """
    Solve A x = b for the square CSR A (int32, canonical) by cuSOLVER's sparse QR, per column of the F-contiguous b (n,) or (n, k), into x; -1, or the singularity index when A is singular.
    """

def load_cusolver_sp() -> None:
    """
    Load cuSOLVER's sparse QR routines (no device needed); CUDARuntimeError naming what is missing.
    """
