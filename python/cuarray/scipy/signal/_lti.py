"""Linear time-invariant systems (lti, dlti and their tf/zpk/ss forms) and their time and frequency responses.

A system's coefficients are a handful of numbers: conversions run on the host (_lti_conversion.py) and the
objects hold cuarray arrays, as CuPy's do. Time responses over long inputs run on the device: see
Note [state-space block scan]. Frequency responses use the module's device freqs/freqz.
"""
import copy

import numpy

import cuarray as _cp
from cuarray.scipy.signal import _filter_design as _fd
from cuarray.scipy.signal import _lti_conversion as _conv


def _host(a):
    return a.get() if isinstance(a, _cp.ndarray) else numpy.asarray(a)


def _dev(a):
    return a if isinstance(a, _cp.ndarray) else _cp.asarray(a)


def _mm(a, b):
    """a (device) @ b (host matrix) in their common inexact dtype; both operands cast, as GEMM needs one dtype."""
    dt = numpy.result_type(a.dtype, b.dtype, numpy.float64)
    return _cp.matmul(a.astype(dt, copy=False), _cp.asarray(numpy.ascontiguousarray(b, dtype=dt)))


# -- Note [state-space block scan] ------------------------------------------------------------------------------
# A time response is the recurrence x[k] = x[k-1] @ M + w[k-1] (row vectors; M is A^T of the discrete system,
# w the input's contribution). A loop over samples would launch kernels per sample, so the samples are cut into
# blocks of L. Inside block b, whose first state is s_b,
#     x[bL + j] = s_b @ M^j + sum_{i<j} w[bL + i] @ M^(j-1-i),
# which for all blocks at once is two matrix products: S @ P with P = [M^0 .. M^(L-1)] and W_blocks @ T with T
# the block-Toeplitz matrix of powers. The block starts obey the same recurrence with M^L in place of M and the
# blocks' end states from zero (W_blocks @ G, G = [M^(L-1) .. M^0] stacked) as forcing, so they come from the
# same routine, recursively, on a problem L times shorter, down to a single block. Everything on the device is a
# GEMM; the host only forms the powers of M (n x n, n states). L*n is kept near 256 so that the Toeplitz product,
# L times the work of the sequential recurrence, stays cheap next to its gain in parallelism.
def _block_len(n):
    return int(max(2, min(256, 256 // max(n, 1))))


def _scan(M, W, x0, dtype):
    """States x[0..N-1] (device, (N, n)) of x[k] = x[k-1] @ M + W[k-1], x[0] = x0; W is (N-1, n) on device."""
    n = M.shape[0]
    N = W.shape[0] + 1
    x0 = numpy.asarray(x0, dtype=dtype).reshape(n)
    if N == 1 or n == 0:
        return _cp.zeros((N, n), dtype=dtype) + _cp.asarray(x0.reshape(1, n))
    L = _block_len(n)
    nb = -(-N // L)
    pw = [numpy.eye(n, dtype=dtype)]
    for _ in range(L):
        pw.append(pw[-1] @ M)
    P = numpy.hstack(pw[:L])
    T = numpy.zeros((L * n, L * n), dtype=dtype)
    for i in range(L):
        for j in range(i + 1, L):
            T[i * n:(i + 1) * n, j * n:(j + 1) * n] = pw[j - 1 - i]
    G = numpy.vstack(pw[L - 1::-1])
    W = W.astype(dtype, copy=False)
    pad = nb * L - (N - 1)
    Wb = _cp.concatenate([W, _cp.zeros((pad, n), dtype=dtype)], axis=0).reshape(nb, L * n)
    if nb == 1:
        S = _cp.asarray(x0.reshape(1, n))
    else:
        S = _scan(pw[L], _cp.matmul(Wb[:nb - 1], _cp.asarray(G)), x0, dtype)
    X = _cp.matmul(S, _cp.asarray(P)) + _cp.matmul(Wb, _cp.asarray(T))
    return X.reshape(nb * L, n)[:N]


# -- system classes --------------------------------------------------------------------------------------------
class LinearTimeInvariant:
    """Base of lti and dlti (scipy.signal's LinearTimeInvariant); not for direct use."""

    def __new__(cls, *system, **kwargs):
        if cls is LinearTimeInvariant:
            raise NotImplementedError('The LinearTimeInvariant class is not meant to be used directly, use `lti` '
                                      'or `dlti` instead.')
        return super().__new__(cls)

    def __init__(self):
        super().__init__()
        self.inputs = None
        self.outputs = None
        self._dt = None

    @property
    def dt(self):
        """Sampling time of a discrete system; None for a continuous one."""
        return self._dt

    @property
    def _dt_dict(self):
        return {} if self.dt is None else {'dt': self.dt}

    @property
    def zeros(self):
        """Zeros of the system."""
        return self.to_zpk().zeros

    @property
    def poles(self):
        """Poles of the system."""
        return self.to_zpk().poles

    def _as_ss(self):
        return self if isinstance(self, StateSpace) else self.to_ss()

    def _as_zpk(self):
        return self if isinstance(self, ZerosPolesGain) else self.to_zpk()

    def _as_tf(self):
        return self if isinstance(self, TransferFunction) else self.to_tf()

    def _clone(self):
        # Arrays are copied on the device; the other attributes (dt, counts, gain) are immutable or copied.
        new = object.__new__(type(self))
        for k, v in self.__dict__.items():
            new.__dict__[k] = v.copy() if isinstance(v, _cp.ndarray) else copy.deepcopy(v)
        return new


class lti(LinearTimeInvariant):
    """Continuous-time LTI system (scipy.signal.lti): lti(num, den), lti(z, p, k) or lti(A, B, C, D)."""

    def __new__(cls, *system):
        if cls is lti:
            kinds = {2: TransferFunctionContinuous, 3: ZerosPolesGainContinuous, 4: StateSpaceContinuous}
            if len(system) not in kinds:
                raise ValueError("`system` needs to be an instance of `lti` or have 2, 3 or 4 arguments.")
            k = kinds[len(system)]
            return k.__new__(k, *system)
        return super().__new__(cls)

    def __init__(self, *system):
        super().__init__(*system)

    def impulse(self, X0=None, T=None, N=None):
        """Impulse response (see impulse)."""
        return impulse(self, X0=X0, T=T, N=N)

    def step(self, X0=None, T=None, N=None):
        """Step response (see step)."""
        return step(self, X0=X0, T=T, N=N)

    def output(self, U, T, X0=None):
        """Response to input U (see lsim)."""
        return lsim(self, U, T, X0=X0)

    def bode(self, w=None, n=100):
        """Bode magnitude and phase (see bode)."""
        return bode(self, w=w, n=n)

    def freqresp(self, w=None, n=10000):
        """Frequency response (see freqresp)."""
        return freqresp(self, w=w, n=n)

    def to_discrete(self, dt, method='zoh', alpha=None):
        """Discretised system (see cont2discrete)."""
        raise NotImplementedError('to_discrete is not implemented for this system class.')


class dlti(LinearTimeInvariant):
    """Discrete-time LTI system (scipy.signal.dlti): dlti(num, den, dt=...), dlti(z, p, k, dt=...) or
    dlti(A, B, C, D, dt=...); dt defaults to True (unspecified sampling time)."""

    def __new__(cls, *system, **kwargs):
        if cls is dlti:
            kinds = {2: TransferFunctionDiscrete, 3: ZerosPolesGainDiscrete, 4: StateSpaceDiscrete}
            if len(system) not in kinds:
                raise ValueError("`system` needs to be an instance of `dlti` or have 2, 3 or 4 arguments.")
            k = kinds[len(system)]
            return k.__new__(k, *system, **kwargs)
        return super().__new__(cls)

    def __init__(self, *system, **kwargs):
        dt = kwargs.pop('dt', True)
        super().__init__(*system, **kwargs)
        self.dt = dt

    @property
    def dt(self):
        """Sampling time."""
        return self._dt

    @dt.setter
    def dt(self, dt):
        self._dt = dt

    def impulse(self, x0=None, t=None, n=None):
        """Impulse response (see dimpulse)."""
        return dimpulse(self, x0=x0, t=t, n=n)

    def step(self, x0=None, t=None, n=None):
        """Step response (see dstep)."""
        return dstep(self, x0=x0, t=t, n=n)

    def output(self, u, t, x0=None):
        """Response to input u (see dlsim)."""
        return dlsim(self, u, t, x0=x0)

    def bode(self, w=None, n=100):
        """Bode magnitude and phase (see dbode)."""
        return dbode(self, w=w, n=n)

    def freqresp(self, w=None, n=10000, whole=False):
        """Frequency response (see dfreqresp)."""
        return dfreqresp(self, w=w, n=n, whole=whole)


class TransferFunction(LinearTimeInvariant):
    """LTI system as a transfer function num/den (scipy.signal.TransferFunction); continuous unless dt is
    given."""

    def __new__(cls, *system, **kwargs):
        if len(system) == 1 and isinstance(system[0], LinearTimeInvariant):
            return system[0].to_tf()
        if cls is TransferFunction:
            k = TransferFunctionContinuous if kwargs.get('dt') is None else TransferFunctionDiscrete
            return k.__new__(k, *system, **kwargs)
        return super().__new__(cls)

    def __init__(self, *system, **kwargs):
        if isinstance(system[0], LinearTimeInvariant):
            return
        super().__init__(**kwargs)
        self._num = None
        self._den = None
        num, den = _fd._normalize(*system)
        self.num, self.den = num, den

    def __repr__(self):
        return f'{self.__class__.__name__}(\n{self.num!r},\n{self.den!r},\ndt: {self.dt!r}\n)'

    @property
    def num(self):
        """Numerator coefficients (a 2-D array for several outputs)."""
        return self._num

    @num.setter
    def num(self, num):
        self._num = _cp.atleast_1d(_dev(num))
        if self._num.ndim > 1:
            self.outputs, self.inputs = self._num.shape
        else:
            self.outputs = self.inputs = 1

    @property
    def den(self):
        """Denominator coefficients."""
        return self._den

    @den.setter
    def den(self, den):
        self._den = _cp.atleast_1d(_dev(den))

    def _copy(self, system):
        self.num = system.num
        self.den = system.den

    def to_tf(self):
        """A copy of this system."""
        return self._clone()

    def to_zpk(self):
        """This system in zeros-poles-gain form."""
        return ZerosPolesGain(*_fd._tf2zpk(_host(self.num), _host(self.den)), **self._dt_dict)

    def to_ss(self):
        """This system in state-space form."""
        return StateSpace(*_conv._tf2ss(_host(self.num), _host(self.den)), **self._dt_dict)

    @staticmethod
    def _z_to_zinv(num, den):
        # Pad the shorter polynomial in front, so that both are in powers of z^-1.
        diff = len(num) - len(den)
        if diff > 0:
            den = numpy.hstack((numpy.zeros(diff), den))
        elif diff < 0:
            num = numpy.hstack((numpy.zeros(-diff), num))
        return num, den

    @staticmethod
    def _zinv_to_z(num, den):
        diff = len(num) - len(den)
        if diff > 0:
            den = numpy.hstack((den, numpy.zeros(diff)))
        elif diff < 0:
            num = numpy.hstack((num, numpy.zeros(-diff)))
        return num, den


class TransferFunctionContinuous(TransferFunction, lti):
    """Continuous-time transfer function."""

    def to_discrete(self, dt, method='zoh', alpha=None):
        """Discretised transfer function (see cont2discrete)."""
        num, den = _conv._cont2discrete((_host(self.num), _host(self.den)), dt, method, alpha)
        return TransferFunction(num, den, dt=dt)


class TransferFunctionDiscrete(TransferFunction, dlti):
    """Discrete-time transfer function."""


class ZerosPolesGain(LinearTimeInvariant):
    """LTI system as zeros, poles and gain (scipy.signal.ZerosPolesGain); continuous unless dt is given."""

    def __new__(cls, *system, **kwargs):
        if len(system) == 1 and isinstance(system[0], LinearTimeInvariant):
            return system[0].to_zpk()
        if cls is ZerosPolesGain:
            k = ZerosPolesGainContinuous if kwargs.get('dt') is None else ZerosPolesGainDiscrete
            return k.__new__(k, *system, **kwargs)
        return super().__new__(cls)

    def __init__(self, *system, **kwargs):
        if isinstance(system[0], LinearTimeInvariant):
            return
        super().__init__(**kwargs)
        self._zeros = None
        self._poles = None
        self._gain = None
        self.zeros, self.poles, self.gain = system

    def __repr__(self):
        return (f'{self.__class__.__name__}(\n{self.zeros!r},\n{self.poles!r},\n{self.gain!r},\n'
                f'dt: {self.dt!r}\n)')

    @property
    def zeros(self):
        """Zeros."""
        return self._zeros

    @zeros.setter
    def zeros(self, zeros):
        self._zeros = _cp.atleast_1d(_dev(zeros))
        if self._zeros.ndim > 1:
            self.outputs, self.inputs = self._zeros.shape
        else:
            self.outputs = self.inputs = 1

    @property
    def poles(self):
        """Poles."""
        return self._poles

    @poles.setter
    def poles(self, poles):
        self._poles = _cp.atleast_1d(_dev(poles))

    @property
    def gain(self):
        """Gain."""
        return self._gain

    @gain.setter
    def gain(self, gain):
        self._gain = gain

    def _copy(self, system):
        self.poles = system.poles
        self.zeros = system.zeros
        self.gain = system.gain

    def to_tf(self):
        """This system as a transfer function."""
        return TransferFunction(*_fd._zpk2tf(_host(self.zeros), _host(self.poles), _host(self.gain)),
                                **self._dt_dict)

    def to_zpk(self):
        """A copy of this system."""
        return self._clone()

    def to_ss(self):
        """This system in state-space form."""
        return StateSpace(*_conv._zpk2ss(_host(self.zeros), _host(self.poles), _host(self.gain)),
                          **self._dt_dict)


class ZerosPolesGainContinuous(ZerosPolesGain, lti):
    """Continuous-time zeros-poles-gain system."""

    def to_discrete(self, dt, method='zoh', alpha=None):
        """Discretised system (see cont2discrete)."""
        z, p, k = _conv._cont2discrete((_host(self.zeros), _host(self.poles), _host(self.gain)), dt, method,
                                       alpha)
        return ZerosPolesGain(z, p, k, dt=dt)


class ZerosPolesGainDiscrete(ZerosPolesGain, dlti):
    """Discrete-time zeros-poles-gain system."""


def _binop_ok(other):
    return isinstance(other, (StateSpace, numpy.ndarray, _cp.ndarray, float, complex, numpy.number, int))


class StateSpace(LinearTimeInvariant):
    """LTI system in state-space form (scipy.signal.StateSpace); continuous unless dt is given. Supports +, -,
    * (series connection or gain), / by a scalar, and unary minus, as SciPy does."""
    __array_priority__ = 100.0
    __array_ufunc__ = None

    def __new__(cls, *system, **kwargs):
        if len(system) == 1 and isinstance(system[0], LinearTimeInvariant):
            return system[0].to_ss()
        if cls is StateSpace:
            k = StateSpaceContinuous if kwargs.get('dt') is None else StateSpaceDiscrete
            return k.__new__(k, *system, **kwargs)
        return super().__new__(cls)

    def __init__(self, *system, **kwargs):
        if isinstance(system[0], LinearTimeInvariant):
            return
        super().__init__(**kwargs)
        self._A = self._B = self._C = self._D = None
        self.A, self.B, self.C, self.D = _conv._abcd_normalize(*system)

    def __repr__(self):
        return (f'{self.__class__.__name__}(\n{self.A!r},\n{self.B!r},\n{self.C!r},\n{self.D!r},\n'
                f'dt: {self.dt!r}\n)')

    def _mats(self):
        return tuple(_host(M) for M in (self._A, self._B, self._C, self._D))

    def _new(self, a, b, c, d):
        dt = numpy.result_type(a.dtype, b.dtype, c.dtype, d.dtype)
        return StateSpace(*(numpy.asarray(M, dtype=dt) for M in (a, b, c, d)), **self._dt_dict)

    def __mul__(self, other):
        if not _binop_ok(other):
            return NotImplemented
        A, B, C, D = self._mats()
        if isinstance(other, StateSpace):
            if type(other) is not type(self):
                return NotImplemented
            if self.dt != other.dt:
                raise TypeError('Cannot multiply systems with different `dt`.')
            # Series connection: other's output feeds this system's input.
            A2, B2, C2, D2 = other._mats()
            n1, n2 = A.shape[0], A2.shape[0]
            a = numpy.vstack((numpy.hstack((A, B @ C2)), numpy.hstack((numpy.zeros((n2, n1)), A2))))
            b = numpy.vstack((B @ D2, B2))
            c = numpy.hstack((C, D @ C2))
            d = D @ D2
        else:
            o = _host(other)
            a, b, c, d = A, numpy.dot(B, o), C, numpy.dot(D, o)
        return self._new(a, b, c, d)

    def __rmul__(self, other):
        if not _binop_ok(other) or isinstance(other, StateSpace):
            return NotImplemented
        A, B, C, D = self._mats()
        o = _host(other)
        return self._new(A, B, numpy.dot(o, C), numpy.dot(o, D))

    def __neg__(self):
        A, B, C, D = self._mats()
        return StateSpace(A, B, -C, -D, **self._dt_dict)

    def __add__(self, other):
        if not _binop_ok(other):
            return NotImplemented
        A, B, C, D = self._mats()
        if isinstance(other, StateSpace):
            if type(other) is not type(self):
                raise TypeError(f'Cannot add {type(self)} and {type(other)}')
            if self.dt != other.dt:
                raise TypeError('Cannot add systems with different `dt`.')
            # Parallel connection: block-diagonal dynamics, shared input, summed outputs.
            A2, B2, C2, D2 = other._mats()
            n1, n2 = A.shape[0], A2.shape[0]
            a = numpy.zeros((n1 + n2, n1 + n2), dtype=numpy.result_type(A, A2))
            a[:n1, :n1], a[n1:, n1:] = A, A2
            b = numpy.vstack((B, B2))
            c = numpy.hstack((C, C2))
            d = D + D2
        else:
            o = numpy.atleast_2d(_host(other))
            if D.shape != o.shape:
                raise ValueError(f"Cannot add systems with incompatible dimensions ({D.shape} and {o.shape})")
            a, b, c, d = A, B, C, D + o
        return self._new(a, b, c, d)

    def __sub__(self, other):
        if not _binop_ok(other):
            return NotImplemented
        return self.__add__(-other)

    def __radd__(self, other):
        if not _binop_ok(other):
            return NotImplemented
        return self.__add__(other)

    def __rsub__(self, other):
        if not _binop_ok(other):
            return NotImplemented
        return (-self).__add__(other)

    def __truediv__(self, other):
        if not _binop_ok(other) or isinstance(other, StateSpace):
            return NotImplemented
        if isinstance(other, (numpy.ndarray, _cp.ndarray)) and other.ndim > 0:
            raise ValueError("Cannot divide StateSpace by non-scalar numpy arrays")
        return self.__mul__(1 / _host(other)[()] if isinstance(other, _cp.ndarray) else 1 / other)

    @property
    def A(self):
        """State matrix."""
        return self._A

    @A.setter
    def A(self, A):
        self._A = None if A is None else _cp.atleast_2d(_dev(A))

    @property
    def B(self):
        """Input matrix."""
        return self._B

    @B.setter
    def B(self, B):
        self._B = None if B is None else _cp.atleast_2d(_dev(B))
        self.inputs = self._B.shape[-1]

    @property
    def C(self):
        """Output matrix."""
        return self._C

    @C.setter
    def C(self, C):
        self._C = None if C is None else _cp.atleast_2d(_dev(C))
        self.outputs = self._C.shape[0]

    @property
    def D(self):
        """Feedthrough matrix."""
        return self._D

    @D.setter
    def D(self, D):
        self._D = None if D is None else _cp.atleast_2d(_dev(D))

    def _copy(self, system):
        self.A, self.B, self.C, self.D = system.A, system.B, system.C, system.D

    def to_tf(self, **kwargs):
        """This system as a transfer function (of input `input`, default 0)."""
        return TransferFunction(*_conv._ss2tf(*self._mats(), **kwargs), **self._dt_dict)

    def to_zpk(self, **kwargs):
        """This system in zeros-poles-gain form (of input `input`, default 0)."""
        return ZerosPolesGain(*_conv._ss2zpk(*self._mats(), **kwargs), **self._dt_dict)

    def to_ss(self):
        """A copy of this system."""
        return self._clone()


class StateSpaceContinuous(StateSpace, lti):
    """Continuous-time state-space system."""

    def to_discrete(self, dt, method='zoh', alpha=None):
        """Discretised system (see cont2discrete)."""
        return StateSpace(*_conv._cont2discrete(self._mats(), dt, method, alpha), dt=dt)


class StateSpaceDiscrete(StateSpace, dlti):
    """Discrete-time state-space system."""


# -- continuous-time responses ---------------------------------------------------------------------------------
def _continuous_ss(system, name):
    if isinstance(system, lti):
        return system._as_ss()
    if isinstance(system, dlti):
        raise AttributeError(f'{name} can only be used with continuous-time systems.')
    return lti(*system)._as_ss()


def lsim(system, U, T, X0=None, interp=True):
    """Response of a continuous-time system to input U at times T (scipy.signal.lsim); returns T, yout, xout.

    The input is held linearly (interp=True) or constant (False) between samples, which makes the system an
    exact discrete recurrence over the (equally spaced) samples; that recurrence runs on the device
    (Note [state-space block scan]).
    """
    sys = _continuous_ss(system, 'lsim')
    T = _cp.atleast_1d(_dev(T))
    if T.ndim != 1:
        raise ValueError("T must be a rank-1 array.")
    A, B, C, D = sys._mats()
    n, m = A.shape[0], B.shape[1]
    N = T.size
    # SciPy keeps the states in A's dtype; integer A would truncate every step there, we keep float64 instead.
    sdt = numpy.complex128 if A.dtype.kind == 'c' else numpy.float64
    x0 = numpy.zeros(n, sdt) if X0 is None else numpy.broadcast_to(_host(X0), (n,))
    if sdt is numpy.float64:
        x0 = numpy.real(x0)
    x0 = x0.astype(sdt)
    t0 = float(_host(T[0]))
    if t0 > 0:
        x0 = x0 @ _conv._expm(A.T * t0)
    elif t0 < 0:
        raise ValueError("Initial time must be nonnegative")
    no_input = (U is None or (isinstance(U, (int, float)) and U == 0.) or not bool(_cp.any(_dev(U))))
    if N == 1:
        x = _cp.asarray(x0.reshape(1, n))
        y = _cp.squeeze(_mm(x, C.T))
        if not no_input:
            y = y + _cp.squeeze(_mm(_dev(U), D.T))
        return T, y, _cp.squeeze(x)
    dt = float(_host(T[1] - T[0]))
    if not bool(_cp.allclose(_cp.diff(T), dt)):
        raise ValueError("Time steps are not equally spaced.")
    if no_input:
        Ad = _conv._expm(A.T * dt)
        x = _scan(Ad, _cp.zeros((N - 1, n), dtype=sdt), x0, sdt)
        return T, _cp.squeeze(_mm(x, C.T)), _cp.squeeze(x)
    U = _cp.atleast_1d(_dev(U))
    if U.ndim == 1:
        U = U[:, None]
    if U.shape[0] != N:
        raise ValueError("U must have the same number of rows as elements in T.")
    if U.shape[1] != m:
        raise ValueError("System does not define that many inputs.")
    if not interp:
        M = numpy.zeros((n + m, n + m), dtype=numpy.result_type(A, B, float))
        M[:n, :n], M[:n, n:] = A * dt, B * dt
        E = _conv._expm(M.T)
        Ad, Bd = E[:n, :n], E[n:, :n]
        W = _mm(U[:-1], Bd)
    else:
        M = numpy.zeros((n + 2 * m, n + 2 * m), dtype=numpy.result_type(A, B, float))
        M[:n, :n], M[:n, n:n + m] = A * dt, B * dt
        M[n:n + m, n + m:] = numpy.eye(m)
        E = _conv._expm(M.T)
        Ad = E[:n, :n]
        Bd1 = E[n + m:, :n]
        Bd0 = E[n:n + m, :n] - Bd1
        W = _mm(U[:-1], Bd0) + _mm(U[1:], Bd1)
    if sdt is numpy.float64 and W.dtype.kind == 'c':
        W = _cp.real(W)     # SciPy's real state array drops a complex input's imaginary part
    x = _scan(Ad.astype(sdt), W, x0, sdt)
    y = _cp.squeeze(_mm(x, C.T)) + _cp.squeeze(_mm(U, D.T))
    if A.dtype.kind == 'f' and A.dtype != numpy.float64:
        x = x.astype(A.dtype)
    return T, y, _cp.squeeze(x)


def _default_response_times(A, n):
    # Seven time constants of the slowest mode.
    vals = numpy.linalg.eigvals(A)
    r = numpy.min(numpy.abs(numpy.real(vals)))
    if r == 0.0:
        r = 1.0
    return numpy.linspace(0.0, 7 * (1.0 / r), n)


def impulse(system, X0=None, T=None, N=None):
    """Impulse response of a continuous-time system (scipy.signal.impulse); returns T, yout."""
    sys = _continuous_ss(system, 'impulse')
    A, B, _, _ = sys._mats()
    X = numpy.squeeze(B) if X0 is None else numpy.squeeze(B + _host(X0))
    if N is None:
        N = 100
    T = _cp.asarray(_default_response_times(A, N)) if T is None else _dev(T)
    _, h, _ = lsim(sys, 0., T, X, interp=False)
    return T, h


def step(system, X0=None, T=None, N=None):
    """Step response of a continuous-time system (scipy.signal.step); returns T, yout."""
    sys = _continuous_ss(system, 'step')
    A = _host(sys.A)
    if N is None:
        N = 100
    T = _cp.asarray(_default_response_times(A, N)) if T is None else _dev(T)
    U = _cp.ones(T.shape, dtype=A.dtype)
    vals = lsim(sys, U, T, X0=X0, interp=False)
    return vals[0], vals[1]


def freqresp(system, w=None, n=10000):
    """Frequency response of a continuous-time SISO system (scipy.signal.freqresp); returns w, H."""
    if isinstance(system, lti):
        sys = system if isinstance(system, (TransferFunction, ZerosPolesGain)) else system._as_zpk()
    elif isinstance(system, dlti):
        raise AttributeError('freqresp can only be used with continuous-time systems.')
    else:
        sys = lti(*system)._as_zpk()
    if sys.inputs != 1 or sys.outputs != 1:
        raise ValueError("freqresp() requires a SISO (single input, single output) system.")
    worN = w if w is not None else n
    if isinstance(sys, TransferFunction):
        return _fd.freqs(_host(sys.num).ravel(), _host(sys.den), worN=worN)
    return _fd.freqs_zpk(sys.zeros, sys.poles, sys.gain, worN=worN)


def bode(system, w=None, n=100):
    """Bode magnitude (dB) and phase (degrees) of a continuous-time system (scipy.signal.bode)."""
    w, y = freqresp(system, w=w, n=n)
    mag = 20.0 * _cp.log10(_cp.abs(y))
    phase = _cp.unwrap(_cp.arctan2(y.imag, y.real)) * 180.0 / numpy.pi
    return w, mag, phase


# -- discrete-time responses -----------------------------------------------------------------------------------
def _discrete(system, name):
    if isinstance(system, dlti):
        return system
    if isinstance(system, lti):
        raise AttributeError(f'{name} can only be used with discrete-time dlti systems.')
    return dlti(*system[:-1], dt=system[-1])


def _interp_linear(t, u, tout):
    """Piecewise-linear u(t) at tout, extrapolating from the end segments (a degree-1 spline), on the device."""
    if t.ndim != 1 or t.shape[0] != u.shape[0]:
        raise ValueError(f"Shapes of x {t.shape} and y {u.shape} are incompatible")
    if t.shape[0] < 2:
        raise ValueError("Need at least 2 data points.")
    if not bool(_cp.all(_cp.diff(t) > 0)):
        raise ValueError("Expect x to not have duplicates" if bool(_cp.any(_cp.diff(t) == 0))
                         else "Expect x to be a 1D strictly increasing sequence.")
    i = _cp.clip(_cp.searchsorted(t, tout, side='right') - 1, 0, t.shape[0] - 2)
    t0, t1 = t[i], t[i + 1]
    f = ((tout - t0) / (t1 - t0))[:, None]
    return u[i] + f * (u[i + 1] - u[i])


def dlsim(system, u, t=None, x0=None):
    """Response of a discrete-time system to input u (scipy.signal.dlsim); returns tout, yout and, for a
    StateSpace system, xout. The recurrence runs on the device (Note [state-space block scan])."""
    system = _discrete(system, 'dlsim')
    is_ss = isinstance(system, StateSpace)
    sys = system._as_ss()
    A, B, C, D = sys._mats()
    n = A.shape[0]
    # SciPy fills float64 arrays step by step, which keeps only the real part of complex data at every step;
    # for real states that equals the real parts of the matrices and of the forcing below.
    A = numpy.real(A).astype(numpy.float64)
    C = numpy.real(C).astype(numpy.float64)
    u = _cp.atleast_1d(_dev(u))
    if u.ndim == 1:
        u = u[:, None]
    if t is None:
        N = len(u)
        stop = (N - 1) * sys.dt
    else:
        th = t if isinstance(t, _cp.ndarray) else numpy.asarray(t)
        stop = th[-1].item() if isinstance(th, _cp.ndarray) else th[-1]
        N = int(numpy.floor(stop / sys.dt)) + 1
    tout = _cp.linspace(0.0, stop, num=N)
    if u.shape[-1] != B.shape[1]:
        raise ValueError(f"shapes {u.shape} and {B.T.shape} not aligned: input count differs from B's columns")
    x0h = numpy.zeros(n) if x0 is None else numpy.real(_host(x0))
    x0h = numpy.broadcast_to(x0h, (n,)).astype(numpy.float64)
    if N < 1:
        raise IndexError("index -1 is out of bounds for axis 0 with size 0")
    if t is None:
        ud = u
    else:
        ud = _interp_linear(_dev(numpy.asarray(t, dtype=float) if not isinstance(t, _cp.ndarray) else t)
                            .astype(numpy.float64), u.astype(numpy.result_type(u.dtype, float)), tout)
    if ud.shape[0] < N:
        raise IndexError(f"index {ud.shape[0]} is out of bounds for axis 0 with size {ud.shape[0]}")
    ud = ud[:N]
    W = _cp.real(_mm(ud[:N - 1], B.T)).astype(numpy.float64, copy=False)
    x = _scan(A.T.copy(), W, x0h, numpy.float64)
    y = _mm(x, C.T) + _cp.real(_mm(ud, D.T)).astype(numpy.float64, copy=False)
    return (tout, y, x) if is_ss else (tout, y)


def _dresponse(system, x0, t, n, name, impulse_input):
    sys = _discrete(system, name)._as_ss()
    if n is None:
        n = 100
    t = numpy.linspace(0, n * sys.dt, n, endpoint=False) if t is None else t
    length = len(t)
    outs = []
    tout = None
    for i in range(sys.inputs):
        u = numpy.zeros((length, sys.inputs))
        if impulse_input:
            u[0, i] = 1.0
        else:
            u[:, i] = 1.0
        tout, y = dlsim(sys, u, t=t, x0=x0)[:2]
        outs.append(y)
    return tout, tuple(outs)


def dimpulse(system, x0=None, t=None, n=None):
    """Impulse response of a discrete-time system (scipy.signal.dimpulse); returns t and one output array per
    input."""
    return _dresponse(system, x0, t, n, 'dimpulse', True)


def dstep(system, x0=None, t=None, n=None):
    """Step response of a discrete-time system (scipy.signal.dstep); returns t and one output array per input."""
    return _dresponse(system, x0, t, n, 'dstep', False)


def dfreqresp(system, w=None, n=10000, whole=False):
    """Frequency response of a discrete-time SISO system (scipy.signal.dfreqresp); returns w, H."""
    if not isinstance(system, dlti):
        if isinstance(system, lti):
            raise AttributeError('dfreqresp can only be used with discrete-time systems.')
        system = dlti(*system[:-1], dt=system[-1])
    if isinstance(system, StateSpace):
        system = system._as_tf()
    if system.inputs != 1 or system.outputs != 1:
        raise ValueError("dfreqresp requires a SISO (single input, single output) system.")
    worN = w if w is not None else n
    if isinstance(system, TransferFunction):
        num, den = TransferFunction._z_to_zinv(_host(system.num).ravel(), _host(system.den))
        return _fd.freqz(num, den, worN=worN, whole=whole)
    return _fd.freqz_zpk(system.zeros, system.poles, system.gain, worN=worN, whole=whole)


def dbode(system, w=None, n=100):
    """Bode magnitude (dB) and phase (degrees) of a discrete-time system (scipy.signal.dbode); w in rad/time."""
    w, y = dfreqresp(system, w=w, n=n)
    dt = system.dt if isinstance(system, dlti) else system[-1]
    mag = 20.0 * _cp.log10(_cp.abs(y))
    phase = _cp.rad2deg(_cp.unwrap(_cp.angle(y)))
    return w / dt, mag, phase
