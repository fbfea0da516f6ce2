"""The Kaiser-Bessel derived window (scipy.signal.windows.kaiser_bessel_derived), made on the host like the others."""
import numpy

import cuarray as _cp


def kaiser_bessel_derived(M, beta, *, sym=True):
    """Kaiser-Bessel derived window: square roots of the normalised running sums of a Kaiser window of M//2 + 1
    points, mirrored (the MDCT's Princen-Bradley window)."""
    if not sym:
        raise ValueError("Kaiser-Bessel Derived windows are only defined for symmetric shapes")
    if M < 1:
        return _cp.asarray(numpy.array([], dtype=numpy.float64))
    if M % 2:
        raise ValueError("Kaiser-Bessel Derived windows are only defined for even number of points")
    L = M // 2 + 1
    n = numpy.arange(L)
    alpha = (L - 1) / 2.0
    kw = numpy.i0(beta * numpy.sqrt(1 - ((n - alpha) / alpha) ** 2.0)) / numpy.i0(float(beta))
    cs = numpy.cumsum(kw)
    half = numpy.sqrt(cs[:-1] / cs[-1])
    return _cp.asarray(numpy.concatenate((half, half[::-1])))
