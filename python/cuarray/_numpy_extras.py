"""NumPy's composite routines over cuarray's compiled ops: functional and shape helpers, comparisons, interp, unwrap,
window functions and bit packing.

These are written in Python as NumPy and CuPy write them: each is a short composition of device operations (or,
for interp, one generated kernel), and the Python parts only handle arguments, shapes and dtypes on the host.
Reductions that NumPy returns as Python bools (allclose, array_equal, array_equiv) return 0-d device arrays, as
CuPy's do (DESIGN principle 2: no hidden device-to-host synchronisation).
"""
import collections.abc
import math
import operator
import sys
import warnings

import numpy
from numpy.lib.array_utils import normalize_axis_index, normalize_axis_tuple

import cuarray as _cp
from cuarray import _creation
from cuarray._core import ndarray
from cuarray._elementwise import ElementwiseKernel

__all__ = [
    "allclose", "apply_along_axis", "apply_over_axes", "array_equal", "array_equiv", "asarray_chkfinite", "bartlett",
    "blackman", "broadcast", "byte_bounds", "common_type", "hamming", "hanning", "interp", "isclose", "isfortran",
    "isneginf", "isposinf", "isscalar", "kaiser", "may_share_memory", "ndim", "ndindex", "packbits", "piecewise",
    "real_if_close", "require", "shape", "shares_memory", "size", "unpackbits", "unwrap", "who",
]

_PY_SCALARS = (bool, int, float, complex)

# Pure host objects: NumPy's own (CuPy re-exports them too).
isscalar = numpy.isscalar
ndindex = numpy.ndindex


def _is_scalar(x):
    return isinstance(x, _PY_SCALARS + (numpy.generic,))


def _device(x, name):
    """`x` as a device array: cuarray arrays as they are, Python and NumPy scalars as 0-d arrays. Host arrays and
    sequences are refused, as by every cuarray operation (no implicit host-to-device transfer)."""
    if isinstance(x, ndarray):
        return x
    if _is_scalar(x):
        return _cp.asarray(x)
    raise TypeError(f"Unsupported type {type(x).__name__} for cuarray.{name}(): pass cuarray arrays or scalars "
                    f"(move host data with cuarray.asarray())")


def _operand(x, name):
    """`x` for an elementwise operation: device arrays and scalars pass through (scalars stay weakly typed)."""
    if isinstance(x, ndarray) or _is_scalar(x):
        return x
    return _device(x, name)  # raises the TypeError


def _dtype_of(x):
    return x.dtype if hasattr(x, "dtype") else numpy.asarray(x).dtype


# -- shape and metadata helpers -----------------------------------------------------------------------------------


def _host_shape(a):
    """The shape NumPy would give `a` (a sequence, possibly holding device arrays, or a scalar)."""
    if _creation._contains_device_array(a):
        return _creation._nested_shape_and_dtype(a)[0]
    return numpy.shape(a)


def ndim(a):
    """The number of dimensions of `a` (a Python int, as NumPy's)."""
    try:
        return a.ndim
    except AttributeError:
        return len(_host_shape(a))


def shape(a):
    """The shape of `a` (a tuple, as NumPy's)."""
    try:
        return a.shape
    except AttributeError:
        return _host_shape(a)


def size(a, axis=None):
    """The number of elements of `a`, or along the axis or axes `axis` (NumPy 2.4 takes a tuple)."""
    if axis is None:
        try:
            return a.size
        except AttributeError:
            return math.prod(_host_shape(a))
    s = shape(a)
    axes = normalize_axis_tuple(axis, len(s), allow_duplicate=False)
    return math.prod(s[ax] for ax in axes)


def isfortran(a):
    """True if `a` is Fortran-contiguous and not C-contiguous."""
    return a.flags.fnc


def common_type(*arrays):
    """The inexact scalar type common to the arrays (integers count as float64), as NumPy's common_type."""
    # NumPy's rule depends on the dtypes alone: empty host stand-ins of the same dtypes give its answer exactly.
    return numpy.common_type(*[numpy.empty(0, dtype=a.dtype) for a in arrays])


_REQUIREMENT_FLAGS = {
    "C": "C", "C_CONTIGUOUS": "C", "CONTIGUOUS": "C", "F": "F", "F_CONTIGUOUS": "F", "FORTRAN": "F", "A": "A",
    "ALIGNED": "A", "W": "W", "WRITEABLE": "W", "O": "O", "OWNDATA": "O", "E": "E", "ENSUREARRAY": "E",
}


def _has_flag(a, flag):
    if flag == "C":
        return a.flags.c_contiguous
    if flag == "F":
        return a.flags.f_contiguous
    if flag == "O":
        return a.flags.owndata
    return True  # device arrays are always aligned and writeable


def require(a, dtype=None, requirements=None, *, like=None):
    """A device array of `dtype` that satisfies the flags in `requirements` (copied only when needed)."""
    if not requirements:
        return _cp.asanyarray(a, dtype=dtype)
    flags = {_REQUIREMENT_FLAGS[r.upper()] for r in requirements}
    flags.discard("E")  # cuarray has no ndarray subclasses: every result is a base-class array
    order = "A"
    if flags >= {"C", "F"}:
        raise ValueError('Cannot specify both "C" and "F" order')
    if "F" in flags:
        order = "F"
        flags.remove("F")
    elif "C" in flags:
        order = "C"
        flags.remove("C")
    # Order 'A' asks for no layout: NumPy keeps a non-contiguous view as it is.
    arr = _cp.asarray(a, dtype=dtype) if order == "A" else _cp.array(a, dtype=dtype, order=order, copy=None)
    for flag in flags:
        if not _has_flag(arr, flag):
            return arr.copy(order)
    return arr


def asarray_chkfinite(a, dtype=None, order=None):
    """cuarray.asarray(a), raising ValueError if a floating or complex result holds an inf or NaN (one
    device-to-host read of the check's result)."""
    a = _cp.asarray(a, dtype=dtype, order=order)
    if a.dtype.char in numpy.typecodes["AllFloat"] and not bool(_cp.all(_cp.isfinite(a))):
        raise ValueError("array must not contain infs or NaNs")
    return a


def byte_bounds(a):
    """(low, high): the device addresses of the first byte and one past the last byte `a` can reach, as NumPy's
    numpy.lib.array_utils.byte_bounds computes them for host arrays."""
    if not isinstance(a, ndarray):
        raise TypeError(f"byte_bounds() needs a cuarray.ndarray, not {type(a).__name__}")
    low = high = a.data.ptr
    itemsize = a.itemsize
    if a.flags.c_contiguous:
        high += a.size * itemsize
    else:
        for n, stride in zip(a.shape, a.strides):
            if stride < 0:
                low += (n - 1) * stride
            else:
                high += (n - 1) * stride
        high += itemsize
    return low, high


class _AddressOnly:
    """An __array_interface__ over a device array's addresses, so that NumPy's overlap solver (which only does
    arithmetic on addresses and strides, never reads the memory) answers for device arrays too."""
    __slots__ = ("__array_interface__",)

    def __init__(self, a):
        self.__array_interface__ = {"data": (a.data.ptr, False), "shape": a.shape, "strides": a.strides,
                                    "typestr": a.dtype.str, "version": 3}


def _overlap(a, b, max_work, exact):
    a_dev, b_dev = isinstance(a, ndarray), isinstance(b, ndarray)
    if not a_dev and not b_dev:
        return (numpy.shares_memory if exact else numpy.may_share_memory)(a, b, max_work=max_work)
    if a_dev != b_dev:
        return False  # device memory is never host memory, and a converted host object would be new memory
    if a.size == 0 or b.size == 0 or a._device_id != b._device_id:
        return False
    x, y = numpy.asarray(_AddressOnly(a)), numpy.asarray(_AddressOnly(b))
    return (numpy.shares_memory if exact else numpy.may_share_memory)(x, y, max_work=max_work)


def shares_memory(a, b, /, max_work=-1):
    """Whether `a` and `b` share memory: exactly by default, as NumPy's (max_work as NumPy's; TooHardError when the
    problem is harder than max_work)."""
    return _overlap(a, b, max_work, True)


def may_share_memory(a, b, /, max_work=0):
    """Whether `a` and `b` might share memory: by the overlap of their byte bounds unless max_work asks for more."""
    return _overlap(a, b, max_work, False)


def who(vardict=None):
    """Print the cuarray arrays in `vardict` (default: the caller's globals): name, shape, bytes and dtype, and an
    upper bound on their total bytes (an array bound to several names counts once). Returns None."""
    if vardict is None:
        vardict = sys._getframe().f_back.f_globals
    rows = []
    first_name = {}
    total = 0
    for name, value in vardict.items():
        if not isinstance(value, ndarray):
            continue
        original = first_name.setdefault(id(value), name)
        if original == name:
            label = name
            total += value.nbytes
        else:
            label = f"{name} ({original})"
        rows.append((label, " x ".join(str(d) for d in value.shape), str(value.nbytes), value.dtype.name))
    if rows:
        widths = [max(10, max(len(r[k]) for r in rows)) for k in range(3)]
        header = "Name {} Shape {} Bytes {} Type".format(*(" " * w for w in widths))
        print(header + "\n" + "=" * (len(header) + 5) + "\n")
        for label, shp, nbytes, dt in rows:
            print(f"{label} {' ' * (widths[0] - len(label) + 4)} {shp} {' ' * (widths[1] - len(shp) + 5)} "
                  f"{nbytes} {' ' * (widths[2] - len(nbytes) + 5)} {dt}")
    print(f"\nUpper bound on total bytes  =       {total}")


# -- broadcast ----------------------------------------------------------------------------------------------------


def _broadcast_shape(shapes):
    """NumPy's broadcast of `shapes`, with the message of numpy.broadcast naming the first two args that clash."""
    nd = max((len(s) for s in shapes), default=0)
    out = []
    for i in range(nd):
        dim, src = 1, 0
        for j, s in enumerate(shapes):
            k = i + len(s) - nd
            if k < 0 or s[k] == 1:
                continue
            if dim == 1:
                dim, src = s[k], j
            elif dim != s[k]:
                raise ValueError(f"shape mismatch: objects cannot be broadcast to a single shape.  Mismatch is "
                                 f"between arg {src} with shape {shapes[src]} and arg {j} with shape {shapes[j]}.")
        out.append(dim)
    return tuple(out)


class broadcast:
    """NumPy's broadcast object over device arrays: the broadcast ``shape``, ``nd``/``ndim``, ``numiter``,
    ``size``, ``index``, ``iters`` (one flatiter per argument, advanced together), ``reset()``, and iteration,
    which yields one tuple of 0-d device arrays per position (reading elements one by one is slow on a GPU).
    ``values`` holds the broadcast views, as in CuPy."""

    def __init__(self, *args):
        if len(args) > 64:
            raise ValueError("Need at least 0 and at most 64 array objects.")
        arrays = []
        for a in args:
            if isinstance(a, broadcast):
                arrays.extend(a.values)
            else:
                arrays.append(_device(a, "broadcast"))
        if len(arrays) > 64:
            raise ValueError("Need at least 0 and at most 64 array objects.")
        self._shape = _broadcast_shape([a.shape for a in arrays])
        self.values = [_cp.broadcast_to(a, self._shape) for a in arrays]
        self._iters = tuple(_cp.flatiter(v) for v in self.values)
        self._index = 0

    @property
    def shape(self):
        return self._shape

    @property
    def nd(self):
        return len(self._shape)

    @property
    def ndim(self):
        return len(self._shape)

    @property
    def numiter(self):
        return len(self.values)

    @property
    def size(self):
        return math.prod(self._shape)

    @property
    def index(self):
        return self._index

    @property
    def iters(self):
        return self._iters

    def reset(self):
        """Back to the first position (for the iterators in ``iters`` too)."""
        self._index = 0
        for it in self._iters:
            it._index = 0

    def __iter__(self):
        return self

    def __next__(self):
        if self._index >= self.size:
            raise StopIteration
        values = tuple(next(it) for it in self._iters)
        self._index += 1
        return values

    def __repr__(self):
        return f"<cuarray.broadcast of shape {self._shape} over {self.numiter} arrays>"


# -- functional helpers -------------------------------------------------------------------------------------------


def _result_array(r):
    """A function's result as a device array (its host scalars and arrays are moved to the device)."""
    return r if isinstance(r, ndarray) else _cp.asarray(r)


def piecewise(x, condlist, funclist, *args, **kw):
    """A piecewise-defined function: where condlist[k] holds, funclist[k] (a value, or a function called on the
    selected elements of x); an extra last function applies where no condition holds, elsewhere 0."""
    x = _device(x, "piecewise")
    n2 = len(funclist)
    # NumPy's undocumented rule: a single condition is promoted to a list of one condition. A device condlist
    # holds arrays (not scalars) as its first item exactly when it has two or more dimensions.
    if isscalar(condlist):
        condlist = [condlist]
    elif isinstance(condlist, ndarray) and condlist.ndim >= 1:
        if condlist.ndim < 2 and x.ndim != 0:
            condlist = [condlist]
    elif not isinstance(condlist[0], (list, ndarray, numpy.ndarray)) and x.ndim != 0:
        condlist = [condlist]
    condlist = _cp.asarray(condlist, dtype=bool)
    n = len(condlist)
    if n == n2 - 1:
        otherwise = _cp.logical_not(_cp.any(condlist, axis=0, keepdims=True))
        condlist = _cp.concatenate([condlist, otherwise], axis=0)
        n += 1
    elif n != n2:
        raise ValueError(f"with {n} condition(s), either {n} or {n + 1} functions are expected")
    y = _cp.zeros_like(x)
    for k, func in enumerate(funclist):
        cond = condlist[k]
        if not isinstance(func, collections.abc.Callable):
            y[cond] = func
        else:
            vals = x[cond]
            if vals.size > 0:
                y[cond] = _result_array(func(vals, *args, **kw))
    return y


def apply_along_axis(func1d, axis, arr, *args, **kwargs):
    """func1d applied to each 1-D slice of `arr` along `axis`; its results (of one shape) are stacked in place of
    that axis. One Python call per slice, as in NumPy and CuPy."""
    arr = _device(arr, "apply_along_axis")
    nd = arr.ndim
    axis = normalize_axis_index(axis, nd)
    dims = list(range(nd))
    view = _cp.transpose(arr, dims[:axis] + dims[axis + 1:] + [axis])
    # A trailing Ellipsis keeps each slice an array (not a 0-d element) when `arr` is 1-D.
    inds = (ind + (Ellipsis,) for ind in numpy.ndindex(view.shape[:-1]))
    try:
        ind0 = next(inds)
    except StopIteration:
        raise ValueError("Cannot apply_along_axis when any iteration dimensions are 0") from None
    res = _result_array(func1d(view[ind0], *args, **kwargs))
    buff = _cp.zeros(view.shape[:-1] + res.shape, dtype=res.dtype)
    bdims = list(range(buff.ndim))
    permute = bdims[:axis] + bdims[buff.ndim - res.ndim:] + bdims[axis:buff.ndim - res.ndim]
    buff[ind0] = res
    for ind in inds:
        buff[ind] = _result_array(func1d(view[ind], *args, **kwargs))
    return _cp.transpose(buff, permute)


def apply_over_axes(func, a, axes):
    """func(a, axis) applied for each axis in turn, each result keeping the number of dimensions (a reduced axis
    is put back with length 1)."""
    val = _device(a, "apply_over_axes")
    n = val.ndim
    if isinstance(axes, ndarray):
        axes = axes.tolist()
    if numpy.ndim(axes) == 0:
        axes = (axes,)
    for axis in axes:
        if axis < 0:
            axis = n + axis
        res = func(val, axis)
        if res.ndim == val.ndim:
            val = res
        else:
            res = _cp.expand_dims(res, axis)
            if res.ndim == val.ndim:
                val = res
            else:
                raise ValueError("function is not returning an array of the correct shape")
    return val


# -- comparisons --------------------------------------------------------------------------------------------------


def _all_finite(v):
    if isinstance(v, ndarray):
        return bool(_cp.all(_cp.isfinite(v)))
    return bool(numpy.all(numpy.isfinite(v)))


def isclose(a, b, rtol=1.e-5, atol=1.e-8, equal_nan=False):
    """Elementwise ``abs(a - b) <= atol + rtol * abs(b)`` (b finite) or ``a == b``, with NaNs equal when
    `equal_nan`; NumPy's formula and promotion (b is made inexact first). Returns a device bool array
    (0-d for scalar inputs)."""
    x, y, atol, rtol = (v if isinstance(v, (int, float, complex)) else _operand(v, "isclose")
                        for v in (a, b, atol, rtol))
    # An inexact b keeps abs(b) away from abs(INT_MIN) overflow; x is cast with it.
    dt = getattr(y, "dtype", None)
    if dt is not None:
        dt = numpy.result_type(dt, 1.0)
        y = y.astype(dt, copy=False) if isinstance(y, ndarray) else dt.type(y)
    elif isinstance(y, int):
        y = float(y)
    if not (_all_finite(atol) and _all_finite(rtol)):
        msg = f"One of rtol or atol is not valid, atol: {atol}, rtol: {rtol}"
        mode = numpy.geterr()["invalid"]
        if mode == "warn":
            warnings.warn(msg, RuntimeWarning, stacklevel=2)
        elif mode == "raise":
            raise FloatingPointError(msg)
        elif mode == "print":
            print(msg)
    close = _cp.less_equal(_cp.absolute(_cp.subtract(x, y)), _cp.add(atol, _cp.multiply(rtol, _cp.absolute(y))))
    result = _cp.logical_or(_cp.logical_and(close, _cp.isfinite(y)), _cp.equal(x, y))
    if equal_nan:
        result = _cp.logical_or(result, _cp.logical_and(_cp.isnan(x), _cp.isnan(y)))
    return result


def allclose(a, b, rtol=1.e-5, atol=1.e-8, equal_nan=False):
    """all(isclose(a, b, ...)) as a 0-d device bool array (NumPy returns a Python bool; like CuPy, cuarray does
    not read the device to make one: ``bool()`` of the result does)."""
    return _cp.all(isclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan))


def array_equal(a1, a2, equal_nan=False):
    """Whether a1 and a2 have the same shape and elements (NaNs equal when `equal_nan`), as a 0-d device bool
    array (CuPy's convention; NumPy returns a Python bool)."""
    a1, a2 = _device(a1, "array_equal"), _device(a2, "array_equal")
    if a1.shape != a2.shape:
        return _cp.array(False)
    eq = _cp.equal(a1, a2)
    if equal_nan and (a1.dtype.kind in "fc" or a2.dtype.kind in "fc"):
        # Equal NaN positions and equal other elements, as NumPy's two-step test, in one elementwise pass.
        eq = _cp.logical_or(eq, _cp.logical_and(_cp.isnan(a1), _cp.isnan(a2)))
    return _cp.all(eq)


def array_equiv(a1, a2):
    """Whether a1 and a2 broadcast to one shape and are equal there, as a 0-d device bool array (CuPy's
    convention; NumPy returns a Python bool)."""
    a1, a2 = _device(a1, "array_equiv"), _device(a2, "array_equiv")
    try:
        numpy.broadcast_shapes(a1.shape, a2.shape)
    except ValueError:
        return _cp.array(False)
    return _cp.all(_cp.equal(a1, a2))


def _signed_inf(x, out, positive):
    x = _operand(x, "isposinf" if positive else "isneginf")
    dt = _dtype_of(x)
    if dt.kind == "c":
        raise TypeError(f"This operation is not supported for {dt} values because it would be ambiguous.")
    sign = _cp.signbit(x)
    if positive:
        sign = _cp.logical_not(sign)
    if out is None:
        return _cp.logical_and(_cp.isinf(x), sign)
    return _cp.logical_and(_cp.isinf(x), sign, out=out)


def isposinf(x, out=None):
    """Elementwise x == +inf (TypeError for complex x, as NumPy)."""
    return _signed_inf(x, out, True)


def isneginf(x, out=None):
    """Elementwise x == -inf (TypeError for complex x, as NumPy)."""
    return _signed_inf(x, out, False)


def real_if_close(a, tol=100):
    """a.real if every imaginary part of complex `a` is below tol machine epsilons (tol > 1) or below tol, else a.
    Deciding needs one read of a device reduction."""
    a = _device(a, "real_if_close")
    if a.dtype.kind != "c":
        return a
    if tol > 1:
        tol = numpy.finfo(a.dtype).eps * tol
    if bool(_cp.all(_cp.less(_cp.absolute(a.imag), tol))):
        a = a.real
    return a


# -- interp and unwrap --------------------------------------------------------------------------------------------

# NumPy's compiled interp, one thread per x: the same search result (the last xp[j] <= x), the same end values,
# the same NaN retries. Products and sums use the _rn intrinsics so that NVRTC does not contract them into
# fused multiply-adds, which would round differently from NumPy's host code.
_INTERP_SEARCH = r"""
const long long npts = xp.size();
long long j = -2;  // -2: decided without interpolation
if (npts == 1) {
  y = x < xp[0] ? left_v : (x > xp[0] ? right_v : fp[0]);
} else if (isnan(x)) {
  NAN_RESULT;
} else if (x > xp[npts - 1]) {
  y = right_v;
} else if (x < xp[0]) {
  y = left_v;
} else {
  long long lo = 1, hi = npts;
  while (lo < hi) {
    const long long mid = lo + ((hi - lo) >> 1);
    if (x >= xp[mid]) lo = mid + 1; else hi = mid;
  }
  j = lo - 1;
  if (j == npts - 1 || xp[j] == x) {
    y = fp[j];
    j = -2;
  }
}
"""

_interp_real = ElementwiseKernel(
    "float64 x, raw float64 xp, raw float64 fp, float64 lval, float64 rval, bool dl, bool dr", "float64 y",
    "const double left_v = dl ? fp[0] : lval, right_v = dr ? fp[xp.size() - 1] : rval;\n"
    + _INTERP_SEARCH.replace("NAN_RESULT", "y = x") + r"""
if (j >= 0) {
  const double slope = (fp[j + 1] - fp[j]) / (xp[j + 1] - xp[j]);
  y = __dadd_rn(__dmul_rn(slope, x - xp[j]), fp[j]);
  if (isnan(y)) {
    y = __dadd_rn(__dmul_rn(slope, x - xp[j + 1]), fp[j + 1]);
    if (isnan(y) && fp[j] == fp[j + 1]) y = fp[j];
  }
}
""", "cuarray_interp")

_interp_complex = ElementwiseKernel(
    "float64 x, raw float64 xp, raw complex128 fp, complex128 lval, complex128 rval, bool dl, bool dr",
    "complex128 y",
    "const complex<double> left_v = dl ? fp[0] : lval, right_v = dr ? fp[xp.size() - 1] : rval;\n"
    + _INTERP_SEARCH.replace("NAN_RESULT", "y.re = x; y.im = 0.0") + r"""
if (j >= 0) {
  const double inv_dx = 1.0 / (xp[j + 1] - xp[j]);
  const double s_re = (fp[j + 1].re - fp[j].re) * inv_dx, s_im = (fp[j + 1].im - fp[j].im) * inv_dx;
  double re = __dadd_rn(__dmul_rn(s_re, x - xp[j]), fp[j].re);
  if (isnan(re)) {
    re = __dadd_rn(__dmul_rn(s_re, x - xp[j + 1]), fp[j + 1].re);
    if (isnan(re) && fp[j].re == fp[j + 1].re) re = fp[j].re;
  }
  double im = __dadd_rn(__dmul_rn(s_im, x - xp[j]), fp[j].im);
  if (isnan(im)) {
    im = __dadd_rn(__dmul_rn(s_im, x - xp[j + 1]), fp[j + 1].im);
    if (isnan(im) && fp[j].im == fp[j + 1].im) im = fp[j].im;
  }
  y.re = re;
  y.im = im;
}
""", "cuarray_interp_complex")


def _as_float64(a, name, discard_imag=False):
    """`a` as float64. Complex values are refused with NumPy's TypeError, or (interp's period path, where NumPy
    converts with asarray) lose their imaginary part with NumPy's ComplexWarning."""
    a = _device(a, name)
    if a.dtype.kind == "c":
        if not discard_imag:
            raise TypeError(f"Cannot cast array data from {a.dtype!r} to dtype('float64') according to the rule "
                            f"'safe'")
        warnings.warn("Casting complex values to real discards the imaginary part", numpy.exceptions.ComplexWarning,
                      stacklevel=3)
        a = a.real
    return a.astype(numpy.float64, copy=False)


def _one_d(a):
    if a.ndim < 1:
        raise ValueError("object of too small depth for desired array")
    if a.ndim > 1:
        raise ValueError("object too deep for desired array")


# NumPy 2.5 (numpy/numpy#31339) lets an empty x go with empty xp/fp, giving an empty result; 2.4 raises. Follow
# the NumPy that is installed, as the tests compare with it.
_INTERP_EMPTY_X_WITH_EMPTY_XP = numpy.lib.NumpyVersion(numpy.__version__) >= "2.5.0"


def interp(x, xp, fp, left=None, right=None, period=None):
    """One-dimensional linear interpolation of (xp, fp) at x, NumPy's algorithm: float64 (complex128 for complex
    fp) results of x's shape; `left`/`right` outside [xp[0], xp[-1]] (default fp[0], fp[-1]); NaN x gives NaN;
    `period` wraps x and xp. xp must be increasing (not checked, as in NumPy)."""
    fp = _device(fp, "interp")
    is_complex = fp.dtype.kind == "c"
    fp = fp.astype(numpy.complex128 if is_complex else numpy.float64, copy=False)
    if period is not None:
        if period == 0:
            raise ValueError("period must be a non-zero value")
        period = abs(period)
        left = right = None
        x = _as_float64(x, "interp", True)
        xp = _as_float64(xp, "interp", True)
        if xp.ndim != 1 or fp.ndim != 1:
            raise ValueError("Data points must be 1-D sequences")
        if xp.shape[0] != fp.shape[0]:
            raise ValueError("fp and xp are not of the same length")
        x = _cp.remainder(x, period)
        xp = _cp.remainder(xp, period)
        order = _cp.argsort(xp)
        xp = xp[order]
        fp = fp[order]
        xp = _cp.concatenate((_cp.subtract(xp[-1:], period), xp, _cp.add(xp[0:1], period)))
        fp = _cp.concatenate((fp[-1:], fp, fp[0:1]))
    _one_d(fp)
    xp = _as_float64(xp, "interp")
    _one_d(xp)
    x = _as_float64(x, "interp")
    if xp.size == 0 and (x.size != 0 or not _INTERP_EMPTY_X_WITH_EMPTY_XP):
        raise ValueError("array of sample points is empty")
    if fp.size != xp.size:
        raise ValueError("fp and xp are not of the same length.")
    if x.size == 0 and _INTERP_EMPTY_X_WITH_EMPTY_XP:
        # NumPy >= 2.5 returns before it converts left/right, so bad fill values pass with an empty x.
        return _cp.empty(x.shape, dtype=numpy.complex128 if is_complex else numpy.float64)
    if is_complex:
        lval = 0j if left is None else complex(left)
        rval = 0j if right is None else complex(right)
        kernel, out_dtype = _interp_complex, numpy.complex128
    else:
        lval = 0.0 if left is None else float(left)
        rval = 0.0 if right is None else float(right)
        kernel, out_dtype = _interp_real, numpy.float64
    if x.size == 0:
        return _cp.empty(x.shape, dtype=out_dtype)
    xp = _cp.ascontiguousarray(xp)
    fp = _cp.ascontiguousarray(fp)
    return kernel(x, xp, fp, lval, rval, left is None, right is None)


def unwrap(p, discont=None, axis=-1, *, period=2 * math.pi):
    """Unwrap `p` along `axis`: jumps of more than max(discont, period/2) between neighbours are replaced by
    their period-complement (NumPy's algorithm, integer periods included)."""
    p = _device(p, "unwrap")
    nd = p.ndim
    dd = _cp.diff(p, axis=axis)
    if discont is None:
        discont = period / 2
    later = [slice(None, None)] * nd
    later[axis] = slice(1, None)
    later = tuple(later)
    dtype = numpy.result_type(dd.dtype, period)
    if numpy.issubdtype(dtype, numpy.integer):
        interval_high, rem = divmod(period, 2)
        boundary_ambiguous = rem == 0
    else:
        interval_high = period / 2
        boundary_ambiguous = True
    interval_low = -interval_high
    ddmod = _cp.add(_cp.mod(_cp.subtract(dd, interval_low), period), interval_low)
    if boundary_ambiguous:
        # A jump of exactly +period/2 maps to -period/2 above; keep the sign of the jump.
        _cp.copyto(ddmod, interval_high,
                   where=_cp.logical_and(_cp.equal(ddmod, interval_low), _cp.greater(dd, 0)))
    ph_correct = _cp.subtract(ddmod, dd)
    _cp.copyto(ph_correct, 0, where=_cp.less(_cp.absolute(dd), discont))
    up = _cp.array(p, copy=True, dtype=dtype)
    up[later] = _cp.add(p[later], _cp.cumsum(ph_correct, axis=axis))
    return up


# -- window functions ---------------------------------------------------------------------------------------------


def _window_length(M):
    """NumPy's conversion of a window length: float64 at least (through an array with 0.0), on the host."""
    values = numpy.array([0.0, M])
    return values.dtype, values[1]


def _cosine_window(M, terms):
    dt, M = _window_length(M)
    if M < 1:
        return _cp.array([], dtype=dt)
    if M == 1:
        return _cp.ones(1, dtype=dt)
    n = _cp.arange(1 - M, M, 2)
    result = None
    for k, coef in enumerate(terms):
        if k == 0:
            result = coef
            continue
        arg = _cp.divide(_cp.multiply(k * math.pi if k > 1 else math.pi, n), M - 1)
        term = _cp.multiply(coef, _cp.cos(arg))
        result = _cp.add(result, term)
    return result


def hanning(M):
    """The Hann window of M points: 0.5 + 0.5 cos(pi n / (M - 1)), n = 1-M, 3-M, ..., M-1."""
    return _cosine_window(M, (0.5, 0.5))


def hamming(M):
    """The Hamming window of M points: 0.54 + 0.46 cos(pi n / (M - 1))."""
    return _cosine_window(M, (0.54, 0.46))


def blackman(M):
    """The Blackman window of M points: 0.42 + 0.5 cos(pi n / (M - 1)) + 0.08 cos(2 pi n / (M - 1))."""
    return _cosine_window(M, (0.42, 0.5, 0.08))


def bartlett(M):
    """The Bartlett (triangular) window of M points."""
    dt, M = _window_length(M)
    if M < 1:
        return _cp.array([], dtype=dt)
    if M == 1:
        return _cp.ones(1, dtype=dt)
    n = _cp.arange(1 - M, M, 2)
    ramp = _cp.divide(n, M - 1)
    return _cp.where(_cp.less_equal(n, 0), _cp.add(1, ramp), _cp.subtract(1, ramp))


def kaiser(M, beta):
    """The Kaiser window of M points and shape `beta`: i0(beta sqrt(1 - ((n - alpha) / alpha)**2)) / i0(beta)."""
    values = numpy.array([0.0, M, beta])
    M, beta = values[1], values[2]
    if M == 1:
        return _cp.ones(1, dtype=values.dtype)
    n = _cp.arange(0, M)
    alpha = (M - 1) / 2.0
    ratio = _cp.square(_cp.divide(_cp.subtract(n, alpha), alpha))  # NumPy's **2.0 is an exact square
    arg = _cp.multiply(beta, _cp.sqrt(_cp.subtract(1, ratio)))
    # i0(beta) is one number: NumPy's own value, computed on the host.
    return _cp.divide(_cp.i0(arg), float(numpy.i0(beta)))


# -- bit packing --------------------------------------------------------------------------------------------------


def _str_arg(value, what, position):
    if not isinstance(value, str):
        got = "None" if value is None else type(value).__name__
        raise TypeError(f"{what}() argument {position} must be str, not {got}")
    return value


def _pack_little(bitorder):
    # packbits compares NumPy's prefixes: 'bigger' is 'big', 'l' is an error.
    bitorder = _str_arg(bitorder, "pack", 3)
    if bitorder.startswith("little"):
        return True
    if bitorder.startswith("big"):
        return False
    raise ValueError("'order' must be either 'little' or 'big'")


def _unpack_little(bitorder):
    # unpackbits looks at the first letter only, as NumPy's.
    bitorder = _str_arg(bitorder, "unpack", 4)
    if bitorder[:1] == "l":
        return True
    if bitorder[:1] == "b":
        return False
    raise ValueError("'order' must begin with 'l' or 'b'")


def _bits_axis(a, axis):
    """`a` and the axis to work along: the flattened array for axis=None; 0-d arrays act as 1-D (NumPy's)."""
    if axis is None:
        return a.reshape(-1), 0
    if a.ndim == 0:
        a = a.reshape(1)
    return a, normalize_axis_index(operator.index(axis), a.ndim)


def _layout_like(result, source):
    return _cp.asfortranarray(result) if (source.ndim > 1 and source.flags.fnc) else _cp.ascontiguousarray(result)


def packbits(a, /, axis=None, bitorder="big"):
    """Pack the truth values of integer or bool `a` into the bits of uint8 bytes along `axis` (the flattened array
    for None); the last byte is padded with zero bits."""
    little = _pack_little(bitorder)
    a = _device(a, "packbits")
    if a.dtype.kind not in "biu":
        raise TypeError("Expected an input array of integer or boolean data type")
    src, axis = _bits_axis(a, axis)
    bits = _cp.moveaxis(_cp.not_equal(src, 0), axis, -1)
    n = bits.shape[-1]
    nbytes = (n + 7) // 8
    if nbytes * 8 != n:
        pad = _cp.zeros(bits.shape[:-1] + (nbytes * 8 - n,), dtype=numpy.bool_)
        bits = _cp.concatenate([bits, pad], axis=-1)
    bits = bits.reshape(bits.shape[:-1] + (nbytes, 8))
    weights = numpy.left_shift(numpy.uint8(1), numpy.arange(8, dtype=numpy.uint8))
    weights = _cp.asarray(weights if little else weights[::-1].copy())
    packed = _cp.sum(_cp.multiply(bits, weights), axis=-1, dtype=numpy.uint8)
    return _layout_like(_cp.moveaxis(packed, -1, axis), src)


def unpackbits(a, /, axis=None, count=None, bitorder="big"):
    """Unpack the bits of uint8 `a` into a uint8 array of 0s and 1s along `axis` (the flattened array for None);
    `count` keeps that many bits (negative: drops -count from the end; more than there are: pads with zeros)."""
    little = _unpack_little(bitorder)
    a = _device(a, "unpackbits")
    if a.dtype != numpy.uint8:
        raise TypeError("Expected an input array of unsigned byte data type")
    src, axis = _bits_axis(a, axis)
    total = src.shape[axis] * 8
    if count is None:
        m = total
    else:
        if isinstance(count, (bool, numpy.bool_)):
            raise TypeError("an integer is required")
        count = operator.index(count)
        m = total + count if count < 0 else count
        if m < 0:
            raise ValueError("-count larger than number of elements")
    shifts = numpy.arange(8, dtype=numpy.uint8)
    shifts = _cp.asarray(shifts if little else shifts[::-1].copy())
    moved = _cp.moveaxis(src, axis, -1)
    bits = _cp.bitwise_and(_cp.right_shift(moved[..., None], shifts), 1)
    bits = bits.reshape(moved.shape[:-1] + (total,))
    if m <= total:
        bits = bits[..., :m]
    else:
        pad = _cp.zeros(moved.shape[:-1] + (m - total,), dtype=numpy.uint8)
        bits = _cp.concatenate([bits, pad], axis=-1)
    return _layout_like(_cp.moveaxis(bits, -1, axis), src)
