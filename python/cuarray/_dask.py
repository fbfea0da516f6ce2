"""Registers cuarray.ndarray as a dask.array chunk type, the way dask registers cupy.ndarray."""

import sys

_done = False


def register():
    """Register cuarray's implementations with dask.array's dispatch tables (idempotent; imports dask)."""
    global _done
    if _done:
        return
    from dask.array import dispatch as d
    from dask.array import backends as b
    import cuarray

    nd = cuarray.ndarray

    def _einsum(*args, **kwargs):
        # dask passes NumPy-only keywords that cuarray.einsum, like cupy.einsum, does not take.
        kwargs.pop("casting", None)
        kwargs.pop("order", None)
        return cuarray.einsum(*args, **kwargs)

    def _to_numpy(data, **kwargs):
        return cuarray.asnumpy(data, **kwargs)

    d.concatenate_lookup.register(nd, cuarray.concatenate)
    d.take_lookup.register(nd, cuarray.take)
    d.tensordot_lookup.register(nd, cuarray.tensordot)
    d.einsum_lookup.register(nd, _einsum)
    d.empty_lookup.register(nd, cuarray.empty)
    d.divide_lookup.register(nd, cuarray.divide)
    d.percentile_lookup.register(nd, b.percentile)
    d.numel_lookup.register(nd, b._numel_arraylike)
    d.nannumel_lookup.register(nd, b._nannumel)
    d.to_numpy_dispatch.register(nd, _to_numpy)
    _register_sizeof()
    _done = True


def _register_sizeof():
    """dask.sizeof of a cuarray array is its nbytes, as dask has it for cupy.ndarray: distributed's scheduler
    weighs transfers and memory by it (the default, sys.getsizeof, makes a GiB chunk look like a few bytes, so
    work stealing moves tasks whose inputs are expensive to move)."""
    import cuarray
    from dask.sizeof import sizeof

    @sizeof.register(cuarray.ndarray)
    def _sizeof_cuarray(x):
        return int(x.nbytes)


def _register_lazy():
    """Let dask register cuarray on first sight of a cuarray chunk (dask keys lazy entries by top-level module)."""
    from dask.array import dispatch as d
    for table in (d.concatenate_lookup, d.take_lookup, d.tensordot_lookup, d.einsum_lookup, d.empty_lookup,
                  d.divide_lookup, d.percentile_lookup, d.numel_lookup, d.nannumel_lookup, d.to_numpy_dispatch):
        table.register_lazy("cuarray", register)


class _DaskHook:
    """Meta-path finder that adds the lazy entries right after dask.array.dispatch (and dask.sizeof) load, so that
    importing cuarray never imports dask (about 0.5 s) and dask imported later still knows cuarray."""

    def __init__(self, names):
        self.pending = dict(names)  # module name -> the function that adds its lazy entries

    def find_spec(self, name, path=None, target=None):
        after = self.pending.pop(name, None)
        if after is None:
            return None
        if not self.pending:
            sys.meta_path.remove(self)
        import importlib.util
        spec = importlib.util.find_spec(name)  # `name` is no longer pending: this finder passes it on
        if spec is None or spec.loader is None:
            return spec
        exec_module = spec.loader.exec_module

        def exec_and_register(module):
            exec_module(module)
            after()

        spec.loader.exec_module = exec_and_register
        return spec


def _register_sizeof_lazy():
    from dask.sizeof import sizeof
    sizeof.register_lazy("cuarray", _register_sizeof)


def install():
    todo = {}
    for name, after in (("dask.array.dispatch", _register_lazy), ("dask.sizeof", _register_sizeof_lazy)):
        if name in sys.modules:
            after()
        else:
            todo[name] = after
    if todo and not any(isinstance(f, _DaskHook) for f in sys.meta_path):
        sys.meta_path.insert(0, _DaskHook(todo))


install()
