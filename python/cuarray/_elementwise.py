"""ElementwiseKernel: user-defined elementwise operations, compiled at run time (CuPy's API)."""
import re

import numpy

from cuarray import _core
from cuarray._core import ndarray

_PARAM = re.compile(r"^\s*(raw\s+)?([A-Za-z_][A-Za-z0-9_]*)\s+([A-Za-z_][A-Za-z0-9_]*)\s*$")
_CPP_KEYWORDS = frozenset("""
    alignas alignof and and_eq asm auto bitand bitor bool break case catch char char16_t char32_t char8_t class
    compl concept const consteval constexpr constinit const_cast continue co_await co_return co_yield decltype
    default delete do double dynamic_cast else enum explicit export extern false float for friend goto if inline
    int long mutable namespace new noexcept not not_eq nullptr operator or or_eq private protected public register
    reinterpret_cast requires return short signed sizeof static static_assert static_cast struct switch template
    this thread_local throw true try typedef typeid typename union unsigned using virtual void volatile wchar_t
    while xor xor_eq""".split())
# Names the generated kernel declares at function scope, where loop_prep and after_loop also live (see
# src/engine/elementwise.cpp): a parameter or type placeholder named so is usable in the operation (which runs
# in a nested block) but gets no alias in loop_prep.
_KERNEL_SCOPE = re.compile(r"^(n|L|pw|stride|nvec|[pv][0-9]+|raw[0-9]+)$")
_CONTROL = re.compile(r"\b(if|else|for|while|do|switch|goto|continue|break|return)\b|\?")
_RAW_HELPER = ("template <class T> struct _ca_raw { T* p; long long n;\n"
               "  __device__ T& operator[](long long j) const { return p[j]; }\n"
               "  __device__ long long size() const { return n; } };\n")
_MAX_OPERANDS = 11  # the engine's limit on inputs + outputs


class _Param:
    """One parameter: ``[raw] TYPE NAME``; TYPE is a dtype name or a type placeholder."""
    __slots__ = ("raw", "ctype", "name", "dtype")

    def __init__(self, text):
        m = _PARAM.match(text)
        if not m:
            raise ValueError(f"Invalid parameter {text.strip()!r}: expected '[raw] TYPE NAME'")
        self.raw = bool(m.group(1))
        self.ctype = m.group(2)
        self.name = m.group(3)
        self.dtype = None  # a type placeholder, resolved from the arguments
        if len(self.ctype) > 1:
            try:
                dt = numpy.dtype(self.ctype)
            except TypeError:
                dt = None  # a named placeholder
            if dt is not None:
                _core.jit_type_name(dt)  # TypeError for dtypes cuarray does not support
                self.dtype = dt
        if self.dtype is None and (self.ctype == "raw" or self.ctype in _CPP_KEYWORDS):
            # 'raw T' is a raw parameter without a name, not a parameter T of a placeholder type 'raw' (CuPy
            # refuses it too: TypeError from numpy.dtype('raw'); a syntax error here, as 'T' alone is).
            raise ValueError(f"Invalid parameter {text.strip()!r}: expected '[raw] TYPE NAME' ({self.ctype!r} "
                             f"is a keyword, not a type)")
        if self.name in ("i", "n") or self.name.startswith("_"):
            raise ValueError(f"Invalid parameter name {self.name!r}: 'i', 'n' and names starting with '_' are "
                             f"reserved for the kernel's own use")
        if self.name in _CPP_KEYWORDS:
            raise ValueError(f"Invalid parameter name {self.name!r}: a C++ keyword")

    def __repr__(self):
        return f"<ParameterInfo {'raw ' if self.raw else ''}{self.ctype} {self.name}>"


def _parse(params):
    if isinstance(params, str):
        params = [p for p in params.split(",") if p.strip()]
    return tuple(_Param(p) for p in params)


def _scalar_dtype(value):
    if isinstance(value, numpy.generic):
        return value.dtype
    if isinstance(value, bool):
        return numpy.dtype(numpy.bool_)
    if isinstance(value, int):
        return numpy.dtype(numpy.int64)
    if isinstance(value, float):
        return numpy.dtype(numpy.float64)
    if isinstance(value, complex):
        return numpy.dtype(numpy.complex128)
    raise TypeError(f"Unsupported type {type(value).__name__}")


def _is_scalar(a):
    return isinstance(a, (bool, int, float, complex, numpy.generic)) and not isinstance(
        a, (str, bytes, numpy.str_, numpy.bytes_, numpy.void))


def broadcast_shape(args, indices):
    """The broadcast shape of args[k] for k in indices (() for none), with NumPy's error message; the common
    case of equal shapes costs one comparison per argument."""
    if not indices:
        return ()
    shape = args[indices[0]].shape
    for k in indices:
        if args[k].shape != shape:
            shapes = [args[j].shape for j in indices]
            try:
                return numpy.broadcast_shapes(*shapes)
            except ValueError:
                raise ValueError(f"operands could not be broadcast together with shapes "
                                 f"{' '.join(str(s) for s in shapes)}") from None
    return shape


class _FakeArray:
    """An array argument of _source (no device needed): dtype and shape only."""
    __slots__ = ("dtype", "shape")

    def __init__(self, dtype, shape):
        self.dtype = numpy.dtype(dtype)
        self.shape = tuple(shape)


class _Plan:
    """What one kind of call compiles: the generated code and the dtypes, kept per argument signature."""
    __slots__ = ("name", "body", "preamble", "loop_prep", "after_loop", "c_order", "in_types", "in_kinds",
                 "in_raw", "out_types", "out_raw", "preload", "raw_sizes", "shape_args", "given_outs", "alloc",
                 "core")

    def __init__(self):
        self.core = None  # the prepared C++ kernel, made on the first run


class ElementwiseKernel(_core._ElementwiseCall):
    """A kernel that applies ``operation`` to each element: ``ElementwiseKernel('T x, T y', 'T z',
    'z = x + y', 'add')``. Single-letter types (and names that are not dtypes) are type placeholders resolved
    from the arguments (output arrays first, then input arrays, then scalars); ``raw`` parameters are passed
    whole and indexed with ``[]``; ``i`` is the element index and ``_ind.size()`` the number of elements."""

    def __init__(self, in_params, out_params, operation, name="kernel", reduce_dims=True, preamble="",
                 no_return=False, return_tuple=False, loop_prep="", after_loop="", options=(), **kwargs):
        super().__init__()
        if kwargs:
            raise TypeError(f"ElementwiseKernel() got unexpected keyword arguments {sorted(kwargs)}")
        self.in_params = _parse(in_params)
        self.out_params = _parse(out_params)
        if not self.out_params and not no_return:
            raise ValueError("ElementwiseKernel needs at least one output parameter (or no_return=True)")
        names = [p.name for p in self.in_params + self.out_params]
        if len(set(names)) != len(names):
            dup = sorted({n for n in names if names.count(n) > 1})
            raise ValueError(f"Parameter names must be unique: {', '.join(dup)} appears more than once")
        placeholders = {p.ctype for p in self.in_params + self.out_params if p.dtype is None}
        for t in sorted(placeholders):
            if t in names:
                raise ValueError(f"Type placeholder {t!r} is also the name of a parameter")
            if t in ("i", "n") or t.startswith("_"):
                raise ValueError(f"Invalid type placeholder {t!r}: 'i', 'n' and names starting with '_' are "
                                 f"reserved for the kernel's own use")
        self.params = self.in_params + self.out_params
        self.nin = len(self.in_params)
        self.nout = len(self.out_params)
        self.nargs = self.nin + self.nout
        self.operation = operation
        self.name = name
        self.reduce_dims = reduce_dims
        self.preamble = preamble
        self.no_return = no_return
        self.return_tuple = return_tuple
        self._setup_call(self.nin, self.nout, no_return, return_tuple)
        self.loop_prep = loop_prep
        self.after_loop = after_loop
        self.options = tuple(options)  # kept for CuPy compatibility; the engine compiles with its own options
        self.kwargs = {"options": self.options, "loop_prep": loop_prep, "after_loop": after_loop}
        code = operation + "\n" + loop_prep + "\n" + after_loop
        # The flat index i (and raw indexing) needs the C-order loop, without axis reordering.
        self._c_order = (re.search(r"\bi\b|_ind\b", code) is not None or any(p.raw for p in self.params))
        self._kernel_name = re.sub(r"\W", "_", name) or "kernel"
        self._plans = {}
        # Outputs the operation always assigns once (`z = ...;` with no control flow) need not be loaded first;
        # the others keep the values of a given output array where the operation leaves them, as CuPy's do.
        simple = _CONTROL.search(operation) is None
        self._assigned = frozenset(
            p.name for p in self.out_params
            if simple and len(re.findall(rf"\b{p.name}\b", operation)) == 1
            and re.search(rf"(^|[;{{}}]|\n)\s*{p.name}\s*=(?!=)", operation))
        # Raw parameters get their size passed unless they are only ever indexed.
        self._sized = frozenset(p.name for p in self.params
                                if p.raw and re.search(rf"\b{p.name}\b(?!\s*\[)", code))

    # -- argument checks and type resolution ------------------------------------------------------------
    def _check_args(self, args):
        if len(args) != self.nin and len(args) != self.nargs:
            raise TypeError(f"Wrong number of arguments for {self.name!r}: it takes {self.nin} (inputs) or "
                            f"{self.nargs} (inputs and outputs), but {len(args)} were given")
        for k, a in enumerate(args):
            p = self.params[k]
            if isinstance(a, (ndarray, _FakeArray)):
                continue
            if isinstance(a, numpy.ndarray):
                raise TypeError(f"Unsupported type numpy.ndarray for argument {p.name!r} of {self.name!r}: move "
                                f"host data to the device with cuarray.asarray(), or bring device data to the "
                                f"host with .get()")
            if k >= self.nin:
                if a is None:
                    continue
                raise TypeError(f"Output argument {p.name!r} of {self.name!r} must be a cuarray.ndarray, not "
                                f"{type(a).__name__}")
            if not _is_scalar(a):
                raise TypeError(f"Unsupported type {type(a).__name__} for argument {p.name!r} of {self.name!r}")
            if p.raw:
                raise TypeError(f"Raw argument {p.name!r} of {self.name!r} must be a cuarray.ndarray, not "
                                f"{type(a).__name__}")

    def _resolve(self, ins, outs):
        """Dtype of every parameter, CuPy's way: output arrays bind placeholders first, then input arrays,
        then scalars; a scalar whose placeholder is already bound is cast to it."""
        types = {}

        def bind(p, dt, what):
            if p.dtype is not None:
                # An output array is written as it is, so it must be of the parameter's type (CuPy's
                # TypeError); an input array is cast to it.
                if what == "output" and dt != p.dtype:
                    raise TypeError(f"Type is mismatched: output {p.name!r} of {self.name!r} is declared "
                                    f"{p.dtype}, but the array given has dtype {dt}")
                return
            bound = types.get(p.ctype)
            if bound is None:
                types[p.ctype] = dt
            elif bound != dt:
                raise TypeError(f"Type is mismatched: {what} {p.name!r} has dtype {dt}, but type placeholder "
                                f"{p.ctype!r} is already {bound}")

        for p, a in zip(self.out_params, outs):
            if a is not None:
                bind(p, a.dtype, "output")
        for p, a in zip(self.in_params, ins):
            if not _is_scalar(a):
                bind(p, a.dtype, "input")
        for p, a in zip(self.in_params, ins):
            if _is_scalar(a) and p.dtype is None and p.ctype not in types:
                types[p.ctype] = _scalar_dtype(a)
        dtypes = []
        for p in self.params:
            if p.dtype is not None:
                dtypes.append(p.dtype)
            elif p.ctype in types:
                dtypes.append(types[p.ctype])
            else:
                raise TypeError(f"Cannot determine the type of {p.name!r} in {self.name!r}: type placeholder "
                                f"{p.ctype!r} is not fixed by any argument (pass the output array)")
        for p, a, dt in zip(self.out_params, outs, dtypes[self.nin:]):
            if p.raw and a is not None and a.dtype != dt:
                raise TypeError(f"Raw output {p.name!r} of {self.name!r} must have dtype {dt}, not {a.dtype}")
        return types, dtypes

    # -- code generation ------------------------------------------------------------------------------
    def _plan(self, ins, outs):
        types, dtypes = self._resolve(ins, outs)
        plan = _Plan()
        plan.name = self._kernel_name
        plan.c_order = self._c_order
        ct = [_core.jit_type_name(d) for d in dtypes]
        pointee = ["unsigned char" if d == numpy.bool_ else c for d, c in zip(dtypes, ct)]
        is_scalar = [_is_scalar(a) for a in ins]
        # Hidden inputs after the parameters' own: the given outputs to load first, then raw sizes.
        preload = [j for j, (p, a) in enumerate(zip(self.out_params, outs))
                   if a is not None and not p.raw and p.name not in self._assigned]
        raw_sizes = [k for k, p in enumerate(self.params) if p.name in self._sized]
        if self.nargs + len(preload) + len(raw_sizes) > _MAX_OPERANDS:
            raise ValueError(f"{self.name!r} has too many parameters for one kernel ({self.nargs} parameters, "
                             f"{len(preload)} outputs to load first and {len(raw_sizes)} raw sizes; at most "
                             f"{_MAX_OPERANDS})")
        hidden = {}
        for j in preload:
            hidden[("o", j)] = self.nin + len(hidden)
        for k in raw_sizes:
            hidden[("s", k)] = self.nin + len(hidden)
        n_in = self.nin + len(hidden)

        def pointer(k):  # the engine's name of a raw operand: inputs first, then outputs
            return f"raw{k if k < self.nin else n_in + k - self.nin}"

        def raw_init(k, scope):
            size = "0"
            if ("s", k) in hidden:
                size = f"v{hidden[('s', k)]}" if scope == "kernel" else f"_ca_s{k}"
            ptr = pointer(k) if scope == "kernel" else f"_ca_r{k}"
            return f"_ca_raw<{pointee[k]}> {self.params[k].name}{{{ptr}, {size}}};"

        typedefs = [f"typedef {_core.jit_type_name(d)} {t};" for t, d in types.items()]
        # The body runs in a block nested in the engine's loop: engine names are copied first, so that a
        # parameter may be called in0, out0, p0, v, e...
        alias, decl = [], []
        for k, p in enumerate(self.in_params):
            if p.raw:
                alias.append(f"{pointee[k]}* _ca_r{k} = {pointer(k)};")
                decl.append(raw_init(k, "body"))
            else:
                alias.append(f"const {ct[k]}& _ca_i{k} = in{k};")
                decl.append(f"const {ct[k]} {p.name} = _ca_i{k};")
        for (kind, j), idx in hidden.items():
            if kind == "o":
                alias.append(f"const {ct[self.nin + j]}& _ca_h{j} = in{idx};")
            else:
                alias.append(f"const long long _ca_s{j} = in{idx};")
        for j, p in enumerate(self.out_params):
            k = self.nin + j
            if p.raw:
                alias.append(f"{pointee[k]}* _ca_r{k} = {pointer(k)};")
                decl.append(raw_init(k, "body"))
            else:
                alias.append(f"{ct[k]}& _ca_o{j} = out{j};")
                if j in preload:
                    decl.append(f"_ca_o{j} = _ca_h{j};")
                decl.append(f"{ct[k]}& {p.name} = _ca_o{j};")
        body_decl = " ".join(alias + typedefs + decl)
        plan.body = body_decl + "\n" + self.operation + "\n;"
        plan.preamble = (_RAW_HELPER if any(p.raw for p in self.params) else "") + self.preamble
        if re.search(r"\bcomplex\s*<", self.operation + self.preamble + self.loop_prep + self.after_loop):
            plan.preamble = "template <class T> using complex = ca_complex<T>;\n" + plan.preamble
        plan.loop_prep = self.loop_prep
        plan.after_loop = self.after_loop
        if self.loop_prep.strip() or self.after_loop.strip():
            # loop_prep and after_loop see the placeholders, the scalar and the raw parameters, as in CuPy.
            prep = [f"typedef {_core.jit_type_name(d)} {t};" for t, d in types.items()
                    if not _KERNEL_SCOPE.match(t)]
            for k, p in enumerate(self.params):
                if _KERNEL_SCOPE.match(p.name):
                    continue
                if p.raw:
                    prep.append(raw_init(k, "kernel"))
                elif k < self.nin and is_scalar[k]:
                    prep.append(f"const {ct[k]} {p.name} = v{k};")
            plan.loop_prep = " ".join(prep) + "\n" + self.loop_prep
        plan.in_types = dtypes[:self.nin] + [dtypes[self.nin + j] for j in preload] + \
            [numpy.dtype(numpy.int64)] * len(raw_sizes)
        plan.in_kinds = (["raw" if p.raw else ("scalar" if s else "array") for p, s in zip(self.in_params, is_scalar)]
                         + ["array"] * len(preload) + ["scalar"] * len(raw_sizes))
        plan.in_raw = [p.raw for p in self.in_params] + [False] * (len(preload) + len(raw_sizes))
        plan.out_types = dtypes[self.nin:]
        plan.out_raw = [p.raw for p in self.out_params]
        plan.preload = preload
        plan.raw_sizes = raw_sizes
        return plan

    def _shape(self, plan, args, size):
        idx = plan.shape_args
        if size is not None:
            if idx:
                raise ValueError(f"size= cannot be given to {self.name!r} when non-raw array arguments are "
                                 f"given: their broadcast shape is the loop size")
            return (int(size),)
        if not idx:
            raise ValueError(f"Loop size is undecided for {self.name!r}: pass size= or a non-raw array argument")
        shape = broadcast_shape(args, idx)
        for k in plan.given_outs:
            if args[k].shape != shape:
                raise ValueError(f"Out shape is mismatched: output {self.params[k].name!r} has shape "
                                 f"{args[k].shape}, the broadcast shape of the arguments is {shape}")
        return shape

    def _prepare(self, args, size):
        # The key holds each argument's dtype or type, so checks run only when a new kind of call is planned.
        key = tuple(a.dtype if isinstance(a, (ndarray, _FakeArray)) else type(a) for a in args)
        plan = self._plans.get(key)
        if plan is None:
            self._check_args(args)
            ins = args[:self.nin]
            outs = args[self.nin:] if len(args) == self.nargs else (None,) * self.nout
            plan = self._plans[key] = self._plan(ins, outs)
            plan.shape_args = tuple(k for k, (p, a) in enumerate(zip(self.params, args))
                                    if a is not None and not p.raw and not _is_scalar(a))
            plan.given_outs = tuple(k for k in plan.shape_args if k >= self.nin)
            plan.alloc = tuple(j for j, a in enumerate(outs) if a is None)
        return plan, self._shape(plan, args, size)

    # -- calling ---------------------------------------------------------------------------------------
    # __call__ is _ElementwiseCall's: a signature already planned runs from C++, anything else comes here
    # (Note [elementwise warm call] in python/src/elementwise_kernel.cpp).
    def _call_slow(self, *args, size=None, block_size=None, stream=None):
        plan, shape = self._prepare(args, size)
        outs = list(args[self.nin:]) if len(args) == self.nargs else [None] * self.nout
        for j in plan.alloc:
            outs[j] = _core.empty(shape, plan.out_types[j])
        ins = list(args[:self.nin])
        if plan.preload or plan.raw_sizes:
            ins += [outs[j] for j in plan.preload] + [
                (args[k] if k < self.nin else outs[k - self.nin]).size for k in plan.raw_sizes]
        if stream is not None:
            with stream:
                self._run(plan, ins, outs, shape)
        else:
            self._run(plan, ins, outs, shape)
            if size is None:
                self._register_call(args, plan.core, plan.shape_args, plan.given_outs, plan.alloc, plan.preload,
                                    plan.raw_sizes)
        if self.no_return:
            return None
        if self.nout == 1 and not self.return_tuple:
            return outs[0]
        return tuple(outs)

    def _run(self, plan, ins, outs, shape):
        core = plan.core
        if core is None:  # interned once per plan, so a warm call does no string work
            core = plan.core = _core.ElementwisePlan(plan.name, plan.body, plan.preamble, plan.loop_prep,
                                                     plan.after_loop, plan.c_order, list(plan.in_types),
                                                     list(plan.in_raw), list(plan.out_types), list(plan.out_raw))
        core.run(ins, outs, shape)

    def _source(self, *args, size=None, ndim=1):
        """The CUDA source a call with these arguments compiles, without a device (for tests): an array
        argument is given as its numpy.dtype; outputs left out are allocated."""
        fake = tuple(_FakeArray(a, (4,) * ndim) if isinstance(a, numpy.dtype) else a for a in args)
        plan, _ = self._prepare(fake, size)
        if "array" not in plan.in_kinds and all(plan.out_raw):
            ndim = 0  # raw and scalar operands only: the engine runs the flat loop
        return _core.elementwise_source(plan.name, plan.body, plan.preamble, plan.loop_prep, plan.after_loop,
                                        plan.c_order, plan.in_types, plan.in_kinds, plan.out_types, plan.out_raw,
                                        ndim, False, False)

    def __repr__(self):
        return f"<ElementwiseKernel {self.name!r}>"


# The slow path's errors (an unexpected keyword) name the call the user made.
ElementwiseKernel._call_slow.__qualname__ = "ElementwiseKernel.__call__"
