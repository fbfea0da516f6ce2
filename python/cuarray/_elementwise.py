"""ElementwiseKernel: user-defined elementwise operations, compiled at run time (CuPy's API)."""
import re

import numpy

from cuarray import _core
from cuarray._core import ndarray

_PARAM = re.compile(r"^\s*(raw\s+)?([A-Za-z_][A-Za-z0-9_]*)\s+([A-Za-z_][A-Za-z0-9_]*)\s*$")


class _Param:
    __slots__ = ("raw", "ctype", "name", "dtype")

    def __init__(self, text):
        m = _PARAM.match(text)
        if not m:
            raise ValueError(f"Invalid parameter {text!r}: expected '[raw] TYPE NAME'")
        self.raw = bool(m.group(1))
        self.ctype = m.group(2)
        self.name = m.group(3)
        try:
            self.dtype = numpy.dtype(self.ctype) if self.ctype not in ("T", "U", "S") and len(self.ctype) > 1 else None
        except TypeError:
            self.dtype = None  # a type placeholder, resolved from the arguments


def _parse(params):
    if isinstance(params, str):
        params = [p for p in params.split(",") if p.strip()]
    out = [_Param(p) for p in params]
    names = [p.name for p in out]
    if len(set(names)) != len(names):
        raise ValueError("Parameter names must be unique")
    return out


def _scalar_dtype(value):
    if isinstance(value, bool):
        return numpy.dtype(numpy.bool_)
    if isinstance(value, int):
        return numpy.dtype(numpy.int64)
    if isinstance(value, float):
        return numpy.dtype(numpy.float64)
    if isinstance(value, complex):
        return numpy.dtype(numpy.complex128)
    return numpy.asarray(value).dtype


class ElementwiseKernel:
    """A kernel that applies ``operation`` to each element: ``ElementwiseKernel('T x, T y', 'T z',
    'z = x + y', 'add')``. Type placeholders (names that are not dtypes) are resolved from the arguments;
    ``raw`` parameters are passed whole and indexed with ``[]``; ``i`` is the element index and
    ``_ind.size()`` the number of elements."""

    def __init__(self, in_params, out_params, operation, name="kernel", reduce_dims=True, preamble="",
                 no_return=False, return_tuple=False, loop_prep="", after_loop="", options=()):
        self.in_params = _parse(in_params)
        self.out_params = _parse(out_params)
        if not self.out_params and not no_return:
            raise ValueError("ElementwiseKernel needs at least one output parameter")
        self.nin = len(self.in_params)
        self.nout = len(self.out_params)
        self.nargs = self.nin + self.nout
        self.operation = operation
        self.name = name
        self.reduce_dims = reduce_dims
        self.preamble = preamble
        self.no_return = no_return
        self.return_tuple = return_tuple
        self.loop_prep = loop_prep
        self.after_loop = after_loop
        self.options = tuple(options)
        uses_index = re.search(r"\bi\b|_ind", operation + loop_prep + after_loop) is not None
        self._c_order = uses_index or any(p.raw for p in self.in_params + self.out_params)

    def __call__(self, *args, size=None, block_size=None, stream=None):
        if len(args) not in (self.nin, self.nargs):
            raise TypeError(f"Wrong number of arguments for {self.name!r}: expected {self.nin} or {self.nargs}, "
                            f"got {len(args)}")
        ins = list(args[: self.nin])
        outs = list(args[self.nin:]) if len(args) == self.nargs else [None] * self.nout
        for a in ins + outs:
            if isinstance(a, numpy.ndarray):
                raise TypeError("Unsupported type numpy.ndarray: move it to the device with cuarray.asarray()")
        types = {}

        def bind(p, a):
            if p.dtype is not None:
                return
            if isinstance(a, ndarray):
                if p.ctype in types and types[p.ctype] != a.dtype:
                    raise TypeError(f"Type is mismatched. {p.name} {a.dtype} {types[p.ctype]}")
                types.setdefault(p.ctype, a.dtype)

        for p, a in zip(self.in_params, ins):
            bind(p, a)
        for p, a in zip(self.out_params, outs):
            if a is not None:
                bind(p, a)
        for p, a in zip(self.in_params, ins):
            if p.dtype is None and p.ctype not in types and not isinstance(a, ndarray):
                types[p.ctype] = _scalar_dtype(a)

        def dtype_of(p):
            if p.dtype is not None:
                return p.dtype
            if p.ctype not in types:
                raise TypeError(f"Cannot determine the type of {p.name!r} ({p.ctype})")
            return types[p.ctype]

        shape = ()
        for p, a in zip(self.in_params, ins):
            if isinstance(a, ndarray) and not p.raw:
                shape = numpy.broadcast_shapes(shape, a.shape)
        given_out = [a for p, a in zip(self.out_params, outs) if a is not None and not p.raw]
        if given_out:
            shape = given_out[0].shape
        elif size is not None:
            if any(isinstance(a, ndarray) and not p.raw for p, a in zip(self.in_params, ins)):
                raise ValueError("size cannot be specified when non-raw array arguments are given")
            shape = (int(size),)
        elif not any(isinstance(a, ndarray) and not p.raw for p, a in zip(self.in_params, ins)):
            raise ValueError("Loop size is undecided: give size= or a non-raw array argument")
        for k, (p, a) in enumerate(zip(self.out_params, outs)):
            if a is None:
                outs[k] = _core.empty(shape, dtype_of(p))
        typedefs = "".join(f"typedef {_core.jit_type_name(d)} {t}; " for t, d in types.items())
        decl = []
        for k, p in enumerate(self.in_params):
            ct = _core.jit_type_name(dtype_of(p))
            if p.raw:
                n = ins[k].size if isinstance(ins[k], ndarray) else 1
                decl.append(f"struct {{ {ct}* p; __device__ {ct}& operator[](long long j) const {{ return p[j]; }} "
                            f"__device__ long long size() const {{ return {n}; }} }} {p.name}{{raw{k}}};")
            else:
                decl.append(f"const {ct} {p.name} = in{k};")
        for j, p in enumerate(self.out_params):
            ct = _core.jit_type_name(dtype_of(p))
            if p.raw:
                decl.append(f"struct {{ {ct}* p; __device__ {ct}& operator[](long long j) const {{ return p[j]; }} "
                            f"__device__ long long size() const {{ return {outs[j].size}; }} }} {p.name}{{raw{self.nin + j}}};")
            else:
                decl.append(f"{ct}& {p.name} = out{j};")
        body = typedefs + " ".join(decl) + "\n" + self.operation + ";"
        name = re.sub(r"\W", "_", self.name)
        if stream is not None:
            from cuarray.cuda import stream as _stream
            with stream:
                self._run(name, body, typedefs, ins, outs, shape, dtype_of)
        else:
            self._run(name, body, typedefs, ins, outs, shape, dtype_of)
        if self.no_return:
            return None
        if self.nout == 1 and not self.return_tuple:
            return outs[0]
        return tuple(outs)

    def _run(self, name, body, typedefs, ins, outs, shape, dtype_of):
        _core.elementwise_run(name, body, self.preamble, typedefs + self.loop_prep, typedefs + self.after_loop,
                              self._c_order, ins, [dtype_of(p) for p in self.in_params],
                              [p.raw for p in self.in_params], outs, [dtype_of(p) for p in self.out_params],
                              [p.raw for p in self.out_params], shape)
