"""ndarray.flat: NumPy's flat iterator over a cuarray array, reading and writing in C order."""
import cuarray


class flatiter:
    """The object of ``a.flat``: ``a.flat[i]``, ``a.flat[idx] = v`` (v repeated as needed, as NumPy), ``len``,
    iteration. Reads return new arrays (NumPy's flat reads copy too); integers give 0-d arrays, as CuPy."""

    def __init__(self, base):
        self._base = base

    @property
    def base(self):
        return self._base

    def __len__(self):
        return self._base.size

    def __iter__(self):
        flat = self._base.ravel()
        for i in range(flat.size):
            yield flat[i]

    def copy(self):
        return self._base.flatten()

    def __getitem__(self, key):
        flat = self._base.ravel()
        if isinstance(key, tuple) and len(key) == 1:
            key = key[0]
        got = flat[key]
        # ravel() is a view of a contiguous array: the read must not alias the array.
        return got.copy() if got._same_storage(self._base) else got

    def __setitem__(self, key, value):
        if isinstance(key, tuple) and len(key) == 1:
            key = key[0]
        positions = cuarray.arange(self._base.size, dtype=cuarray.int64)[key]
        cuarray.put(self._base, positions.reshape(-1), value, mode="wrap")

    def __repr__(self):
        return f"<cuarray.flatiter of array with shape {self._base.shape}>"


def _get_flat(self):
    return flatiter(self)


def _set_flat(self, value):
    flatiter(self)[...] = value


cuarray.ndarray.flat = property(_get_flat, _set_flat, doc="A flat iterator over the array (NumPy's ndarray.flat).")
