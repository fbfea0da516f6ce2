"""File input/output, printing and byte-level ndarray methods, all through NumPy on the host.

Every function here moves data between the device and the host (a device-to-host copy to write or print, a
host-to-device copy to read), as CuPy's do: NumPy does the formatting and the file work.
"""
import contextlib
import os
import pickle

import numpy

from cuarray._core import ndarray
from cuarray._creation import _contains_device_array, array, asarray

__all__ = [
    "save", "load", "savez", "savez_compressed", "savetxt", "NpzFile", "base_repr", "binary_repr", "array2string",
    "array_repr", "array_str", "format_float_positional", "format_float_scientific", "set_printoptions",
    "get_printoptions", "printoptions"]


def _host(x):
    """`x` with its device data copied to a NumPy array (anything else is passed to NumPy as it is)."""
    if isinstance(x, ndarray):
        return x.get()
    if hasattr(x, "__cuda_array_interface__") or _contains_device_array(x):
        return asarray(x).get()
    return x


def _host_scalar(x):
    """A 0-d device array as NumPy's scalar of its dtype (format_float_* take scalars, not arrays)."""
    if isinstance(x, ndarray):
        return x.get()[()]
    return x


# ---------------------------------------------------------------------------------------------------------
# .npy / .npz / text files

class NpzFile:
    """The arrays of a ``.npz`` file, read lazily: ``f[name]`` reads one array with NumPy and copies it to the
    current device. A mapping with NumPy's NpzFile interface (``files``, ``keys()``, ``close()``, ``with``)."""

    def __init__(self, npz_file):
        self.npz_file = npz_file

    @property
    def files(self):
        return self.npz_file.files

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc_value, traceback):
        self.close()

    def __getitem__(self, key):
        value = self.npz_file[key]
        return array(value) if isinstance(value, numpy.ndarray) else value

    def __contains__(self, key):
        return key in self.npz_file

    def __iter__(self):
        return iter(self.npz_file)

    def __len__(self):
        return len(self.npz_file)

    def keys(self):
        return self.npz_file.keys()

    def values(self):
        return [self[k] for k in self.npz_file.files]

    def items(self):
        return [(k, self[k]) for k in self.npz_file.files]

    def get(self, key, default=None):
        return self[key] if key in self.npz_file else default

    def close(self):
        self.npz_file.close()

    def __repr__(self):
        return "cuarray." + repr(self.npz_file)


def load(file, mmap_mode=None, allow_pickle=False, fix_imports=True, encoding="ASCII", *, max_header_size=10000):
    """Read an array from a ``.npy`` file (a cuarray array on the current device), the arrays of a ``.npz`` file
    (an :class:`NpzFile` whose items are cuarray arrays, copied on access) or a pickled object (returned as
    unpickled; ``allow_pickle`` is NumPy's: False refuses object arrays and pickles with ValueError).

    NumPy reads the file on the host; the data is then copied to the device. ``mmap_mode`` memory-maps the file
    for that read only: the result is an ordinary device array, not a view of the file.
    """
    obj = numpy.load(file, mmap_mode=mmap_mode, allow_pickle=allow_pickle, fix_imports=fix_imports,
                     encoding=encoding, max_header_size=max_header_size)
    if isinstance(obj, numpy.lib.npyio.NpzFile):
        return NpzFile(obj)
    if isinstance(obj, numpy.ndarray):
        return array(obj)
    return obj


def save(file, arr, allow_pickle=True):
    """Write `arr` to a ``.npy`` file with NumPy (a device array is copied to the host first)."""
    numpy.save(file, _host(arr), allow_pickle=allow_pickle)


def savez(file, *args, allow_pickle=True, **kwds):
    """Write several arrays into an uncompressed ``.npz`` file with NumPy (device arrays are copied to the host
    first); positional arrays are named ``arr_0``, ``arr_1``..."""
    numpy.savez(file, *[_host(a) for a in args], allow_pickle=allow_pickle, **{k: _host(v) for k, v in kwds.items()})


def savez_compressed(file, *args, allow_pickle=True, **kwds):
    """As :func:`savez`, into a compressed (deflate) ``.npz`` file."""
    numpy.savez_compressed(file, *[_host(a) for a in args], allow_pickle=allow_pickle,
                           **{k: _host(v) for k, v in kwds.items()})


def savetxt(fname, X, fmt="%.18e", delimiter=" ", newline="\n", header="", footer="", comments="# ", encoding=None):
    """Write a 1-d or 2-d array to a text file with NumPy's formatting (the array is copied to the host first)."""
    numpy.savetxt(fname, _host(X), fmt=fmt, delimiter=delimiter, newline=newline, header=header, footer=footer,
                  comments=comments, encoding=encoding)


# ---------------------------------------------------------------------------------------------------------
# Printing: cuarray arrays print through NumPy, so NumPy's print options are cuarray's.

def base_repr(number, base=2, padding=0):
    """NumPy's base_repr: the string of `number` in `base` (a 0-d device array is read to the host)."""
    return numpy.base_repr(_host_scalar(number), base=base, padding=padding)


def binary_repr(num, width=None):
    """NumPy's binary_repr (two's complement for negative numbers when `width` is given); a 0-d device array is
    read to the host."""
    return numpy.binary_repr(_host_scalar(num), width=width)


def array2string(a, max_line_width=None, precision=None, suppress_small=None, separator=" ", prefix="", *,
                 formatter=None, threshold=None, edgeitems=None, sign=None, floatmode=None, suffix="", legacy=None):
    """The text NumPy prints for `a`, copied to the host first (for arrays over the print threshold too: the
    whole array moves, then NumPy summarises)."""
    return numpy.array2string(_host(a), max_line_width=max_line_width, precision=precision,
                              suppress_small=suppress_small, separator=separator, prefix=prefix, formatter=formatter,
                              threshold=threshold, edgeitems=edgeitems, sign=sign, floatmode=floatmode, suffix=suffix,
                              legacy=legacy)


def array_repr(arr, max_line_width=None, precision=None, suppress_small=None):
    """``repr`` of an array as NumPy writes it (``array([...])``), through a copy on the host; the same text
    ``repr(a)`` gives a cuarray array."""
    return numpy.array_repr(_host(arr), max_line_width=max_line_width, precision=precision,
                            suppress_small=suppress_small)


def array_str(a, max_line_width=None, precision=None, suppress_small=None):
    """``str`` of an array as NumPy writes it, through a copy on the host."""
    return numpy.array_str(_host(a), max_line_width=max_line_width, precision=precision,
                           suppress_small=suppress_small)


def format_float_positional(x, precision=None, unique=True, fractional=True, trim="k", sign=False, pad_left=None,
                            pad_right=None, min_digits=None):
    """NumPy's format_float_positional of a Python or NumPy float, or of a 0-d device array (read to the host)."""
    return numpy.format_float_positional(_host_scalar(x), precision=precision, unique=unique, fractional=fractional,
                                         trim=trim, sign=sign, pad_left=pad_left, pad_right=pad_right,
                                         min_digits=min_digits)


def format_float_scientific(x, precision=None, unique=True, trim="k", sign=False, pad_left=None, exp_digits=None,
                            min_digits=None):
    """NumPy's format_float_scientific of a Python or NumPy float, or of a 0-d device array (read to the host)."""
    return numpy.format_float_scientific(_host_scalar(x), precision=precision, unique=unique, trim=trim, sign=sign,
                                         pad_left=pad_left, exp_digits=exp_digits, min_digits=min_digits)


def set_printoptions(precision=None, threshold=None, edgeitems=None, linewidth=None, suppress=None, nanstr=None,
                     infstr=None, formatter=None, sign=None, floatmode=None, *, legacy=None, override_repr=None):
    """Set NumPy's print options, which are cuarray's: a cuarray array prints by copying itself to the host and
    letting NumPy format it. The options therefore apply to NumPy arrays too (one setting, as in CuPy)."""
    numpy.set_printoptions(precision=precision, threshold=threshold, edgeitems=edgeitems, linewidth=linewidth,
                           suppress=suppress, nanstr=nanstr, infstr=infstr, formatter=formatter, sign=sign,
                           floatmode=floatmode, legacy=legacy, override_repr=override_repr)


def get_printoptions():
    """NumPy's current print options (a dict), which are the ones cuarray arrays print with."""
    return numpy.get_printoptions()


@contextlib.contextmanager
def printoptions(*args, **kwargs):
    """Context manager: NumPy's print options (see :func:`set_printoptions`) set for the ``with`` block and
    restored after it; yields the options in force inside."""
    with numpy.printoptions(*args, **kwargs) as options:
        yield options


# ---------------------------------------------------------------------------------------------------------
# ndarray methods: bytes and pickles (each copies the array to the host)

def _tobytes(self, order="C"):
    """The raw bytes of the array in `order` ('C'; 'F'; 'A': F if the array is Fortran-contiguous and not
    C-contiguous, else C; 'K' is C, as NumPy's tobytes gives), as NumPy's tobytes; the data is copied to the
    host."""
    numpy.empty(0).tobytes(order=order)  # NumPy's exception for a bad order, before any transfer
    o = "C" if order is None else order.upper()
    if o == "K":
        o = "C"
    # For 'A' the host copy keeps the device array's contiguity, so that NumPy decides as it would on the device.
    return self.get(order=o).tobytes(order=o)


def _tofile(self, fid, sep="", format="%s"):
    """Write the array to a file (a path or an open file) as NumPy's tofile: binary in C order when `sep` is
    empty, else text. The data is copied to the host first."""
    self.get().tofile(fid, sep=sep, format=format)


def _dump(self, file):
    """Pickle the array into `file` (a path or a file opened for binary writing); ``cuarray.load(file,
    allow_pickle=True)`` or ``pickle.load`` reads it back as a device array. The data is copied to the host."""
    if isinstance(file, (str, os.PathLike)):
        with open(file, "wb") as f:
            pickle.dump(self, f, protocol=2)
    else:
        pickle.dump(self, file, protocol=2)


def _dumps(self):
    """The array's pickle as bytes (``pickle.loads`` gives a device array back); the data is copied to the host."""
    return pickle.dumps(self, protocol=2)


_UINT_OF_SIZE = {1: numpy.uint8, 2: numpy.uint16, 4: numpy.uint32, 8: numpy.uint64}


def _byteswap(self, inplace=False):
    """The array with the bytes of each element reversed (each of the two parts of a complex number apart, as
    NumPy), on the device. ``inplace=True`` swaps the array's own memory and returns it; the dtype is unchanged,
    so the values read differently afterwards, as in NumPy."""
    unit = self.itemsize // 2 if self.dtype.kind == "c" else self.itemsize
    if unit == 1 or self.size == 0:
        return self if inplace else self.copy()
    packed = self if (inplace and self.flags.c_contiguous) else self.copy(order="C")
    # One row per unit to swap; reversing the row's bytes is the swap. The reversed copy avoids an overlap.
    rows = packed.reshape(-1).view(numpy.uint8).reshape(-1, unit)
    rows[...] = rows[:, ::-1].copy()
    if not inplace:
        return packed
    if packed is not self:
        # Same-size unsigned integers carry the swapped bit patterns unchanged (a float NaN payload included).
        if self.itemsize in _UINT_OF_SIZE:
            uint = numpy.dtype(_UINT_OF_SIZE[self.itemsize])
            self.view(uint)[...] = packed.view(uint)
        else:  # complex128: no 16-byte integer; a complex copy moves both parts' bits unchanged
            self[...] = packed
    return self


ndarray.tobytes = _tobytes
ndarray.tofile = _tofile
ndarray.dump = _dump
ndarray.dumps = _dumps
ndarray.byteswap = _byteswap
