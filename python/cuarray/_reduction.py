"""ReductionKernel: user-defined reductions (map, associative reduce, post-map) on the reduction engine (CuPy's API)."""

import numpy

from cuarray import _core
from cuarray._core import ndarray
from cuarray._elementwise import _is_scalar, _parse, _scalar_dtype


def _type_name(dt):
    name = _core.jit_type_name(dt)
    return "float" if name == "ca_half" else name  # float16 computes in float32


def _itemsize_of_compute(dt):
    return 4 if dt == numpy.float16 else dt.itemsize


class ReductionKernel:
    """A reduction over given axes: ``ReductionKernel('T x', 'T y', 'x * x', 'a + b', 'y = sqrt(a)', '0',
    'l2norm')``. ``map_expr`` maps each input element (the input parameters by name) to the reduction type,
    ``reduce_expr`` combines two mapped values ``a`` and ``b`` and must be associative (an ``identity`` of
    ``None`` folds each output in order instead of in a tree), ``post_map_expr`` assigns the output parameter
    from the reduced value ``a``. Single-letter types are placeholders resolved from the arguments."""

    def __init__(self, in_params, out_params, map_expr, reduce_expr, post_map_expr, identity, name="reduce_kernel",
                 reduce_type=None, reduce_dims=True, preamble="", options=()):
        self.in_params = _parse(in_params)
        self.out_params = _parse(out_params)
        if len(self.out_params) != 1:
            raise ValueError("ReductionKernel takes exactly one output parameter")
        for p in self.in_params + self.out_params:
            if p.raw:
                raise ValueError(f"ReductionKernel parameter {p.name!r}: raw parameters are not supported; "
                                 f"index arrays in an ElementwiseKernel instead")
        names = [p.name for p in self.in_params + self.out_params]
        if len(set(names)) != len(names):
            raise ValueError("Parameter names must be unique")
        self.nin = len(self.in_params)
        self.nout = 1
        self.nargs = self.nin + 1
        self.map_expr = map_expr
        self.reduce_expr = reduce_expr
        self.post_map_expr = post_map_expr
        self.identity = None if identity is None else str(identity)
        self.name = name
        self.reduce_type = reduce_type
        self.reduce_dims = reduce_dims
        self.preamble = preamble
        self.options = tuple(options)

    def _types(self, ins, out):
        types = {}
        for p, a in zip(self.in_params, ins):
            if p.dtype is None and isinstance(a, ndarray) and p.ctype not in types:
                types[p.ctype] = numpy.dtype(a.dtype)
        for p, a in zip(self.in_params, ins):
            if p.dtype is None and p.ctype not in types:
                types[p.ctype] = _scalar_dtype(a)
        op = self.out_params[0]
        if op.dtype is None and op.ctype not in types:
            if out is None:
                raise TypeError(f"Cannot determine the output type {op.ctype!r} of {self.name!r}: pass out=")
            types[op.ctype] = numpy.dtype(out.dtype)
        return types

    def __call__(self, *args, out=None, axis=None, keepdims=False, stream=None):
        if len(args) == self.nargs:
            if out is not None:
                raise ValueError("the output is given twice (positionally and as out=)")
            out = args[-1]
            args = args[:-1]
        if len(args) != self.nin:
            raise TypeError(f"{self.name} takes {self.nin} inputs ({len(args)} given)")
        for a in args:
            if isinstance(a, numpy.ndarray):
                raise TypeError("Unsupported type numpy.ndarray: move host data to the device with cuarray.asarray()")
            if not isinstance(a, ndarray) and not _is_scalar(a):
                raise TypeError(f"Unsupported type {type(a).__name__}")
        types = self._types(args, out)
        dts = [p.dtype if p.dtype is not None else types[p.ctype] for p in self.in_params]
        op = self.out_params[0]
        out_dt = op.dtype if op.dtype is not None else types[op.ctype]
        if self.reduce_type is None:
            acc_dt = out_dt
        else:
            acc_dt = types.get(self.reduce_type)
            if acc_dt is None:
                acc_dt = numpy.dtype(self.reduce_type)
        import cuarray
        arrays = [a if isinstance(a, ndarray) else cuarray.asarray(numpy.asarray(a, dtype=dt)) for a, dt in zip(args, dts)]
        arrays = list(cuarray.broadcast_arrays(*arrays)) if len(arrays) > 1 else arrays
        shape = arrays[0].shape
        ndim = len(shape)
        # operator.index per entry (a float axis is a TypeError, as in CuPy); range and repeats as NumPy's reduce.
        axes = None if axis is None else _core._reduction_axes(axis, ndim)
        typedefs = "".join(f"typedef {_type_name(t)} {name};\n" for name, t in types.items())
        acc = _type_name(acc_dt)
        computes = [_type_name(dt) for dt in dts]
        binds = []
        extra = ["x"] + [f"x{k}" for k in range(1, self.nin)]
        for k, (p, dt) in enumerate(zip(self.in_params, dts)):
            binds.append(f"const {computes[k]} _ca_v{k} = {extra[k]};")
        rebinds = " ".join(f"const {computes[k]}& {p.name} = _ca_v{k};" for k, p in enumerate(self.in_params))
        # The parameters are bound in a nested block, so that any name (even the engine's x, m or a) works.
        map_code = (f"{' '.join(binds)} acc_t _ca_m; {{ {rebinds} _ca_m = ca_cast<acc_t>({self.map_expr}); }} "
                    f"m = _ca_m;")
        combine_code = f"r = ca_cast<acc_t>({self.reduce_expr});"
        out_c = _type_name(out_dt)
        post_code = f"out_t _ca_y; {{ {out_c} {op.name}; {{ {self.post_map_expr}; }} _ca_y = {op.name}; }} y = _ca_y;"
        sequential = self.identity is None
        identity = f"ca_cast<acc_t>({self.identity})" if not sequential else "acc_t()"
        name = "".join(c if c.isalnum() or c == "_" else "_" for c in self.name) or "reduce_kernel"
        run = lambda: _core._reduce_custom(  # noqa: E731
            name, typedefs + self.preamble, acc, computes, out_c, map_code, combine_code, post_code, identity,
            _itemsize_of_compute(numpy.dtype(acc_dt)), sequential, arrays, axes, out_dt)
        if stream is not None:
            with stream:
                r = run()
        else:
            r = run()
        if keepdims:
            reduced = set(range(ndim)) if axes is None else set(axes)
            r = r.reshape(tuple(1 if i in reduced else s for i, s in enumerate(shape)))
        if out is not None:
            if out.shape != r.shape:
                raise ValueError(f"Shape mismatch: out has shape {out.shape}, the reduction's result {r.shape}")
            out[...] = r
            return out
        return r

    def __repr__(self):
        return f"<ReductionKernel {self.name!r}>"
