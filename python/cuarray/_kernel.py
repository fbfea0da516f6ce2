"""User CUDA code: RawModule and RawKernel (compiled by NVRTC, cached in memory and on disk)."""
from cuarray import _core


def _check_backend(backend, translate_cucomplex, jitify):
    if backend != "nvrtc":
        raise ValueError(f"backend must be 'nvrtc' (cuarray compiles with NVRTC only), got {backend!r}")
    if translate_cucomplex:
        raise ValueError("translate_cucomplex=True is not supported: include cuComplex.h yourself")
    if jitify:
        raise ValueError("jitify=True is not supported: NVRTC compiles the source as given")


class RawKernel:
    """A CUDA kernel from source: ``kernel(grid, block, args, shared_mem=0, stream=None)``."""

    def __init__(self, code, name, options=(), backend="nvrtc", *, translate_cucomplex=False,
                 enable_cooperative_groups=False, jitify=False):
        _check_backend(backend, translate_cucomplex, jitify)
        self.code = code
        self.name = name
        self.options = tuple(options)
        self._k = _core._RawKernel(code, name, list(self.options), bool(enable_cooperative_groups))

    @classmethod
    def _wrap(cls, handle, name):
        k = cls.__new__(cls)
        k.code = None
        k.name = name
        k.options = ()
        k._k = handle
        return k

    def __call__(self, grid, block, args, *, shared_mem=0, stream=None):
        if not isinstance(args, tuple):
            raise TypeError("kernel arguments must be given as a tuple")
        self._k(grid, block, args, shared_mem, stream)

    def compile(self, log_stream=None):
        self._k.compile()

    def __getattr__(self, name):
        if name in ("max_threads_per_block", "shared_size_bytes", "const_size_bytes", "local_size_bytes",
                    "num_regs", "ptx_version", "binary_version", "max_dynamic_shared_size_bytes",
                    "preferred_shared_memory_carveout"):
            return getattr(self._k, name)
        raise AttributeError(name)

    def __setattr__(self, name, value):
        if name in ("max_dynamic_shared_size_bytes", "preferred_shared_memory_carveout"):
            setattr(self._k, name, value)
        else:
            object.__setattr__(self, name, value)

    @property
    def attributes(self):
        return {n: getattr(self._k, n) for n in (
            "max_threads_per_block", "shared_size_bytes", "const_size_bytes", "local_size_bytes", "num_regs",
            "ptx_version", "binary_version", "max_dynamic_shared_size_bytes", "preferred_shared_memory_carveout")}


class RawModule:
    """A CUDA module from source (compiled by NVRTC) or from a .cubin/.ptx/.fatbin file."""

    def __init__(self, code=None, path=None, options=(), backend="nvrtc", *, translate_cucomplex=False,
                 enable_cooperative_groups=False, name_expressions=None, jitify=False):
        _check_backend(backend, translate_cucomplex, jitify)
        if (code is None) == (path is None):
            raise TypeError("RawModule needs exactly one of code and path")
        self.code = code
        self.path = path
        self.options = tuple(options)
        self.name_expressions = tuple(name_expressions) if name_expressions else ()
        self._m = _core._RawModule(code, None if path is None else str(path), list(self.options),
                                   list(self.name_expressions))

    def get_function(self, name):
        return RawKernel._wrap(_core._module_get_function(self._m, name), name)

    def get_global(self, name):
        return _core._module_get_global(self._m, name)

    def compile(self, log_stream=None):
        self._m.compile()
