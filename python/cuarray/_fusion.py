"""cuarray.fuse: traces an elementwise Python function into one generated kernel (CuPy's ``fuse``)."""
import functools
import inspect
import math
import re
import struct
import threading
import types

import numpy

from cuarray import _core
from cuarray._core import ndarray
from cuarray._elementwise import broadcast_shape

_UFUNC_NAMES = frozenset(_core.ufunc_names())
_MAX_OPERANDS = 11  # inputs + outputs of one engine kernel
_state = threading.local()  # the tracer of the function being traced on this thread
_trace_lock = threading.RLock()  # tracing is rare; one at a time keeps the rewritten globals simple

# Representative Python values of weak (NEP 50) operands: the loop depends on the kind only; the value of a
# Python int argument is checked against the integer types it meets when the kernel is called.
_WEAK_REPR = {"bool": False, "int": 0, "uint": 2 ** 63, "float": 0.0, "complex": 0j}
_WEAK_STORAGE = {"bool": numpy.dtype(numpy.bool_), "int": numpy.dtype(numpy.int64),
                 "uint": numpy.dtype(numpy.uint64), "float": numpy.dtype(numpy.float64),
                 "complex": numpy.dtype(numpy.complex128)}
_KIND_OF = {"b": "bool", "i": "int", "u": "int", "f": "float", "c": "complex"}


def _ctype(dtype):
    return _core.jit_type_name(dtype)


def _unsupported(what, hint=""):
    return TypeError(f"cuarray.fuse: {what} is not supported in a fused function{hint}")


def _double_literal(v):
    if math.isfinite(v):
        return f"({v!r})"
    bits = struct.unpack("<q", struct.pack("<d", v))[0]
    return f"__longlong_as_double({bits}LL)"


def _int_literal(v):
    if v == -2 ** 63:
        return "(-9223372036854775807LL - 1)"
    if -2 ** 63 < v < 2 ** 63:
        return f"({v}LL)"
    if 0 <= v < 2 ** 64:
        return f"({v}ULL)"
    raise OverflowError(f"Python integer {v} out of bounds for uint64")


def _literal(v):
    """C++ expression and dtype of a constant."""
    if isinstance(v, numpy.generic):
        dt = v.dtype
        return f"ca_cast<{_ctype(dt)}>({_literal(v.item())[0]})", dt
    if isinstance(v, (bool, numpy.bool_)):
        return ("true" if v else "false"), numpy.dtype(numpy.bool_)
    if isinstance(v, int):
        return _int_literal(v), numpy.dtype(numpy.int64 if v < 2 ** 63 else numpy.uint64)
    if isinstance(v, float):
        return _double_literal(v), numpy.dtype(numpy.float64)
    if isinstance(v, complex):
        return f"ca_complex128({_double_literal(v.real)}, {_double_literal(v.imag)})", numpy.dtype(numpy.complex128)
    raise TypeError(f"unsupported constant {v!r}")


def _weak_kind(v):
    """'bool', 'int', 'uint', 'float', 'complex' for Python scalars; None otherwise."""
    if isinstance(v, numpy.generic):
        return None  # numpy.float64 is a float subclass, but a strong operand
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, int):
        if -2 ** 63 <= v < 2 ** 63:
            return "int"
        if 0 <= v < 2 ** 64:
            return "uint"
        raise OverflowError(f"Python integer {v} out of bounds for uint64")
    if isinstance(v, float):
        return "float"
    if isinstance(v, complex):
        return "complex"
    return None


class _Node:
    """One statement of the kernel body: an argument load or an operation."""
    __slots__ = ("id", "code", "parents", "arg", "argset")

    def __init__(self, nid, code, parents, arg=None, argset=frozenset()):
        self.id = nid
        self.code = code
        self.parents = parents
        self.arg = arg  # argument index for argument loads
        self.argset = argset  # indices of the array arguments the value depends on (its broadcast shape)


class _Tracer:
    def __init__(self):
        self.nodes = []
        self.nvars = 0
        self.int_checks = set()  # (argument index, integer dtype) a Python int argument is cast to

    def var(self):
        self.nvars += 1
        return f"_f{self.nvars}"

    def node(self, code, parents, arg=None, argset=None):
        if argset is None:
            argset = frozenset().union(*[p.argset for p in parents])
        n = _Node(len(self.nodes), code, parents, arg, argset)
        self.nodes.append(n)
        return n


def _tracer():
    t = getattr(_state, "tracer", None)
    if t is None:
        raise RuntimeError("cuarray.fuse: traced values can only be used while their function is traced")
    return t


class _Value:
    """A traced value: the ndarray (or scalar) an expression of the fused function stands for.

    ``weak`` is the Python scalar kind for values that behave as Python scalars (NEP 50 weak operands):
    scalar arguments and operator results on them. ``mutable`` values are arrays: an in-place operator
    updates them (and every alias) and keeps their dtype, as NumPy's ``out=`` does."""
    __slots__ = ("var", "dtype", "node", "weak", "mutable", "__weakref__")
    __array_priority__ = 1000

    def __init__(self, var, dtype, node, weak=None, mutable=False):
        self.var = var
        self.dtype = numpy.dtype(dtype)
        self.node = node
        self.weak = weak
        self.mutable = mutable

    # -- arithmetic ---------------------------------------------------------------------------------
    def _bin(name, reflected=False):
        if reflected:
            return lambda self, other: _apply(name, (other, self), operator=True)
        return lambda self, other: _apply(name, (self, other), operator=True)

    def _inplace(name):
        def method(self, other):
            res = _apply(name, (self, other), operator=True)
            if res is NotImplemented or not self.mutable:
                return res  # Python and NumPy scalars are immutable: rebinding the name is all there is
            if res.dtype != self.dtype:
                if not numpy.can_cast(res.dtype, self.dtype, "same_kind"):
                    raise TypeError(f"Cannot cast ufunc '{name}' output from {res.dtype!r} to {self.dtype!r} "
                                    f"with casting rule 'same_kind'")
                res = _cast(res, self.dtype)
            self.var, self.node = res.var, res.node
            return self
        return method

    __add__, __radd__, __iadd__ = _bin("add"), _bin("add", True), _inplace("add")
    __sub__, __rsub__, __isub__ = _bin("subtract"), _bin("subtract", True), _inplace("subtract")
    __mul__, __rmul__, __imul__ = _bin("multiply"), _bin("multiply", True), _inplace("multiply")
    __truediv__, __rtruediv__, __itruediv__ = _bin("divide"), _bin("divide", True), _inplace("divide")
    __floordiv__, __rfloordiv__ = _bin("floor_divide"), _bin("floor_divide", True)
    __ifloordiv__ = _inplace("floor_divide")
    __mod__, __rmod__, __imod__ = _bin("remainder"), _bin("remainder", True), _inplace("remainder")
    __pow__, __rpow__, __ipow__ = _bin("power"), _bin("power", True), _inplace("power")
    __lshift__, __rlshift__ = _bin("left_shift"), _bin("left_shift", True)
    __ilshift__ = _inplace("left_shift")
    __rshift__, __rrshift__ = _bin("right_shift"), _bin("right_shift", True)
    __irshift__ = _inplace("right_shift")
    __and__, __rand__, __iand__ = _bin("bitwise_and"), _bin("bitwise_and", True), _inplace("bitwise_and")
    __or__, __ror__, __ior__ = _bin("bitwise_or"), _bin("bitwise_or", True), _inplace("bitwise_or")
    __xor__, __rxor__, __ixor__ = _bin("bitwise_xor"), _bin("bitwise_xor", True), _inplace("bitwise_xor")
    __lt__, __le__ = _bin("less"), _bin("less_equal")
    __gt__, __ge__ = _bin("greater"), _bin("greater_equal")
    __eq__, __ne__ = _bin("equal"), _bin("not_equal")
    __divmod__, __rdivmod__ = _bin("divmod"), _bin("divmod", True)
    del _bin, _inplace
    __hash__ = object.__hash__

    def __neg__(self):
        return _apply("negative", (self,), operator=True)

    def __pos__(self):
        return _apply("positive", (self,), operator=True)

    def __abs__(self):
        return _apply("absolute", (self,), operator=True)

    def __invert__(self):
        return _apply("invert", (self,), operator=True)

    def __matmul__(self, other):
        raise _unsupported("the @ operator (matmul)")

    __rmatmul__ = __imatmul__ = __matmul__

    # -- methods and attributes ---------------------------------------------------------------------
    def astype(self, dtype, order="K", casting=None, subok=None, copy=True):
        return _cast(self, numpy.dtype(dtype))

    def conj(self):
        return _apply("conjugate", (self,))

    conjugate = conj

    @property
    def real(self):
        return _part(self, "real")

    @property
    def imag(self):
        return _part(self, "imag")

    @property
    def shape(self):
        raise _unsupported("the shape of a traced value", " (fuse specialises on dtypes, not on shapes)")

    ndim = size = T = shape

    def sum(self, axis=None, dtype=None, out=None, keepdims=False):
        return _FUNCTIONS["sum"](self, axis=axis, dtype=dtype, out=out, keepdims=keepdims)

    def prod(self, axis=None, dtype=None, out=None, keepdims=False):
        return _FUNCTIONS["prod"](self, axis=axis, dtype=dtype, out=out, keepdims=keepdims)

    def max(self, axis=None, out=None, keepdims=False):
        return _FUNCTIONS["max"](self, axis=axis, out=out, keepdims=keepdims)

    def min(self, axis=None, out=None, keepdims=False):
        return _FUNCTIONS["min"](self, axis=axis, out=out, keepdims=keepdims)

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)  # protocol probes (hasattr) must see a plain missing attribute
        raise _unsupported(f"ndarray.{name}", " (only elementwise operations, astype, real, imag and conj are)")

    # -- what tracing cannot know -------------------------------------------------------------------
    def __bool__(self):
        raise TypeError("cuarray.fuse: bool() of a traced value is not supported: Python control flow "
                        "(if, while, and, or, not, chained comparisons) cannot depend on array values; "
                        "use cuarray.where instead")

    def _conversion(what):
        def method(self, *args):
            raise TypeError(f"cuarray.fuse: {what} of a traced value is not supported (its value is not "
                            f"known while tracing); use astype() or cuarray ufuncs instead")
        return method

    __int__ = _conversion("int()")
    __float__ = _conversion("float()")
    __complex__ = _conversion("complex()")
    __index__ = _conversion("use as an index (__index__)")
    __len__ = _conversion("len()")
    __iter__ = _conversion("iteration")
    __array__ = _conversion("conversion to a NumPy array")
    __getitem__ = _conversion("indexing")
    __setitem__ = _conversion("item assignment")
    del _conversion

    def __repr__(self):
        return f"<cuarray.fuse traced value {self.var} dtype={self.dtype}>"

    # -- NumPy's protocols: numpy.sin(x), numpy.where(c, x, y) ---------------------------------------
    def __array_ufunc__(self, uf, method, *inputs, **kwargs):
        # NumPy's ufuncs call this, and so do cuarray's when an argument is a traced value (their NEP 13
        # deferral, Note [fuse by value] in python/src/fusion_hook.hpp).
        name = getattr(uf, "__name__", str(uf))
        shown = f"{'cuarray' if isinstance(uf, _core.ufunc) else 'numpy'}.{name}"
        if method != "__call__":
            raise _unsupported(f"{shown}.{method}")
        return _call_ufunc(name, inputs, kwargs, shown)

    def __array_function__(self, func, types, args, kwargs):
        name = getattr(func, "__name__", str(func))
        ours = _FUNCTIONS.get(name)
        if ours is not None and getattr(numpy, name, None) is func and not (name == "where" and len(args) != 3):
            return ours(*args, **kwargs)
        raise _unsupported(f"numpy.{name}", " (only ufuncs, " + ", ".join(sorted(_FUNCTIONS)) + " are)")


_Value.__name__ = _Value.__qualname__ = "traced_value"  # as Python's operator errors show it


def _operand(x):
    """A _Value, or a constant (Python or NumPy scalar); raises TypeError for anything else."""
    if isinstance(x, _Value):
        return x
    if isinstance(x, (bool, int, float, complex, numpy.generic)) and not isinstance(x, (str, bytes)):
        if isinstance(x, numpy.generic):
            _ctype(x.dtype)  # unsupported dtypes raise here
        return x
    if isinstance(x, numpy.ndarray) and x.ndim == 0:
        return x[()]
    if isinstance(x, ndarray):
        raise TypeError("cuarray.fuse: a cuarray.ndarray that is not an argument of the fused function (a global "
                        "or closure variable) cannot be used in it; pass it as an argument")
    if isinstance(x, numpy.ndarray):
        raise TypeError("cuarray.fuse: a numpy.ndarray cannot be used in a fused function on the device; pass a "
                        "cuarray array as an argument (cuarray.asarray)")
    raise TypeError(f"cuarray.fuse: unsupported operand type {type(x).__name__}")


def _resolve_arg(x):
    if isinstance(x, _Value):
        return _WEAK_REPR[x.weak] if x.weak else x.dtype
    if isinstance(x, numpy.generic):
        return x.dtype  # strong; passed as a dtype because numpy.float64 is also a Python float
    return x


def _expr(x, dtype):
    """C++ expression of operand x converted to dtype."""
    if isinstance(x, _Value):
        return x.var if x.dtype == dtype else f"ca_cast<{_ctype(dtype)}>({x.var})"
    return f"ca_cast<{_ctype(dtype)}>({_literal(x)[0]})"


def _note_int_check(t, x, dtype):
    # A Python int argument meets an integer loop: NumPy raises OverflowError for values out of its range.
    if isinstance(x, _Value) and x.weak in ("int", "uint") and x.node.arg is not None and dtype.kind in "iu":
        t.int_checks.add((x.node.arg, dtype))


def _apply(name, operands, operator=False, dtype=None):
    """Trace ufunc `name` on operands; returns a _Value, or a tuple for ufuncs with several outputs."""
    t = _tracer()
    ops = []
    for x in operands:
        try:
            ops.append(_operand(x))
        except TypeError:
            if operator and not isinstance(x, (ndarray, numpy.ndarray)):
                return NotImplemented  # let Python try the other operand (or raise its own TypeError)
            raise
    _, in_dts, out_dts, body = _core.ufunc_resolve(name, [_resolve_arg(x) for x in ops], dtype)
    parents = [x.node for x in ops if isinstance(x, _Value)]
    outs = [t.var() for _ in out_dts]
    lines = [f"{_ctype(d)} {v};" for v, d in zip(outs, out_dts)]
    block = []
    for k, (x, d) in enumerate(zip(ops, in_dts)):
        _note_int_check(t, x, d)
        block.append(f"{_ctype(d)} in{k} = {_expr(x, d)};")
    block += [f"{_ctype(d)} out{j};" for j, d in enumerate(out_dts)]
    block.append(body)
    block += [f"{v} = out{j};" for j, v in enumerate(outs)]
    lines.append("{ " + " ".join(block) + " }")
    node = t.node("\n".join(lines), parents)
    # Operators on Python scalars give Python scalars (weak); ufunc calls give NumPy values (strong).
    weak = operator and all(isinstance(x, _Value) and x.weak or _weak_kind(x) is not None for x in ops)
    mutable = bool(node.argset)
    res = tuple(_Value(v, d, node, _KIND_OF[d.kind] if weak else None, mutable) for v, d in zip(outs, out_dts))
    return res[0] if len(res) == 1 else res


def _assign(t, x, dtype, code_of):
    var = t.var()
    node = t.node(f"{_ctype(dtype)} {var} = {code_of};", [x.node] if isinstance(x, _Value) else [])
    return _Value(var, dtype, node, None, bool(node.argset))


def _cast(x, dtype):
    _ctype(dtype)
    t = _tracer()
    x = _operand(x)
    return _assign(t, x, dtype, _expr(x, dtype))


def _part(x, which):
    t = _tracer()
    x = _operand(x)
    if not isinstance(x, _Value):
        x = _cast(x, _literal(x)[1])
    if x.dtype.kind == "c":
        rd = numpy.dtype(numpy.float32 if x.dtype == numpy.complex64 else numpy.float64)
        return _assign(t, x, rd, f"({x.var}).{'re' if which == 'real' else 'im'}")
    if which == "real":
        return _assign(t, x, x.dtype, x.var)
    return _assign(t, x, x.dtype, f"ca_cast<{_ctype(x.dtype)}>(0)")


def _real(x):
    return _part(x, "real")


def _imag(x):
    return _part(x, "imag")


def _where(condition, x, y):
    """numpy.where(condition, x, y): the result type is result_type(x, y) with Python scalars weak."""
    t = _tracer()
    c, a, b = (_operand(v) for v in (condition, x, y))
    dt = numpy.result_type(_resolve_arg(a), _resolve_arg(b))
    _ctype(dt)
    var = t.var()
    code = f"{_ctype(dt)} {var} = ca_cast<bool>({_expr(c, _value_dtype(c))}) ? {_expr(a, dt)} : {_expr(b, dt)};"
    node = t.node(code, [v.node for v in (c, a, b) if isinstance(v, _Value)])
    return _Value(var, dt, node, None, bool(node.argset))


def _clip(a, a_min=None, a_max=None, **kwargs):
    """numpy.clip as maximum then minimum (the same loop resolution as NumPy's clip ufunc)."""
    a_min = kwargs.pop("min", a_min)
    a_max = kwargs.pop("max", a_max)
    if kwargs:
        raise _unsupported(f"the {sorted(kwargs)[0]}= argument of clip")
    v = a
    if a_min is not None:
        v = _apply("maximum", (v, a_min))
    if a_max is not None:
        v = _apply("minimum", (v, a_max))
    return v if isinstance(v, _Value) else _cast(v, _literal(v)[1])


def _around(a, decimals=0, out=None):
    if decimals != 0 or out is not None:
        raise _unsupported("round/around with decimals= or out=")
    a = _operand(a)
    if _value_dtype(a).kind in "fc":
        return _apply("rint", (a,))
    return _cast(a, _value_dtype(a))


class _Reduction:
    """A reduction of a traced value (sum, prod, max, min): it can only be what the fused function returns,
    and the whole function then runs as one reduction kernel whose map is the traced expression."""
    __slots__ = ("op", "value", "axis", "keepdims", "dtype")

    def __init__(self, op, value, axis, keepdims, dtype):
        self.op, self.value, self.axis, self.keepdims, self.dtype = op, value, axis, keepdims, dtype

    def __getattr__(self, name):
        raise TypeError("cuarray.fuse: the result of a reduction can only be returned (it cannot take part in "
                        "further operations inside the fused function)")

    def _fail(self, *args, **kwargs):
        raise TypeError("cuarray.fuse: the result of a reduction can only be returned (it cannot take part in "
                        "further operations inside the fused function)")

    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = __truediv__ = __rtruediv__ = _fail
    __neg__ = __pow__ = __rpow__ = __bool__ = __array_ufunc__ = _fail


def _reducer(op):
    def reduce(a, axis=None, dtype=None, out=None, keepdims=False, **kwargs):
        if out is not None or kwargs:
            raise _unsupported(f"{op}() with out= or {', '.join(sorted(kwargs))}")
        a = _operand(a)
        if not isinstance(a, _Value):
            a = _cast(a, _literal(a)[1])
        if isinstance(axis, list):
            axis = tuple(axis)
        return _Reduction(op, a, axis, keepdims, None if dtype is None else numpy.dtype(dtype))
    return reduce


_FUNCTIONS = {"where": _where, "real": _real, "imag": _imag, "clip": _clip, "around": _around, "round": _around,
              "round_": _around, "sum": _reducer("sum"), "prod": _reducer("prod"), "max": _reducer("max"),
              "min": _reducer("min"), "amax": _reducer("max"), "amin": _reducer("min")}


def _value_dtype(x):
    return x.dtype if isinstance(x, _Value) else _literal(x)[1]


def _function_hook(name, args, kwargs):
    """cuarray.`name`(*args, **kwargs) met a traced value by a path _rewrite did not replace (a module alias, a
    helper of another module, a function kept in a container): the C++ bindings of where, clip, round, real,
    imag and the reductions call this (Note [fuse by value] in python/src/fusion_hook.hpp)."""
    ours = _FUNCTIONS.get(name)
    if ours is None:
        raise _unsupported(f"cuarray.{name}",
                           " (only elementwise ufuncs, " + ", ".join(sorted(_FUNCTIONS)) + " and astype are)")
    return ours(*args, **kwargs)


_core._set_fusion_hooks(_Value, _function_hook)


def _call_ufunc(name, args, kwargs, shown):
    dtype = None
    for k, v in kwargs.items():
        if k == "dtype":
            dtype = v
        elif k in ("casting", "order", "subok") or (k == "where" and v is True) or (k == "out" and v is None):
            continue
        else:
            raise _unsupported(f"the {k}= argument of {shown}")
    if name not in _UFUNC_NAMES:
        raise _unsupported(shown, " (cuarray has no ufunc of that name)")
    nin = _core.get_ufunc(name).nin
    if len(args) != nin:
        if len(args) > nin:
            raise _unsupported(f"output arguments of {shown}")
        raise TypeError(f"{shown}() takes {nin} positional arguments but {len(args)} were given")
    return _apply(name, args, dtype=dtype)


# -- the cuarray module as a fused function sees it -------------------------------------------------------


class _TracedUfunc:
    def __init__(self, ufunc):
        self._ufunc = ufunc
        self.__name__ = ufunc.__name__

    def __call__(self, *args, **kwargs):
        return _call_ufunc(self.__name__, args, kwargs, f"cuarray.{self.__name__}")

    def __getattr__(self, name):
        return getattr(self._ufunc, name)


def _guarded(name, func):
    @functools.wraps(func)
    def call(*args, **kwargs):
        if any(isinstance(a, _Value) for a in list(args) + list(kwargs.values())):
            raise _unsupported(f"cuarray.{name}",
                               " (only elementwise ufuncs, " + ", ".join(sorted(_FUNCTIONS)) + " and astype are)")
        return func(*args, **kwargs)
    return call


class _Namespace(types.ModuleType):
    """``cuarray`` inside a fused function: ufuncs and where trace; other functions refuse traced values."""

    def __init__(self, module):
        super().__init__(module.__name__)
        self.__dict__["_module"] = module

    def __getattr__(self, name):
        module = self.__dict__["_module"]
        if name in _FUNCTIONS:
            return _FUNCTIONS[name]
        val = getattr(module, name)
        if isinstance(val, _core.ufunc):
            return _TracedUfunc(val)
        if callable(val) and not isinstance(val, type) and not isinstance(val, Fused):
            return _guarded(name, val)
        return val


def _replacement(val, cuarray_module):
    if val is cuarray_module:
        return _Namespace(val)
    if isinstance(val, _core.ufunc):
        return _TracedUfunc(val)
    for name, ours in _FUNCTIONS.items():
        theirs = getattr(cuarray_module, name, None)
        if theirs is not None and val is theirs:
            return ours
    return None


def _rewrite(func):
    """`func` with the cuarray module, its ufuncs and where replaced by tracing versions in its globals and
    closure, and so for the plain functions of the same module that it may call."""
    import cuarray
    if not isinstance(func, types.FunctionType):
        return func
    g = func.__globals__
    new_g = dict(g)
    for name, val in g.items():
        r = _replacement(val, cuarray)
        if r is not None:
            new_g[name] = r

    def rebuild(f):
        closure = f.__closure__
        if closure:
            cells = []
            for c in closure:
                try:
                    v = c.cell_contents
                except ValueError:  # an empty cell (a name assigned later)
                    cells.append(c)
                    continue
                r = _replacement(v, cuarray)
                cells.append(types.CellType(r) if r is not None else c)
            closure = tuple(cells)
        nf = types.FunctionType(f.__code__, new_g, f.__name__, f.__defaults__, closure)
        nf.__kwdefaults__ = f.__kwdefaults__
        return nf

    for name, val in g.items():
        if isinstance(val, types.FunctionType) and val.__globals__ is g and val is not func:
            new_g[name] = rebuild(val)
    return rebuild(func)


# -- the traced kernel of one signature -------------------------------------------------------------------


class _Output:
    __slots__ = ("value", "target")

    def __init__(self, value, target):
        self.value = value
        self.target = target  # argument index written back (an in-place update of an argument), or None


class _Trace:
    """The traced function for one signature: the body's nodes, the outputs and how to return them."""

    def __init__(self, fused, key, args):
        self.name = fused._kernel_name
        t = _Tracer()
        proxies = []
        self.arg_dtypes = {}
        for k, (spec, a) in enumerate(zip(key, args)):
            if spec[0] in ("a", "s", "w"):
                dt = _WEAK_STORAGE[spec[1]] if spec[0] == "w" else spec[1]
                var = f"_a{k}"
                node = t.node(f"{_ctype(dt)} {var} = @{k}@;", [], arg=k,
                              argset=frozenset([k]) if spec[0] == "a" else frozenset())
                proxies.append(_Value(var, dt, node, spec[1] if spec[0] == "w" else None, spec[0] == "a"))
                self.arg_dtypes[k] = dt
            else:
                proxies.append(a)  # a static argument (None, a dtype...): passed to the function as is
        arrays = {k: (p, p.node) for k, p in enumerate(proxies) if isinstance(p, _Value) and p.mutable}
        self.outputs = []  # _Output: returned values, then in-place updates of array arguments
        self.returns = []  # per returned value: its index in self.outputs, or ("arg", k) for an argument itself
        with _trace_lock:
            previous = getattr(_state, "tracer", None)
            _state.tracer = t
            try:
                result = _rewrite(fused.func)(*proxies)
                self.reduction = result if isinstance(result, _Reduction) else None
                if isinstance(result, (tuple, list)) and any(isinstance(v, _Reduction) for v in result):
                    raise _unsupported("returning a reduction together with other results",
                                       " (return the reduction alone)")
                if self.reduction is not None:
                    result = result.value
                if isinstance(result, (tuple, list)):
                    self.kind, values = type(result), list(result)
                elif result is None:
                    self.kind, values = None, []
                else:
                    self.kind, values = "single", [result]
                for v in values:
                    # NumPy returns an argument array itself (updated in place or not), not a copy.
                    alias = [k for k, (p, _) in arrays.items() if v is p]
                    if alias:
                        self.returns.append(("arg", alias[0]))
                        continue
                    if isinstance(v, (tuple, list)):
                        raise TypeError("cuarray.fuse: a fused function must return arrays or a flat tuple of them")
                    v = _operand(v)
                    if not isinstance(v, _Value):
                        v = _cast(v, _literal(v)[1])  # a constant: a 0-d array of its default dtype
                    self.returns.append(len(self.outputs))
                    self.outputs.append(_Output(v, None))
            finally:
                _state.tracer = previous
        for k, (p, node0) in arrays.items():
            if p.node is not node0:
                self.outputs.append(_Output(_Value(p.var, p.dtype, p.node), k))
        self.tracer = t
        self.int_checks = sorted(t.int_checks, key=lambda c: (c[0], c[1].str))
        self.argsets = [tuple(sorted(o.value.node.argset)) for o in self.outputs]
        self.targets = [(j, o.target) for j, o in enumerate(self.outputs) if o.target is not None]
        self.groups = {}

    def body(self, outputs):
        """(kernel body, argument indices that are kernel inputs) computing `outputs` (a list of _Output)."""
        needed = set()
        stack = [o.value.node for o in outputs]
        while stack:
            n = stack.pop()
            if n.id in needed:
                continue
            needed.add(n.id)
            stack.extend(n.parents)
        nodes = [n for n in self.tracer.nodes if n.id in needed]
        inputs = [n.arg for n in nodes if n.arg is not None]
        lines = []
        for n in nodes:
            code = n.code
            if n.arg is not None:
                code = code.replace(f"@{n.arg}@", f"in{inputs.index(n.arg)}")
            lines.append(code)
        lines += [f"out{j} = {o.value.var};" for j, o in enumerate(outputs)]
        return "\n".join(lines), inputs

    def _plan(self, grouping, ngroups):
        """Kernels for outputs grouped by shape, each within the engine's operand limit; in-place updates of
        arguments run last, so that the other kernels read the old values."""
        plan = []
        for g in range(ngroups):
            members = [j for j, gi in enumerate(grouping) if gi == g]
            members.sort(key=lambda j: self.outputs[j].target is not None)
            chunk = []
            for j in members + [None]:
                if j is not None:
                    trial = chunk + [j]
                    if len(self.body([self.outputs[m] for m in trial])[1]) + len(trial) <= _MAX_OPERANDS:
                        chunk = trial
                        continue
                    if not chunk:
                        raise ValueError(f"cuarray.fuse: {self.name!r} needs more than {_MAX_OPERANDS - 1} "
                                         f"inputs for one result")
                if chunk:
                    body, inputs = self.body([self.outputs[m] for m in chunk])
                    plan.append((chunk, body, inputs, [self.arg_dtypes[k] for k in inputs],
                                 [self.outputs[m].value.dtype for m in chunk], [self.outputs[m].target for m in chunk]))
                chunk = [j] if j is not None else []
        writes = [any(t is not None for t in p[5]) for p in plan]
        if sum(writes) > 1:
            raise ValueError("cuarray.fuse: in-place updates of arguments that need more than one kernel (results "
                             "of different shapes, or too many operands) are not supported")
        # Each kernel is prepared once (its code interned in C++), so a warm call does no string work.
        return [p + (_core.ElementwisePlan(self.name, p[1], "", "", "", False, list(p[3]), [False] * len(p[2]),
                                           list(p[4]), [False] * len(p[4])),)
                for p, w in sorted(zip(plan, writes), key=lambda pw: pw[1])]

    def run(self, args):
        for k, dt in self.int_checks:
            info = numpy.iinfo(dt)
            if not info.min <= args[k] <= info.max:
                raise OverflowError(f"Python integer {args[k]} out of bounds for {dt}")
        if self.reduction is not None:
            return self._run_reduction(args)
        shapes = [broadcast_shape(args, argset) for argset in self.argsets]
        if self.targets:
            for j, k in self.targets:
                if shapes[j] != args[k].shape:
                    raise ValueError(f"non-broadcastable output operand with shape {args[k].shape} doesn't match "
                                     f"the broadcast shape {shapes[j]} (an in-place update of argument {k})")
        # Outputs grouped by shape: NumPy gives each result the broadcast shape of what it uses.
        if len(shapes) == 1:
            grouping = (0,)
        else:
            order = []
            for shape in shapes:
                if shape not in order:
                    order.append(shape)
            grouping = tuple(order.index(shape) for shape in shapes)
        plan = self.groups.get(grouping)
        if plan is None:
            plan = self.groups[grouping] = self._plan(grouping, max(grouping, default=-1) + 1)
        results = [None] * len(self.outputs)
        for members, body, inputs, in_types, out_types, targets, core in plan:
            shape = shapes[members[0]]
            outs = [_core.empty(shape, t) if k is None else args[k] for t, k in zip(out_types, targets)]
            core.run([args[k] for k in inputs], outs, shape)
            for j, a in zip(members, outs):
                results[j] = a
        if self.kind == "single":
            r = self.returns[0]
            return args[r[1]] if type(r) is tuple else results[r]
        if self.kind is None:
            return None
        returned = [args[r[1]] if type(r) is tuple else results[r] for r in self.returns]
        return tuple(returned) if issubclass(self.kind, tuple) else list(returned)


def _reduction_code(trace):
    """(map code, argument indices read, their dtypes, accumulator and result dtypes, combine, identity) of the
    traced function's returned reduction: the engine's map computes the traced expression from its inputs, then
    folds it as the engine folds its own reduction of that name (Note [fuse reductions] in
    python/src/reduction.cpp: dtypes, combine and identity come from there, not from a table here)."""
    red = trace.reduction
    out = trace.outputs[0]
    body, inputs = trace.body([out])
    vdt = out.value.dtype
    res, acc, elem_map, combine, identity = _core._reduction_definition(red.op, vdt, red.dtype)
    names = ["x"] + [f"x{k}" for k in range(1, len(inputs))]
    binds = " ".join(f"const {_ctype(trace.arg_dtypes[k])} in{j} = {names[j]};" for j, k in enumerate(inputs))
    out_decl = f"{_ctype(vdt)} out0;"
    # The engine's element map reads `x`: a nested block rebinds it to the traced value.
    map_code = f"{binds} {out_decl} {{ {body} }} {{ const {_ctype(vdt)} x = out0; {elem_map} }}"
    return map_code, inputs, acc, res, combine, identity


def _run_reduction(self, args):
    import cuarray
    red = self.reduction
    code = getattr(self, "_reduction", None)
    if code is None:
        code = self._reduction = _reduction_code(self)
    map_code, inputs, acc, res, combine, identity = code
    shape = broadcast_shape(args, [k for k in inputs if isinstance(args[k], ndarray)])
    arrays = []
    for k in inputs:
        a = args[k]
        if not isinstance(a, ndarray):
            a = cuarray.asarray(numpy.asarray(a, dtype=self.arg_dtypes[k]))
        arrays.append(cuarray.broadcast_to(a, shape) if a.shape != shape else a)
    if not arrays:  # a constant expression: reduce a 0-d array of it
        arrays = [cuarray.zeros((), dtype=numpy.int8)]
    ndim = len(shape)
    axes = None if red.axis is None else _core._reduction_axes(red.axis, ndim)
    if red.op in ("max", "min"):
        # max/min have no identity in NumPy: an empty reduced axis is its error
        n = 1
        for ax in (range(ndim) if axes is None else axes):
            n *= shape[ax]
        kept = 1
        for i in range(ndim):
            if axes is not None and i not in axes:
                kept *= shape[i]
        if n == 0 and kept > 0:
            raise ValueError(f"zero-size array to reduction operation {'maximum' if red.op == 'max' else 'minimum'} "
                             f"which has no identity")
    sequential = False
    itemsize = 4 if acc == numpy.float16 else acc.itemsize
    computes = [_ctype(a.dtype) if a.dtype != numpy.float16 else "float" for a in arrays]
    acc_name = "float" if acc == numpy.float16 else _ctype(acc)
    res_name = "float" if res == numpy.float16 else _ctype(res)
    r = _core._reduce_custom(self.name, "", acc_name, computes, res_name, map_code, combine, "y = ca_cast<out_t>(a);",
                             identity, itemsize, sequential, arrays, axes, res)
    if red.keepdims:
        reduced = set(range(ndim)) if axes is None else set(axes)
        r = r.reshape(tuple(1 if i in reduced else s for i, s in enumerate(shape)))
    return r


_Trace._run_reduction = _run_reduction


def _arg_key(a):
    """The signature entry of an argument that is not a plain array or Python scalar."""
    if isinstance(a, ndarray):
        return ("a", a.dtype)
    w = _weak_kind(a)
    if w is not None:
        return ("w", w)
    if isinstance(a, numpy.generic) and not isinstance(a, (numpy.str_, numpy.bytes_, numpy.void)):
        _ctype(a.dtype)
        return ("s", a.dtype)
    try:
        hash(a)
    except TypeError:
        raise TypeError(f"cuarray.fuse: unsupported argument type {type(a).__name__}") from None
    return ("c", type(a), a)


def _spec(k, a):
    """The full signature entry of an argument from its cache key."""
    if isinstance(k, numpy.dtype):
        return ("a", k)
    if k is int or k is float or k is bool or k is complex or k == "uint":
        return ("w", _weak_kind(a))
    return k


class Fused:
    """A function compiled into one elementwise kernel per signature (CuPy's ``fuse``)."""

    def __init__(self, func, kernel_name=None):
        self.func = func
        self.name = kernel_name or getattr(func, "__name__", "fused")
        self._kernel_name = re.sub(r"\W", "_", self.name)
        self._signature = inspect.signature(func)
        self._cache = {}
        functools.update_wrapper(self, func)

    def _bind(self, args, kwargs):
        if not kwargs:
            return args
        bound = self._signature.bind(*args, **kwargs)
        out = []
        for name, p in self._signature.parameters.items():
            if name not in bound.arguments:
                if p.default is inspect.Parameter.empty:
                    continue
                out.append(p.default)
            elif p.kind == p.VAR_POSITIONAL:
                out.extend(bound.arguments[name])
            elif p.kind == p.VAR_KEYWORD:
                raise TypeError("cuarray.fuse: fused functions cannot take **kwargs")
            elif p.kind == p.KEYWORD_ONLY:
                raise TypeError("cuarray.fuse: fused functions cannot take keyword-only arguments")
            else:
                out.append(bound.arguments[name])
        return tuple(out)

    def __call__(self, *args, **kwargs):
        if kwargs:
            if any(isinstance(a, _Value) for a in kwargs.values()):
                return _rewrite(self.func)(*args, **kwargs)  # called from another fused function: inline it
            args = self._bind(args, kwargs)
        # One pass over the arguments: the cache key (a dtype for an array, the type for a Python scalar)
        # and what decides the path.
        key = []
        device = host = False
        for a in args:
            t = type(a)
            if t is ndarray:
                key.append(a.dtype)
                device = True
            elif t is float or t is bool or t is complex:
                key.append(t)
            elif t is int:
                key.append(int if -2 ** 63 <= a < 2 ** 63 else "uint")
            elif t is _Value:
                return _rewrite(self.func)(*args)  # called from another fused function: inline it
            elif t is numpy.ndarray:
                host = True
                key.append(None)
            else:
                spec = _arg_key(a)
                key.append(spec)
                device = device or spec[0] == "a"
        if host:
            if not device:
                return self.func(*args)  # NumPy arrays: NumPy runs the function
            raise TypeError("Unsupported type numpy.ndarray for a fused function called with cuarray arrays: move "
                            "host data to the device with cuarray.asarray(), or bring device data to the host "
                            "with .get()")
        key = tuple(key)
        tr = self._cache.get(key)
        if tr is None:
            tr = self._cache[key] = _Trace(self, tuple(_spec(k, a) for k, a in zip(key, args)), args)
        return tr.run(args)

    def _source(self, *args, ndim=1):
        """The CUDA source of the kernel for these arguments, all outputs in one kernel (for tests without a
        device). An array argument is given as its numpy.dtype."""
        real = []
        for a in args:
            if isinstance(a, numpy.dtype):
                real.append(_FakeArray(a))
            else:
                real.append(a)
        key = tuple(("a", a.dtype) if isinstance(a, _FakeArray) else _arg_key(a) for a in real)
        tr = _Trace(self, key, real)
        body, inputs = tr.body(tr.outputs)
        kinds = ["array" if key[k][0] == "a" else "scalar" for k in inputs]
        return _core.elementwise_source(tr.name, body, "", "", "", False, [tr.arg_dtypes[k] for k in inputs], kinds,
                                        [o.value.dtype for o in tr.outputs], [False] * len(tr.outputs), ndim, False,
                                        False)

    def clear_cache(self):
        self._cache.clear()

    def __repr__(self):
        return f"<cuarray.fuse of {self.name}>"

    def __get__(self, obj, objtype=None):
        if obj is None:
            return self
        return types.MethodType(self, obj)


class _FakeArray:
    __slots__ = ("dtype",)

    def __init__(self, dtype):
        self.dtype = dtype


def fuse(*args, **kwargs):
    """Compile an elementwise function of arrays and scalars into one kernel: ``@cuarray.fuse()``,
    ``@cuarray.fuse`` or ``@cuarray.fuse(kernel_name='k')``. Called with NumPy arrays, the plain function
    runs."""
    if len(args) == 1 and callable(args[0]) and not kwargs:
        return Fused(args[0])
    if args:
        raise TypeError("fuse() takes only keyword arguments (kernel_name=) when used as @fuse(...)")
    unknown = set(kwargs) - {"kernel_name"}
    if unknown:
        raise TypeError(f"fuse() got unexpected keyword arguments {sorted(unknown)}")
    return lambda f: Fused(f, kwargs.get("kernel_name"))
