"""Discrete Fourier transforms over cuFFT"""

from typing import Any


def fft(a: object, n: object | None = None, axis: object | None = -1, norm: object | None = None, out: object | None = None) -> Any:
    """The 1-D discrete Fourier transform (NumPy's numpy.fft.fft)."""

def ifft(a: object, n: object | None = None, axis: object | None = -1, norm: object | None = None, out: object | None = None) -> Any:
    """The 1-D inverse discrete Fourier transform."""

def rfft(a: object, n: object | None = None, axis: object | None = -1, norm: object | None = None, out: object | None = None) -> Any:
    """
    The 1-D transform of real input: n // 2 + 1 non-negative frequency terms.
    """

def irfft(a: object, n: object | None = None, axis: object | None = -1, norm: object | None = None, out: object | None = None) -> Any:
    """The inverse of rfft: a real result of length n (default 2 * (m - 1))."""

def hfft(a: object, n: object | None = None, axis: object | None = -1, norm: object | None = None, out: object | None = None) -> Any:
    """The transform of a Hermitian-symmetric signal given by its first half."""

def ihfft(a: object, n: object | None = None, axis: object | None = -1, norm: object | None = None, out: object | None = None) -> Any:
    """The inverse of hfft."""

def fft2(a: object, s: object | None = None, axes: object | None = (-2, -1), norm: object | None = None, out: object | None = None) -> Any:
    """
    The 2-D discrete Fourier transform (over the last two axes by default).
    """

def ifft2(a: object, s: object | None = None, axes: object | None = (-2, -1), norm: object | None = None, out: object | None = None) -> Any:
    """The 2-D inverse discrete Fourier transform."""

def rfft2(a: object, s: object | None = None, axes: object | None = (-2, -1), norm: object | None = None, out: object | None = None) -> Any:
    """The 2-D transform of real input."""

def irfft2(a: object, s: object | None = None, axes: object | None = (-2, -1), norm: object | None = None, out: object | None = None) -> Any:
    """The inverse of rfft2."""

def fftn(a: object, s: object | None = None, axes: object | None = None, norm: object | None = None, out: object | None = None) -> Any:
    """The n-D discrete Fourier transform (over all axes by default)."""

def ifftn(a: object, s: object | None = None, axes: object | None = None, norm: object | None = None, out: object | None = None) -> Any:
    """The n-D inverse discrete Fourier transform."""

def rfftn(a: object, s: object | None = None, axes: object | None = None, norm: object | None = None, out: object | None = None) -> Any:
    """The n-D transform of real input (the last axis halved)."""

def irfftn(a: object, s: object | None = None, axes: object | None = None, norm: object | None = None, out: object | None = None) -> Any:
    """The inverse of rfftn."""

def fftfreq(n: object, d: object = 1.0, device: object | None = None, *, dtype: object | None = None) -> Any:
    """
    Sample frequencies of an n-point transform with sample spacing d (float64, or dtype=, the Array API's real floating type).
    """

def rfftfreq(n: object, d: object = 1.0, device: object | None = None, *, dtype: object | None = None) -> Any:
    """
    The non-negative sample frequencies of rfft (float64, or dtype=, the Array API's real floating type).
    """

def fftshift(x: object, axes: object | None = None) -> Any:
    """Move the zero-frequency term to the centre."""

def ifftshift(x: object, axes: object | None = None) -> Any:
    """The inverse of fftshift."""

def _plan_cache_info(device: int) -> dict: ...

def _set_plan_cache_size(device: int, size: int) -> None: ...

def _set_plan_cache_memsize(device: int, memsize: int) -> None: ...

def _clear_plan_cache(device: int) -> None: ...
