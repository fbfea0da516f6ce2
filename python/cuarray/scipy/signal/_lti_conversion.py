"""Conversions between LTI representations (tf, zpk, ss) and continuous-to-discrete transforms, on the host.

The matrices of a state-space model are tiny (a few states, inputs and outputs), so every routine here is
float64/complex128 NumPy on the host, as SciPy does it; results come back as cuarray arrays, as CuPy returns
them. The matrix exponential is our own (NumPy only, no SciPy at run time): Padé scaling and squaring.
"""
import math

import numpy

import cuarray as _cp
from cuarray.scipy.signal import _filter_design as _fd


def _host(a):
    return a.get() if isinstance(a, _cp.ndarray) else numpy.asarray(a)


def _dev(*arrays):
    return tuple(_cp.asarray(a) for a in arrays)


# -- matrix exponential ----------------------------------------------------------------------------------------
# Largest 1-norms for which the Padé approximant of each degree is accurate to double precision (Higham 2005).
_PADE_THETA = ((3, 1.495585217958292e-2), (5, 2.539398330063230e-1), (7, 9.504178996162932e-1),
               (9, 2.097847961257068e0))
_THETA13 = 5.371920351148152


def _pade_coeffs(m):
    f = math.factorial
    return [f(2 * m - j) * f(m) / (f(2 * m) * f(j) * f(m - j)) for j in range(m + 1)]


def _pade(A, m):
    c = _pade_coeffs(m)
    eye = numpy.eye(A.shape[0], dtype=A.dtype)
    A2 = A @ A
    even, odd = c[0] * eye, c[1] * eye
    P = eye
    for j in range(1, m // 2 + 1):
        P = P @ A2
        even = even + c[2 * j] * P
        if 2 * j + 1 <= m:
            odd = odd + c[2 * j + 1] * P
    U = A @ odd
    return numpy.linalg.solve(even - U, even + U)


def _expm(A):
    """exp(A) of a small square matrix on the host."""
    A = numpy.asarray(A)
    A = A.astype(numpy.complex128 if A.dtype.kind == 'c' else numpy.float64)
    if A.size == 0:
        return A.copy()
    nrm = numpy.linalg.norm(A, 1)
    if not numpy.isfinite(nrm):
        return numpy.full_like(A, numpy.nan)
    for m, theta in _PADE_THETA:
        if nrm <= theta:
            return _pade(A, m)
    s = max(0, int(math.ceil(math.log2(nrm / _THETA13))))
    R = _pade(A / 2.0 ** s, 13)
    for _ in range(s):
        R = R @ R
    return R


# -- representations -------------------------------------------------------------------------------------------
def _abcd_promote(matrices):
    """The one dtype of A, B, C, D and each given one converted to it, as SciPy >= 1.18 does (before, each kept its
    own dtype and the zero fills were float64): NumPy's promotion of the given ones with a weak float, so integers
    and bools become float64 while float32 stays float32; sequences count as arrays, Python scalars as weak."""
    given = [None if M is None else _host(M) if isinstance(M, _cp.ndarray) or numpy.iterable(M) else M
             for M in matrices]
    present = [M for M in given if M is not None]
    try:
        dtype = numpy.result_type(*present, 1.0)
    except ValueError:
        # Only Python scalars (no array to anchor the weak ones): NumPy's default float decides.
        dtype = numpy.result_type(*present, numpy.asarray(1.0))
    return dtype, [None if M is None else numpy.asarray(M, dtype=dtype) for M in given]


def _abcd_normalize(A=None, B=None, C=None, D=None):
    if A is None and B is None and C is None:
        raise ValueError("Dimension n is undefined for parameters A = B = C = None!")
    if B is None and D is None:
        raise ValueError("Dimension p is undefined for parameters B = D = None!")
    if C is None and D is None:
        raise ValueError("Dimension q is undefined for parameters C = D = None!")
    dtype, given = _abcd_promote((A, B, C, D))
    A, B, C, D = (numpy.atleast_2d(M) if M is not None else numpy.zeros((0, 0), dtype) for M in given)
    if max(M.ndim for M in (A, B, C, D)) > 2:
        raise ValueError("A, B, C and D must be at most 2-D.")
    n = A.shape[0] or B.shape[0] or C.shape[1] or 0
    p = B.shape[1] or D.shape[1] or 0
    q = C.shape[0] or D.shape[0] or 0
    A = numpy.zeros((n, n), dtype) if A.size == 0 else A
    B = numpy.zeros((n, p), dtype) if B.size == 0 else B
    C = numpy.zeros((q, n), dtype) if C.size == 0 else C
    D = numpy.zeros((q, p), dtype) if D.size == 0 else D
    for name, M, shape in (('A', A, (n, n)), ('B', B, (n, p)), ('C', C, (q, n)), ('D', D, (q, p))):
        if M.shape != shape:
            raise ValueError(f"Parameter {name} has shape {M.shape} but should be ({shape[0]}, {shape[1]})!")
    return A, B, C, D


def abcd_normalize(A=None, B=None, C=None, D=None):
    """Check state-space matrices and give missing ones zeros of the right shape (scipy.signal.abcd_normalize)."""
    return _dev(*_abcd_normalize(A, B, C, D))


def _tf2ss(num, den):
    # Controller canonical form: the state holds U(s)/den(s) and its derivatives.
    num, den = _fd._normalize(num, den)
    if num.ndim == 1:
        num = num[numpy.newaxis, :]
    M, K = num.shape[1], len(den)
    if M > K:
        raise ValueError("Improper transfer function. `num` is longer than `den`.")
    if M == 0 or K == 0:
        e = numpy.array([], float)
        return e, e.copy(), e.copy(), e.copy()
    num = numpy.hstack((numpy.zeros((num.shape[0], K - M), dtype=num.dtype), num))
    D = numpy.atleast_2d(num[:, 0]) if num.shape[-1] > 0 else numpy.array([[0]], float)
    if K == 1:
        D = D.reshape(num.shape)
        return numpy.zeros((1, 1)), numpy.zeros((1, D.shape[1])), numpy.zeros((D.shape[0], 1)), D
    A = numpy.vstack((-numpy.asarray(den[1:])[numpy.newaxis, :], numpy.eye(K - 2, K - 1)))
    B = numpy.eye(K - 1, 1)
    C = num[:, 1:] - numpy.outer(num[:, 0], den[1:])
    return A, B, C, D.reshape((C.shape[0], B.shape[1]))


def tf2ss(num, den):
    """State-space form (controller canonical) of a transfer function (scipy.signal.tf2ss)."""
    return _dev(*_tf2ss(num, den))


def _ss2tf(A, B, C, D, input=0):
    # H(s) = C (sI - A)^-1 B + D; each output's numerator is det(sI - A + B C_k) + (D_k - 1) det(sI - A).
    A, B, C, D = _abcd_normalize(A, B, C, D)
    nout, nin = D.shape
    if input >= nin:
        raise ValueError("System does not have the input specified.")
    B = B[:, input:input + 1]
    D = D[:, input:input + 1]
    try:
        den = numpy.poly(A)
    except ValueError:
        den = 1
    if B.size == 0 and C.size == 0:
        num = numpy.ravel(D)
        if D.size == 0 and A.size == 0:
            den = []
        return num, den
    n = A.shape[0]
    dtype = (A[:, 0] + B[:, 0] + C[0, :] + D + 0.0).dtype
    num = numpy.empty((nout, n + 1), dtype)
    for k in range(nout):
        num[k] = numpy.poly(A - B @ numpy.atleast_2d(C[k, :])) + (D[k] - 1) * den
    return num, den


def ss2tf(A, B, C, D, input=0):
    """Transfer function of one input of a state-space system (scipy.signal.ss2tf)."""
    num, den = _ss2tf(A, B, C, D, input)
    return _cp.asarray(num), _cp.asarray(numpy.asarray(den, dtype=float) if isinstance(den, list) else den)


def _zpk2ss(z, p, k):
    return _tf2ss(*_fd._zpk2tf(z, p, k))


def zpk2ss(z, p, k):
    """State-space form of a zeros-poles-gain system (scipy.signal.zpk2ss)."""
    return _dev(*_zpk2ss(z, p, k))


def _ss2zpk(A, B, C, D, input=0):
    return _fd._tf2zpk(*_ss2tf(A, B, C, D, input))


def ss2zpk(A, B, C, D, input=0):
    """Zeros, poles and gain of one input of a state-space system (scipy.signal.ss2zpk)."""
    z, p, k = _ss2zpk(A, B, C, D, input)
    return _cp.asarray(z), _cp.asarray(p), k


# -- continuous to discrete ------------------------------------------------------------------------------------
def _c2d_ss(a, b, c, d, dt, method, alpha):
    a, b, c, d = (numpy.atleast_2d(_host(M)) for M in (a, b, c, d))
    if method == 'gbt':
        if alpha is None:
            raise ValueError("Alpha parameter must be specified for the generalized bilinear transform (gbt) "
                             "method")
        if alpha < 0 or alpha > 1:
            raise ValueError("Alpha parameter must be within the interval [0,1] for the gbt method")
    if method in ('bilinear', 'tustin'):
        return _c2d_ss(a, b, c, d, dt, 'gbt', 0.5)
    if method in ('euler', 'forward_diff'):
        return _c2d_ss(a, b, c, d, dt, 'gbt', 0.0)
    if method == 'backward_diff':
        return _c2d_ss(a, b, c, d, dt, 'gbt', 1.0)
    n = a.shape[0]
    if method == 'gbt':
        # (I - alpha dt A) x[k+1] = (I + (1 - alpha) dt A) x[k] + dt B u[k], outputs read at the same point.
        ima = numpy.eye(n) - alpha * dt * a
        ad = numpy.linalg.solve(ima, numpy.eye(n) + (1.0 - alpha) * dt * a)
        bd = numpy.linalg.solve(ima, dt * b)
        cd = numpy.linalg.solve(ima.T, c.T).T
        dd = d + alpha * (c @ bd)
    elif method == 'zoh':
        m = b.shape[1]
        em = numpy.zeros((n + m, n + m), dtype=numpy.result_type(a, b, float))
        em[:n, :n], em[:n, n:] = a, b
        ms = _expm(dt * em)[:n]
        ad, bd, cd, dd = ms[:, :n], ms[:, n:], c, d
    elif method == 'foh':
        # exp([[A dt, B dt, 0], [0, 0, I], [0, 0, 0]]) holds Ad, the step and the ramp responses in its top rows.
        m = b.shape[1]
        em = numpy.zeros((n + 2 * m, n + 2 * m), dtype=numpy.result_type(a, b, float))
        em[:n, :n], em[:n, n:n + m] = a * dt, b * dt
        em[n:n + m, n + m:] = numpy.eye(m)
        ms = _expm(em)
        m11, m12, m13 = ms[:n, :n], ms[:n, n:n + m], ms[:n, n + m:]
        ad, bd, cd, dd = m11, m12 - m13 + m11 @ m13, c, d + c @ m13
    elif method == 'impulse':
        if not numpy.allclose(d, 0):
            raise ValueError("Impulse method is only applicable to strictly proper systems")
        ad = _expm(a * dt)
        bd = ad @ b * dt
        cd, dd = c, c @ b * dt
    else:
        raise ValueError(f"Unknown transformation method '{method}'")
    return ad, bd, cd, dd


def _cont2discrete(system, dt, method='zoh', alpha=None):
    """Host arrays of the discretised system, without dt."""
    if len(system) == 2:
        return _ss2tf(*_c2d_ss(*_tf2ss(system[0], system[1]), dt, method, alpha))
    if len(system) == 3:
        return _ss2zpk(*_c2d_ss(*_zpk2ss(system[0], system[1], system[2]), dt, method, alpha))
    if len(system) == 4:
        return _c2d_ss(*system, dt, method, alpha)
    raise ValueError("First argument must either be a tuple of 2 (tf), 3 (zpk), or 4 (ss) arrays.")


def cont2discrete(system, dt, method="zoh", alpha=None):
    """Discretise a continuous-time system (scipy.signal.cont2discrete): zoh, foh, impulse, gbt, bilinear/tustin,
    euler/forward_diff, backward_diff."""
    if hasattr(system, 'to_discrete') and callable(system.to_discrete):
        return system.to_discrete(dt=dt, method=method, alpha=alpha)
    res = _cont2discrete(system, dt, method, alpha)
    return tuple(v if numpy.isscalar(v) else _cp.asarray(v) for v in res) + (dt,)
