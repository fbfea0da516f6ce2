"""cuarray.scipy.special's second set of ufuncs: inverses, distributions, integrals, elliptic, Legendre, Lambert W."""
import numpy as _numpy

from cuarray._special_ufunc import ufunc as _ufunc
from cuarray.scipy.special._device import PREAMBLE as _PRE
from cuarray.scipy.special._device_more import PREAMBLE_MORE as _MORE

PREAMBLE = _PRE + _MORE
_CTYPE = {"d": "double", "f": "float", "l": "long long", "D": "ca_complex<double>", "F": "ca_complex<float>"}


def _real(name, fn, sigs, doc=None):
    """A ufunc whose real loops call the double function `fn` (float loops round once)."""
    loops = []
    for sig in sigs:
        ins, outs = sig.split("->")
        args = ", ".join(f"(double)in{j}" for j in range(len(ins)))
        loops.append((sig, f"out0 = {'(float)' if outs == 'f' else ''}{fn}({args});"))
    return _ufunc(name, len(sigs[0].split("->")[0]), 1, loops, preamble=PREAMBLE,
                  doc=doc or f"scipy.special.{name} on the GPU (loops {', '.join(sigs)}).")


def _multi(name, fn, sigs, nout, doc=None):
    """A real ufunc with several outputs: `fn(double..., double* out...)`."""
    loops = []
    for sig in sigs:
        ins, outs = sig.split("->")
        args = ", ".join(f"(double)in{j}" for j in range(len(ins)))
        ptrs = ", ".join(f"&r{j}" for j in range(nout))
        body = f"double {', '.join(f'r{j}' for j in range(nout))}; {fn}({args}, {ptrs}); "
        body += " ".join(f"out{j} = ({_CTYPE[c]})r{j};" for j, c in enumerate(outs))
        loops.append((sig, body))
    return _ufunc(name, len(sigs[0].split("->")[0]), nout, loops, preamble=PREAMBLE,
                  doc=doc or f"scipy.special.{name} on the GPU (loops {', '.join(sigs)}).")


_DDD = ("fff->f", "ddd->d")
_DD = ("ff->f", "dd->d")

# Inverses of the incomplete gamma and beta functions
gammaincinv = _real("gammaincinv", "cas_gammaincinv", ("dd->d", "ff->f"))
gammainccinv = _real("gammainccinv", "cas_gammainccinv", ("dd->d", "ff->f"))
betaincinv = _real("betaincinv", "cas_betaincinv", _DDD)

# Raw statistical functions
bdtr = _real("bdtr", "cas_bdtr", ("fff->f", "dld->d", "ddd->d"))
bdtrc = _real("bdtrc", "cas_bdtrc", ("fff->f", "dld->d", "ddd->d"))
bdtri = _real("bdtri", "cas_bdtri", ("fff->f", "dld->d", "ddd->d"))
btdtr = _real("btdtr", "cas_btdtr", _DDD, doc="The beta distribution's CDF, betainc(a, b, x) (CuPy keeps this name "
                                              "that SciPy 1.14 removed).")
btdtri = _real("btdtri", "cas_btdtri", _DDD, doc="The inverse of btdtr in x, betaincinv(a, b, p) (CuPy keeps this "
                                                 "name that SciPy 1.14 removed).")
fdtr = _real("fdtr", "cas_fdtr", _DDD)
fdtrc = _real("fdtrc", "cas_fdtrc", _DDD)
fdtri = _real("fdtri", "cas_fdtri", _DDD)
gdtr = _real("gdtr", "cas_gdtr", _DDD)
gdtrc = _real("gdtrc", "cas_gdtrc", _DDD)
nbdtr = _real("nbdtr", "cas_nbdtr", ("lld->d", "fff->f", "ddd->d"))
nbdtrc = _real("nbdtrc", "cas_nbdtrc", ("lld->d", "fff->f", "ddd->d"))
nbdtri = _real("nbdtri", "cas_nbdtri", ("lld->d", "fff->f", "ddd->d"))
pdtr = _real("pdtr", "cas_pdtr", _DD)
pdtrc = _real("pdtrc", "cas_pdtrc", _DD)
pdtri = _real("pdtri", "cas_pdtri", ("ld->d", "ff->f", "dd->d"))
chdtr = _real("chdtr", "cas_chdtr", _DD)
chdtrc = _real("chdtrc", "cas_chdtrc", _DD)
chdtri = _real("chdtri", "cas_chdtri", _DD)

# Exponential and trigonometric integrals
exp1 = _real("exp1", "cas_exp1", ("f->f", "d->d"))
expi = _real("expi", "cas_expi", ("f->f", "d->d"))
expn = _real("expn", "cas_expn", ("ld->d", "ff->f", "dd->d"))
sici = _multi("sici", "cas_sici", ("f->ff", "d->dd"), 2)
shichi = _multi("shichi", "cas_shichi", ("f->ff", "d->dd"), 2)

# Elliptic functions
ellipkinc = _real("ellipkinc", "cas_ellipkinc", ("dd->d", "ff->f"))
ellipeinc = _real("ellipeinc", "cas_ellipeinc", ("dd->d", "ff->f"))
ellipj = _multi("ellipj", "cas_ellipj", ("dd->dddd", "ff->ffff"), 4)

# Legendre, Bessel-type
lpmv = _real("lpmv", "cas_lpmv", _DDD)
wright_bessel = _real("wright_bessel", "cas_wright_bessel", ("ddd->d", "fff->f"))


def _complex_loops(name, real_fn, complex_fn, sigs):
    loops = []
    for sig in sigs:
        if sig[0] in "dfl":
            loops.append((sig, f"out0 = {'(float)' if sig[-1] == 'f' else ''}{real_fn}((double)in0);"))
        else:
            loops.append((sig, f"out0 = {_CTYPE[sig[-1]]}({complex_fn}(cas_z(in0)));"))
    return _ufunc(name, 1, 1, loops, preamble=PREAMBLE, doc=f"scipy.special.{name} on the GPU (loops "
                                                            f"{', '.join(sigs)}).")


# The gamma family with SciPy's complex loops (the real loops are those of _device.py)
_GSIGS = ("d->d", "D->D", "f->f", "F->F")
gamma = _complex_loops("gamma", "cas_gamma", "cas_c_gamma", _GSIGS)
rgamma = _complex_loops("rgamma", "cas_rgamma", "cas_c_rgamma", _GSIGS)
loggamma = _complex_loops("loggamma", "cas_loggamma_real", "cas_c_loggamma", _GSIGS)
digamma = _complex_loops("digamma", "cas_digamma", "cas_c_digamma", _GSIGS)
psi = _complex_loops("psi", "cas_digamma", "cas_c_digamma", _GSIGS)

_lambertw = _ufunc("lambertw", 3, 1, [
    ("Dld->D", "out0 = cas_lambertw(in0, in1, in2);"),
    ("Flf->F", "out0 = ca_complex<float>(cas_lambertw(cas_z(in0), in1, (double)in2));")], preamble=PREAMBLE)


def lambertw(z, k=0, tol=1e-8):
    """Branch k of the Lambert W function, W(z) e^W(z) = z (complex result; as scipy.special.lambertw)."""
    return _lambertw(z, k, tol)


_sph_yn = _ufunc("spherical_yn", 2, 1, [
    ("ld->d", "out0 = cas_sph_yn(in0, in1, false);"),
    ("lf->f", "out0 = (float)cas_sph_yn(in0, (double)in1, false);")], preamble=PREAMBLE)
_sph_yn_d = _ufunc("spherical_yn_d", 2, 1, [
    ("ld->d", "out0 = cas_sph_yn(in0, in1, true);"),
    ("lf->f", "out0 = (float)cas_sph_yn(in0, (double)in1, true);")], preamble=PREAMBLE)


def spherical_yn(n, z, derivative=False):
    """The spherical Bessel function of the second kind y_n(z), or its derivative (real z; as
    scipy.special.spherical_yn). Complex z raises TypeError (no complex loop)."""
    return (_sph_yn_d if derivative else _sph_yn)(n, z)


_sph_harm_y = _ufunc("sph_harm_y", 4, 1, [
    ("lldd->D", "out0 = cas_sph_harm_y(in0, in1, in2, in3);"),
    ("llff->F", "out0 = ca_complex<float>(cas_sph_harm_y(in0, in1, (double)in2, (double)in3));")],
    preamble=PREAMBLE)


def sph_harm_y(n, m, theta, phi, *, diff_n=0):
    """The spherical harmonic Y_n^m(theta, phi), theta the polar and phi the azimuthal angle (as
    scipy.special.sph_harm_y). Only diff_n=0 (the function itself) is provided; the derivatives SciPy gives for
    diff_n = 1, 2 raise NotImplementedError, as in CuPy."""
    if diff_n != 0:
        if diff_n in (1, 2):
            raise NotImplementedError("sph_harm_y: derivatives (diff_n=1, 2) are not implemented")
        raise ValueError(f"diff_n must be 0, 1 or 2, got {diff_n}")
    return _sph_harm_y(n, m, theta, phi)
