"""Differential fuzzing of cuarray against NumPy: case generators per function family, compare(), a case worker.

A case is plain, picklable data: a family, an operation, its arguments and keywords. Arrays in it are `Arr`
specs (shape, dtype, seed, kind of values, view) that each side materialises: NumPy gets host arrays built from
the seed, cuarray gets `cuarray.asarray` of exactly the same host data (with the same view applied on the device),
so NumPy's reference answer is computed on host copies of exactly the inputs cuarray gets.

`compare(case)` runs the call with ``xp=numpy`` and ``xp=cuarray`` and classifies the pair:

- ``match``: same result (shape, dtype, values within a tolerance by dtype), or both raised compatible exceptions
  (cuarray's exception is an instance of the builtin class of NumPy's: NumPy's private subclasses such as
  ``_UFuncNoLoopError`` count as their public base, ``TypeError``; ``AxisError`` and ``LinAlgError`` must be
  matched as such). Where the inputs or NumPy's result have a dtype cuarray does not support (object, str,
  datetime64, longdouble...), cuarray must raise TypeError (OverflowError for Python ints beyond 64 bits).
- ``skip``: NumPy's answer is implementation-defined for these inputs (the case is dropped, not counted as a
  mismatch).
- mismatches: ``wrong_result``, ``silent_success`` (NumPy raises, cuarray returns), ``wrong_exception_type``,
  ``error_where_numpy_succeeds``, and ``crash`` (the process running the case died; reported by `Worker`).

Generators draw from a `Source`: `RandomSource` (random.Random, for tools/fuzz.py) or `HypothesisSource` (a
hypothesis ``data`` object, for test_fuzz.py), so both drivers produce the same kinds of cases. `Worker` runs
cases in a child process (`serve`), so that a crash is reported as the outcome of the case that caused it.
Mismatches listed in KNOWN_MISMATCHES are reported with the outcome 'known' instead of failing.

Documented differences of cuarray (README "Differences from NumPy and CuPy") are excluded by construction: the
workers set CUARRAY_CHECK_INDEX=1 (NumPy's IndexError for out-of-range index arrays), reductions' 0-d arrays are
compared by value, integer powers with negative exponents are not generated, assignments through index arrays
that repeat a position with different values are skipped, partition/argpartition and argsort (not stable) are
checked by their contract, NaN/out-of-range float-to-integer casts are not generated, and random numbers are
checked by shape, dtype and range only.
"""
import base64
import json
import math
import operator
import os
import pickle
import select
import signal
import subprocess
import sys
import tempfile
import time
import traceback
import warnings

import numpy

HERE = os.path.dirname(os.path.abspath(__file__))

# Families: every public function family gets one generator. All of them run in a worker process in the
# pytest module and in tools/fuzz.py; RISKY ones are the families the brief singles out.
FAMILIES = ('creation', 'elementwise', 'reduction', 'sorting', 'getitem', 'setitem', 'takeput', 'manipulation',
            'linalg', 'fft', 'random', 'kernels')
RISKY = frozenset(('getitem', 'setitem', 'takeput', 'sorting', 'kernels', 'fft', 'linalg'))

MISMATCHES = ('crash', 'wrong_result', 'silent_success', 'wrong_exception_type', 'error_where_numpy_succeeds')
OK_OUTCOMES = ('match', 'skip', 'known')

# Mismatches already filed and waiting for a fix: (family or None, regular expression searched in the case
# description, note). A matching mismatch gets the outcome 'known' (listed by the drivers, not failing).
KNOWN_MISMATCHES = []

SUPPORTED = ('bool', 'int8', 'int16', 'int32', 'int64', 'uint8', 'uint16', 'uint32', 'uint64', 'float16',
             'float32', 'float64', 'complex64', 'complex128')
INTS = ('int8', 'int16', 'int32', 'int64', 'uint8', 'uint16', 'uint32', 'uint64')
SIGNED = ('int8', 'int16', 'int32', 'int64')
FLOATS = ('float16', 'float32', 'float64')
COMPLEX = ('complex64', 'complex128')
INEXACT = FLOATS + COMPLEX
# dtypes NumPy has and cuarray does not support: cuarray must raise TypeError for them.
UNSUPPORTED = ('object', '<U3', 'S3', 'datetime64[s]', 'timedelta64[s]', 'longdouble', 'clongdouble')
_SUPPORTED_DT = frozenset(numpy.dtype(d) for d in SUPPORTED)

# Relative tolerance by result dtype char (multiplied by a case's `tol`).
RTOL = {'e': 4e-3, 'f': 2e-5, 'd': 1e-11, 'F': 2e-5, 'D': 1e-11}


# ----------------------------------------------------------------------------------------------------------------
# Sources of choices
# ----------------------------------------------------------------------------------------------------------------

class RandomSource:
    """Choices from a random.Random (the standalone driver: one Random per case, seeded by the case id)."""

    def __init__(self, rnd):
        self._r = rnd

    def integer(self, lo, hi):
        return self._r.randint(lo, hi)

    def choice(self, seq):
        return seq[self._r.randrange(len(seq))]

    def chance(self, p):
        return self._r.random() < p

    def seed(self):
        return self._r.getrandbits(31)


class HypothesisSource:
    """Choices drawn from a hypothesis ``data`` object (st.data()), so hypothesis drives generation."""

    def __init__(self, data):
        from hypothesis import strategies as st
        self._data = data
        self._st = st

    def integer(self, lo, hi):
        return self._data.draw(self._st.integers(lo, hi))

    def choice(self, seq):
        return seq[self.integer(0, len(seq) - 1)]

    def chance(self, p):
        return self.integer(0, 999) < int(p * 1000)

    def seed(self):
        return self.integer(0, 2 ** 31 - 1)


# ----------------------------------------------------------------------------------------------------------------
# Inputs
# ----------------------------------------------------------------------------------------------------------------

class Arr:
    """An array input: `shape` (of the array the call sees), `dtype`, `seed`, `fill` (the kind of values), `view`
    (None, 'T' transposed, 'rev' reversed first axis, 'step' every other row, 'off' an offset view) and `host`
    (passed as a numpy.ndarray to both sides, to check that cuarray refuses or converts host data)."""
    __slots__ = ('shape', 'dtype', 'seed', 'fill', 'view', 'host', 'name')

    def __init__(self, shape, dtype, seed, fill='any', view=None, host=False, name=None):
        self.shape = tuple(int(d) for d in shape)
        self.dtype = str(dtype)
        self.seed = int(seed)
        self.fill = fill
        self.view = view
        self.host = bool(host)
        self.name = name

    def np_dtype(self):
        return numpy.dtype(self.dtype)

    def supported(self):
        return self.np_dtype() in _SUPPORTED_DT

    def base_shape(self):
        s = self.shape
        if self.view == 'T':
            return s[::-1]
        if self.view == 'step':
            return (2 * s[0],) + s[1:]
        if self.view == 'off':
            return (s[0] + 1,) + s[1:]
        return s

    def build(self):
        """The host base array (C order) of this input; `apply_view` makes the array the call sees."""
        dt = self.np_dtype()
        shape = self.base_shape()
        n = int(numpy.prod(shape, dtype=numpy.int64)) if shape else 1
        rng = numpy.random.default_rng(self.seed)
        v = _values(rng, dt, n, self.fill)
        v = v.reshape(shape)
        if self.fill in ('diagdom', 'spd', 'sym', 'singular') and len(shape) >= 2:
            with numpy.errstate(all='ignore'):
                v = _matrix_fill(v, self.fill).astype(dt)
        if self.fill == 'sorted' and len(shape) >= 1:
            v = numpy.sort(v, axis=-1)
        return numpy.asarray(v, order='C')  # (ascontiguousarray would make a 0-d input 1-d)

    def apply_view(self, a):
        if self.view == 'T':
            return a.T
        if self.view == 'rev':
            return a[::-1]
        if self.view == 'step':
            return a[::2]
        if self.view == 'off':
            return a[1:]
        return a

    def describe(self):
        s = '{}({})'.format(_dtype_name(self.dtype), ','.join(str(d) for d in self.shape))
        if self.view:
            s += '.' + self.view
        if self.fill not in ('any', None):
            s += '~' + (self.fill if isinstance(self.fill, str) else '{}[{},{}]'.format(*self.fill))
        if self.host:
            s = 'numpy:' + s
        if self.name:
            s = self.name + ':' + s
        return s

    def __repr__(self):
        return self.describe()


def _dtype_name(d):
    try:
        return numpy.dtype(d).name if d not in ('<U3', 'S3') else d
    except TypeError:
        return str(d)


_SPECIAL = {
    'e': [numpy.nan, numpy.inf, -numpy.inf, 0.0, -0.0, 6.0e-08, 65504.0, -65504.0],
    'f': [numpy.nan, numpy.inf, -numpy.inf, 0.0, -0.0, 1.2e-38, 3.0e38, -3.0e38],
    'd': [numpy.nan, numpy.inf, -numpy.inf, 0.0, -0.0, 2.3e-308, 1.5e308, -1.5e308],
}


def _float_values(rng, char, n, fill):
    if fill == 'small':
        return rng.integers(-32, 33, n) / 4.0
    if fill == 'nonneg':
        return rng.integers(0, 17, n) / 4.0
    if fill == 'positive':
        return rng.integers(1, 17, n) / 4.0
    if fill == 'unit':
        return numpy.array([-2.0, -1.0, -0.5, 0.5, 1.0, 2.0, 1.0, -1.0])[rng.integers(0, 8, n)]
    if fill == 'nonzero':
        v = rng.integers(-32, 32, n)
        return numpy.where(v >= 0, v + 1, v) / 4.0
    if fill == 'castable':  # finite, non-negative, fits every integer type: float->int casts are defined
        return numpy.round(rng.uniform(0, 100, n), 2)
    if fill in ('finite', 'diagdom', 'spd', 'sym', 'singular'):
        return numpy.round(rng.standard_normal(n) * 4, 3)
    if fill == 'unique':
        return (rng.permutation(n) - n // 2) * 0.5
    specials = _SPECIAL[char]
    if fill == 'special_nohuge':
        specials = specials[:5]
    p_special = 0.5 if fill in ('special', 'special_nohuge') else 0.12
    small = rng.integers(-32, 33, n) / 4.0
    wide = numpy.round(rng.standard_normal(n) * 100, 2)
    pick = rng.random(n)
    v = numpy.where(pick < 0.65, small, wide)
    sp = numpy.asarray(specials)[rng.integers(0, len(specials), n)]
    return numpy.where(rng.random(n) < p_special, sp, v)


def _int_values(rng, dt, n, fill):
    info = numpy.iinfo(dt)
    unsigned = dt.kind == 'u'
    if isinstance(fill, tuple):
        lo, hi = max(fill[1], int(info.min)), min(fill[2], int(info.max))
        if lo > hi:
            lo = hi = max(0, int(info.min))
        return rng.integers(lo, hi, n, endpoint=True, dtype=numpy.int64 if hi < 2 ** 63 else numpy.uint64)
    if fill in ('small', 'finite', 'diagdom', 'spd', 'sym', 'singular', 'special_nohuge', 'unit'):
        return rng.integers(0, 10, n) if unsigned else rng.integers(-5, 6, n)
    if fill in ('nonneg', 'castable'):
        return rng.integers(0, 5, n)
    if fill == 'positive':
        return rng.integers(1, 6, n)
    if fill == 'nonzero':
        v = rng.integers(1, 8, n)
        return v if unsigned else v * rng.choice([-1, 1], n)
    if fill == 'unique':
        v = rng.permutation(n)
        return v if unsigned else v - n // 2
    # 'any' / 'special': mostly small, some anywhere in the type's range (including its limits).
    small = rng.integers(0, 10, n) if unsigned else rng.integers(-9, 10, n)
    wide = rng.integers(int(info.min), int(info.max), n, endpoint=True, dtype=dt)
    limits = numpy.array([info.min, info.max], dtype=dt)[rng.integers(0, 2, n)]
    pick = rng.random(n)
    return numpy.where(pick < 0.7, small.astype(dt), numpy.where(pick < 0.9, wide, limits))


def _values(rng, dt, n, fill):
    k = dt.kind
    if dt not in _SUPPORTED_DT:
        return _unsupported_values(rng, dt, n)
    if k == 'b':
        if fill == 'positive':
            return numpy.ones(n, dtype=bool)
        return rng.integers(0, 2, n).astype(bool)
    if isinstance(fill, tuple) and fill[0] == 'int':
        if k in 'iu':
            return _int_values(rng, dt, n, fill).astype(dt)
        return rng.integers(fill[1], fill[2], n, endpoint=True).astype(dt)
    if k in 'iu':
        return numpy.asarray(_int_values(rng, dt, n, fill)).astype(dt)
    char = {'float16': 'e', 'float32': 'f', 'complex64': 'f'}.get(dt.name, 'd')
    with numpy.errstate(all='ignore'):
        if k == 'f':
            return _float_values(rng, char, n, fill).astype(dt)
        re = _float_values(rng, char, n, fill)
        im = _float_values(rng, char, n, fill)
        return _complex_from_parts(re, im, dt)


def _complex_from_parts(re, im, dt):
    out = numpy.empty(re.shape, dtype=dt)
    out.real = re
    out.imag = im
    return out


def _unsupported_values(rng, dt, n):
    ints = rng.integers(0, 100, n)
    if dt.kind == 'O':
        return numpy.array([int(x) for x in ints] + [0], dtype=object)[:n]
    if dt.kind in 'US':
        return ints.astype(dt)
    if dt.kind in 'Mm':
        return ints.astype(dt)
    return ints.astype(dt)


def _matrix_fill(v, fill):
    n = v.shape[-1]
    if v.shape[-2] != n:
        return v
    eye = numpy.eye(n, dtype=v.dtype)
    if fill == 'diagdom':
        return v + eye * (4 * n + 8)
    if fill == 'sym':
        return v + numpy.swapaxes(v, -1, -2).conj()
    if fill == 'spd':
        w = v.astype(numpy.int64) if v.dtype.kind in 'biu' else v
        return w @ numpy.swapaxes(w, -1, -2).conj() + eye * n
    if fill == 'singular':
        # A zero column, not a repeated row: elimination keeps a zero column exactly zero in any LU (LAPACK's,
        # cuSOLVER's blocked one), so every factorisation meets an exact zero pivot and raises LinAlgError. With
        # a repeated row, cuSOLVER's float32 getrf may end on a tiny nonzero pivot where LAPACK's is exactly 0
        # (a rounding difference, not a bug: inv/solve then give huge values instead of raising).
        v = v.copy()
        v[..., :, -1] = 0
        return v
    return v


class Case:
    """One call to compare: ``op`` ('f:name' a function of xp, dotted names allowed; 'm:name' a method of the first
    argument; 'op:name' an entry of OPS), positional `args` and `kwargs` (holding `Arr` specs), and how to check
    it: `check` (None: full comparison; 'meta': shape and dtype only; 'argsort', 'partition', 'argpartition',
    'random': the contract), `out` (the keyword holding an out= array: the result is (returned is out, out)),
    `mutates` (index of an argument the call changes in place: the result is (returned, that argument)), `tol`
    (a factor on the tolerance), `scale` (what absolute tolerance scales with: 'max', 'sum', 'sq', 'sqrt' of the
    inputs, or a number), `pre` (a name in PRECHECKS deciding on the host inputs whether NumPy's answer is
    defined), `unsupported` (cuarray must raise TypeError) and `extra` (options of the check)."""
    __slots__ = ('family', 'op', 'args', 'kwargs', 'check', 'out', 'mutates', 'tol', 'scale', 'pre', 'unsupported',
                 'extra', 'cid')

    def __init__(self, family, op, args=(), kwargs=None, check=None, out=None, mutates=None, tol=1.0, scale=None,
                 pre=None, unsupported=False, extra=None):
        self.family = family
        self.op = op
        self.args = list(args)
        self.kwargs = dict(kwargs or {})
        self.check = check
        self.out = out
        self.mutates = mutates
        self.tol = tol
        self.scale = scale
        self.pre = pre
        self.unsupported = unsupported
        self.extra = dict(extra or {})
        self.cid = None

    def __repr__(self):
        return describe(self)


# ----------------------------------------------------------------------------------------------------------------
# Descriptions
# ----------------------------------------------------------------------------------------------------------------

def _fmt(v, top=False):
    if isinstance(v, Arr):
        return v.describe()
    if isinstance(v, slice):
        parts = ['' if x is None else _fmt(x) for x in (v.start, v.stop, v.step)]
        s = '{}:{}'.format(parts[0], parts[1])
        if v.step is not None:
            s += ':' + parts[2]
        return s if top else 'slice({})'.format(s)
    if v is Ellipsis:
        return '...'
    if isinstance(v, tuple):
        if not v:
            return '()'
        inner = ', '.join(_fmt(x) for x in v)
        return '(' + inner + (',)' if len(v) == 1 else ')')
    if isinstance(v, list):
        if len(v) > 6:
            return '[' + ', '.join(_fmt(x) for x in v[:6]) + ', ...({})]'.format(len(v))
        return '[' + ', '.join(_fmt(x) for x in v) + ']'
    if isinstance(v, dict):
        return '{' + ', '.join('{}: {}'.format(_fmt(k), _fmt(x)) for k, x in v.items()) + '}'
    if isinstance(v, numpy.generic):
        return 'np.{}({!r})'.format(v.dtype.name, v.item())
    if isinstance(v, float):
        if math.isnan(v):
            return 'nan'
        if math.isinf(v):
            return 'inf' if v > 0 else '-inf'
        return repr(v)
    if isinstance(v, int) and not isinstance(v, bool) and abs(v) >= 2 ** 31:
        for base in (2,):
            for e in range(31, 80):
                for off in (0, -1, 1):
                    if abs(v) == base ** e + off:
                        sgn = '-' if v < 0 else ''
                        return '{}2**{}{}'.format(sgn, e, '' if off == 0 else ('%+d' % off))
        return repr(v)
    if isinstance(v, type):
        return v.__name__
    if isinstance(v, numpy.dtype):
        return 'dtype({!r})'.format(v.str if v.kind in 'USV' else v.name)
    return repr(v)


def _fmt_key(key):
    if isinstance(key, tuple):
        if not key:
            return '()'
        return ', '.join(_fmt(k, top=True) for k in key) + (',' if len(key) == 1 else '')
    return _fmt(key, top=True)


def describe(case):
    """A short, reproducible description of the call: ``take(x:int8(3,0), idx:uint8(5), mode='clip')``."""
    op = case.op
    kind, _, name = op.partition(':')
    args = case.args
    kw = ', '.join('{}={}'.format(k, _fmt(v)) for k, v in case.kwargs.items())

    def call(fname, pos):
        inner = ', '.join([_fmt(a) for a in pos] + ([kw] if kw else []))
        return '{}({})'.format(fname, inner)

    if kind == 'f':
        s = call(name, args)
    elif kind == 'm':
        s = '{}.{}'.format(_fmt(args[0]), call(name, args[1:]))
    elif name == 'getitem':
        s = '{}[{}]'.format(_fmt(args[0]), _fmt_key(args[1]))
    elif name == 'setitem':
        s = '{}[{}] = {}'.format(_fmt(args[0]), _fmt_key(args[1]), _fmt(args[2]))
    elif name in _BINOPS or name in _IOPS:
        s = '{} {} {}'.format(_fmt(args[0]), name, _fmt(args[1]))
    elif name.startswith('u') and name[1:] in _UNOPS:
        s = 'abs({})'.format(_fmt(args[0])) if name == 'uabs' else name[1:] + _fmt(args[0])
    elif name == 'rng':
        s = 'random.default_rng({}).{}'.format(args[0], call(args[1], args[2:]))
    elif name == 'legacy':
        s = 'random.' + call(args[0], args[1:])
    elif name == 'ek':
        s = 'ElementwiseKernel[{}]'.format(args[0]) + call('', args[1:])
    elif name == 'rk':
        s = 'ReductionKernel[sumsq]' + call('', args)
    elif name == 'raw':
        s = 'RawKernel[twice]' + call('', args)
    elif name == 'fuse':
        s = 'fuse[{}]'.format(args[0]) + call('', args[1:])
    else:
        s = call(name, args)
    return s


# ----------------------------------------------------------------------------------------------------------------
# Operations
# ----------------------------------------------------------------------------------------------------------------

_BINOPS = {'+': operator.add, '-': operator.sub, '*': operator.mul, '/': operator.truediv,
           '//': operator.floordiv, '%': operator.mod, '**': operator.pow, '&': operator.and_, '|': operator.or_,
           '^': operator.xor, '<<': operator.lshift, '>>': operator.rshift, '==': operator.eq, '!=': operator.ne,
           '<': operator.lt, '<=': operator.le, '>': operator.gt, '>=': operator.ge, '@': operator.matmul}
_IOPS = {'+=': operator.iadd, '-=': operator.isub, '*=': operator.imul, '/=': operator.itruediv,
         '//=': operator.ifloordiv, '%=': operator.imod, '**=': operator.ipow, '&=': operator.iand,
         '|=': operator.ior, '^=': operator.ixor, '<<=': operator.ilshift, '>>=': operator.irshift}
_UNOPS = {'-': operator.neg, '+': operator.pos, '~': operator.invert, 'abs': abs}


def _op_getitem(xp, x, key):
    return x[key]


def _op_setitem(xp, x, key, value):
    x[key] = value
    return x


def _op_rng(xp, seed, method, *args, **kwargs):
    return getattr(xp.random.default_rng(seed), method)(*args, **kwargs)


def _op_legacy(xp, method, *args, **kwargs):
    return getattr(xp.random, method)(*args, **kwargs)


def _resolve(xp, dotted):
    obj = xp
    for part in dotted.split('.'):
        obj = getattr(obj, part)
    return obj


# ---- custom kernels: the cuarray side builds the kernel, the NumPy side runs a reference model -------------------

EK_DEFS = {
    'add': ('T x, T y', 'T z', 'z = x + y'),
    'fma': ('T x, T y, T w', 'T z', 'z = x * y + w'),
    'scale': ('T x, float64 s', 'T z', 'z = x * s'),
    'twoout': ('T x', 'T y, T z', 'y = x; z = x + x'),
    'less': ('T x, T y', 'bool z', 'z = x < y'),
    'rawrev': ('raw T x', 'T y', 'y = x[_ind.size() - i - 1]'),
}
_EK_CACHE = {}


def _ek_numpy(name, args, kwargs):
    """What ElementwiseKernel(*EK_DEFS[name]) gives for these arguments, by CuPy's documented rules: the type
    placeholder T is bound by the output arrays, then the input arrays (all must agree: TypeError), then
    scalars; outputs are the extra positional arguments (None: allocated); the loop shape is the broadcast
    shape of the non-raw arrays, which given outputs must have (ValueError); host arrays and other objects
    are refused (TypeError); `size=` and `out=` are not keywords of a call with array arguments."""
    in_params, out_params, _ = EK_DEFS[name]
    ins = [p.split() for p in in_params.split(',')]
    outs = [p.split() for p in out_params.split(',')]
    nin, nout = len(ins), len(outs)
    for k in kwargs:
        if k not in ('size', 'block_size', 'stream'):
            raise TypeError('unexpected keyword {!r}'.format(k))
    if len(args) not in (nin, nin + nout):
        raise TypeError('wrong number of arguments')
    params = ins + outs
    for k, a in enumerate(args):
        if isinstance(a, _HostMark):
            raise TypeError('numpy.ndarray argument')
        if isinstance(a, numpy.ndarray):
            continue
        if k >= nin and a is None:
            continue
        if k >= nin:
            raise TypeError('output must be an array')
        if not isinstance(a, (bool, int, float, complex, numpy.generic)) or isinstance(a, (str, bytes)):
            raise TypeError('unsupported argument type')
        if params[k][0] == 'raw':
            raise TypeError('raw argument must be an array')
    given_outs = [(k, a) for k, a in enumerate(args[nin:], nin) if a is not None]
    types = {}
    for k, a in given_outs:
        p = params[k]
        if p[0] == 'T':
            if types.setdefault('T', a.dtype) != a.dtype:
                raise TypeError('type mismatch')
    for k, a in enumerate(args[:nin]):
        p = params[k]
        ctype = p[1] if p[0] == 'raw' else p[0]
        if ctype == 'T' and isinstance(a, numpy.ndarray):
            if types.setdefault('T', a.dtype) != a.dtype:
                raise TypeError('type mismatch')
    for k, a in enumerate(args[:nin]):
        p = params[k]
        if p[0] == 'T' and not isinstance(a, numpy.ndarray) and 'T' not in types:
            types['T'] = _py_scalar_dtype(a)
    if 'T' not in types:
        raise TypeError('placeholder not fixed')
    T = types['T']
    shape_args = [a for k, a in enumerate(args) if isinstance(a, numpy.ndarray) and params[k][0] != 'raw']
    size = kwargs.get('size')
    if size is not None:
        if shape_args:
            raise ValueError('size= with array arguments')
        shape = (int(size),)
    else:
        if not shape_args:
            raise ValueError('loop size undecided')
        try:
            shape = numpy.broadcast_shapes(*[a.shape for a in shape_args])
        except ValueError:
            raise ValueError('operands could not be broadcast') from None
        for _, a in given_outs:
            if a.shape != shape:
                raise ValueError('out shape mismatch')

    def val(k):
        a = args[k]
        if isinstance(a, numpy.ndarray):
            return numpy.broadcast_to(a, shape)
        if _is_intlike(a) and T.kind in 'iu' and not numpy.iinfo(T).min <= int(a) <= numpy.iinfo(T).max:
            raise OverflowError('Python integer {} out of bounds for {}'.format(a, T))  # NumPy 2's rule
        return numpy.asarray(a).astype(T)

    outs_arr = []
    for j in range(nout):
        a = args[nin + j] if len(args) == nin + nout else None
        dt = numpy.dtype(numpy.bool_) if outs[j][0] == 'bool' else T
        outs_arr.append(a if a is not None else numpy.empty(shape, dtype=dt))
    with numpy.errstate(all='ignore'):
        if name == 'add':
            r = [_wide(val(0)) + _wide(val(1))]
        elif name == 'fma':
            r = [_wide(val(0)) * _wide(val(1)) + _wide(val(2))]
        elif name == 'scale':
            r = [_wide(val(0)) * float(args[1])]
        elif name == 'twoout':
            x = _wide(val(0))
            r = [x, x + x]
        elif name == 'less':
            r = [val(0) < val(1)]
        elif name == 'rawrev':
            n = int(numpy.prod(shape))
            r = [args[0].reshape(-1)[:n][::-1].reshape(shape)]
        for o, v in zip(outs_arr, r):
            if o.dtype == numpy.bool_:
                o[...] = v != 0
            elif o.dtype.kind in 'iu' and numpy.asarray(v).dtype.kind == 'f':
                o[...] = numpy.trunc(v).astype(numpy.int64).astype(o.dtype)
            else:
                o[...] = numpy.asarray(v).astype(o.dtype)
    if nout == 1:
        return outs_arr[0]
    return tuple(outs_arr)


def _wide(v):
    """C++'s arithmetic of the kernel body: small integers promote to int, so sums of them do not wrap before the
    store; bool adds as int."""
    v = numpy.asarray(v)
    if v.dtype.kind in 'iub' and v.dtype.itemsize < 8:
        return v.astype(numpy.int64)
    return v


def _py_scalar_dtype(a):
    if isinstance(a, numpy.generic):
        return a.dtype
    if isinstance(a, bool):
        return numpy.dtype(numpy.bool_)
    if isinstance(a, int):
        return numpy.dtype(numpy.int64)
    if isinstance(a, float):
        return numpy.dtype(numpy.float64)
    return numpy.dtype(numpy.complex128)


class _HostMark(numpy.ndarray):
    """A host array passed where the cuarray side must refuse it (the reference model sees the mark)."""


def _op_ek(xp, name, *args, **kwargs):
    if xp is numpy:
        return _ek_numpy(name, args, kwargs)
    k = _EK_CACHE.get((id(xp), name))
    if k is None:
        k = _EK_CACHE[(id(xp), name)] = xp.ElementwiseKernel(*EK_DEFS[name], name='fuzz_' + name)
    return k(*args, **kwargs)


def _op_rk(xp, x, axis=None, keepdims=False):
    """ReductionKernel sum of squares: ``ReductionKernel('T x', 'T y', 'x * x', 'a + b', 'y = a', '0')``."""
    if xp is numpy:
        if isinstance(x, _HostMark):
            raise TypeError('numpy.ndarray argument')
        with numpy.errstate(all='ignore'):
            w = _wide(x)
            r = numpy.sum(w * w, axis=axis, keepdims=keepdims)
        return numpy.asarray(r).astype(x.dtype)
    k = _EK_CACHE.get((id(xp), 'sumsq'))
    if k is None:
        k = _EK_CACHE[(id(xp), 'sumsq')] = xp.ReductionKernel('T x', 'T y', 'x * x', 'a + b', 'y = a', '0',
                                                              'fuzz_sumsq')
    return k(x, axis=axis, keepdims=keepdims)


RAW_TYPES = {'float32': 'float', 'float64': 'double', 'int32': 'int', 'int64': 'long long',
             'uint8': 'unsigned char', 'int16': 'short'}
_RAW_SRC = r'''
extern "C" __global__ void twice(const {T}* x, {T}* y, int n) {{
  int i = blockDim.x * blockIdx.x + threadIdx.x;
  if (i < n) y[i] = x[i] + x[i];
}}
'''


def _op_raw(xp, grid, block, args, **kwargs):
    """RawKernel twice(x, y, n): y[i] = x[i] + x[i] for i < n; the result is y after the launch."""
    if xp is numpy:
        # cuarray's order of checks (python/src/raw.cpp raw_kernel_call), which is CuPy's where CuPy checks at
        # all: the keywords first (CuPy parses the call signature, so `shared_mem`, a size_t there, refuses None
        # with TypeError before grid and block are looked at), then grid, then block (a tuple's length before
        # its extents), the argument container, each argument's type, then the count and sizes against the
        # kernel's parameters.
        for k, v in kwargs.items():
            if k not in ('shared_mem', 'stream'):
                raise TypeError('unexpected keyword {!r}'.format(k))
            if k == 'shared_mem' and not isinstance(v, (int, numpy.integer)):
                raise TypeError('shared_mem must be an int')
        for g in (grid, block):
            gg = g if isinstance(g, tuple) else (g,)
            if isinstance(g, tuple) and not 1 <= len(gg) <= 3:
                raise ValueError('grid and block have 1 to 3 extents')
            if not all(isinstance(v, int) for v in gg):
                raise TypeError('grid and block must be ints or tuples of ints')
        # CuPy's `args` is a tuple; a list is a TypeError (issue 14: taking it silently was a bug).
        if not isinstance(args, tuple):
            raise TypeError('kernel arguments must be given as a tuple')
        for a in args:
            if isinstance(a, _HostMark) or not isinstance(a, (numpy.ndarray, int, float, numpy.generic)):
                raise TypeError('unsupported kernel argument')
        if len(args) != 3:
            raise TypeError('kernel takes 3 arguments')
        n = args[2]
        if isinstance(n, numpy.generic) and n.dtype.itemsize < 4:
            raise ValueError('argument too small')
        xa, y = args[0], args[1]
        threads = int(numpy.prod(grid)) * int(numpy.prod(block))
        m = min(int(n), threads, y.size)
        with numpy.errstate(all='ignore'):
            y.reshape(-1)[:m] = (_wide(xa.reshape(-1)[:m]) * 2).astype(y.dtype)
        return y
    dt = None
    for a in (args if isinstance(args, (tuple, list)) else ()):
        if hasattr(a, 'dtype') and hasattr(a, 'get'):
            dt = str(a.dtype)
            break
    key = (id(xp), 'raw', dt)
    k = _EK_CACHE.get(key)
    if k is None:
        k = _EK_CACHE[key] = xp.RawKernel(_RAW_SRC.format(T=RAW_TYPES.get(dt, 'float')), 'twice')
    k(grid, block, args, **kwargs)
    return args[1]


FUSE_FUNCS = {
    'muladd': lambda m: (lambda x, y: x * y + 1),
    'sinadd': lambda m: (lambda x, y: m.sin(x) + y),
    'where': lambda m: (lambda x, y: m.where(x > y, x, y)),
    'chain': lambda m: (lambda x, y: m.sqrt(m.absolute(x)) * y - x / 2),
}


def _op_fuse(xp, name, *args):
    if xp is numpy:
        return FUSE_FUNCS[name](numpy)(*args)
    key = (id(xp), 'fuse', name)
    f = _EK_CACHE.get(key)
    if f is None:
        f = _EK_CACHE[key] = xp.fuse()(FUSE_FUNCS[name](xp))
    return f(*args)


OPS = {'getitem': _op_getitem, 'setitem': _op_setitem, 'rng': _op_rng, 'legacy': _op_legacy, 'ek': _op_ek,
       'rk': _op_rk, 'raw': _op_raw, 'fuse': _op_fuse}
for _k, _f in _BINOPS.items():
    OPS[_k] = (lambda f: lambda xp, a, b: f(a, b))(_f)
for _k, _f in _IOPS.items():
    OPS[_k] = (lambda f: lambda xp, a, b: (lambda r: (r is a, r))(f(a, b)))(_f)
for _k, _f in _UNOPS.items():
    OPS.setdefault('u' + _k, (lambda f: lambda xp, a: f(a))(_f))


# ----------------------------------------------------------------------------------------------------------------
# Generation helpers
# ----------------------------------------------------------------------------------------------------------------

def _w(*pairs):
    """A weighted list for Source.choice: _w(('a', 3), ('b', 1)) -> ['a', 'a', 'a', 'b']."""
    out = []
    for v, n in pairs:
        out.extend([v] * n)
    return out


def gen_shape(s, max_ndim=3, max_dim=5, allow_empty=True, min_ndim=0):
    kind = s.choice(_w(('small', 6), ('0d', 1), ('empty', 1 if allow_empty else 0), ('one', 1)))
    if kind == '0d' and min_ndim == 0:
        return ()
    ndim = s.integer(max(1, min_ndim), max_ndim)
    if kind == 'one':
        return (1,) * ndim
    shape = [s.integer(1, max_dim) for _ in range(ndim)]
    if kind == 'empty' and allow_empty:
        shape[s.integer(0, ndim - 1)] = 0
    return tuple(shape)


def gen_dtype(s, pool=SUPPORTED, unsupported=0.0):
    if unsupported and s.chance(unsupported):
        return s.choice(UNSUPPORTED)
    return s.choice(pool)


def gen_arr(s, shape=None, dtype=None, fill=None, view=True, name=None, **kw):
    if shape is None:
        shape = gen_shape(s)
    if dtype is None:
        dtype = gen_dtype(s)
    if fill is None:
        fill = s.choice(_w(('any', 6), ('small', 3), ('special', 1)))
    v = None
    if view and numpy.dtype(dtype) in _SUPPORTED_DT and len(shape) >= 1 and s.chance(0.2):
        v = s.choice(['rev', 'step', 'off'] + (['T'] if len(shape) >= 2 else []))
    return Arr(shape, dtype, s.seed(), fill, v, name=name, **kw)


def broadcastable_shape(s, shape):
    """A shape that broadcasts with `shape` (fewer dims, ones in places)."""
    nd = len(shape)
    k = s.integer(0, nd)
    out = list(shape[nd - k:])
    for i in range(len(out)):
        if s.chance(0.3):
            out[i] = 1
    if s.chance(0.15):
        out = [1] + out
    return tuple(out)


def non_broadcastable_shape(s, shape):
    if not shape:
        return (2, 3)
    out = list(shape)
    i = s.integer(0, len(out) - 1)
    out[i] = out[i] + 1 if out[i] != 1 else 2
    if out[i] == 1:
        out[i] = 3
    return tuple(out)


def gen_axis(s, ndim, allow_none=True, allow_tuple=True, bad=0.15):
    """An axis argument: None, a valid int (maybe negative), or (with probability `bad`) something wrong: out of
    range, 2**32, a float, a duplicate tuple, a list, True."""
    if s.chance(bad):
        return s.choice([ndim, -ndim - 1, ndim + 3, 2 ** 32, 2 ** 31, 1.0, True,
                         (0, 0) if ndim else (0, 0), [0], [0, ndim - 1] if ndim else [0], (ndim,), np_int(0),
                         'x'])
    opts = []
    if allow_none:
        opts += [None]
    if ndim:
        opts += ['int', 'int', 'neg']
        if allow_tuple:
            opts += ['tuple']
    elif allow_tuple:
        opts += ['empty_tuple']
    if not opts:
        return None
    k = s.choice(opts)
    if k == 'int':
        return s.integer(0, ndim - 1)
    if k == 'neg':
        return -s.integer(1, ndim)
    if k == 'empty_tuple':
        return ()
    if k == 'tuple':
        n = s.integer(1, ndim)
        axes = sorted(set(s.integer(0, ndim - 1) for _ in range(n)))
        axes = [a - ndim if s.chance(0.3) else a for a in axes]
        return tuple(axes)
    return None


def np_int(v):
    return numpy.int64(v)


PY_SCALARS = _w((0, 1), (1, 2), (-1, 2), (2, 2), (7, 1), (-128, 1), (255, 1), (300, 1), (-300, 1), (2 ** 31, 1),
                (2 ** 32, 1), (2 ** 63 - 1, 1), (2 ** 63, 1), (2 ** 64 - 1, 1), (2 ** 64, 1), (2 ** 70, 1),
                (-2 ** 63, 1), (-2 ** 70, 1), (0.5, 2), (-2.5, 2), (1e300, 1), (float('nan'), 1),
                (float('inf'), 1), (-0.0, 1), (1j, 1), (2 - 3j, 1), (True, 2), (False, 1),
                (numpy.float32(1.5), 1), (numpy.int8(-3), 1), (numpy.uint64(2 ** 63), 1), (numpy.float16(2), 1),
                (numpy.complex64(1j), 1), (numpy.bool_(True), 1), (numpy.int64(5), 1), (numpy.uint8(200), 1),
                (numpy.float64(-0.5), 1))
BAD_SCALARS = ['x', None, b'1', [1, 2], (), object]


def gen_scalar(s, bad=0.05):
    if s.chance(bad):
        return s.choice(['x', None])
    return s.choice(PY_SCALARS)


def _is_intlike(v):
    return isinstance(v, (int, numpy.integer)) and not isinstance(v, (bool, numpy.bool_))


def _scalar_kind(v):
    if isinstance(v, (bool, numpy.bool_)):
        return 'b'
    if isinstance(v, (int, numpy.integer)):
        return 'i'
    if isinstance(v, (float, numpy.floating)):
        return 'f'
    if isinstance(v, (complex, numpy.complexfloating)):
        return 'c'
    return 'o'


# ----------------------------------------------------------------------------------------------------------------
# Family generators
# ----------------------------------------------------------------------------------------------------------------

def _dtype_arg(s, unsupported=0.1, none=0.3, bad=0.03):
    """A dtype= argument: None, a supported dtype spelled several ways, an unsupported one, or an invalid name."""
    if s.chance(none):
        return None, False
    if s.chance(bad):
        return s.choice(['int7', 'foo', 'f3']), False
    if s.chance(unsupported):
        return s.choice(UNSUPPORTED), True
    d = s.choice(SUPPORTED)
    spelling = s.choice(['name', 'dtype', 'type', 'char'])
    if spelling == 'dtype':
        return numpy.dtype(d), False
    if spelling == 'type':
        return numpy.dtype(d).type, False
    if spelling == 'char':
        return numpy.dtype(d).str, False
    return d, False


def _shape_arg(s):
    k = s.choice(_w(('tuple', 5), ('int', 2), ('list', 1), ('empty', 1), ('bad', 1), ('npint', 1)))
    if k == 'tuple':
        return gen_shape(s, max_dim=4, min_ndim=1)
    if k == 'int':
        return s.integer(0, 6)
    if k == 'list':
        return list(gen_shape(s, max_dim=4, min_ndim=1))
    if k == 'empty':
        return ()
    if k == 'npint':
        return numpy.int32(s.integer(0, 5))
    return s.choice([-1, (2, -1), 2.0, (2.0, 3), (2 ** 62, 4), (2 ** 63,), 'x', None, (3, 'a'), (2, 2 ** 64)])


def gen_creation(s):
    kind = s.choice(_w(('zeros', 3), ('full', 3), ('like', 3), ('arange', 3), ('linspace', 2), ('logspace', 1),
                       ('geomspace', 1), ('eye', 2), ('identity', 1), ('array', 3), ('asarray', 2)))
    if kind == 'zeros':
        fn = s.choice(['zeros', 'ones', 'empty'])
        dt, uns = _dtype_arg(s)
        kw = {}
        if dt is not None:
            kw['dtype'] = dt
        if s.chance(0.2):
            kw['order'] = s.choice(['C', 'F', 'A', 'K', 'X', None])
        return Case('creation', 'f:' + fn, [_shape_arg(s)], kw, check='meta' if fn == 'empty' else None,
                    unsupported=uns)
    if kind == 'full':
        dt, uns = _dtype_arg(s, unsupported=0.05)
        shape = _shape_arg(s) if s.chance(0.3) else gen_shape(s, max_dim=4)
        k = s.choice(_w(('scalar', 6), ('array', 2), ('bad', 1)))
        if k == 'scalar':
            fill = gen_scalar(s, bad=0)
        elif k == 'array':
            fs = broadcastable_shape(s, shape) if isinstance(shape, tuple) and s.chance(0.8) else \
                non_broadcastable_shape(s, shape if isinstance(shape, tuple) else ())
            fill = gen_arr(s, shape=fs, fill='castable' if dt is not None else None)
        else:
            fill = s.choice(['x', None, [1, 2, 3]])
        kw = {'dtype': dt} if dt is not None else {}
        pre = 'cast_defined'
        return Case('creation', 'f:full', [shape, fill], kw, unsupported=uns, pre=pre)
    if kind == 'like':
        fn = s.choice(['zeros_like', 'ones_like', 'empty_like', 'full_like'])
        a = gen_arr(s)
        args = [a]
        if fn == 'full_like':
            args.append(s.choice([0, 1, -1, 2.5, True, 1j, 300, float('nan')]))
        dt, uns = _dtype_arg(s, unsupported=0.05, none=0.5)
        kw = {}
        if dt is not None:
            kw['dtype'] = dt
        if s.chance(0.25):
            kw['shape'] = _shape_arg(s)
        if s.chance(0.15):
            kw['order'] = s.choice(['C', 'F', 'A', 'K'])
        return Case('creation', 'f:' + fn, args, kw, check='meta' if fn == 'empty_like' else None,
                    unsupported=uns or not a.supported(), pre='cast_defined')
    if kind == 'arange':
        ints = s.chance(0.6)
        if ints:
            vals = [s.integer(-6, 6), s.integer(-8, 12), s.choice([1, 2, 3, -1, -2, 0, 5])]
        else:
            vals = [s.choice([0.0, -1.5, 0.25, 2.0]), s.choice([3.0, 5.5, -2.0, 1e-3]),
                    s.choice([0.5, 1.0, -0.5, 0.3, 0.0, float('nan'), float('inf')])]
        n = s.integer(1, 3)
        args = vals[:1] if n == 1 else (vals[:2] if n == 2 else vals)
        kw = {}
        if s.chance(0.4):
            pool = SUPPORTED if ints else FLOATS + COMPLEX
            kw['dtype'] = s.choice(pool)
        if ints and kw.get('dtype') in ('bool',):
            kw['dtype'] = 'int8'
        if ints and any(v < 0 for v in args) and kw.get('dtype', '').startswith('uint'):
            kw['dtype'] = 'int16'
        return Case('creation', 'f:arange', args, kw)
    if kind in ('linspace', 'logspace', 'geomspace'):
        start = s.choice([0, 1, -2, 0.5, 3.25, 10, 1e-3])
        stop = s.choice([1, 5, -4.5, 10, 100.0, 0])
        num = s.choice(_w((5, 3), (0, 1), (1, 1), (2, 1), (50, 1), (-1, 1), (2.5, 1), (numpy.int64(4), 1)))
        kw = {}
        if s.chance(0.3):
            kw['endpoint'] = s.chance(0.5)
        if s.chance(0.4):
            kw['dtype'] = s.choice(('float32', 'float64', 'complex128') if kind != 'linspace' else
                                   ('float32', 'float64', 'complex64', 'int32', 'int64', 'float16'))
        if kind == 'linspace' and s.chance(0.2):
            kw['retstep'] = True
        if kind == 'logspace' and s.chance(0.3):
            kw['base'] = s.choice([2.0, 10, math.e])
        if kind == 'geomspace' and (start < 0) != (stop < 0):
            start = -start
        if not isinstance(num, int) or num < 0:  # one invalid argument at a time: NumPy's order of checks
            start, stop = (start or 1), (stop or 2)
        return Case('creation', 'f:' + kind, [start, stop, num], kw, tol=10)
    if kind == 'eye':
        args = [s.choice([0, 1, 3, 4, -1, 2.5])]
        kw = {}
        if s.chance(0.5):
            kw['M'] = s.choice([None, 0, 2, 5, -2])
        if s.chance(0.5):
            kw['k'] = s.choice([0, 1, -1, 3, -7, 2 ** 40])
        dt, uns = _dtype_arg(s, unsupported=0.05)
        if dt is not None:
            kw['dtype'] = dt
        return Case('creation', 'f:eye', args, kw, unsupported=uns)
    if kind == 'identity':
        dt, uns = _dtype_arg(s, unsupported=0.05)
        return Case('creation', 'f:identity', [s.choice([0, 1, 4, -2])], {'dtype': dt} if dt is not None else {},
                    unsupported=uns)
    if kind == 'array':
        obj = _nested(s, s.integer(0, 3))
        kw = {}
        uns = False
        if s.chance(0.4):
            dt, uns = _dtype_arg(s, unsupported=0.05, none=0)
            kw['dtype'] = dt
        if s.chance(0.2):
            kw['ndmin'] = s.integer(0, 4)
        fn = s.choice(['array', 'asarray'])
        if fn == 'asarray':
            kw.pop('ndmin', None)
        return Case('creation', 'f:' + fn, [obj], kw, unsupported=uns, pre='cast_defined')
    # asarray of a host array (any dtype, incl. unsupported ones and non-contiguous views)
    a = gen_arr(s, dtype=gen_dtype(s, unsupported=0.2), host=True)
    kw = {}
    uns = not a.supported()
    if s.chance(0.3):
        dt, uns = _dtype_arg(s, unsupported=0.05, none=0)
        kw['dtype'] = dt  # a supported dtype= converts host data of any dtype on the host: fine
    return Case('creation', 'f:' + s.choice(['asarray', 'array', 'ascontiguousarray']), [a], kw,
                unsupported=uns, pre='cast_defined')


def _nested(s, depth):
    """A (nested) list of Python scalars, sometimes ragged or holding odd values."""
    if depth == 0:
        v = s.choice(_w(('int', 4), ('float', 3), ('bool', 1), ('complex', 1), ('big', 1), ('odd', 1)))
        if v == 'int':
            return s.integer(-5, 5)
        if v == 'float':
            return s.choice([0.5, -1.25, 3.0, float('nan'), float('inf')])
        if v == 'bool':
            return s.chance(0.5)
        if v == 'complex':
            return complex(s.integer(-2, 2), s.integer(-2, 2))
        if v == 'big':
            return s.choice([2 ** 63, 2 ** 64 - 1, 2 ** 70, -2 ** 63])
        return s.choice([None, 'x', numpy.float32(2.5), numpy.int8(-1)])
    n = s.integer(0, 3)
    items = [_nested(s, depth - 1) for _ in range(n)]
    if n >= 2 and s.chance(0.1):
        items[-1] = _nested(s, max(0, depth - 2))  # ragged
    return items if s.chance(0.8) else tuple(items)


UNARY_UFUNCS = ('negative', 'positive', 'absolute', 'fabs', 'rint', 'sign', 'conjugate', 'exp', 'exp2', 'log',
                'log2', 'log10', 'expm1', 'log1p', 'sqrt', 'square', 'cbrt', 'reciprocal', 'sin', 'cos', 'tan',
                'arcsin', 'arccos', 'arctan', 'sinh', 'cosh', 'tanh', 'arcsinh', 'arccosh', 'arctanh', 'deg2rad',
                'rad2deg', 'floor', 'ceil', 'trunc', 'isfinite', 'isinf', 'isnan', 'signbit', 'spacing',
                'invert', 'logical_not', 'modf', 'frexp', 'bitwise_count')
BINARY_UFUNCS = ('add', 'subtract', 'multiply', 'divide', 'true_divide', 'floor_divide', 'remainder', 'fmod',
                 'divmod', 'power', 'float_power', 'arctan2', 'hypot', 'logaddexp', 'logaddexp2', 'maximum',
                 'minimum', 'fmax', 'fmin', 'copysign', 'nextafter', 'ldexp', 'heaviside', 'gcd', 'lcm',
                 'bitwise_and', 'bitwise_or', 'bitwise_xor', 'left_shift', 'right_shift', 'logical_and',
                 'logical_or', 'logical_xor', 'equal', 'not_equal', 'less', 'less_equal', 'greater',
                 'greater_equal')
_POWERS = ('power', '**', '**=')
_SMALL_INT_OPS = ('gcd', 'lcm')


def _operand(s, shape, dtype=None, fill=None, scalar=0.25, bad=0.03):
    if s.chance(scalar):
        return gen_scalar(s, bad=bad)
    return gen_arr(s, shape=shape, dtype=dtype, fill=fill)


def _ufunc_loop_dtype(name, args, kw):
    """The dtype char of NumPy's loop for ufunc `name` on `args` (dtype= applies, out= does not), or None.

    The loop, not the result or out=, sets the precision: tan(uint16, out=complex128) computes in float32 (the
    'f->f' loop) and casts, so it carries float32 rounding (a GPU tanf and NumPy's may differ by an ulp) and is
    compared at float32's tolerance (_close)."""
    def arg(v):
        return numpy.ones(1, dtype=v.dtype) if isinstance(v, Arr) else v

    try:
        with numpy.errstate(all='ignore'), warnings.catch_warnings():
            warnings.simplefilter('ignore')
            r = getattr(numpy, name)(*[arg(v) for v in args], **({'dtype': kw['dtype']} if 'dtype' in kw else {}))
    except Exception:  # noqa: BLE001 (the call's own error is the case's business)
        return None
    r = r[0] if isinstance(r, tuple) else r
    return numpy.asarray(r).dtype.char


def gen_elementwise(s):
    kind = s.choice(_w(('binop', 5), ('binufunc', 5), ('unufunc', 4), ('unop', 1), ('iop', 2), ('where', 1),
                       ('clip', 1), ('around', 1), ('astype', 2), ('copyto', 1)))
    unsup = 0.03
    if kind in ('binop', 'binufunc', 'iop'):
        shape = gen_shape(s)
        name = s.choice(list(_BINOPS)[:-1] if kind == 'binop' else
                        (list(_IOPS) if kind == 'iop' else BINARY_UFUNCS))
        fill = 'small' if name in _SMALL_INT_OPS else None
        a = gen_arr(s, shape=shape, dtype=gen_dtype(s, unsupported=unsup), fill=fill)
        r = s.choice(_w(('same', 3), ('bcast', 3), ('scalar', 3), ('nobcast', 1)))
        if r == 'scalar':
            b = gen_scalar(s)
        else:
            bshape = shape if r == 'same' else (broadcastable_shape(s, shape) if r == 'bcast'
                                                else non_broadcastable_shape(s, shape))
            b = gen_arr(s, shape=bshape, dtype=s.choice(SUPPORTED) if s.chance(0.5) else a.dtype, fill=fill)
        swap = kind != 'iop' and s.chance(0.3)
        args = [b, a] if swap else [a, b]
        if name in _POWERS:
            args[1] = _nonneg_exponent(s, args[1])
        uns = any(isinstance(x, Arr) and not x.supported() for x in args)
        if kind in ('binop', 'iop'):
            return Case('elementwise', 'op:' + name, args, unsupported=uns, pre='elementwise')
        kw = {}
        out = None
        if s.chance(0.2) and name != 'divmod':
            kw['dtype'] = s.choice(SUPPORTED + ('object',))
            uns = uns or kw['dtype'] == 'object'
        if s.chance(0.15) and name != 'divmod':
            try:
                oshape = numpy.broadcast_shapes(a.shape, b.shape if isinstance(b, Arr) else ())
            except ValueError:
                oshape = shape
            if s.chance(0.15):
                oshape = non_broadcastable_shape(s, oshape)
            kw['out'] = gen_arr(s, shape=oshape, dtype=s.choice(SUPPORTED), fill='small', view=False)
            out = 'out'
            if s.chance(0.4):
                kw['where'] = gen_arr(s, shape=broadcastable_shape(s, oshape), dtype='bool', view=False)
        if s.chance(0.1):
            kw['casting'] = s.choice(['unsafe', 'safe', 'same_kind', 'no', 'bogus'])
        return Case('elementwise', 'f:' + name, args, kw, out=out, unsupported=uns, pre='elementwise',
                    extra={'loop_dtype': _ufunc_loop_dtype(name, args, kw)})
    if kind == 'unufunc':
        name = s.choice(UNARY_UFUNCS)
        fill = 'small' if name == 'frexp' else ('nonzero' if name == 'reciprocal' else None)
        a = gen_arr(s, dtype=gen_dtype(s, unsupported=unsup), fill=fill) if s.chance(0.92) else gen_scalar(s)
        kw = {}
        out = None
        if isinstance(a, Arr) and s.chance(0.15) and name not in ('modf', 'frexp'):
            kw['out'] = gen_arr(s, shape=a.shape if s.chance(0.85) else non_broadcastable_shape(s, a.shape),
                                dtype=s.choice(SUPPORTED), fill='small', view=False)
            out = 'out'
        if s.chance(0.1) and name not in ('modf', 'frexp'):
            kw['dtype'] = s.choice(SUPPORTED)
        uns = isinstance(a, Arr) and not a.supported()
        return Case('elementwise', 'f:' + name, [a], kw, out=out, unsupported=uns, pre='cast_defined',
                    extra={'loop_dtype': _ufunc_loop_dtype(name, [a], kw)})
    if kind == 'unop':
        a = gen_arr(s, dtype=gen_dtype(s, unsupported=unsup))
        return Case('elementwise', 'op:u' + s.choice(list(_UNOPS)), [a], unsupported=not a.supported())
    if kind == 'where':
        shape = gen_shape(s)
        cond = gen_arr(s, shape=broadcastable_shape(s, shape) if s.chance(0.9) else non_broadcastable_shape(s, shape),
                       dtype=s.choice(['bool'] * 4 + list(SUPPORTED)))
        x = _operand(s, shape)
        y = _operand(s, broadcastable_shape(s, shape))
        if s.chance(0.1):
            return Case('elementwise', 'f:where', [cond], check=None)
        return Case('elementwise', 'f:where', [cond, x, y], unsupported=False)
    if kind == 'clip':
        a = gen_arr(s, dtype=s.choice(SUPPORTED[1:]))
        lo = s.choice([None, 0, -1, 2.5, -3])
        hi = s.choice([None, 1, 5, 0.5, -5])
        if s.chance(0.2):
            lo = gen_arr(s, shape=broadcastable_shape(s, a.shape), dtype=a.dtype, fill='small')
        return Case('elementwise', 'f:clip', [a, lo, hi])
    if kind == 'around':
        a = gen_arr(s, dtype=s.choice(SUPPORTED[1:]))
        return Case('elementwise', 'f:around', [a], {'decimals': s.choice([0, 1, 2, -1, -2])})
    if kind == 'astype':
        src = gen_dtype(s)
        dst, uns = _dtype_arg(s, unsupported=0.05, none=0, bad=0.02)
        fill = None
        if numpy.dtype(src).kind in 'fc' and dst is not None and not uns and dst not in ('int7', 'foo', 'f3') \
                and numpy.dtype(dst).kind in 'iub':
            fill = 'castable'
        a = gen_arr(s, dtype=src, fill=fill)
        kw = {}
        if s.chance(0.3):
            kw['casting'] = s.choice(['unsafe', 'safe', 'same_kind', 'no', 'equiv', 'bogus'])
        if s.chance(0.2):
            kw['copy'] = s.chance(0.5)
        return Case('elementwise', 'm:astype', [a, dst], kw, unsupported=uns, pre='cast_defined')
    # copyto(dst, src, casting=, where=)
    dst = gen_arr(s, dtype=s.choice(SUPPORTED), fill='small')
    src = _operand(s, broadcastable_shape(s, dst.shape) if s.chance(0.85) else non_broadcastable_shape(s, dst.shape),
                   fill='castable')
    kw = {}
    if s.chance(0.5):
        kw['casting'] = s.choice(['unsafe', 'safe', 'same_kind', 'no'])
    if s.chance(0.3):
        kw['where'] = gen_arr(s, shape=broadcastable_shape(s, dst.shape), dtype='bool', view=False)
    return Case('elementwise', 'f:copyto', [dst, src], kw, mutates=0, pre='cast_defined')


def _nonneg_exponent(s, b):
    """Exponents of integer powers are never negative integers (cuarray documents 1 // a**-b instead of NumPy's
    ValueError)."""
    if isinstance(b, Arr):
        if b.np_dtype().kind in 'iub':
            b.fill = 'nonneg'
        return b
    if _is_intlike(b) and b < 0:
        return -b if -b < 2 ** 63 else 3
    return b


REDUCTIONS = ('sum', 'prod', 'max', 'min', 'amax', 'amin', 'argmax', 'argmin', 'nanmax', 'nanmin', 'nansum',
              'nanprod', 'nanmean', 'nanargmax', 'nanargmin', 'mean', 'var', 'std', 'nanvar', 'nanstd', 'any', 'all',
              'count_nonzero', 'ptp')
_METHOD_REDUCTIONS = ('sum', 'prod', 'max', 'min', 'argmax', 'argmin', 'mean', 'var', 'std', 'any', 'all')
_ARG_REDUCTIONS = ('argmax', 'argmin', 'nanargmax', 'nanargmin')


def gen_reduction(s):
    name = s.choice(REDUCTIONS)
    dt = gen_dtype(s, unsupported=0.02)
    # No huge finite floats: whether a sum overflows would depend on the order of summation.
    fill = s.choice(_w(('small', 5), ('special_nohuge', 2), ('finite', 1), ('any', 1)))
    if fill == 'any' and numpy.dtype(dt).kind in 'fc':
        fill = 'finite'
    shape = gen_shape(s, max_dim=6)
    if name in ('prod', 'nanprod'):
        # Powers of two of small size: products are exact in any order and never overflow float16.
        fill = s.choice(['unit', 'unit', 'special_nohuge'] + (['any'] if numpy.dtype(dt).kind in 'iub' else []))
        shape = gen_shape(s, max_dim=3, max_ndim=2)
    x = gen_arr(s, dtype=dt, fill=fill, shape=shape)
    nd = len(x.shape)
    kw = {}
    is_arg = name in _ARG_REDUCTIONS
    if s.chance(0.8):
        kw['axis'] = gen_axis(s, nd, allow_tuple=not is_arg)
    if s.chance(0.3):
        kw['keepdims'] = s.chance(0.7)
    if name in ('sum', 'prod', 'mean', 'var', 'std', 'nansum', 'nanprod', 'nanmean') and s.chance(0.15):
        dtv, _ = _dtype_arg(s, unsupported=0.05, none=0, bad=0)
        if x.np_dtype().kind in 'fc' and numpy.dtype(dtv).kind in 'iub':
            x.fill = 'castable'
        kw['dtype'] = dtv
    if name in ('var', 'std', 'nanvar', 'nanstd') and s.chance(0.3):
        kw['ddof'] = s.choice([0, 1, 2, 5, 0.5, -1])
    if name in ('sum', 'prod', 'max', 'min', 'amax', 'amin', 'nansum', 'nanprod', 'nanmax', 'nanmin') and \
            s.chance(0.15):
        kw['initial'] = s.choice([0, 1, -5, 2.5, 100])
    if name in ('sum', 'prod', 'max', 'min', 'mean', 'any', 'all') and s.chance(0.1):
        kw['where'] = gen_arr(s, shape=broadcastable_shape(s, x.shape), dtype='bool', view=False)
    out = None
    if name != 'count_nonzero' and s.chance(0.15):
        want = _reduced_shape(x.shape, kw.get('axis'), kw.get('keepdims', False))
        if want is not None:
            if s.chance(0.2):
                want = non_broadcastable_shape(s, want)
            odt = s.choice(['float64', 'int64', 'complex128', 'bool', x.dtype if x.supported() else 'float64'])
            if name in ('prod', 'nanprod') and numpy.dtype(odt).kind in 'iu' and x.np_dtype().kind in 'fc':
                odt = 'float64'  # a float product can overflow to inf, whose cast to an integer is undefined
            if x.np_dtype().kind in 'fc' and numpy.dtype(odt).kind in 'iub':
                x.fill = 'castable'
            kw['out'] = gen_arr(s, shape=want, dtype=odt, fill='small', view=False)
            out = 'out'
    if 'where' in kw and name in ('max', 'min') and 'initial' not in kw and s.chance(0.7):
        kw['initial'] = 0
    scale = {'sum': 'sum', 'nansum': 'sum', 'mean': 'sum', 'nanmean': 'sum', 'var': 'sq', 'nanvar': 'sq',
             'std': 'sqrt', 'nanstd': 'sqrt'}.get(name)
    method = name in _METHOD_REDUCTIONS and s.chance(0.3)
    op = ('m:' if method else 'f:') + name
    args = [x]
    if name == 'count_nonzero':
        kw.pop('out', None)
        kw.pop('dtype', None)
    if out and 'out' not in kw:
        out = None
    return Case('reduction', op, args, kw, out=out, tol=4, scale=scale, unsupported=not x.supported(),
                pre='cast_defined')


def _reduced_shape(shape, axis, keepdims):
    try:
        return numpy.sum(numpy.zeros(shape), axis=axis, keepdims=keepdims).shape
    except Exception:  # noqa: BLE001 - an invalid axis: the case checks the error instead
        return None


def gen_sorting(s):
    kind = s.choice(_w(('sort', 3), ('argsort', 3), ('msort', 1), ('partition', 3), ('argpartition', 2),
                       ('searchsorted', 3), ('unique', 3), ('sort_complex', 1), ('lexsort', 1)))
    dt = gen_dtype(s, unsupported=0.02)
    if kind in ('sort', 'argsort', 'msort'):
        x = gen_arr(s, dtype=dt, fill=s.choice(['any', 'small', 'special']))
        kw = {}
        if s.chance(0.6):
            nd = len(x.shape)
            kw['axis'] = s.choice(_w((-1, 3), (0, 3), (1, 1), (None, 3), (nd, 1), (-nd - 1, 1), (2 ** 32, 1),
                                     (1.5, 1)))
        if s.chance(0.3):
            kw['kind'] = s.choice(['stable', 'quicksort', 'mergesort', 'heapsort', 'stable', None, 'bogus'])
        if s.chance(0.1):
            kw['stable'] = s.chance(0.5)
        if kind == 'msort':  # the in-place method
            ax = kw.pop('axis', -1)
            if ax is None:
                ax = -1
            kw['axis'] = ax
            return Case('sorting', 'm:sort', [x], kw, mutates=0, unsupported=not x.supported())
        check = None
        if kind == 'argsort' and not (kw.get('kind') in ('stable', 'mergesort') or kw.get('stable')):
            check = 'argsort'
        return Case('sorting', 'f:' + kind, [x], kw, check=check, unsupported=not x.supported(),
                    extra={'axis': kw.get('axis', -1)}, pre='negzero')
    if kind in ('partition', 'argpartition'):
        x = gen_arr(s, dtype=dt, fill=s.choice(['any', 'small', 'special']), shape=gen_shape(s, max_dim=6))
        axis = s.choice(_w((-1, 6), (0, 3), (None, 3), (len(x.shape), 1), (5, 1)))
        n = (int(numpy.prod(x.shape)) if axis is None else
             (x.shape[axis] if isinstance(axis, int) and -len(x.shape) <= axis < len(x.shape) else 3))
        kth = s.choice(_w(('in', 6), ('neg', 3), ('list', 3), ('oob', 1), ('bad', 1)))
        if kth == 'in':
            kth = s.integer(0, max(0, n - 1))
        elif kth == 'neg':
            kth = -s.integer(1, max(1, n))
        elif kth == 'list':
            kth = [s.integer(-n, max(0, n - 1)) for _ in range(s.integer(1, 3))] if n else [0]
        elif kth == 'oob':
            kth = s.choice([n, -n - 1, 2 ** 40])
        else:
            kth = s.choice([1.0, 'x', [[0]], numpy.array([0.0])])
        kw = {'axis': axis} if axis != -1 or s.chance(0.5) else {}
        method = kind == 'partition' and s.chance(0.3) and axis is not None
        if method:
            return Case('sorting', 'm:partition', [x, kth], kw, check='partition', mutates=0,
                        unsupported=not x.supported(), extra={'axis': axis, 'kth': kth, 'in_place': True})
        return Case('sorting', 'f:' + kind, [x, kth], kw, check=kind, unsupported=not x.supported(),
                    extra={'axis': axis, 'kth': kth})
    if kind == 'searchsorted':
        n = s.integer(0, 8)
        a = gen_arr(s, shape=(n,) if s.chance(0.92) else (2, 2), dtype=dt, fill='sorted', view=False)
        v = gen_arr(s, dtype=s.choice([dt] * 3 + list(SUPPORTED))) if s.chance(0.6) else gen_scalar(s)
        kw = {}
        if s.chance(0.4):
            kw['side'] = s.choice(['left', 'right', 'left', 'right', 'bogus', None])
        if s.chance(0.1) and n:
            kw['sorter'] = Arr((n,), 'int64', 0, fill='perm0')  # the identity permutation (a is sorted)
        # A str or bytes v: NumPy finds a common string dtype and compares text ('x' sorts after any number's
        # repr); cuarray has no string dtypes, so that is a TypeError (as CuPy), also for a 2-d a.
        return Case('sorting', 'f:searchsorted', [a, v], kw,
                    unsupported=not a.supported() or isinstance(v, (str, bytes)))
    if kind == 'unique':
        x = gen_arr(s, dtype=dt, fill=s.choice(['small', 'special', 'any']))
        kw = {}
        for k in ('return_index', 'return_inverse', 'return_counts'):
            if s.chance(0.3):
                kw[k] = True
        if s.chance(0.2):
            kw['axis'] = s.choice([0, -1, 1, len(x.shape), None])
        if s.chance(0.15):
            kw['equal_nan'] = s.chance(0.5)
        return Case('sorting', 'f:unique', [x], kw, unsupported=not x.supported(), pre='negzero')
    if kind == 'sort_complex':
        x = gen_arr(s, dtype=dt)
        return Case('sorting', 'f:sort_complex', [x], unsupported=not x.supported())
    n = s.integer(0, 6)
    keys = [gen_arr(s, shape=(n,), dtype=s.choice(SUPPORTED), fill='small') for _ in range(s.integer(1, 3))]
    if s.chance(0.1):
        keys[-1] = gen_arr(s, shape=(n + 1,), dtype='int64', fill='small')
    return Case('sorting', 'f:lexsort', [tuple(keys) if s.chance(0.5) else keys], pre='negzero')


# ---- indexing -----------------------------------------------------------------------------------------------------

_INDEX_DTYPES = ('int64', 'int64', 'int32', 'int8', 'uint8', 'uint64', 'int16', 'uint32')


def gen_key(s, shape):
    """An index for an array of `shape`: a tuple (or a single item) of ints, slices, None, Ellipsis, integer and
    boolean arrays and lists, with some invalid items (out of range, floats, strings, two ellipses, too many
    indices, wrong mask lengths)."""
    nd = len(shape)
    n_items = s.integer(0, nd + 1 if s.chance(0.1) else max(nd, 1))
    kinds = []
    for _ in range(n_items):
        kinds.append(s.choice(_w(('int', 4), ('slice', 5), ('none', 1), ('intarr', 3), ('boolarr', 2),
                                 ('list', 1), ('ellipsis', 1), ('bad', 1), ('npint', 1), ('boolscalar', 1))))
    if kinds.count('ellipsis') > 1 and not s.chance(0.2):
        kinds = [k for i, k in enumerate(kinds) if k != 'ellipsis' or i == kinds.index('ellipsis')]

    def consumes(k):
        return 0 if k in ('none', 'ellipsis', 'boolscalar') else 1

    axes = []
    if 'ellipsis' in kinds:
        e = kinds.index('ellipsis')
        pos = 0
        for k in kinds[:e]:
            axes.append(pos)
            pos += consumes(k)
        axes.append(None)
        after = sum(consumes(k) for k in kinds[e + 1:])
        pos = max(pos, nd - after)
        for k in kinds[e + 1:]:
            axes.append(pos)
            pos += consumes(k)
    else:
        pos = 0
        for k in kinds:
            axes.append(pos)
            pos += consumes(k)
    adv_shape = None
    items = []
    for k, ax in zip(kinds, axes):
        d = shape[ax] if ax is not None and ax < nd else 3
        if k == 'int':
            if s.chance(0.12):
                items.append(s.choice([d, -d - 1, d + 5, 2 ** 63 - 1, -2 ** 63]))
            else:
                items.append(s.integer(-d, d - 1) if d else 0)
        elif k == 'npint':
            items.append(s.choice([numpy.int64, numpy.uint8, numpy.int32, numpy.uint64])(s.integer(0, max(0, d - 1))))
        elif k == 'slice':
            def bound():
                return s.choice([None, None, 0, 1, -1, d, -d, d + 3, -d - 3, 2])
            step = s.choice([None, None, 1, 2, -1, -2, 3, 0 if s.chance(0.1) else None])
            items.append(slice(bound(), bound(), step))
        elif k == 'none':
            items.append(None)
        elif k == 'ellipsis':
            items.append(Ellipsis)
        elif k == 'boolscalar':
            items.append(s.chance(0.5))
        elif k == 'intarr':
            if adv_shape is None or s.chance(0.2):
                adv_shape = s.choice([(2,), (3,), (0,), (1,), (2, 2), (), (4,)])
            ashape = adv_shape if s.chance(0.85) else s.choice([(1,), (2, 1), (5,)])
            oob = s.chance(0.1) or d == 0
            fill = ('int', -d - 2, d + 1) if oob else ('int', -d, d - 1)
            dt = s.choice(_INDEX_DTYPES)
            if dt.startswith('uint'):
                fill = ('int', 0, d + 1 if oob else d - 1)
            items.append(Arr(ashape, dt, s.seed(), fill))
        elif k == 'boolarr':
            k2 = 2 if (ax is not None and ax + 1 < nd and s.chance(0.3)) else 1
            mshape = tuple(shape[ax:ax + k2]) if ax is not None and ax < nd else (3,)
            if len(mshape) < k2:
                mshape = mshape + (2,)
            if s.chance(0.1):
                mshape = non_broadcastable_shape(s, mshape)
            items.append(Arr(mshape, 'bool', s.seed(), 'any'))
        elif k == 'list':
            if s.chance(0.25):
                items.append([s.chance(0.5) for _ in range(d)])
            else:
                items.append([s.integer(-d, d - 1) if d else 0 for _ in range(s.integer(0, 3))])
        else:
            items.append(s.choice([1.0, 'x', Arr((2,), 'float64', s.seed(), 'small'), [1.5], (0,), {}, 2 ** 70]))
    if len(items) == 1 and s.chance(0.5) and not isinstance(items[0], tuple):
        return items[0]
    return tuple(items)


def gen_getitem(s):
    x = gen_arr(s, shape=gen_shape(s, max_dim=5, max_ndim=3), dtype=gen_dtype(s))
    key = gen_key(s, x.shape)
    return Case('getitem', 'op:getitem', [x, key])


def _np_index_shape(shape, key):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter('ignore')
            return numpy.empty(shape)[materialize(key, numpy)].shape
    except Exception:  # noqa: BLE001 - an invalid key: any value shape
        return None


def gen_setitem(s):
    x = gen_arr(s, shape=gen_shape(s, max_dim=5, max_ndim=3), dtype=gen_dtype(s))
    key = gen_key(s, x.shape)
    rshape = _np_index_shape(x.shape, key)
    xk = x.np_dtype().kind
    k = s.choice(_w(('scalar', 5), ('array', 7), ('list', 1), ('bad', 1)))
    if k == 'scalar':
        v = gen_scalar(s, bad=0)
        if xk in 'iub' and isinstance(v, (float, numpy.floating)) and not math.isfinite(float(v)) and s.chance(0.5):
            v = 2.5
    elif k == 'bad':
        v = s.choice(['x', None, 'x', None, [1, 'x'], {}])
    else:
        if rshape is None:
            vshape = gen_shape(s)
        else:
            vshape = s.choice(_w(('exact', 4), ('bcast', 3), ('wrong', 2)))
            vshape = (rshape if vshape == 'exact' else broadcastable_shape(s, rshape) if vshape == 'bcast'
                      else non_broadcastable_shape(s, rshape))
        vdt = gen_dtype(s) if s.chance(0.5) else x.dtype
        fill = 'castable' if xk in 'iub' and numpy.dtype(vdt).kind in 'fc' else None
        v = gen_arr(s, shape=vshape, dtype=vdt, fill=fill)
        if k == 'list' and len(vshape) <= 2 and int(numpy.prod(vshape)) <= 12:
            v = Arr(v.shape, v.dtype, v.seed, v.fill, name='list')
    return Case('setitem', 'op:setitem', [x, key, v], pre='setitem')


def gen_takeput(s):
    kind = s.choice(_w(('take', 4), ('put', 3), ('compress', 2), ('take_along_axis', 2), ('put_along_axis', 2),
                       ('place', 1), ('putmask', 1), ('choose', 1)))
    x = gen_arr(s, shape=gen_shape(s, max_dim=5), dtype=gen_dtype(s))
    nd = len(x.shape)
    size = int(numpy.prod(x.shape)) if x.shape else 1
    if kind == 'take':
        axis = s.choice(_w((None, 4), (0, 3), (-1, 3), (1, 1), (nd, 1), (2 ** 33, 1))) if nd else \
            s.choice([None, 0])
        d = size if axis is None else (x.shape[axis] if isinstance(axis, int) and -nd <= axis < nd else 3)
        mode = s.choice(_w((None, 4), ('raise', 2), ('wrap', 2), ('clip', 2), ('bogus', 1)))
        oob = s.chance(0.2) or d == 0
        lo, hi = (-d - 3, d + 2) if oob or mode in ('wrap', 'clip') else (-d, d - 1)
        idx = s.choice(_w(('arr', 4), ('list', 1), ('int', 1), ('bad', 1)))
        if idx == 'arr':
            idx = Arr(s.choice([(3,), (0,), (2, 2), (), (5,)]), s.choice(_INDEX_DTYPES), s.seed(),
                      ('int', lo if not s.chance(0.1) else 0, hi))
            if idx.dtype.startswith('uint'):
                idx.fill = ('int', 0, hi)
        elif idx == 'list':
            idx = [s.integer(lo, hi) for _ in range(s.integer(0, 4))]
        elif idx == 'int':
            idx = s.integer(lo, hi)
        else:
            idx = s.choice([1.5, Arr((2,), 'float64', s.seed(), 'small'), 'x', [0.5]])
        kw = {}
        if axis is not None or s.chance(0.5):
            kw['axis'] = axis
        if mode is not None:
            kw['mode'] = mode
        out = None
        if s.chance(0.1):
            want = _np_take_shape(x, idx, axis)
            if want is not None:
                kw['out'] = Arr(want, x.dtype, s.seed(), 'small')
                out = 'out'
        method = s.chance(0.25)
        return Case('takeput', 'm:take' if method else 'f:take', [x, idx], kw, out=out)
    if kind == 'put':
        mode = s.choice(_w((None, 4), ('raise', 2), ('wrap', 2), ('clip', 2), ('bogus', 1)))
        oob = s.chance(0.2) or size == 0
        lo, hi = (-size - 3, size + 2) if oob or mode in ('wrap', 'clip') else (-size, size - 1)
        n = s.integer(0, 4)
        ind = s.choice([Arr((n,), s.choice(_INDEX_DTYPES[:4]), s.seed(), ('int', lo, hi)),
                        [s.integer(lo, hi) for _ in range(n)], s.integer(lo, hi)])
        v = s.choice([gen_scalar(s, bad=0.1), gen_arr(s, shape=(s.integer(0, 4),), dtype=x.dtype, fill='small'),
                      gen_arr(s, shape=(2,), dtype=gen_dtype(s), fill='castable')])
        kw = {'mode': mode} if mode is not None else {}
        return Case('takeput', s.choice(['f:put', 'm:put']), [x, ind, v], kw, mutates=0, pre='put')
    if kind == 'compress':
        axis = s.choice([None, 0, -1, nd, 1]) if nd else None
        d = size if axis is None else (x.shape[axis] if isinstance(axis, int) and -nd <= axis < nd else 2)
        n = d if s.chance(0.7) else s.choice([0, d + 2, max(0, d - 1)])
        cond = s.choice([Arr((n,), 'bool', s.seed()), [s.chance(0.5) for _ in range(n)],
                         Arr((n,), 'int64', s.seed(), ('int', 0, 2))])
        kw = {'axis': axis} if axis is not None or s.chance(0.3) else {}
        return Case('takeput', 'f:compress', [cond, x], kw)
    if kind == 'take_along_axis':
        axis = s.choice(_w((-1, 4), (0, 3), (1, 1), (None, 2), (nd, 1))) if nd else None
        if axis is None:
            ishape = (s.integer(0, 4),)
            d = size
        elif -nd <= axis < nd:
            ishape = list(x.shape)
            ishape[axis] = s.integer(0, 3)
            if s.chance(0.2):
                ishape[s.integer(0, nd - 1)] = 1
            d = x.shape[axis]
            ishape = tuple(ishape)
        else:
            ishape, d = x.shape, 2
        oob = s.chance(0.1) or d == 0
        idx = Arr(ishape, s.choice(['int64', 'int32', 'int8']), s.seed(),
                  ('int', -d - 2, d + 1) if oob else ('int', -d, d - 1))
        if s.chance(0.1):
            idx = Arr(ishape, 'float64', s.seed(), 'small')
        return Case('takeput', 'f:take_along_axis', [x, idx], {'axis': axis})
    if kind == 'put_along_axis':
        axis = s.choice(_w((-1, 4), (0, 3), (None, 2), (nd, 1))) if nd else None
        if axis is None:
            ishape, d = (s.integer(0, 3),), size
        elif -nd <= axis < nd:
            ishape = list(x.shape)
            ishape[axis] = s.integer(0, 2)
            ishape, d = tuple(ishape), x.shape[axis]
        else:
            ishape, d = x.shape, 2
        oob = s.chance(0.1) or d == 0
        idx = Arr(ishape, 'int64', s.seed(), ('int', -d - 2, d + 1) if oob else ('int', -d, d - 1))
        v = s.choice([gen_scalar(s, bad=0.05), gen_arr(s, shape=ishape, dtype=x.dtype, fill='small'),
                      gen_arr(s, shape=(1,), dtype=x.dtype, fill='small')])
        return Case('takeput', 'f:put_along_axis', [x, idx, v, axis], mutates=0, pre='put_along_axis')
    if kind == 'place':
        mask = Arr(x.shape if s.chance(0.85) else non_broadcastable_shape(s, x.shape), 'bool', s.seed())
        vals = s.choice([gen_arr(s, shape=(s.integer(0, 4),), dtype=x.dtype, fill='small'), gen_scalar(s, bad=0.05),
                         [1, 2]])
        return Case('takeput', 'f:place', [x, mask, vals], mutates=0)
    if kind == 'putmask':
        mask = Arr(x.shape if s.chance(0.85) else non_broadcastable_shape(s, x.shape), 'bool', s.seed())
        vals = s.choice([gen_arr(s, shape=(s.integer(0, 4),), dtype=x.dtype, fill='small'), gen_scalar(s, bad=0.05),
                         gen_arr(s, shape=x.shape, dtype=x.dtype, fill='small')])
        return Case('takeput', 'f:putmask', [x, mask, vals], mutates=0)
    # choose(a, choices, mode)
    n = s.integer(1, 3)
    shape = gen_shape(s, max_dim=4)
    mode = s.choice(['raise', 'wrap', 'clip', None])
    a = Arr(shape, s.choice(['int64', 'int8', 'int32']), s.seed(),
            ('int', -2, n + 1) if mode in ('wrap', 'clip') or s.chance(0.1) else ('int', 0, n - 1))
    choices = [gen_arr(s, shape=broadcastable_shape(s, shape), dtype=x.dtype, fill='small') for _ in range(n)]
    kw = {'mode': mode} if mode else {}
    return Case('takeput', 'f:choose', [a, choices], kw)


def _np_take_shape(x, idx, axis):
    try:
        return numpy.take(numpy.zeros(x.shape), materialize(idx, numpy), axis=axis, mode='clip').shape
    except Exception:  # noqa: BLE001
        return None


# ---- manipulation -------------------------------------------------------------------------------------------------

def gen_manipulation(s):
    kind = s.choice(_w(('reshape', 3), ('transpose', 2), ('concatenate', 3), ('stack', 2), ('squeeze', 1),
                       ('expand_dims', 1), ('moveaxis', 1), ('swapaxes', 1), ('flip', 2), ('roll', 2), ('tile', 2),
                       ('repeat', 2), ('pad', 2), ('broadcast_to', 1), ('split', 1), ('ravel', 1), ('rot90', 1),
                       ('hvstack', 1), ('delete', 1), ('insert', 1), ('append', 1), ('resize', 1), ('atleast', 1)))
    x = gen_arr(s, shape=gen_shape(s, max_dim=4), dtype=gen_dtype(s, unsupported=0.02))
    nd = len(x.shape)
    size = int(numpy.prod(x.shape)) if x.shape else 1
    uns = not x.supported()

    def C(op, args, kw=None, **k):
        return Case('manipulation', op, args, kw, unsupported=uns, **k)

    def bad_axis():
        return s.choice([nd, -nd - 1, 2 ** 32, 2 ** 31 + 1, 1.5, 'x', True])

    def axis(valid=0.85):
        if s.chance(valid) and nd:
            return s.integer(-nd, nd - 1)
        return bad_axis()

    if kind == 'reshape':
        k = s.choice(_w(('perm', 3), ('minus', 2), ('bad', 1), ('int', 1)))
        if k == 'perm':
            shp = _factor_shape(s, size)
        elif k == 'minus':
            shp = list(_factor_shape(s, size)) or [1]
            shp[s.integer(0, len(shp) - 1)] = -1
            if s.chance(0.1):
                shp = shp + [-1]
            shp = tuple(shp)
        elif k == 'int':
            shp = size if s.chance(0.8) else size + 1
        else:
            shp = s.choice([(size + 1,), (-2,), (2.0,), 'x', (-1, -1), (0, -1)])
        kw = {}
        if s.chance(0.3):
            kw['order'] = s.choice(['C', 'F', 'A', 'X'])
        if s.chance(0.5):
            return C('m:reshape', [x, shp], kw)
        return C('f:reshape', [x, shp], kw)
    if kind == 'transpose':
        if s.chance(0.3):
            return C('f:transpose', [x])
        perm = list(range(nd))
        _shuffle(s, perm)
        if s.chance(0.2) and nd:
            perm[0] = perm[-1] if nd > 1 and s.chance(0.5) else nd
        if s.chance(0.1):
            perm = perm[:-1] if perm else [0]
        perm = [p - nd if s.chance(0.2) else p for p in perm]
        return C('f:transpose', [x, tuple(perm) if s.chance(0.7) else list(perm)])
    if kind in ('concatenate', 'stack'):
        n = s.integer(1, 3)
        ax = s.choice([0, 0, -1, 1, None, nd, nd + 1, 2 ** 32]) if kind == 'concatenate' else \
            s.choice([0, -1, nd, nd + 1, 1, -nd - 2])
        arrs = [x]
        for _ in range(n - 1):
            shp = list(x.shape)
            if kind == 'concatenate' and isinstance(ax, int) and -nd <= ax < nd and s.chance(0.7):
                shp[ax] = s.integer(0, 3)
            elif s.chance(0.15) and shp:
                shp[s.integer(0, len(shp) - 1)] += 1
            if s.chance(0.05):
                shp = shp + [2]
            arrs.append(gen_arr(s, shape=tuple(shp), dtype=s.choice([x.dtype] * 2 + list(SUPPORTED))))
        kw = {}
        if ax != 0 or s.chance(0.5):
            kw['axis'] = ax
        if s.chance(0.15):
            kw['dtype'] = s.choice(SUPPORTED)
            if s.chance(0.5):
                kw['casting'] = s.choice(['unsafe', 'same_kind', 'safe', 'no'])
        if s.chance(0.1):
            try:
                fn = numpy.concatenate if kind == 'concatenate' else numpy.stack
                want = fn([numpy.zeros(a.shape) for a in arrs], axis=ax).shape
                kw['out'] = Arr(want, s.choice(SUPPORTED), s.seed(), 'small')
                kw.pop('dtype', None)
            except Exception:  # noqa: BLE001
                pass
        uns2 = uns or any(not a.supported() for a in arrs)
        if any(a.np_dtype().kind in 'fc' for a in arrs) and (kw.get('casting') == 'unsafe'):
            for a in arrs:
                a.fill = 'castable'
        return Case('manipulation', 'f:' + kind, [arrs if s.chance(0.7) else tuple(arrs)], kw,
                    out='out' if 'out' in kw else None, unsupported=uns2, pre='cast_defined')
    if kind == 'squeeze':
        ax = s.choice([None, None, 'one', 'any', 'tuple', 'bad'])
        if ax == 'one':
            ones = [i for i, d in enumerate(x.shape) if d == 1]
            ax = s.choice(ones) if ones else None
        elif ax == 'any':
            ax = s.integer(0, nd - 1) if nd else 0
        elif ax == 'tuple':
            ax = tuple(i for i, d in enumerate(x.shape) if d == 1)
        elif ax == 'bad':
            ax = bad_axis()
        return C('f:squeeze', [x], {'axis': ax} if ax is not None else {})
    if kind == 'expand_dims':
        ax = s.choice([0, -1, nd, nd + 1, -nd - 2, (0, 1), (0, 0), [0], (0, nd + 1), 2 ** 32])
        return C('f:expand_dims', [x, ax])
    if kind == 'moveaxis':
        src = s.choice([0, -1, (0, 1), [0], nd, (0, 0)]) if nd else s.choice([0, ()])
        dst = s.choice([-1, 0, (1, 0), [1], nd, (1, 1)]) if nd else s.choice([0, ()])
        return C('f:moveaxis', [x, src, dst])
    if kind == 'swapaxes':
        return C('f:swapaxes', [x, axis(), axis()])
    if kind == 'flip':
        ax = s.choice([None, 'one', 'tuple', 'bad'])
        ax = axis() if ax == 'one' else (tuple(sorted(set(s.integer(0, nd - 1) for _ in range(2)))) if ax == 'tuple'
                                         and nd else (bad_axis() if ax == 'bad' else None))
        return C('f:flip', [x], {'axis': ax} if ax is not None or s.chance(0.5) else {})
    if kind == 'roll':
        shift = s.choice([1, -2, 5, 0, (1, 2), [1], 2 ** 40])
        ax = s.choice([None, None, 0, -1, (0, 1), (0,), nd, 2 ** 32]) if nd else None
        return C('f:roll', [x, shift], {'axis': ax} if ax is not None or s.chance(0.3) else {})
    if kind == 'tile':
        reps = s.choice([2, 0, 1, (2, 1), (1, 2, 2), [2], (), -1, (2, -1), 1.5])
        return C('f:tile', [x, reps])
    if kind == 'repeat':
        ax = s.choice([None, 0, -1, nd, 1]) if nd else None
        d = size if ax is None else (x.shape[ax] if isinstance(ax, int) and -nd <= ax < nd else 2)
        reps = s.choice([2, 0, 3, -1, 'list', 'list', 'badlist', 1.5, 'arr'])
        if reps == 'list':
            reps = [s.integer(0, 3) for _ in range(d)]
        elif reps == 'badlist':
            reps = [s.integer(-1, 3) for _ in range(d + 1)]
        elif reps == 'arr':
            reps = Arr((d,), 'int64', s.seed(), ('int', 0, 3))
        return C(s.choice(['f:repeat', 'm:repeat']), [x, reps], {'axis': ax} if ax is not None or s.chance(0.3)
                 else {})
    if kind == 'pad':
        pw = s.choice([1, 0, 2, (1, 2), ((1, 0),) * nd if nd else 1, ((0, 1),) * (nd + 1), -1, 1.5,
                       [(1, 1)] * nd if nd else 0])
        mode = s.choice(['constant', 'constant', 'edge', 'reflect', 'symmetric', 'wrap', 'bogus', 'mean',
                         'maximum', 'minimum', 'linear_ramp'])
        kw = {}
        if mode != 'constant' or s.chance(0.5):
            kw['mode'] = mode
        if mode == 'constant' and s.chance(0.4):
            kw['constant_values'] = s.choice([0, 1, -3, (1, 2), 2.5])
        if mode in ('mean', 'linear_ramp') and x.np_dtype().kind in 'iub':
            x.fill = 'small'
        return C('f:pad', [x, pw], kw, pre='cast_defined', tol=4)
    if kind == 'broadcast_to':
        shp = s.choice(_w(('ok', 3), ('bad', 1)))
        shp = (s.choice([(), (2,), (3, 1)]) + tuple(1 if s.chance(0.2) else d for d in x.shape)) if shp == 'ok' \
            else s.choice([non_broadcastable_shape(s, x.shape), (-1,), ()])
        return C('f:broadcast_to', [x, shp])
    if kind == 'split':
        ax = s.choice([0, 0, -1, 1, nd]) if nd else 0
        ios = s.choice([1, 2, 3, 0, [1], [1, 3], [3, 1], [-1], 2.5])
        return C('f:' + s.choice(['split', 'array_split']), [x, ios], {'axis': ax} if ax or s.chance(0.3) else {})
    if kind == 'ravel':
        return C(s.choice(['f:ravel', 'm:ravel', 'm:flatten']), [x],
                 {'order': s.choice(['C', 'F', 'A', 'K', 'X'])} if s.chance(0.4) else {})
    if kind == 'rot90':
        return C('f:rot90', [x], {'k': s.choice([1, 2, -1, 4, 5]), 'axes': s.choice([(0, 1), (1, 0), (0, 0),
                                                                                        (0, nd), (-1, -2)])})
    if kind == 'hvstack':
        n = s.integer(1, 3)
        arrs = [x] + [gen_arr(s, shape=x.shape if s.chance(0.8) else non_broadcastable_shape(s, x.shape),
                              dtype=x.dtype if x.supported() else 'float64') for _ in range(n - 1)]
        return Case('manipulation', 'f:' + s.choice(['vstack', 'hstack', 'dstack', 'column_stack']), [arrs],
                    unsupported=uns)
    if kind == 'delete':
        ax = s.choice([None, 0, -1, nd]) if nd else None
        d = size if ax is None else (x.shape[ax] if isinstance(ax, int) and -nd <= ax < nd else 2)
        obj = s.choice([0, -1, d, [0, 1], slice(0, 2), [], Arr((d,), 'bool', s.seed()), 1.5])
        return C('f:delete', [x, obj], {'axis': ax} if ax is not None or s.chance(0.3) else {})
    if kind == 'insert':
        ax = s.choice([None, 0, -1, nd]) if nd else None
        d = size if ax is None else (x.shape[ax] if isinstance(ax, int) and -nd <= ax < nd else 2)
        obj = s.choice([0, d, -1, d + 2, [0, 1], slice(0, 2)])
        vals = s.choice([0, 1.5, [1, 2], gen_arr(s, shape=(1,), dtype=x.dtype if x.supported() else 'int64',
                                                 fill='small')])
        if x.np_dtype().kind in 'iub' and vals == 1.5:
            vals = 2
        return C('f:insert', [x, obj, vals], {'axis': ax} if ax is not None or s.chance(0.3) else {})
    if kind == 'append':
        ax = s.choice([None, 0, -1, nd]) if nd else None
        v = gen_arr(s, shape=x.shape if s.chance(0.7) else non_broadcastable_shape(s, x.shape),
                    dtype=s.choice(SUPPORTED))
        return C('f:append', [x, v], {'axis': ax} if ax is not None else {})
    if kind == 'resize':
        return C('f:resize', [x, s.choice([(2, 3), 0, 5, (0,), (-1,), 7, (2, 2, 2)])])
    return C('f:' + s.choice(['atleast_1d', 'atleast_2d', 'atleast_3d']), [x])


def _factor_shape(s, size):
    if size == 0:
        return s.choice([(0,), (0, 3), (2, 0), (0,)])
    dims = []
    rest = size
    for f in (2, 3, 5):
        while rest % f == 0 and s.chance(0.6):
            dims.append(f)
            rest //= f
    dims.append(rest)
    _shuffle(s, dims)
    if s.chance(0.2):
        dims.insert(s.integer(0, len(dims)), 1)
    return tuple(dims)


def _shuffle(s, lst):
    for i in range(len(lst) - 1, 0, -1):
        j = s.integer(0, i)
        lst[i], lst[j] = lst[j], lst[i]


# ---- linalg -------------------------------------------------------------------------------------------------------

def gen_linalg(s):
    kind = s.choice(_w(('matmul', 4), ('dot', 2), ('solve', 3), ('inv', 2), ('det', 2), ('norm', 3),
                       ('eigvalsh', 1), ('svdvals', 1), ('cholesky', 1), ('slogdet', 1)))
    real = ('float32', 'float64')
    dt = s.choice(real * 4 + COMPLEX * 2 + ('int64', 'int32', 'bool') + (('float16',) if s.chance(0.3) else ())
                  + (('object',) if s.chance(0.1) else ()))
    if kind in ('matmul', 'dot'):
        m, k, n = s.integer(0, 4), s.integer(0, 4), s.integer(0, 4)
        form = s.choice(['mm', 'mm', 'vm', 'mv', 'vv', 'batch', 'scalar'])
        sa = {'mm': (m, k), 'vm': (k,), 'mv': (m, k), 'vv': (k,), 'batch': (2, m, k), 'scalar': ()}[form]
        sb = {'mm': (k, n), 'vm': (k, n), 'mv': (k,), 'vv': (k,), 'batch': s.choice([(k, n), (2, k, n), (1, k, n)]),
              'scalar': (k, n)}[form]
        if s.chance(0.15):
            sb = non_broadcastable_shape(s, sb)
        dt2 = dt if s.chance(0.7) else s.choice(SUPPORTED)
        a = gen_arr(s, shape=sa, dtype=dt, fill='small')
        b = gen_arr(s, shape=sb, dtype=dt2, fill='small')
        uns = not a.supported() or not b.supported()
        if kind == 'dot':
            return Case('linalg', 'f:dot', [a, b], tol=10, scale='sq', unsupported=uns)
        op = s.choice(['op:@', 'f:matmul', 'f:matmul'])
        kw = {}
        out = None
        if op == 'f:matmul' and s.chance(0.15):
            try:
                want = numpy.matmul(numpy.zeros(sa), numpy.zeros(sb)).shape
                kw['out'] = Arr(want if s.chance(0.8) else want + (1,), s.choice([dt, 'float64', 'complex128']),
                                s.seed(), 'small')
                out = 'out'
            except Exception:  # noqa: BLE001
                pass
        return Case('linalg', op, [a, b], kw, out=out, tol=10, scale='sq', unsupported=uns, pre='cast_defined')
    n = s.integer(0, 4)
    batch = s.choice([(), (), (2,)])
    square = s.chance(0.9)
    shape = batch + ((n, n) if square else (n, n + 1))
    if s.chance(0.05):
        shape = (n,)
    fill = {'solve': 'diagdom', 'inv': 'diagdom', 'det': 'diagdom', 'slogdet': 'diagdom', 'eigvalsh': 'sym',
            'cholesky': 'spd', 'svdvals': 'finite', 'norm': 'finite'}[kind]
    if kind in ('solve', 'inv', 'det') and s.chance(0.1):
        fill = 'singular'
    a = gen_arr(s, shape=shape, dtype=dt, fill=fill, view=False)
    uns = not a.supported()
    if kind == 'solve':
        bshape = s.choice([batch + (n,), batch + (n, 2), (n,), (n + 1,), batch + (n, 0)])
        b = gen_arr(s, shape=bshape, dtype=s.choice([dt, 'float64', 'complex64']), fill='small', view=False)
        return Case('linalg', 'f:linalg.solve', [a, b], tol=100, scale='max', unsupported=uns or not b.supported())
    if kind == 'norm':
        x = gen_arr(s, shape=s.choice([(n,), (n, n + 1), (2, n, 2), ()]), dtype=dt, fill='finite')
        kw = {}
        nd = len(x.shape)
        if s.chance(0.6):
            kw['ord'] = s.choice([None, 'fro', 'nuc', numpy.inf, -numpy.inf, 1, -1, 2, -2, 0, 3, 0.5, 'bogus'])
        if s.chance(0.5):
            kw['axis'] = s.choice([None, 0, -1, (0, 1), (-2, -1), (0, 0), nd, 1])
        if s.chance(0.2):
            kw['keepdims'] = True
        return Case('linalg', 'f:linalg.norm', [x], kw, tol=100, scale='sum', unsupported=not x.supported())
    if kind == 'det':
        return Case('linalg', 'f:linalg.det', [a], tol=100, scale=(4.0 * n + 14) ** max(n, 1), unsupported=uns)
    return Case('linalg', 'f:linalg.' + kind, [a], tol=100, scale='sq' if kind != 'slogdet' else 'max',
                unsupported=uns)


# ---- fft ----------------------------------------------------------------------------------------------------------

def gen_fft(s):
    kind = s.choice(_w(('1d', 6), ('nd', 3), ('freq', 1), ('shift', 1)))
    if kind == 'freq':
        return Case('fft', 'f:fft.' + s.choice(['fftfreq', 'rfftfreq']),
                    [s.choice(_w((1, 1), (4, 2), (7, 2), (numpy.int32(6), 1), (0, 1), (-1, 1), (2.5, 1))),
                     s.choice(_w((1.0, 3), (0.5, 2), (2, 2), (0, 1)))], tol=4)
    dt = gen_dtype(s, unsupported=0.02)
    # No inf or NaN: where they turn up in a transform depends on the algorithm (pocketfft against cuFFT).
    x = gen_arr(s, dtype=dt, fill=s.choice(['small', 'finite', 'finite']),
                shape=gen_shape(s, max_dim=6) if s.chance(0.9) else gen_shape(s, max_dim=6, min_ndim=1))
    nd = len(x.shape)
    uns = not x.supported()
    if kind == 'shift':
        ax = s.choice([None, 0, -1, (0, 1), nd])
        if nd == 0 and ax is None:
            # NumPy's roll fails on a 0-d array with nothing to shift (an internal unpacking ValueError); cuarray
            # returns the array, as CuPy does (test_fft.test_fftshift): a difference kept on purpose.
            ax = 0
        return Case('fft', 'f:fft.' + s.choice(['fftshift', 'ifftshift']), [x], {'axes': ax} if ax is not None
                    else {}, unsupported=uns)
    kw = {}
    if s.chance(0.2):
        kw['norm'] = s.choice(['backward', 'ortho', 'forward', None, 'bogus'])
    if kind == '1d':
        name = s.choice(['fft', 'ifft', 'rfft', 'irfft', 'hfft', 'ihfft'])
        if s.chance(0.4):
            kw['n'] = s.choice(_w((1, 2), (2, 2), (5, 2), (8, 2), (None, 1), (0, 1), (-1, 1), (2.5, 1)))
        if s.chance(0.4):
            kw['axis'] = s.choice(_w((-1, 3), (0, 3), (1, 1), (nd, 1), (-nd - 1, 1), (None, 1)))
        return Case('fft', 'f:fft.' + name, [x], kw, tol=50, scale='sum', unsupported=uns, pre='fft')
    name = s.choice(['fft2', 'ifft2', 'fftn', 'ifftn', 'rfftn', 'irfftn', 'rfft2', 'irfft2'])
    axes = s.choice(_w((None, 2), ('default', 4), ((0,), 2), ((-1,), 2), ((0, 1), 2), ((-2, -1), 2), ((1, 0), 1),
                       ((0, 0), 1), ((nd,), 1), ((), 1)))
    if axes != 'default':
        kw['axes'] = axes
    if s.chance(0.3):
        m = len(axes) if isinstance(axes, tuple) else (2 if name.endswith('2') else nd)
        sv = tuple(s.choice([2, 3, 4, 1]) for _ in range(max(m, 0)))
        if s.chance(0.2):
            sv = sv + (2,)
        if s.chance(0.1):
            sv = tuple(0 for _ in sv) or (0,)
        kw['s'] = sv
        if 'axes' not in kw or kw['axes'] is None:
            kw['axes'] = tuple(range(-len(sv), 0)) if sv else None
    return Case('fft', 'f:fft.' + name, [x], kw, tol=50, scale='sum', unsupported=uns, pre='fft')


# ---- random -------------------------------------------------------------------------------------------------------

def _size_arg(s):
    return s.choice(_w((None, 3), ('int', 4), ('tuple', 4), ((), 1), ('bad', 1)))


def _size(s):
    k = _size_arg(s)
    if k == 'int':
        return s.integer(0, 6)
    if k == 'tuple':
        return tuple(s.integer(0, 4) for _ in range(s.integer(1, 3)))
    if k == 'bad':
        return s.choice([-1, (2, -1), 2.5, 'x', (2.0,)])
    return k


def gen_random(s):
    kind = s.choice(_w(('random', 2), ('standard_normal', 1), ('integers', 3), ('uniform', 1), ('normal', 2),
                       ('exponential', 1), ('poisson', 1), ('binomial', 1), ('choice', 2), ('permutation', 1),
                       ('geometric', 1), ('beta', 1), ('legacy', 2)))
    seed = s.integer(0, 1000)
    size = _size(s)
    kw = {}
    if size is not None or s.chance(0.5):
        kw['size'] = size
    if kind in ('random', 'standard_normal'):
        if s.chance(0.4):
            kw['dtype'] = s.choice(['float32', 'float64', 'float16', 'int64', numpy.float32])
        dom = ('range', 0.0, 1.0, False) if kind == 'random' else ('finite',)
        return Case('random', 'op:rng', [seed, kind], kw, check='random', extra={'domain': dom})
    if kind == 'integers':
        low = s.choice(_w((0, 3), (-5, 2), (3, 2), (2 ** 62, 1), (-2 ** 63, 1), (255, 1)))
        high = s.choice(_w((None, 2), (10, 3), (5, 2), (256, 1), (2 ** 63, 1), (2 ** 64, 1), (0, 1)))
        args = [seed, kind, low] + ([high] if high is not None or s.chance(0.5) else [])
        if s.chance(0.4):
            kw['dtype'] = s.choice(['int8', 'uint8', 'int32', 'int64', 'uint64', 'bool', 'float32', numpy.int16])
        if s.chance(0.2):
            kw['endpoint'] = True
        lo, hi = (0, low) if high is None else (low, high)
        return Case('random', 'op:rng', args, kw, check='random',
                    extra={'domain': ('range', lo, hi, bool(kw.get('endpoint')))})
    if kind == 'uniform':
        low, high = s.choice([0.0, -2.0, 5.0, float('nan')]), s.choice([1.0, 3.5, -1.0])
        return Case('random', 'op:rng', [seed, kind, low, high], kw, check='random',
                    extra={'domain': ('range', min(low, high), max(low, high), True)})
    if kind == 'normal':
        loc = s.choice([0.0, 3.0, -1.0])
        scale = s.choice([1.0, 2.0, 0.5, 0.0, -1.0])
        args = [seed, kind, loc, scale]
        if s.chance(0.2):
            args = [seed, kind, gen_arr(s, shape=(s.integer(1, 3),), dtype='float64', fill='positive'), 1.0]
        return Case('random', 'op:rng', args, kw, check='random', extra={'domain': ('finite',)})
    if kind == 'exponential':
        return Case('random', 'op:rng', [seed, kind, s.choice([1.0, 0.5, 2.0, 0.0, -1.0])], kw, check='random',
                    extra={'domain': ('range', 0.0, float('inf'), True)})
    if kind == 'poisson':
        return Case('random', 'op:rng', [seed, kind, s.choice([1.0, 5.0, 3.5, 0.0, -1.0, 1e20])], kw,
                    check='random',
                    extra={'domain': ('range', 0, float('inf'), True)})
    if kind == 'binomial':
        n, p = s.choice([10, 0, 5, 20, -1]), s.choice([0.5, 0.0, 1.0, 0.25, 1.5, -0.1])
        return Case('random', 'op:rng', [seed, kind, n, p], kw, check='random',
                    extra={'domain': ('range', 0, max(n, 0), True)})
    if kind == 'geometric':
        p = s.choice([0.5, 1.0, 0.25, 0.1, 0.0, 1.5])
        return Case('random', 'op:rng', [seed, kind, p], kw, check='random',
                    extra={'domain': ('range', 1, float('inf'), True)})
    if kind == 'beta':
        return Case('random', 'op:rng', [seed, kind, s.choice([1.0, 0.5, 3.0, 0.0, -1.0]), s.choice([2.0, 1.0])], kw,
                    check='random', extra={'domain': ('range', 0.0, 1.0, True)})
    if kind == 'choice':
        a = s.choice([5, 3, 'arr', 'arr', 0, -1])
        if a == 'arr':
            a = gen_arr(s, shape=(s.integer(0, 5),), dtype=s.choice(SUPPORTED), fill='small')
        if s.chance(0.3):
            kw['replace'] = False
        if s.chance(0.15):
            kw['p'] = s.choice([[0.2] * 5, [0.5, 0.5], [0.3] * 5])
        return Case('random', 'op:rng', [seed, kind, a], kw, check='random', extra={'domain': ('member', a)})
    if kind == 'permutation':
        kw.pop('size', None)
        a = s.choice([5, 0, 'arr'])
        if a == 'arr':
            a = gen_arr(s, shape=gen_shape(s, max_dim=4, min_ndim=1), dtype=s.choice(SUPPORTED), fill='small')
        return Case('random', 'op:rng', [seed, kind, a], kw, check='random', extra={'domain': ('perm', a)})
    # legacy module functions
    name = s.choice(['rand', 'randn', 'randint', 'random_sample', 'uniform'])
    if name in ('rand', 'randn'):
        dims = [s.integer(0, 4) for _ in range(s.integer(0, 3))]
        if s.chance(0.1):
            dims = [-1]
        return Case('random', 'op:legacy', [name] + dims, {}, check='random',
                    extra={'domain': ('range', 0.0, 1.0, False) if name == 'rand' else ('finite',)})
    if name == 'randint':
        low, high = s.choice([0, 5, -3]), s.choice([None, 10, 2, -5])
        args = [name, low] + ([high] if high is not None else [])
        lo, hi = (0, low) if high is None else (low, high)
        return Case('random', 'op:legacy', args, kw, check='random', extra={'domain': ('range', lo, hi, False)})
    return Case('random', 'op:legacy', [name], kw, check='random',
                extra={'domain': ('range', 0.0, 1.0, name != 'random_sample')})


# ---- custom kernels -----------------------------------------------------------------------------------------------

def gen_kernels(s):
    kind = s.choice(_w(('ek', 6), ('rk', 2), ('raw', 3), ('fuse', 2)))
    if kind == 'ek':
        name = s.choice(list(EK_DEFS))
        nin = len(EK_DEFS[name][0].split(','))
        nout = len(EK_DEFS[name][1].split(','))
        pool = SUPPORTED if name not in ('less',) else SUPPORTED[:12]
        if name == 'scale':
            pool = tuple(d for d in SUPPORTED if d != 'float16')
        dt = s.choice(pool)
        shape = gen_shape(s)
        args = []
        for k in range(nin):
            if name == 'scale' and k == 1:
                # no negative products into unsigned types (a C++ conversion outside the range is undefined)
                args.append(s.choice([2.0, 0.5, 3] if dt.startswith('uint') else [2.0, 0.5, -1.5, 3]))
                continue
            if name == 'rawrev':
                shape = (s.integer(1, 6),)
                args.append(gen_arr(s, shape=shape, dtype=dt, fill='small', view=False))
                continue
            r = s.choice(_w(('arr', 6), ('bcast', 2), ('scalar', 2), ('mismatch', 1), ('host', 1), ('bad', 1)))
            if r == 'arr' or k == 0 and r == 'scalar' and name != 'add':
                args.append(gen_arr(s, shape=shape, dtype=dt, fill='small'))
            elif r == 'bcast':
                args.append(gen_arr(s, shape=broadcastable_shape(s, shape), dtype=dt, fill='small'))
            elif r == 'scalar':
                args.append(_kernel_scalar(s, dt))
            elif r == 'mismatch':
                args.append(gen_arr(s, shape=shape, dtype=s.choice([d for d in pool if d != dt]), fill='small'))
            elif r == 'host':
                args.append(Arr(shape, dt, s.seed(), 'small', host=True))
            else:
                args.append(s.choice(['x', None, [1, 2]]))
        outs = s.choice(_w(('none', 4), ('given', 3), ('wrongshape', 1), ('wrongdtype', 1), ('None', 1)))
        if name == 'rawrev' and outs in ('none', 'wrongshape'):
            outs = 'given'  # a raw input is read at the loop's indices: an output longer than it reads past it
        if name == 'less' and outs == 'wrongdtype':
            outs = 'given'  # a fixed-type output: no placeholder to mismatch
        if outs != 'none':
            for j in range(nout):
                odt = 'bool' if name == 'less' else dt
                if outs == 'given':
                    try:
                        oshape = numpy.broadcast_shapes(*[a.shape for a in args if isinstance(a, Arr)])
                    except ValueError:
                        oshape = shape
                    args.append(Arr(oshape, odt, s.seed(), 'small'))
                elif outs == 'wrongshape':
                    args.append(Arr(non_broadcastable_shape(s, shape), odt, s.seed(), 'small'))
                elif outs == 'wrongdtype':
                    args.append(Arr(shape, s.choice([d for d in pool if d != odt]), s.seed(), 'small'))
                else:
                    args.append(None)
        if s.chance(0.08):
            args = args[:-1] if len(args) > 1 else args + [gen_arr(s, shape=shape, dtype=dt)]
        kw = {}
        if s.chance(0.08):
            kw[s.choice(['size', 'out', 'bogus'])] = s.choice([4, None])
            if 'out' in kw and kw['out'] is None:
                kw['out'] = Arr(shape, dt, s.seed(), 'small')
            if name == 'rawrev' and kw.get('size') is not None:
                # size= sets the loop size when all arrays are raw (CuPy's rule, cuarray's too); the body reads
                # x[size - i - 1], so a size past x's length reads out of bounds, which neither library checks in
                # a raw argument: undefined, not an error to expect. Keep it within x.
                kw['size'] = min(kw['size'], args[0].shape[0])
        return Case('kernels', 'op:ek', [name] + args, kw, tol=2, extra={'kernel': name})
    if kind == 'rk':
        dt = s.choice([d for d in SUPPORTED if d != 'bool'])
        x = gen_arr(s, dtype=dt, fill='small', shape=gen_shape(s, max_dim=5))
        kw = {}
        if s.chance(0.6):
            kw['axis'] = gen_axis(s, len(x.shape), bad=0.15)
            if isinstance(kw['axis'], (float, str, list)) or kw['axis'] is True:
                kw['axis'] = len(x.shape)
        if s.chance(0.3):
            kw['keepdims'] = True
        if s.chance(0.05):
            x = Arr(x.shape, dt, x.seed, 'small', host=True)
        return Case('kernels', 'op:rk', [x], kw, tol=8, scale='sq')
    if kind == 'raw':
        dt = s.choice(list(RAW_TYPES))
        n = s.integer(1, 40)
        x = Arr((n,), dt, s.seed(), 'small')
        y = Arr((n,), dt, s.seed(), ('int', 0, 0))
        cnt = s.choice([n, n, n - 1 if n > 1 else n, numpy.int32(n), numpy.int64(n)])
        block = s.choice([32, (32,), (16, 1), (8, 1, 1), 64])
        bx = int(numpy.prod(block))
        grid = (n + bx - 1) // bx
        grid = s.choice([grid, (grid,), (grid, 1)])
        args = [x, y, cnt]
        r = s.choice(_w(('ok', 8), ('host', 1), ('few', 1), ('many', 1), ('small', 1), ('badgrid', 1), ('str', 1)))
        if r == 'host':
            args[0] = Arr((n,), dt, x.seed, 'small', host=True)
        elif r == 'few':
            args = args[:2]
        elif r == 'many':
            args = args + [numpy.int32(0)]
        elif r == 'small':
            args[2] = numpy.int8(min(n, 127))
        elif r == 'badgrid':
            grid = s.choice([(1, 1, 1, 1), 1.5])
        elif r == 'str':
            args[2] = 'x'
        container = s.choice([tuple, list, tuple]) if r != 'str' else tuple
        kw = {}
        if s.chance(0.15):
            kw[s.choice(['shared_mem', 'stream', 'bogus'])] = s.choice([0, None])
        return Case('kernels', 'op:raw', [grid, block, container(args)], kw, mutates=None,
                    extra={'kernel': 'raw'})
    name = s.choice(list(FUSE_FUNCS))
    dt = s.choice(SUPPORTED[1:] if name == 'chain' else SUPPORTED)
    shape = gen_shape(s)
    x = gen_arr(s, shape=shape, dtype=dt, fill='small')
    y = gen_arr(s, shape=broadcastable_shape(s, shape), dtype=s.choice([dt, dt, 'float32', 'int64']), fill='small') \
        if s.chance(0.8) else s.choice([2, 0.5, True])
    return Case('kernels', 'op:fuse', [name, x, y], tol=4, extra={'loop_dtype': _fuse_loop_dtype(name, x, y)})


class _DtypeTrace(numpy.ndarray):
    """A 1-element array that records the dtype of every ufunc result computed from it (in `_DtypeTrace.seen`)."""
    seen = []

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        inputs = [i.view(numpy.ndarray) if isinstance(i, _DtypeTrace) else i for i in inputs]
        r = numpy.asarray(getattr(ufunc, method)(*inputs, **kwargs))
        _DtypeTrace.seen.append(r.dtype)
        return r.view(_DtypeTrace)


def _fuse_loop_dtype(name, x, y):
    """The least precise inexact dtype among the intermediate results of FUSE_FUNCS[name](x, y), or None.

    The result's dtype can be wider than an intermediate: in sin(int16) + int64 the sine runs in float32 (NumPy's
    loop, and cuarray's) and only the sum is float64, so the result carries float32 rounding (a GPU sinf and
    NumPy's float32 sine may differ by an ulp or two) and must be compared at float32's tolerance."""
    def arg(v):
        return numpy.ones(1, dtype=v.dtype).view(_DtypeTrace) if isinstance(v, Arr) else v

    _DtypeTrace.seen = []
    with numpy.errstate(all='ignore'):
        FUSE_FUNCS[name](numpy)(arg(x), arg(y))
    inexact = [d for d in _DtypeTrace.seen if d.kind in 'fc']
    if not inexact:
        return None
    return min(inexact, key=lambda d: d.itemsize // (2 if d.kind == 'c' else 1)).char


def _kernel_scalar(s, dt):
    k = numpy.dtype(dt).kind
    if k == 'b':
        return s.choice([True, False])
    if k == 'u':
        return s.choice([0, 1, 3])
    if k == 'i':
        return s.choice([-3, 0, 2])
    return s.choice([0.5, -1.5, 2, 3.25])


GENERATORS = {'creation': gen_creation, 'elementwise': gen_elementwise, 'reduction': gen_reduction,
              'sorting': gen_sorting, 'getitem': gen_getitem, 'setitem': gen_setitem, 'takeput': gen_takeput,
              'manipulation': gen_manipulation, 'linalg': gen_linalg, 'fft': gen_fft, 'random': gen_random,
              'kernels': gen_kernels}


def generate(family, source):
    """One case of `family` drawn from `source` (a RandomSource or a HypothesisSource)."""
    case = GENERATORS[family](source)
    return case


def case_for(seed, index, families=FAMILIES):
    """The standalone driver's case number `index` of run `seed` (families take turns; `families` may also be one
    family name): the same seed gives the same cases. Its id 'SEED:INDEX:FAMILY' replays it."""
    import random
    fam = families if isinstance(families, str) else families[index % len(families)]
    case = generate(fam, RandomSource(random.Random('{}:{}'.format(seed, index))))
    case.cid = '{}:{}:{}'.format(seed, index, fam)
    return case


# ----------------------------------------------------------------------------------------------------------------
# Running one side
# ----------------------------------------------------------------------------------------------------------------

def materialize(obj, xp, cu=None):
    """Case data with `Arr` specs replaced by arrays of `xp` (NumPy host arrays, or cuarray arrays uploaded from
    the same host data, the view applied on the device)."""
    if isinstance(obj, Arr):
        if obj.fill == 'perm0':
            return numpy.arange(obj.shape[0]) if xp is numpy or obj.host else xp.asarray(numpy.arange(obj.shape[0]))
        base = obj.build()
        if obj.name == 'list':
            return obj.apply_view(base).tolist()
        if xp is numpy or obj.host:
            a = obj.apply_view(base.copy())
            if obj.host and xp is numpy:
                a = a.view(_HostMark)
            return a
        return obj.apply_view(xp.asarray(base))
    if isinstance(obj, tuple):
        return tuple(materialize(x, xp, cu) for x in obj)
    if isinstance(obj, list):
        return [materialize(x, xp, cu) for x in obj]
    if isinstance(obj, dict):
        return {k: materialize(v, xp, cu) for k, v in obj.items()}
    return obj


def _execute(case, xp, args, kwargs):
    kind, _, name = case.op.partition(':')
    if kind == 'f':
        r = _resolve(xp, name)(*args, **kwargs)
    elif kind == 'm':
        r = getattr(args[0], name)(*args[1:], **kwargs)
    else:
        r = OPS[name](xp, *args, **kwargs)
    if case.mutates is not None:
        r = (r, args[case.mutates])
    if case.out is not None:
        o = kwargs[case.out]
        r = (r is o, o)
    return r


class Side:
    """One side's outcome: `value` (a tagged host tree, see _host_tree) or `exc` (type, message), or `skip`."""
    __slots__ = ('value', 'exc_type', 'exc_msg', 'skip')

    def __init__(self):
        self.value = None
        self.exc_type = None
        self.exc_msg = None
        self.skip = None

    @property
    def raised(self):
        return self.exc_type is not None


def _host_tree(r, cu, device):
    """A result as host data with tags: 'dev' (an array of the device side, copied back), 'host' (a numpy.ndarray
    where a device array was due), 'npscalar', 'py', 'none', 'tuple', 'list', 'obj'. With cu=numpy (the harness
    tested against NumPy itself) the device side's numpy arrays count as device arrays."""
    if device and cu is not numpy and isinstance(r, cu.ndarray):
        return ('dev', r.get())
    if isinstance(r, numpy.ndarray):
        return ('dev' if device and cu is numpy else 'host', numpy.array(r))
    if isinstance(r, numpy.generic):
        return ('npscalar', r)
    if isinstance(r, (bool, int, float, complex)):
        return ('py', r)
    if r is None:
        return ('none', None)
    if isinstance(r, tuple):
        return ('tuple', [_host_tree(x, cu, device) for x in r])
    if isinstance(r, list):
        return ('list', [_host_tree(x, cu, device) for x in r])
    return ('obj', repr(r))


_AVAILABLE = {}


def _device_ok(cu):
    ok = _AVAILABLE.get(id(cu))
    if ok is None:
        try:
            ok = bool(cu.is_available())
        except Exception:  # noqa: BLE001
            ok = False
        _AVAILABLE[id(cu)] = ok
    return ok


def run_side(case, xp, cu=None, device=None):
    """Run `case` with `xp` (numpy, or the device module `cu`); the Side holds the host copy of the result or the
    exception. Warnings are ignored and NumPy's floating-point errors do not warn. The NumPy side (device False)
    runs the case's precheck first."""
    side = Side()
    if device is None:
        device = xp is not numpy
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        with numpy.errstate(all='ignore'):
            try:
                args = materialize(case.args, xp, cu)
                kwargs = materialize(case.kwargs, xp, cu)
                if not device and case.pre:
                    reason = PRECHECKS[case.pre](case, args, kwargs)
                    if reason:
                        side.skip = reason
                        return side
                r = _execute(case, xp, args, kwargs)
                del args, kwargs
                side.value = _host_tree(r, cu, device)
                del r
                if device and cu is not numpy and _device_ok(cu):
                    cu.cuda.Device().synchronize()  # an asynchronous failure belongs to this case
            except Exception as e:  # noqa: BLE001 - the exception is the outcome
                side.exc_type = type(e)
                side.exc_msg = _short(str(e), 300)
                e.__traceback__ = None
                del e
    return side


def _short(text, n=200):
    text = ' '.join(str(text).split())
    return text if len(text) <= n else text[:n - 3] + '...'


# ---- prechecks: inputs where NumPy's answer is implementation-defined, or a documented difference ----------------

# Python scalars convert like int()/float() in these (ValueError for NaN, OverflowError for inf): defined.
_SCALAR_CONVERT_OPS = ('op:setitem', 'f:array', 'f:asarray', 'f:ascontiguousarray')
_IN_PLACE_TARGET_OPS = ('op:setitem', 'f:copyto', 'f:put', 'm:put', 'f:place', 'f:putmask', 'f:put_along_axis')


def _int_targets(case, args, kwargs):
    out = []

    def add(d):
        try:
            d = numpy.dtype(d)
        except (TypeError, ValueError):
            return
        if d.kind in 'iu':
            out.append(d)

    if kwargs.get('dtype') is not None:
        add(kwargs['dtype'])
    for k in ('out',):
        if isinstance(kwargs.get(k), numpy.ndarray):
            add(kwargs[k].dtype)
    if case.op == 'm:astype' and len(args) > 1:
        add(args[1])
    if case.op == 'f:full_like' and kwargs.get('dtype') is None and isinstance(args[0], numpy.ndarray):
        add(args[0].dtype)
    if case.op in _IN_PLACE_TARGET_OPS and isinstance(args[0], numpy.ndarray):
        add(args[0].dtype)
    return out


def _pre_cast_defined(case, args, kwargs):
    """NaN, inf and out-of-range float-to-integer casts are undefined in NumPy: skip calls that may make one."""
    targets = _int_targets(case, args, kwargs)
    if not targets:
        return None
    lo = max(float(numpy.iinfo(t).min) for t in targets)
    hi = min(float(numpy.iinfo(t).max) for t in targets)
    hi = min(hi, 2.0 ** 53)
    scalars = case.op not in _SCALAR_CONVERT_OPS
    for v in _leaves(args) + _leaves(list(kwargs.values())):
        if isinstance(v, numpy.ndarray) and v.dtype.kind in 'fc':
            re = v.real.astype(numpy.float64)
            if re.size and (not numpy.all(numpy.isfinite(re)) or re.min() < lo or re.max() > hi):
                return 'float-to-integer cast of NaN, inf or out-of-range values (undefined in NumPy)'
        elif scalars and isinstance(v, (float, complex, numpy.floating, numpy.complexfloating)):
            re = complex(v).real
            if not math.isfinite(re) or re < lo or re > hi:
                return 'float-to-integer cast of NaN, inf or out-of-range values (undefined in NumPy)'
    return None


def _leaves(obj):
    out = []
    if isinstance(obj, (list, tuple)):
        for x in obj:
            out.extend(_leaves(x))
    elif isinstance(obj, dict):
        for x in obj.values():
            out.extend(_leaves(x))
    else:
        out.append(obj)
    return out


def _pre_elementwise(case, args, kwargs):
    """Integer powers with negative exponents are a documented difference; casts as _pre_cast_defined."""
    name = case.op.split(':')[1]
    if name in _POWERS and len(args) > 1:
        a, b = args[0], args[1]
        a_int = (isinstance(a, numpy.ndarray) and a.dtype.kind in 'biu') or _is_intlike(a) or isinstance(a, bool)
        if isinstance(b, numpy.ndarray) and b.dtype.kind in 'iu' and b.size and b.min() < 0 and a_int:
            return 'integer power with a negative exponent (documented difference)'
        if _is_intlike(b) and b < 0 and a_int:
            return 'integer power with a negative exponent (documented difference)'
    return _pre_cast_defined(case, args, kwargs)


def _selected_positions(shape, key):
    """The flat positions that `key` selects in an array of `shape` (None if NumPy refuses the key)."""
    try:
        ids = numpy.arange(int(numpy.prod(shape, dtype=numpy.int64))).reshape(shape)
        return numpy.asarray(ids[key]).ravel()
    except Exception:  # noqa: BLE001
        return None


def _many_values(v):
    vv = v if isinstance(v, numpy.ndarray) else numpy.asarray(v, dtype=object) if isinstance(v, list) else \
        numpy.asarray(v)
    try:
        return vv.size > 1 and len(set(vv.ravel().tolist())) > 1
    except TypeError:
        return True


def _pre_setitem(case, args, kwargs):
    x, key, v = args
    pos = _selected_positions(x.shape, key)
    if pos is not None and len(numpy.unique(pos)) < pos.size and _many_values(v):
        return 'the index repeats a position with different values (documented difference)'
    return _pre_cast_defined(case, args, kwargs)


def _pre_put(case, args, kwargs):
    x, ind, v = args
    if not _many_values(v):
        return _pre_cast_defined(case, args, kwargs)
    try:
        idx = numpy.asarray(ind)
    except Exception:  # noqa: BLE001
        return None
    if idx.dtype.kind not in 'iu' or not x.size:
        return _pre_cast_defined(case, args, kwargs)
    n = x.size
    flat = idx.ravel().astype(numpy.int64)
    flat = numpy.clip(flat, 0, n - 1) if kwargs.get('mode') == 'clip' else flat % n
    if len(numpy.unique(flat)) < len(flat):
        return 'the index repeats a position (documented difference)'
    return _pre_cast_defined(case, args, kwargs)


def _pre_put_along_axis(case, args, kwargs):
    x, idx, v, axis = args
    # NumPy's axis=None path assigns into numpy.array(arr.flat), which is arr itself only when arr is C-contiguous
    # and a read-only copy otherwise ("assignment destination is read-only"); cuarray writes into arr (README,
    # Differences). Not a read-only input: the fuzz's views are writeable.
    if axis is None and isinstance(x, numpy.ndarray) and not x.flags.c_contiguous:
        return 'put_along_axis(axis=None) of a non-contiguous array (documented difference)'
    try:
        numpy.put_along_axis(numpy.zeros(x.shape), idx, 0, axis)
        idx = numpy.asarray(idx)
        if axis is None:
            flat = idx.ravel() % max(x.size, 1)
            dup = len(numpy.unique(flat)) < len(flat)
        else:
            ax = axis % x.ndim
            s = numpy.sort(idx % max(x.shape[ax], 1), axis=ax)
            dup = s.shape[ax] > 1 and bool(numpy.any(numpy.diff(s, axis=ax) == 0))
    except Exception:  # noqa: BLE001
        return None
    if dup and _many_values(v):
        return 'the index repeats a position (documented difference)'
    return _pre_cast_defined(case, args, kwargs)


def _pre_negzero(case, args, kwargs):
    """Sorts may order -0.0 and +0.0 differently from NumPy (documented): where that shows in indices (stable
    argsort, lexsort, unique's return_index), inputs holding a negative zero are skipped."""
    shows = (case.op == 'f:lexsort' or (case.op == 'f:argsort' and case.check is None) or
             (case.op == 'f:unique' and kwargs.get('return_index')))
    if not shows:
        return None
    for v in _leaves(args):
        if isinstance(v, numpy.ndarray) and v.dtype.kind in 'fc' and v.size:
            parts = (v.real, v.imag) if v.dtype.kind == 'c' else (v,)
            if any(bool(numpy.any((p == 0) & numpy.signbit(p))) for p in parts):
                return 'a negative zero among the keys (documented: -0.0 and +0.0 may sort differently)'
    return None


def _pre_fft(case, args, kwargs):
    """NumPy's inverse real transforms of an empty input zero-padded by n= or s= read uninitialised memory."""
    if case.op.split('.')[-1] in ('irfft', 'hfft', 'irfftn', 'irfft2') and isinstance(args[0], numpy.ndarray) \
            and args[0].size == 0:
        return 'inverse real FFT of an empty input (NumPy reads uninitialised memory)'
    return None


PRECHECKS = {'fft': _pre_fft, 'negzero': _pre_negzero, 'cast_defined': _pre_cast_defined,
             'elementwise': _pre_elementwise, 'setitem': _pre_setitem, 'put': _pre_put,
             'put_along_axis': _pre_put_along_axis}


# ----------------------------------------------------------------------------------------------------------------
# Comparing
# ----------------------------------------------------------------------------------------------------------------

_EXACT_NUMPY_EXC = (numpy.exceptions.AxisError, numpy.linalg.LinAlgError)


def reference_exception(t):
    """The class cuarray's exception must be an instance of, for NumPy's exception type `t`: AxisError and
    LinAlgError themselves, else the first builtin class in its MRO (NumPy's private subclasses such as
    _UFuncNoLoopError count as TypeError)."""
    for c in t.__mro__:
        if c in _EXACT_NUMPY_EXC or c.__module__ == 'builtins':
            return c
    return Exception


def compatible_exception(np_type, cu_type):
    if issubclass(np_type, numpy.exceptions.AxisError):
        return any(c.__name__ == 'AxisError' for c in cu_type.__mro__)
    return issubclass(cu_type, reference_exception(np_type))


def _unsupported_result(tree):
    tag, v = tree
    if tag in ('tuple', 'list'):
        return any(_unsupported_result(x) for x in v)
    if tag in ('dev', 'host', 'npscalar'):
        return numpy.asarray(v).dtype not in _SUPPORTED_DT
    return False


def _has_big_int(obj):
    for v in _leaves(obj):
        if _is_intlike(v) and not (-2 ** 63 <= int(v) < 2 ** 64):
            return True
    return False


def _scale(case, np_args):
    """The absolute scale of a case's values for its tolerance."""
    if isinstance(case.scale, (int, float)):
        return float(case.scale), 1
    arrays = [a for a in _leaves(np_args) if isinstance(a, numpy.ndarray) and a.dtype.kind in 'biufc']
    m, n = 1.0, 1
    for a in arrays:
        if a.size:
            v = numpy.abs(a.astype(numpy.complex128 if a.dtype.kind == 'c' else numpy.float64))
            v = v[numpy.isfinite(v)]
            if v.size:
                m = max(m, float(v.max()))
            n = max(n, a.size)
    if case.scale == 'sum':
        return n * m, n
    if case.scale == 'sq':
        return n * m * m, n
    if case.scale == 'sqrt':
        return ('sqrt', n, m), n
    if case.scale == 'max':
        return m, n
    return None, n


def _close(e, a, case, scale):
    """Whether host arrays a (cuarray) and e (NumPy) hold the same values; a detail string if not."""
    if e.dtype.kind in 'fc' and a.dtype.kind in 'fc':
        char = e.dtype.char if e.dtype.char in RTOL else 'd'
        # A computation that went through a less precise dtype than its result's (case.extra['loop_dtype'], a
        # dtype char: e.g. fuse's sin(int16) in float32, then + int64 in float64) carries that dtype's rounding.
        loop = case.extra.get('loop_dtype')
        if loop in RTOL and RTOL[loop] > RTOL[char]:
            char = loop
        rtol = RTOL[char] * case.tol
        mag = 1.0
        finite = e[numpy.isfinite(e)] if e.size else e
        if finite.size:
            mag = max(1.0, float(numpy.abs(finite).max()))
        if isinstance(scale, tuple):
            atol = math.sqrt(rtol * scale[1]) * scale[2] * 2
        elif scale is None:
            atol = rtol * mag
        else:
            atol = rtol * max(scale, mag)
        parts = [(e.real, a.real), (e.imag, a.imag)] if e.dtype.kind == 'c' or a.dtype.kind == 'c' else [(e, a)]
        if e.dtype.kind == 'c':
            enan = numpy.isnan(e.real) | numpy.isnan(e.imag)
            anan = numpy.isnan(a.real) | numpy.isnan(a.imag) if a.dtype.kind == 'c' else numpy.isnan(a)
            if not numpy.array_equal(enan, anan):
                return 'NaN at different places'
            keep = ~enan
            parts = [(x[keep], y[keep]) for x, y in parts]
        for x, y in parts:
            x = x.astype(numpy.float64)
            y = y.astype(numpy.float64)
            xn, yn = numpy.isnan(x), numpy.isnan(y)
            if not numpy.array_equal(xn, yn):
                return 'NaN at different places'
            xi, yi = numpy.isinf(x), numpy.isinf(y)
            if not numpy.array_equal(xi, yi) or not numpy.array_equal(x[xi], y[yi]):
                return 'infinities differ'
            f = ~(xn | xi)
            diff = numpy.abs(x[f] - y[f])
            bad = diff > atol + rtol * numpy.abs(x[f])
            if numpy.any(bad):
                i = int(numpy.argmax(bad))
                return 'values differ beyond rtol={:.1e} atol={:.1e}: numpy {!r} vs cuarray {!r} ({} of {})'.format(
                    rtol, atol, float(x[f][i]), float(y[f][i]), int(bad.sum()), int(f.sum()))
        return None
    if e.dtype.kind in 'fc' or a.dtype.kind in 'fc':
        return 'values differ (dtype kinds differ)'
    if not numpy.array_equal(e, a):
        ne = numpy.flatnonzero(e.ravel() != a.ravel()) if e.shape == a.shape else [0]
        i = int(ne[0]) if len(ne) else 0
        return 'values differ at flat index {}: numpy {!r} vs cuarray {!r}'.format(
            i, e.ravel()[i].item() if e.size else None, a.ravel()[i].item() if a.size else None)
    return None


def compare_trees(et, at, case, scale, where='result'):
    """None when cuarray's result tree `at` matches NumPy's `et`, else a detail string."""
    etag, ev = et
    atag, av = at
    if etag in ('tuple', 'list'):
        if atag not in ('tuple', 'list'):
            return '{}: numpy returned a {}, cuarray {}'.format(where, etag, _tree_kind(at))
        if etag != atag:
            return '{}: numpy returned a {}, cuarray a {}'.format(where, etag, atag)
        if len(ev) != len(av):
            return '{}: numpy returned {} items, cuarray {}'.format(where, len(ev), len(av))
        for i, (x, y) in enumerate(zip(ev, av)):
            d = compare_trees(x, y, case, scale, '{}[{}]'.format(where, i))
            if d:
                return d
        return None
    if etag == 'none' or atag == 'none':
        return None if etag == atag else '{}: numpy returned {}, cuarray {}'.format(where, _tree_kind(et),
                                                                                     _tree_kind(at))
    if etag == 'obj' or atag == 'obj':
        return None if ev == av else '{}: numpy returned {!r}, cuarray {!r}'.format(where, ev, av)
    if atag == 'host' and etag in ('host', 'npscalar'):
        return '{}: cuarray returned a numpy.ndarray (host memory), not a device array'.format(where)
    if atag in ('tuple', 'list'):
        return '{}: numpy returned {}, cuarray a {}'.format(where, _tree_kind(et), atag)
    e = numpy.asarray(ev)
    a = numpy.asarray(av)
    if e.shape != a.shape:
        return '{}: shapes differ: numpy {} vs cuarray {}'.format(where, e.shape, a.shape)
    if etag != 'py' and case.check != 'nodtype' and e.dtype != a.dtype:
        return '{}: dtypes differ: numpy {} vs cuarray {}'.format(where, e.dtype, a.dtype)
    if etag == 'py' and isinstance(ev, bool) != (a.dtype == numpy.bool_):
        return '{}: numpy returned {!r}, cuarray {!r}'.format(where, ev, av)
    if case.check == 'meta':
        return None
    if e.dtype.kind not in 'biufc' or a.dtype.kind not in 'biufc':
        return None if e.dtype == a.dtype else '{}: dtypes differ'.format(where)
    d = _close(e, a, case, scale)
    return '{}: {}'.format(where, d) if d else None


def _tree_kind(t):
    tag, v = t
    if tag in ('dev', 'host', 'npscalar'):
        a = numpy.asarray(v)
        return '{} {}{}'.format({'dev': 'array', 'host': 'numpy.ndarray', 'npscalar': 'scalar'}[tag], a.dtype,
                                a.shape)
    if tag == 'py':
        return type(v).__name__
    return tag


def _summary(side):
    if side.skip:
        return 'skip: ' + side.skip
    if side.raised:
        return 'raise {}: {}'.format(side.exc_type.__name__, side.exc_msg)
    return 'ok: ' + _short(_tree_repr(side.value), 240)


def _tree_repr(t):
    tag, v = t
    if tag in ('tuple', 'list'):
        inner = ', '.join(_tree_repr(x) for x in v)
        return '({})'.format(inner) if tag == 'tuple' else '[{}]'.format(inner)
    if tag in ('dev', 'host', 'npscalar'):
        a = numpy.asarray(v)
        flat = a.ravel()
        vals = ', '.join(repr(x.item() if hasattr(x, 'item') else x) for x in flat[:6]) + (
            ', ...' if flat.size > 6 else '')
        return '{}{} [{}]'.format(a.dtype, a.shape, vals)
    return repr(v)


# ---- contract checks ---------------------------------------------------------------------------------------------

def _along(case, x):
    axis = case.extra.get('axis', -1)
    # A 0-d input sorts as its one element (NumPy's argsort and partition of a 0-d array give shape (1,)).
    return (x.ravel(), -1) if axis is None or x.ndim == 0 else (x, axis)


def _contract_check(case, np_side, cu_side):
    """cuarray's result satisfies the operation's contract; where NumPy's answer is one of several valid ones
    (argsort that is not stable, partition, argpartition) it is compared with NumPy's through that contract."""
    if case.check == 'random':
        return _check_random(case, np_side, cu_side)
    x = materialize(case.args, numpy)[0]
    et, at = np_side.value, cu_side.value
    if case.mutates is not None:  # (returned, the array changed in place)
        d = compare_trees(et[1][0], at[1][0], case, None, 'returned')
        if d:
            return d
        et, at = et[1][1], at[1][1]
    if at[0] == 'host':
        return 'cuarray returned a numpy.ndarray (host memory), not a device array'
    if at[0] in ('tuple', 'list', 'none', 'obj', 'py'):
        return 'numpy returned {}, cuarray {}'.format(_tree_kind(et), _tree_kind(at))
    e = numpy.asarray(et[1])
    g = numpy.asarray(at[1])
    if e.shape != g.shape:
        return 'shapes differ: numpy {} vs cuarray {}'.format(e.shape, g.shape)
    if e.dtype != g.dtype:
        return 'dtypes differ: numpy {} vs cuarray {}'.format(e.dtype, g.dtype)
    if g.size == 0 or g.ndim == 0:
        return None if _same_values(e, g) else 'values differ: numpy {!r} vs cuarray {!r}'.format(e, g)
    flat, ax = _along(case, x)
    if case.check in ('argsort', 'argpartition'):
        if not numpy.array_equal(numpy.sort(g, axis=ax), numpy.sort(e, axis=ax)):
            return 'the indices are not a permutation along the axis'
        e = numpy.take_along_axis(flat, e, axis=ax)
        g = numpy.take_along_axis(flat, g, axis=ax)
        if case.check == 'argsort':
            return None if _same_values(e, g) else 'taking the indices does not sort the array as NumPy does'
    # partition: the same multiset along the axis, and each kth element in its sorted place with the smaller
    # ones before it
    w = numpy.moveaxis(numpy.sort(flat, axis=ax), ax, -1)
    gg = numpy.moveaxis(g, ax, -1)
    if not _same_values(numpy.sort(gg, axis=-1), w):
        return 'not a permutation of the input along the axis'
    n = gg.shape[-1]
    for k in numpy.atleast_1d(numpy.asarray(case.extra.get('kth'))).ravel():
        k = int(k) % n
        if not _same_values(gg[..., k], w[..., k]):
            return 'element kth={} is not the one in sorted position'.format(k)
        if not _same_values(numpy.sort(gg[..., :k], axis=-1), w[..., :k]):
            return 'the elements before kth={} are not the smallest ones'.format(k)
    return None


def _same_values(a, b):
    if a.shape != b.shape:
        return False
    if a.dtype.kind in 'fc':
        return bool(numpy.all((a == b) | (numpy.isnan(a) & numpy.isnan(b))))
    return numpy.array_equal(a, b)


def _check_random(case, np_side, cu_side):
    et, at = np_side.value, cu_side.value
    if at[0] in ('tuple', 'list') or et[0] in ('tuple', 'list'):
        return compare_trees(et, at, case, None)
    if at[0] == 'host':
        return 'cuarray returned a numpy.ndarray (host memory), not a device array'
    e = numpy.asarray(et[1])
    a = numpy.asarray(at[1])
    if e.shape != a.shape:
        return 'shapes differ: numpy {} vs cuarray {}'.format(e.shape, a.shape)
    if et[0] != 'py' and e.dtype != a.dtype:
        return 'dtypes differ: numpy {} vs cuarray {}'.format(e.dtype, a.dtype)
    dom = case.extra.get('domain', ('any',))
    if not a.size:
        return None
    if dom[0] == 'range':
        lo, hi, inclusive = dom[1], dom[2], dom[3]
        v = a.astype(numpy.float64) if a.dtype.kind != 'c' else a.real
        if a.dtype.kind in 'iu':
            v = a.astype(object)
        ok = numpy.all(v >= lo) and (numpy.all(v <= hi) if inclusive else numpy.all(v < hi))
        if not ok:
            return 'values outside [{}, {}{}: min {} max {}'.format(lo, hi, ']' if inclusive else ')', v.min(),
                                                                    v.max())
    elif dom[0] == 'finite':
        if not numpy.all(numpy.isfinite(a)):
            return 'non-finite values'
    elif dom[0] == 'member':
        pool = dom[1]
        pool = numpy.arange(pool) if isinstance(pool, int) else materialize(pool, numpy)
        if not numpy.all(numpy.isin(a, pool)):
            return 'values not drawn from a'
    elif dom[0] == 'perm':
        pool = dom[1]
        pool = numpy.arange(pool) if isinstance(pool, int) else materialize(pool, numpy)
        if not _same_values(numpy.sort(a, axis=0), numpy.sort(pool, axis=0)):
            return 'not a permutation'
    return None


# ---- the comparison ----------------------------------------------------------------------------------------------

def _cuarray():
    import cuarray
    return cuarray


def compare(case, cu=None, no_device=False):
    """Run `case` with numpy and with cuarray (or `cu`, e.g. numpy itself to test the harness) and return the
    outcome record: family, case id, desc, outcome, numpy, cuarray, detail. With `no_device` (cuarray without a
    GPU) a CUDA error from cuarray where NumPy succeeds is a 'skip' (the call needs the device), and where NumPy
    raises it is a 'wrong_exception_type' (cuarray touched the device before checking its arguments)."""
    if cu is None:
        cu = _cuarray()
    rec = {'family': case.family, 'case': case.cid, 'desc': describe(case), 'outcome': None, 'numpy': '',
           'cuarray': '', 'detail': ''}
    np_side = run_side(case, numpy, cu, device=False)
    if np_side.skip:
        rec.update(outcome='skip', numpy=_summary(np_side), detail=np_side.skip)
        return rec
    if cu is numpy and (case.family == 'kernels' or case.unsupported or
                        (not np_side.raised and _unsupported_result(np_side.value))):
        rec.update(outcome='skip', numpy=_summary(np_side), detail='not comparable with numpy itself')
        return rec
    cu_side = run_side(case, cu, cu, device=True)
    rec['numpy'] = _summary(np_side)
    rec['cuarray'] = _summary(cu_side)
    rec['outcome'], rec['detail'] = classify(case, np_side, cu_side)
    if cu_side.raised and _cuda_error(cu_side.exc_type):
        if no_device:
            if not np_side.raised and rec['outcome'] != 'silent_success':
                rec.update(outcome='skip', detail='needs a device')
            else:
                rec['detail'] += ' (cuarray touched the device before checking its arguments)'
        else:
            rec['cuda_error'] = True  # the worker restarts: a sticky CUDA error would spoil the next cases
    return known(rec)


def known(rec):
    """`rec` with the outcome 'known' when KNOWN_MISMATCHES lists it."""
    if rec['outcome'] in MISMATCHES:
        import re
        for fam, pattern, note in KNOWN_MISMATCHES:
            if (fam is None or fam == rec['family']) and re.search(pattern, rec['desc']):
                rec['known_as'] = rec['outcome']
                rec['outcome'] = 'known'
                rec['detail'] = (rec.get('detail', '') + ' [known: {}]'.format(note)).strip()
                break
    return rec


def _cuda_error(t):
    return any(c.__name__ in ('CUDARuntimeError', 'CUDADriverError', 'CUDAError', 'OutOfMemoryError')
               for c in t.__mro__)


def classify(case, np_side, cu_side):
    expect_type_error = case.unsupported or (not np_side.raised and _unsupported_result(np_side.value))
    if expect_type_error:
        allowed = (TypeError, OverflowError) if _has_big_int(case.args) or _has_big_int(case.kwargs) else \
            (TypeError,)
        if cu_side.raised:
            if issubclass(cu_side.exc_type, allowed) or (
                    np_side.raised and compatible_exception(np_side.exc_type, cu_side.exc_type)):
                return 'match', ''
            return 'wrong_exception_type', 'unsupported dtype: cuarray should raise TypeError, raised {}'.format(
                cu_side.exc_type.__name__)
        return 'silent_success', 'unsupported dtype: cuarray should raise TypeError'
    if np_side.raised:
        if cu_side.raised:
            if compatible_exception(np_side.exc_type, cu_side.exc_type):
                return 'match', ''
            return 'wrong_exception_type', 'numpy raised {} (expects {}), cuarray {}'.format(
                np_side.exc_type.__name__, reference_exception(np_side.exc_type).__name__, cu_side.exc_type.__name__)
        return 'silent_success', 'numpy raised {}'.format(np_side.exc_type.__name__)
    if cu_side.raised:
        detail = 'cuarray raised {}'.format(cu_side.exc_type.__name__)
        if _cuda_error(cu_side.exc_type):
            detail += ' (a CUDA error)'
        return 'error_where_numpy_succeeds', detail
    if case.check in ('argsort', 'partition', 'argpartition', 'random'):
        d = _contract_check(case, np_side, cu_side)
        return ('match', '') if not d else ('wrong_result', d)
    np_args = materialize(case.args, numpy)
    scale, _ = _scale(case, np_args)
    d = compare_trees(np_side.value, cu_side.value, case, scale)
    return ('match', '') if not d else ('wrong_result', d)


# ----------------------------------------------------------------------------------------------------------------
# Worker process: runs cases sent by a parent, so that a crash kills the worker, not the parent
# ----------------------------------------------------------------------------------------------------------------

def serve():
    """The worker loop: one base64 pickle of a Case per line on stdin, one JSON record per line on the original
    stdout (fd 1 is pointed at stderr so that stray output, e.g. kernel printf, cannot corrupt the protocol).

    CUARRAY_FUZZ_AGAINST_NUMPY=1 runs NumPy in place of cuarray (tests the harness without a GPU).
    CUARRAY_FUZZ_TEST_CRASH='ID,...' makes the worker die by SIGSEGV on these case ids ('A>B': on B only when A
    ran before in the same process), to test the drivers' crash handling."""
    proto = os.fdopen(os.dup(1), 'w', buffering=1)
    os.dup2(2, 1)
    if os.environ.get('CUARRAY_FUZZ_AGAINST_NUMPY') == '1':
        cu = numpy
    else:
        try:
            import cuarray as cu
        except Exception as e:  # noqa: BLE001
            proto.write(json.dumps({'ready': False, 'error': 'import cuarray failed: {}: {}'.format(
                type(e).__name__, e)}) + '\n')
            return 3
        if not cu.is_available():
            proto.write(json.dumps({'ready': False, 'error': 'no CUDA device (cuarray.is_available() is False)'})
                        + '\n')
            return 3
    crash_on = [c.partition('>')[::2] for c in os.environ.get('CUARRAY_FUZZ_TEST_CRASH', '').split(',') if c]
    seen = set()
    proto.write(json.dumps({'ready': True, 'pid': os.getpid()}) + '\n')
    for line in sys.stdin.buffer:
        line = line.strip()
        if not line or line == b'QUIT':
            break
        case = pickle.loads(base64.b64decode(line))
        for first, then in crash_on:
            if (then and case.cid == then and first in seen) or (not then and case.cid == first):
                os.kill(os.getpid(), signal.SIGSEGV)
        seen.add(case.cid)
        try:
            rec = compare(case, cu)
        except Exception as e:  # noqa: BLE001 - a harness error is reported, not fatal
            rec = {'family': case.family, 'case': case.cid, 'desc': describe(case), 'outcome': 'harness_error',
                   'numpy': '', 'cuarray': '', 'detail': _short(''.join(traceback.format_exception(
                       type(e), e, e.__traceback__))[-600:], 600)}
        proto.write(json.dumps(rec) + '\n')
    return 0


def worker_env(extra=None):
    """The environment of a worker: CUARRAY_CHECK_INDEX=1 (NumPy's IndexError for out-of-range index arrays),
    faulthandler on, and a PYTHONPATH that finds this module and the cuarray the parent uses."""
    env = dict(os.environ)
    env['CUARRAY_CHECK_INDEX'] = '1'
    env['PYTHONFAULTHANDLER'] = '1'
    paths = [HERE]
    try:
        import importlib.util
        spec = importlib.util.find_spec('cuarray')
        if spec is not None and spec.origin:
            paths.append(os.path.dirname(os.path.dirname(os.path.abspath(spec.origin))))
    except Exception:  # noqa: BLE001
        pass
    if env.get('PYTHONPATH'):
        paths.append(env['PYTHONPATH'])
    env['PYTHONPATH'] = os.pathsep.join(paths)
    if extra:
        env.update(extra)
    return env


class WorkerError(RuntimeError):
    pass


TIMEOUT = object()  # _readline: no line in time


class Worker:
    """A child process that runs cases; `run(case)` returns the outcome record, or a 'crash' record when the child
    dies (or stays silent for `timeout` seconds) during the case, after which the next call starts a new child."""

    def __init__(self, timeout=120.0, start_timeout=300.0, env=None):
        self.timeout = timeout
        self.start_timeout = start_timeout
        self.env = env or worker_env()
        self.proc = None
        self._buf = b''
        self._err = None
        self.starts = 0

    def start(self):
        self.close()
        self._err = tempfile.TemporaryFile()
        code = 'import sys; sys.path.insert(0, {!r}); import _fuzz; sys.exit(_fuzz.serve())'.format(HERE)
        self.proc = subprocess.Popen([sys.executable, '-c', code], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=self._err, env=self.env, start_new_session=True)
        self._buf = b''
        self.starts += 1
        line = self._readline(self.start_timeout)
        if line is None or line is TIMEOUT:
            tail = self._stderr_tail()
            self.close()
            raise WorkerError('the fuzz worker did not start: ' + tail)
        msg = json.loads(line)
        if not msg.get('ready'):
            self.close()
            raise WorkerError(msg.get('error', 'the fuzz worker did not start'))

    def _readline(self, timeout):
        """The next line from the worker; None at end of file (the worker died), TIMEOUT when none came."""
        fd = self.proc.stdout.fileno()
        deadline = time.monotonic() + timeout
        while b'\n' not in self._buf:
            left = deadline - time.monotonic()
            if left <= 0:
                return TIMEOUT
            r, _, _ = select.select([fd], [], [], min(left, 1.0))
            if not r:
                if self.proc.poll() is None:
                    continue
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                return None
            self._buf += chunk
        line, _, self._buf = self._buf.partition(b'\n')
        return line.decode()

    def _stderr_tail(self, n=1500):
        if self._err is None:
            return ''
        try:
            self._err.flush()
            self._err.seek(0, os.SEEK_END)
            size = self._err.tell()
            self._err.seek(max(0, size - n))
            return self._err.read().decode(errors='replace')
        except (OSError, ValueError):
            return ''

    def run(self, case):
        if self.proc is None or self.proc.poll() is not None:
            self.start()
        data = base64.b64encode(pickle.dumps(case, protocol=4)) + b'\n'
        try:
            self.proc.stdin.write(data)
            self.proc.stdin.flush()
            line = self._readline(self.timeout)
        except (BrokenPipeError, OSError):
            line = None
        if line is not None and line is not TIMEOUT:
            rec = json.loads(line)
            if rec.get('cuda_error'):
                self.close()  # a fresh process (and CUDA context) for the next case
            return rec
        timed_out = line is TIMEOUT
        if timed_out:
            self._kill()
        try:
            rc = self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self._kill()
            rc = self.proc.wait()
        tail = self._stderr_tail()
        self.proc = None
        how = 'no answer in {:.0f} s (killed)'.format(self.timeout) if timed_out else _exit_text(rc)
        return known({'family': case.family, 'case': case.cid, 'desc': describe(case), 'outcome': 'crash',
                      'numpy': _summary(run_side(case, numpy, None, device=False)),
                      'cuarray': 'process died: ' + how, 'detail': _short(_last_lines(tail, 12), 1200)})

    def _kill(self):
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError, OSError):
            try:
                self.proc.kill()
            except OSError:
                pass

    def close(self):
        if self.proc is not None:
            try:
                if self.proc.poll() is None:
                    self.proc.stdin.write(b'QUIT\n')
                    self.proc.stdin.flush()
                    self.proc.wait(timeout=10)
            except (OSError, subprocess.TimeoutExpired, ValueError):
                self._kill()
                self.proc.wait()
            self.proc = None
        if self._err is not None:
            self._err.close()
            self._err = None


def _exit_text(rc):
    if rc is None:
        return 'still running'
    if rc < 0:
        try:
            return 'killed by signal {} ({})'.format(-rc, signal.Signals(-rc).name)
        except ValueError:
            return 'killed by signal {}'.format(-rc)
    return 'exit code {}'.format(rc)


def _last_lines(text, n):
    lines = [ln for ln in text.splitlines() if ln.strip()]
    return '\n'.join(lines[-n:])


def format_record(rec):
    return '[{}] {} {}\n    numpy:   {}\n    cuarray: {}{}'.format(
        rec['family'], rec.get('case') or '', rec['desc'], rec['numpy'], rec['cuarray'],
        '\n    detail:  ' + rec['detail'] if rec.get('detail') else '')
