"""cuarray.jit.rawkernel: Python functions compiled to CUDA kernels per argument-type signature and launched."""
import functools
import re
import warnings

import numpy

from cuarray import _core
from cuarray.jit import _compile
from cuarray.jit import _types as T

_jit_call = _core._jit_call

_HEADERS = None


def _headers():
    """cuarray's device-side headers (float16, complex, NumPy's scalar functions) as one source text."""
    global _HEADERS
    if _HEADERS is None:
        from cuarray import _core
        files = {name: text.decode() for name, text in _core._jit_headers()}
        done, out = set(), []

        def inline(name):
            if name in done:
                return
            done.add(name)
            for line in files[name].splitlines():
                m = re.match(r'\s*#\s*include\s*"([^"]+)"', line)
                if m and m.group(1) in files:
                    inline(m.group(1))
                elif not re.match(r"\s*#\s*pragma\s+once", line):
                    out.append(line)

        for name in files:
            inline(name)
        _HEADERS = "\n".join(out) + "\n"
    return _HEADERS


def full_source(code):
    """The source handed to NVRTC: the headers, then the generated code (its error lines count from 1)."""
    return _headers() + '#line 1 "cuarray_jit.cu"\n' + code


def _ndarray_type():
    from cuarray import ndarray
    return ndarray


def arg_type(x, mode):
    """The compile-time type of a kernel argument."""
    nd = _ndarray_type()
    if isinstance(x, nd):
        return T.Array(x.dtype, x.ndim, x.flags.c_contiguous)
    if isinstance(x, T.Type):
        return x
    if isinstance(x, numpy.ndarray):  # only for emitting code without a device (tests, inspection)
        return T.Array(x.dtype, x.ndim, x.flags.c_contiguous)
    if isinstance(x, (bool, int, float, complex, numpy.generic)):
        return _compile.const_type(x, mode)
    raise TypeError(f"{type(x)} is not supported for RawKernel (arguments must be bool, int, float, complex, NumPy "
                    f"scalars or cuarray.ndarray)")


def _device():
    return _core.get_device_id()


# How the C++ launch packs each argument for a signature (Note [jit launch] in python/src/raw.cpp): arrays as
# pointer, size, shape and strides; int32/float32/complex64 parameters converted from the Python or NumPy
# scalar given; every other scalar as RawKernel packs it (its own NumPy type, or int64/float64/complex128/bool
# for Python scalars, which are the types const_type gives them there).
_CONVERTED = {"i": "i", "f": "f", "F": "F"}


def _codes(types):
    return "".join("A" if isinstance(t, T.Array) else _CONVERTED.get(t.dtype.char, ".") for t in types).encode()


class _Configured:
    """``kernel[grid, block, stream, shared_mem]``: calling it launches with the arguments given."""
    __slots__ = ("_kernel", "_grid", "_block", "_stream", "_shared_mem")

    def __init__(self, kernel, grid, block, stream, shared_mem):
        self._kernel, self._grid, self._block = kernel, grid, block
        self._stream, self._shared_mem = stream, shared_mem

    def __call__(self, *args, **kwargs):
        if kwargs:
            raise TypeError("keyword arguments are not accepted by kernels; pass them by position")
        k = self._kernel
        key = _jit_call(k._cache, self._grid, self._block, args, self._shared_mem, self._stream, k._numpy_mode)
        if key is not None:
            k._launch_cold(key, self._grid, self._block, args, self._shared_mem, self._stream)


class _JitRawKernel:
    """A kernel (or device function) compiled from Python by cuarray.jit; see :func:`rawkernel`."""

    def __init__(self, func, mode, device):
        if not callable(func):
            raise ValueError("`func` must be a callable object")
        if mode not in ("cuda", "numpy"):
            raise ValueError(f"mode must be 'cuda' or 'numpy', got {mode!r}")
        self._func = func
        self._mode = mode
        self._device = bool(device)
        self._numpy_mode = mode == "numpy"
        # The warm launch's dict: the C++ key of the arguments' types and the device -> (RawKernel, codes); the
        # same entries by (type signature, device id) for arguments without a C++ key (Note [jit launch]).
        self._cache = {}
        self._by_types = {}
        self._configs = {}  # kernel[grid, block] launchers, by (grid, block) of ints
        self._cached_codes = {}  # type signature -> generated source
        self._meta = {}  # type signature -> module facts
        self.__name__ = getattr(func, "__name__", "kernel")

    def _emit_code(self, args):
        """The generated CUDA source for arguments like `args` (arrays or their types): no device needed."""
        types = tuple(arg_type(a, self._mode) for a in args)
        return self._code_for(types)

    def _code_for(self, types):
        code = self._cached_codes.get(types)
        if code is None:
            if self._device:
                code, _, _ = _compile.generate_device(self._func, self._mode, types)
                uses_sync = False
            else:
                code, module = _compile.generate(self._func, self._mode, types, self._c_name())
                uses_sync = module.uses_grid_sync
            self._cached_codes[types] = code
            self._meta[types] = uses_sync
        return code

    def _c_name(self):
        return "ca_jit_" + re.sub(r"\W", "_", self.__name__)

    def _kernel_for(self, types):
        from cuarray import _kernel
        from cuarray import cuda
        code = self._code_for(types)
        module = _kernel.RawModule(code=full_source(code), options=("-std=c++17",),
                                   enable_cooperative_groups=self._meta[types])
        kern = module.get_function(self._c_name())
        try:
            kern.compile()
        except cuda.compiler.CompileException as e:
            raise RuntimeError(f"cuarray.jit: the CUDA source generated for {self.__name__} with argument types "
                               f"{types} does not compile (an error of cuarray.jit, please report it); see "
                               f"`cached_codes` for the source:\n{e}") from e
        return kern, _codes(types)

    def __call__(self, grid, block, args, shared_mem=0, stream=None):
        """Launch: ``kernel(grid, block, args, shared_mem=0, stream=None)``; compiles on the first call for the
        arguments' types (arrays by dtype, ndim and contiguity)."""
        # The warm path is this one C++ call (Note [jit launch] in python/src/raw.cpp): None once launched.
        key = _jit_call(self._cache, grid, block, args, shared_mem, stream, self._numpy_mode)
        if key is not None:
            self._launch_cold(key, grid, block, args, shared_mem, stream)

    def _launch_cold(self, key, grid, block, args, shared_mem, stream):
        """A launch whose argument types have no entry under `key` (False: no C++ key for them): find or
        compile the kernel for the types, remember it under `key`, launch."""
        if self._device:
            raise TypeError(f"{self.__name__} is a device function (device=True): call it from a kernel")
        if not isinstance(args, tuple):
            raise TypeError(f"kernel arguments must be given as a tuple, not {type(args).__name__}")
        types = tuple(arg_type(a, self._mode) for a in args)
        tkey = (types, _device())
        entry = self._by_types.get(tkey)
        if entry is None:
            entry = self._by_types[tkey] = self._kernel_for(types)
        if key is not False:
            self._cache[key] = entry
        _core._jit_launch(entry[0], entry[1], grid, block, args, shared_mem, stream)

    def __getitem__(self, config):
        """Numba-style launch configuration: ``kernel[grid, block](*args)``, also ``[grid, block, stream]`` and
        ``[grid, block, stream, shared_mem]``."""
        # kernel[int, int] launchers are kept (a few at most in a program; no stream is held), so that a warm
        # kernel[grid, block](*args) makes none. Exact ints only: 128.0 == 128 as a dict key, but not as a grid.
        plain = type(config) is tuple and len(config) == 2 and type(config[0]) is int and type(config[1]) is int
        if plain:
            launch = self._configs.get(config)
            if launch is not None:
                return launch
        if not isinstance(config, tuple) or not 2 <= len(config) <= 4:
            raise TypeError("launch configuration must be [grid, block], [grid, block, stream] or "
                            "[grid, block, stream, shared_mem]")
        grid, block = config[0], config[1]
        stream = config[2] if len(config) > 2 else None
        shared_mem = config[3] if len(config) > 3 else 0
        if not isinstance(grid, tuple):
            grid = (grid,)
        if not isinstance(block, tuple):
            block = (block,)
        launch = _Configured(self, grid, block, stream, shared_mem)
        if plain:
            if len(self._configs) >= 64:
                self._configs.clear()
            self._configs[config] = launch
        return launch

    @property
    def cached_codes(self):
        """The generated CUDA source for each argument-type signature compiled so far (for debugging)."""
        if not self._cached_codes:
            warnings.warn("No codes are cached because compilation is deferred until the first function call.")
        return dict(self._cached_codes)

    @property
    def cached_code(self):
        """The generated CUDA source of the first signature compiled (see :attr:`cached_codes`)."""
        codes = self.cached_codes
        if len(codes) > 1:
            warnings.warn("The input types of the kernel could not be inferred. Please use `.cached_codes` instead.")
        if not codes:
            raise ValueError(f"{self.__name__} has not been compiled yet: call it first")
        return next(iter(codes.values()))

    def __repr__(self):
        return f"<cuarray.jit {'device function' if self._device else 'kernel'} {self.__name__}>"


def rawkernel(*, mode="cuda", device=False):
    """A decorator that compiles a Python function into a CUDA kernel (or, with ``device=True``, a device
    function callable from kernels). ``mode='cuda'`` types Python ints and floats as int32 and float32, as CuPy's
    JIT does; ``mode='numpy'`` as int64 and float64."""
    def wrapper(func):
        return functools.update_wrapper(_JitRawKernel(func, mode, device), func)
    return wrapper
