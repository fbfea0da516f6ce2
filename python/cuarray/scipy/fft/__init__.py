"""cuarray.scipy.fft: SciPy's scipy.fft on the GPU (CuPy's cupyx.scipy.fft), over cuarray.fft's cuFFT plans.

SciPy is the specification: its dtypes (float32 stays float32/complex64, float16 computes in float32, integers
in float64), argument checks and keywords. `workers` is validated and otherwise ignored (cuFFT runs on the GPU);
`overwrite_x` is accepted (the input is never overwritten); `plan` takes a cuarray.cuda.cufft plan, such as
get_fft_plan returns. SciPy's uarray backend functions (set_backend...) are not provided.
"""
from cuarray.fft import fftfreq, fftshift, ifftshift, rfftfreq
from cuarray.scipy.fft._basic import (fft, fft2, fftn, hfft, hfft2, hfftn, ifft, ifft2, ifftn, ihfft, ihfft2, ihfftn,
                                      irfft, irfft2, irfftn, rfft, rfft2, rfftn)
from cuarray.scipy.fft._fftlog import fht, fhtoffset, ifht
from cuarray.scipy.fft._helper import get_workers, next_fast_len, prev_fast_len, set_workers
from cuarray.scipy.fft._plan import get_fft_plan
from cuarray.scipy.fft._realtransforms import dct, dctn, dst, dstn, idct, idctn, idst, idstn

__all__ = ["fft", "ifft", "fft2", "ifft2", "fftn", "ifftn", "rfft", "irfft", "rfft2", "irfft2", "rfftn", "irfftn",
           "hfft", "ihfft", "hfft2", "ihfft2", "hfftn", "ihfftn", "fftfreq", "rfftfreq", "fftshift", "ifftshift",
           "next_fast_len", "prev_fast_len", "dct", "idct", "dst", "idst", "dctn", "idctn", "dstn", "idstn",
           "fht", "ifht", "fhtoffset", "get_workers", "set_workers", "get_fft_plan"]
