"""Types of cuarray.jit's compiler: scalars, arrays, shared-memory arrays, compile-time tuples and constants."""
import numpy

_CTYPES = {
    "?": "bool", "b": "signed char", "B": "unsigned char", "h": "short", "H": "unsigned short",
    "i": "int", "I": "unsigned int", "l": "long long", "L": "unsigned long long", "q": "long long",
    "Q": "unsigned long long", "e": "ca_half", "f": "float", "d": "double", "F": "ca_complex64",
    "D": "ca_complex128",
}
# CuPy's 'cuda' mode promotes by this order of type characters (a C-like rule: the "larger" operand wins).
TYPE_ORDER = "?bBhHiIlLqQefdFD"


def norm_dtype(dt):
    """The dtype with int64/uint64 spelt one way ('l' and 'q' are the same type on Linux)."""
    dt = numpy.dtype(dt)
    if dt.char == "q":
        return numpy.dtype("l")
    if dt.char == "Q":
        return numpy.dtype("L")
    return dt


class Type:
    """A type of a value in generated code."""


class Scalar(Type):
    def __init__(self, dtype):
        dt = norm_dtype(dtype)
        if dt.char not in _CTYPES:
            raise TypeError(f"dtype {dt} is not supported in cuarray.jit kernels")
        self.dtype = dt

    @property
    def ctype(self):
        return _CTYPES[self.dtype.char]

    @property
    def kind(self):
        return self.dtype.kind

    def __eq__(self, o):
        return isinstance(o, Scalar) and o.dtype == self.dtype

    def __hash__(self):
        return hash(("s", self.dtype.char))

    def __repr__(self):
        return str(self.dtype)


class Array(Type):
    """A cuarray.ndarray argument: data pointer, size, shape and byte strides (ca_jarr<T, N>)."""

    def __init__(self, dtype, ndim, c_contiguous):
        self.dtype = norm_dtype(dtype)
        if self.dtype.char not in _CTYPES:
            raise TypeError(f"arrays of dtype {self.dtype} are not supported in cuarray.jit kernels")
        self.ndim = int(ndim)
        self.c_contiguous = bool(c_contiguous)

    @property
    def elem(self):
        return Scalar(self.dtype)

    @property
    def ctype(self):
        return f"ca_jarr<{_CTYPES[self.dtype.char]}, {max(self.ndim, 1)}>"

    def __eq__(self, o):
        return (isinstance(o, Array) and (o.dtype, o.ndim, o.c_contiguous) ==
                (self.dtype, self.ndim, self.c_contiguous))

    def __hash__(self):
        return hash(("a", self.dtype.char, self.ndim, self.c_contiguous))

    def __repr__(self):
        return f"ndarray({self.dtype}, {self.ndim}d{', C' if self.c_contiguous else ''})"


class Pointer(Type):
    """Shared (or local) memory: a 1-D array of `size` elements (None: dynamic extern shared memory)."""

    def __init__(self, dtype, size):
        self.dtype = norm_dtype(dtype)
        self.size = size
        self.ndim = 1

    @property
    def elem(self):
        return Scalar(self.dtype)

    @property
    def ctype(self):
        return _CTYPES[self.dtype.char] + "*"

    def __eq__(self, o):
        return isinstance(o, Pointer) and o.dtype == self.dtype

    def __hash__(self):
        return hash(("p", self.dtype.char))

    def __repr__(self):
        return f"shared({self.dtype}, {self.size})"


class Void(Type):
    ctype = "void"

    def __repr__(self):
        return "void"


class Group(Type):
    """A cooperative group: 'block' or 'grid'."""

    def __init__(self, kind):
        self.kind = kind

    def __eq__(self, o):
        return isinstance(o, Group) and o.kind == self.kind

    def __hash__(self):
        return hash(("g", self.kind))

    def __repr__(self):
        return f"{self.kind}_group"


class Dim3(Type):
    def __repr__(self):
        return "dim3"


VOID = Void()
BOOL = Scalar("?")
INT32 = Scalar("i")
UINT32 = Scalar("I")
INT64 = Scalar("l")
FLOAT64 = Scalar("d")
