"""expm_multiply: the action exp(t A) B by Al-Mohy and Higham's truncated Taylor method (SciPy's algorithm)."""
import math

import numpy

import cuarray as cp
from cuarray.scipy.sparse.linalg._interface import LinearOperator, aslinearoperator, issparse

# Al-Mohy and Higham (2011), Table 3.1: theta_m for a backward error of 2^-53.
_THETA = {1: 2.29e-16, 2: 2.58e-8, 3: 1.39e-5, 4: 3.40e-4, 5: 2.40e-3, 6: 9.07e-3, 7: 2.38e-2, 8: 5.00e-2,
          9: 8.96e-2, 10: 1.44e-1, 11: 2.14e-1, 12: 3.00e-1, 13: 4.00e-1, 14: 5.14e-1, 15: 6.41e-1, 16: 7.81e-1,
          17: 9.31e-1, 18: 1.09, 19: 1.26, 20: 1.44, 21: 1.62, 22: 1.82, 23: 2.01, 24: 2.22, 25: 2.43, 26: 2.64,
          27: 2.86, 28: 3.08, 29: 3.31, 30: 3.54, 35: 4.7, 40: 6.0, 45: 7.2, 50: 8.5, 55: 9.9}
_TOL = 2.0 ** -53


def _exact_1_norm(A):
    if issparse(A):
        from cuarray.scipy.sparse.linalg._norm import norm
        return float(norm(A, 1))
    if isinstance(A, cp.ndarray):
        return float(cp.abs(A).sum(axis=0).max()) if A.size else 0.0
    from cuarray.scipy.sparse.linalg._norm import onenormest
    return float(onenormest(A))


def _inf_norm(X):
    if X.size == 0:
        return 0.0
    a = cp.abs(X)
    return float(a.sum(axis=1).max() if X.ndim == 2 else a.max())


def _trace(A):
    if issparse(A) or isinstance(A, cp.ndarray):
        return A.diagonal().sum().item()
    return None


class _NormInfo:
    """Exact ||A||_1 and lazily estimated d_p = ||A^p||_1^(1/p) of t*A (the quantities of Section 3)."""

    def __init__(self, A, A_1_norm, scale=1.0, ell=2):
        self.A, self.A1, self.scale, self.ell, self._d = A, A_1_norm, scale, ell, {}

    def onenorm(self):
        return self.scale * self.A1

    def d(self, p):
        if p not in self._d:
            from cuarray.scipy.sparse.linalg._norm import onenormest
            est = onenormest(aslinearoperator(self.A) ** p, t=self.ell)
            self._d[p] = float(est) ** (1.0 / p)
        return self.scale * self._d[p]

    def alpha(self, p):
        return max(self.d(p), self.d(p + 1))


def _p_max(m_max):
    lo, hi = int(math.floor(math.sqrt(m_max))), int(math.ceil(math.sqrt(m_max) + 1))
    return max(p for p in range(lo, hi + 1) if p * (p - 1) <= m_max + 1)


def _fragment_3_1(info, n0, m_max=55, ell=2):
    """(m*, s): the Taylor degree and number of scaling steps of least cost (code fragment 3.1)."""
    best_m = best_s = None
    p_max = _p_max(m_max)
    if info.onenorm() <= 2 * ell * p_max * (p_max + 3) * _THETA[m_max] / float(n0 * m_max):
        for m, theta in _THETA.items():
            s = int(math.ceil(info.onenorm() / theta))
            if best_m is None or m * s < best_m * best_s:
                best_m, best_s = m, s
    else:
        for p in range(2, p_max + 1):
            for m in range(p * (p - 1) - 1, m_max + 1):
                if m in _THETA:
                    s = int(math.ceil(info.alpha(p) / _THETA[m]))
                    if best_m is None or m * s < best_m * best_s:
                        best_m, best_s = m, s
        best_s = max(best_s, 1)
    return best_m, best_s


def _core(A, B, t, mu, m_star, s):
    F = B
    eta = math.exp(t * mu / s) if not isinstance(mu, complex) else numpy.exp(t * mu / s)
    for _ in range(s):
        c1 = _inf_norm(B)
        for j in range(m_star):
            B = (t / (s * (j + 1))) * cp.asarray(A.dot(B))
            c2 = _inf_norm(B)
            F = F + B
            if c1 + c2 <= _TOL * _inf_norm(F):
                break
            c1 = c2
        F = eta * F
        B = F
    return F


def expm_multiply(A, B, start=None, stop=None, num=None, endpoint=None, traceA=None):
    """exp(t A) @ B without forming exp(t A): for t = 1 when start/stop/num/endpoint are None, else for each of
    ``numpy.linspace(start, stop, num, endpoint)`` (result stacked on a new first axis). A: square sparse, dense
    or LinearOperator (then ``traceA`` should be given; it is estimated otherwise); B: (n,) or (n, k)."""
    if all(arg is None for arg in (start, stop, num, endpoint)):
        return _simple(A, B, 1.0, traceA)
    return _interval(A, B, start, stop, num, endpoint, traceA)


def _prepare(A, B, traceA):
    if len(A.shape) != 2 or A.shape[0] != A.shape[1]:
        raise ValueError("expected A to be like a square matrix")
    if not isinstance(B, cp.ndarray):
        raise TypeError(f"B must be a cuarray.ndarray, got {type(B).__name__}")
    if A.shape[1] != B.shape[0]:
        raise ValueError(f"shapes of matrices A {A.shape} and B {B.shape} are incompatible")
    if B.ndim not in (1, 2):
        raise ValueError("expected B to be like a matrix or a vector")
    n0 = 1 if B.ndim == 1 else B.shape[1]
    n = A.shape[0]
    is_op = isinstance(A, LinearOperator)
    if traceA is None:
        if is_op:
            import warnings
            warnings.warn("Trace of LinearOperator not available, it will be estimated. Provide `traceA` to "
                          "ensure performance.", stacklevel=3)
            traceA = _trace_estimate(A)
        else:
            traceA = _trace(A)
    mu = traceA / float(n) if n else 0.0
    if isinstance(mu, complex) and mu.imag == 0:
        mu = mu.real
    if is_op:
        from cuarray.scipy.sparse.linalg._interface import IdentityOperator
        Ash = A - mu * IdentityOperator((n, n), dtype=A.dtype)
        A1 = _exact_1_norm(Ash)
        Aop = Ash
    else:
        if issparse(A):
            from cuarray.scipy import sparse
            Ash = A - mu * sparse.identity(n, dtype=numpy.result_type(A.dtype, type(mu)), format="csr")
        else:
            Ash = A - mu * cp.eye(n, dtype=numpy.result_type(A.dtype, type(mu)))
        A1 = _exact_1_norm(Ash)
        Aop = Ash
    return Aop, n0, mu, A1


def _trace_estimate(A, m3=5):
    # Hutchinson's estimator with Rademacher vectors (SciPy's traceest with m3 samples).
    n = A.shape[0]
    rng = numpy.random.default_rng()
    Z = cp.asarray((rng.integers(0, 2, (n, m3)) * 2 - 1).astype(A.dtype or numpy.float64))
    return complex(cp.sum(Z.conj() * cp.asarray(A.matmat(Z)))).real / m3


def _simple(A, B, t, traceA):
    Aop, n0, mu, A1 = _prepare(A, B, traceA)
    if t * A1 == 0:
        m_star, s = 0, 1
    else:
        m_star, s = _fragment_3_1(_NormInfo(Aop, A1, scale=t), n0)
    out = _core(Aop, B, t, mu, m_star, s)
    dt = numpy.result_type(A.dtype or numpy.float64, B.dtype, numpy.float64)
    return out.astype(dt, copy=False)


def _interval(A, B, start, stop, num, endpoint, traceA):
    Aop, n0, mu, A1 = _prepare(A, B, traceA)
    kwargs = {"retstep": True}
    if num is not None:
        kwargs["num"] = num
    if endpoint is not None:
        kwargs["endpoint"] = endpoint
    samples, h = numpy.linspace(start, stop, **kwargs)
    if len(samples) < 2:
        raise ValueError("at least two time points are required")
    q = len(samples) - 1
    dt = numpy.result_type(A.dtype or numpy.float64, B.dtype, numpy.float64)
    X = cp.empty((len(samples),) + B.shape, dtype=dt)
    t0 = float(samples[0])
    tspan = float(samples[q]) - t0
    info = _NormInfo(Aop, A1, scale=abs(tspan))
    if tspan * A1 == 0:
        m0, s0 = 0, 1
    else:
        m0, s0 = _fragment_3_1(info, n0)
    X[0] = _core(Aop, B, t0, mu, m0, s0)
    # Each later point from the previous one: X[k+1] = exp(h A) X[k], with the degree and scaling chosen for h.
    info.scale = abs(float(h))
    if float(h) * A1 == 0:
        m_star, s = 0, 1
    else:
        m_star, s = _fragment_3_1(info, n0)
    for k in range(q):
        X[k + 1] = _core(Aop, X[k], float(h), mu, m_star, s)
    return X
