"""ndarray.flags: the layout flags NumPy reports, read-only."""


class Flags:
    __slots__ = ("c_contiguous", "f_contiguous", "owndata")

    def __init__(self, c_contiguous, f_contiguous, owndata):
        self.c_contiguous = c_contiguous
        self.f_contiguous = f_contiguous
        self.owndata = owndata

    _keys = {
        "C_CONTIGUOUS": "c_contiguous", "C": "c_contiguous", "CONTIGUOUS": "c_contiguous",
        "F_CONTIGUOUS": "f_contiguous", "F": "f_contiguous", "FORTRAN": "f_contiguous",
        "OWNDATA": "owndata", "O": "owndata",
    }

    def __getitem__(self, name):
        try:
            return getattr(self, self._keys[name])
        except KeyError:
            raise KeyError(name) from None

    @property
    def forc(self):
        return self.c_contiguous or self.f_contiguous

    @property
    def fnc(self):
        return self.f_contiguous and not self.c_contiguous

    def __repr__(self):
        return (f"  C_CONTIGUOUS : {self.c_contiguous}\n  F_CONTIGUOUS : {self.f_contiguous}\n"
                f"  OWNDATA : {self.owndata}")
