"""scipy.linalg.expm (Higham 2009 scaling and squaring with Pade approximants) and khatri_rao."""
import math

import numpy

import cuarray as _cp
from cuarray.scipy.linalg._util import LinAlgError

# Pade coefficients b_0..b_m of the [m/m] approximant to exp.
_PADE = {
    3: (120., 60., 12., 1.),
    5: (30240., 15120., 3360., 420., 30., 1.),
    7: (17297280., 8648640., 1995840., 277200., 25200., 1512., 56., 1.),
    9: (17643225600., 8821612800., 2075673600., 302702400., 30270240., 2162160., 110880., 3960., 90., 1.),
    13: (64764752532480000., 32382376266240000., 7771770303897600., 1187353796428800., 129060195264000.,
         10559470521600., 670442572800., 33522128640., 1323241920., 40840800., 960960., 16380., 182., 1.),
}
# Largest 1-norm (Higham 2009, Table 3.1, double; Higham 2005 single) for which the [m/m] approximant is exact
# to unit roundoff.
_THETA64 = ((3, 1.495585217958292e-2), (5, 2.539398330063230e-1), (7, 9.504178996162932e-1),
            (9, 2.097847961257068e0))
_THETA64_13 = 4.25
_THETA32 = ((3, 4.258730016922831e-1), (5, 1.880152677804762e0))
_THETA32_7 = 3.925724783138660e0


def _norm1(x):
    """Largest 1-norm over the stack, on the host."""
    if x.size == 0:
        return 0.0
    return float(_cp.abs(x).sum(axis=-2).max())


def _pade(A, powers, m):
    b = _PADE[m]
    eye = _cp.eye(A.shape[-1], dtype=A.dtype)
    # powers[k] = A^(2k), k >= 1
    u = b[1] * eye
    v = b[0] * eye
    for k in range(1, m // 2 + 1):
        u = u + b[2 * k + 1] * powers[k]
        v = v + b[2 * k] * powers[k]
    return _cp.matmul(A, u), v


def _pade13(A, A2, A4, A6):
    b = _PADE[13]
    eye = _cp.eye(A.shape[-1], dtype=A.dtype)
    u = _cp.matmul(A6, b[13] * A6 + b[11] * A4 + b[9] * A2)
    u = _cp.matmul(A, u + b[7] * A6 + b[5] * A4 + b[3] * A2 + b[1] * eye)
    v = _cp.matmul(A6, b[12] * A6 + b[10] * A4 + b[8] * A2)
    v = v + b[6] * A6 + b[4] * A4 + b[2] * A2 + b[0] * eye
    return u, v


def expm(A):
    """Matrix exponential of square matrices (..., n, n); integers compute in float64, float16 in float32."""
    a = _cp.asarray(A)
    if a.ndim < 2:
        raise LinAlgError('The input array must be at least two-dimensional')
    if a.shape[-1] != a.shape[-2]:
        raise LinAlgError('Last 2 dimensions of the array must be square')
    if a.shape[-2:] == (1, 1):  # SciPy's shortcut, before any dtype change
        return _cp.exp(a)
    if a.dtype.kind in 'biu':
        a = a.astype(numpy.float64)
    elif a.dtype == numpy.float16:
        a = a.astype(numpy.float32)
    elif a.dtype.kind not in 'fc' or a.dtype.itemsize > 16 or (a.dtype.kind == 'f' and a.dtype.itemsize > 8):
        raise TypeError('expm: unsupported dtype {}'.format(a.dtype))
    n = a.shape[-1]
    if a.size == 0:
        return _cp.empty(a.shape, dtype=a.dtype)
    single = a.dtype in (numpy.float32, numpy.complex64)
    A2 = _cp.matmul(a, a)
    powers = {1: A2}
    # Degree and scaling chosen for the stack as a whole, from exact norms of the powers (Higham 2009's d_k).
    if single:
        nrm = _norm1(a)
        for m, theta in _THETA32:
            if nrm <= theta:
                if m == 5:  # the [5/5] approximant needs A^4 as well
                    powers[2] = _cp.matmul(A2, A2)
                U, V = _pade(a, powers, m)
                return _cp.linalg.solve(V - U, V + U)
        s = max(0, int(math.ceil(math.log2(nrm / _THETA32_7)))) if nrm > _THETA32_7 else 0
        a = a / (2.0 ** s)
        powers = {1: A2 / (4.0 ** s)}
        powers[2] = _cp.matmul(powers[1], powers[1])
        powers[3] = _cp.matmul(powers[2], powers[1])
        U, V = _pade(a, powers, 7)
    else:
        A4 = _cp.matmul(A2, A2)
        A6 = _cp.matmul(A4, A2)
        d4 = _norm1(A4) ** 0.25
        d6 = _norm1(A6) ** (1 / 6)
        eta1 = max(d4, d6)
        powers.update({2: A4, 3: A6})
        for m, theta in _THETA64[:2]:
            if eta1 <= theta:
                U, V = _pade(a, powers, m)
                return _cp.linalg.solve(V - U, V + U)
        A8 = _cp.matmul(A4, A4)
        d8 = _norm1(A8) ** 0.125
        eta3 = max(d6, d8)
        for m, theta in _THETA64[2:]:
            if eta3 <= theta:
                powers[4] = A8
                U, V = _pade(a, powers, m)
                return _cp.linalg.solve(V - U, V + U)
        d10 = _norm1(_cp.matmul(A4, A6)) ** 0.1
        eta5 = min(eta3, max(d8, d10))
        s = max(0, int(math.ceil(math.log2(eta5 / _THETA64_13)))) if eta5 > 0 else 0
        a = a / (2.0 ** s)
        U, V = _pade13(a, A2 / (4.0 ** s), A4 / (16.0 ** s), A6 / (64.0 ** s))
    R = _cp.linalg.solve(V - U, V + U)
    for _ in range(s):
        R = _cp.matmul(R, R)
    return R


def khatri_rao(a, b):
    """Column-wise Kronecker product of (n, k) and (m, k) matrices: (n * m, k)."""
    a = _cp.asarray(a)
    b = _cp.asarray(b)
    if not (a.ndim == 2 and b.ndim == 2):
        raise ValueError('The both arrays should be 2-dimensional.')
    if a.shape[1] != b.shape[1]:
        raise ValueError('The number of columns for both arrays should be equal.')
    c = a[:, None, :] * b[None, :, :]
    return c.reshape((-1,) + c.shape[2:])
