"""cuarray.fft: NumPy's discrete Fourier transforms (numpy.fft) on the GPU through cuFFT, a drop-in for cupy.fft.

Results follow NumPy 2: float32/float16/complex64 input gives complex64, everything else complex128; norm=,
n=/s= (zero padding and truncation), axis=/axes= and out= as NumPy. The plan cache is in cuarray.fft.config.
"""
from cuarray import _core

_m = _core.fft

fft = _m.fft
ifft = _m.ifft
fft2 = _m.fft2
ifft2 = _m.ifft2
fftn = _m.fftn
ifftn = _m.ifftn
rfft = _m.rfft
irfft = _m.irfft
rfft2 = _m.rfft2
irfft2 = _m.irfft2
rfftn = _m.rfftn
irfftn = _m.irfftn
hfft = _m.hfft
ihfft = _m.ihfft
fftfreq = _m.fftfreq
rfftfreq = _m.rfftfreq
fftshift = _m.fftshift
ifftshift = _m.ifftshift

from cuarray.fft import config  # noqa: E402

__all__ = ["fft", "ifft", "fft2", "ifft2", "fftn", "ifftn", "rfft", "irfft", "rfft2", "irfft2", "rfftn", "irfftn",
           "hfft", "ihfft", "fftfreq", "rfftfreq", "fftshift", "ifftshift", "config"]

del _m
