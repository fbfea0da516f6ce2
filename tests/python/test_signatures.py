"""cuarray's public functions and ndarray methods show and accept NumPy's signatures (issue 15, item 3).

The CPU tests compare ``inspect.signature`` of every public callable of cuarray's namespaces that NumPy also has
with NumPy's: parameter names, kinds, order and defaults. Differences must be listed in DOCUMENTED with a reason;
an undocumented difference fails, and so does a documented one that no longer exists. GPU tests call the
functions with NumPy's positional order and None defaults.
"""
import inspect

import numpy
import pytest

import cuarray as cp

gpu = pytest.mark.gpu

_NOVALUE = getattr(numpy, "_NoValue", object())

# Each entry: the differences from NumPy's signature that cuarray keeps, and why.
#   missing: NumPy's parameters cuarray lacks; extra: cuarray's parameters NumPy lacks;
#   changed: parameters both have whose kind or default differ; order: the shared parameters' order differs.
# Keys are "name", "linalg.name", "fft.name", "random.name", "ndarray.name".
_LIKE = "NEP 35 like= creates arrays of another library; cuarray's creation functions make only cuarray arrays"
_BLOCKING = "CuPy's blocking= (whether the host-to-device copy waits)"
_KWARGS = ("NumPy's C method takes these through **kwargs; cuarray names them (same call forms, NumPy's "
           "documented defaults)")
_MODE = ("mode=None is CuPy's default (out-of-range indices wrap): 'raise' needs a device-to-host check on every "
         "call; CUARRAY_CHECK_INDEX=1 raises, and mode='raise' is taken")
DOCUMENTED = {
    "array": ({"missing": ["like", "ndmax", "object"], "extra": ["blocking", "obj"],
               "changed": ["copy", "ndmin", "order", "subok"]},
              "CuPy's signature: obj, copy..ndmin positional, blocking=; " + _LIKE + "; ndmax (NumPy 2.4) limits "
              "the depth of nested-sequence discovery, which cuarray leaves to numpy.asarray"),
    "asarray": ({"missing": ["like"], "extra": ["blocking"]}, _LIKE + "; " + _BLOCKING),
    "asanyarray": ({"missing": ["copy", "device", "like"], "extra": ["blocking"]},
                   _LIKE + "; " + _BLOCKING + "; copy=/device= are not taken by asanyarray yet"),
    "ascontiguousarray": ({"missing": ["like"]}, _LIKE),
    "asfortranarray": ({"missing": ["like"]}, _LIKE),
    "empty": ({"missing": ["like"]}, _LIKE),
    "zeros": ({"missing": ["like"]}, _LIKE),
    "ones": ({"missing": ["like"]}, _LIKE),
    "full": ({"missing": ["like"]}, _LIKE),
    "eye": ({"missing": ["like"]}, _LIKE),
    "identity": ({"missing": ["like"]}, _LIKE),
    "frombuffer": ({"missing": ["like"]}, _LIKE),
    "fromfile": ({"missing": ["like"]}, _LIKE),
    "fromiter": ({"missing": ["like"]}, _LIKE),
    "arange": ({"missing": ["like", "start_or_stop"], "extra": ["start"], "changed": ["dtype", "step"]},
               "CuPy's arange(start, stop=None, step=None, dtype=None): start is a keyword too (NumPy's C "
               "function also takes start=), step=None means 1, dtype positional; " + _LIKE),
    "empty_like": ({"missing": ["prototype"], "extra": ["a"]},
                   "CuPy's name a (zeros_like/ones_like/full_like call it a in NumPy too)"),
    "reshape": ({"extra": ["newshape"], "changed": ["a", "shape"]},
                "NumPy < 2.4's newshape= alias is still taken (CuPy programs pass it), so shape has a default "
                "and a is not positional-only"),
    "clip": ({"missing": ["kwargs"]},
             "NumPy forwards ufunc keywords (where, casting, dtype...) through **kwargs; cuarray's clip takes none"),
    "einsum": ({"missing": ["kwargs"], "extra": ["casting", "dtype", "order"]},
               "NumPy's Python einsum forwards dtype, order and casting through **kwargs; cuarray names them"),
    "seterr": ({"extra": ["linalg"]}, "CuPy's linalg= error mode for cuSOLVER info checks"),
    "take": ({"changed": ["mode"]}, _MODE),
    "put": ({"changed": ["mode"]}, _MODE),
    "ndarray.take": ({"changed": ["indices", "mode"]}, _MODE + "; indices also by keyword"),
    "ndarray.put": ({"changed": ["indices", "mode", "values"]}, _MODE + "; indices and values also by keyword"),
    "ndarray.dot": ({"missing": ["other"], "extra": ["b"]},
                    "CuPy's name b (NumPy's other is positional-only, so NumPy code never names it)"),
    "ndarray.view": ({"missing": ["args", "kwargs"], "extra": ["dtype"]},
                     "NumPy's view(dtype, type): cuarray has no ndarray subclasses, so only dtype"),
    "ndarray.sum": ({"missing": ["kwargs"], "extra": ["initial", "keepdims", "where"]}, _KWARGS),
    "ndarray.prod": ({"missing": ["kwargs"], "extra": ["initial", "keepdims", "where"]}, _KWARGS),
    "ndarray.max": ({"missing": ["kwargs"], "extra": ["initial", "keepdims", "where"]}, _KWARGS),
    "ndarray.min": ({"missing": ["kwargs"], "extra": ["initial", "keepdims", "where"]}, _KWARGS),
    "ndarray.mean": ({"missing": ["kwargs"], "extra": ["keepdims", "where"]}, _KWARGS),
    "ndarray.std": ({"missing": ["kwargs"], "extra": ["correction", "keepdims", "mean", "where"]}, _KWARGS),
    "ndarray.var": ({"missing": ["kwargs"], "extra": ["correction", "keepdims", "mean", "where"]}, _KWARGS),
    "fft.fftfreq": ({"extra": ["dtype"]}, "the Array API 2024.12's dtype= (issue 15 item 2)"),
    "fft.rfftfreq": ({"extra": ["dtype"]}, "the Array API 2024.12's dtype= (issue 15 item 2)"),
    "random.rand": ({"missing": ["args"], "extra": ["dtype", "size"]}, "CuPy's rand(*size, dtype=float)"),
    "random.randn": ({"missing": ["args"], "extra": ["dtype", "size"]}, "CuPy's randn(*size, dtype=float)"),
    "random.ranf": ({"missing": ["args", "kwargs"], "extra": ["dtype", "size"]},
                    "NumPy's alias forwards *args, **kwargs to random_sample; cuarray shows random_sample's "
                    "parameters (with CuPy's dtype=)"),
    "random.sample": ({"missing": ["args", "kwargs"], "extra": ["dtype", "size"]},
                      "NumPy's alias forwards *args, **kwargs to random_sample; cuarray shows random_sample's "
                      "parameters (with CuPy's dtype=)"),
    "random.multivariate_normal": ({"extra": ["dtype", "method"]},
                                   "CuPy's dtype= and method= (NumPy's Generator has method=)"),
}

# cuarray follows the newest NumPy; differences that exist only with some NumPy versions are listed here as
# (predicate on the installed NumPy's version, key, entry) and join DOCUMENTED where the predicate holds.
_NUMPY_VERSION = numpy.lib.NumpyVersion(numpy.__version__)
_BEFORE_2_5 = "NumPy 2.5's descending= (also the Array API's keyword), which NumPy < 2.5 lacks"
VERSIONED = [
    (lambda v: v < "2.5.0", "sort", ({"extra": ["descending"]}, _BEFORE_2_5)),
    (lambda v: v < "2.5.0", "argsort", ({"extra": ["descending"]}, _BEFORE_2_5)),
    (lambda v: v < "2.5.0", "ndarray.sort", ({"extra": ["descending"]}, _BEFORE_2_5)),
    (lambda v: v < "2.5.0", "ndarray.argsort", ({"extra": ["descending"]}, _BEFORE_2_5)),
    # NumPy < 2.5's fromstring shows no signature, so there is nothing to compare with there.
    (lambda v: v >= "2.5.0", "fromstring", ({"missing": ["like"]}, _LIKE)),
]
for _applies, _key, _entry in VERSIONED:
    assert _key not in DOCUMENTED, _key  # one entry per key: a versioned one replaces, never shadows, another
    if _applies(_NUMPY_VERSION):
        DOCUMENTED[_key] = _entry

# CuPy's RandomState methods (and so cuarray.random's module functions) take dtype= after NumPy's parameters.
_RANDOM_DTYPE = (
    "beta", "binomial", "chisquare", "exponential", "f", "gamma", "geometric", "gumbel", "hypergeometric", "laplace",
    "logistic", "lognormal", "logseries", "negative_binomial", "noncentral_chisquare", "noncentral_f", "normal",
    "pareto", "poisson", "power", "random", "random_sample", "rayleigh", "standard_cauchy", "standard_exponential",
    "standard_gamma", "standard_normal", "standard_t", "triangular", "uniform", "vonmises", "wald", "weibull", "zipf")
for _name in _RANDOM_DTYPE:
    DOCUMENTED["random." + _name] = ({"extra": ["dtype"]}, "CuPy's dtype= (the result's float or integer type)")

# NumPy's positional-only parameters ("x, /") that cuarray also accepts by keyword: every NumPy call works, and
# nanobind has no positional-only parameters short of unnamed ones, which would show no names. The difference
# recorded is exactly those parameters' kinds.
_KEYWORD_ALSO = (
    "bincount", "concat", "concatenate", "cumulative_prod", "cumulative_sum", "from_dlpack", "inner",
    "matrix_transpose", "putmask", "unstack", "vdot", "linalg.cholesky", "linalg.cross", "linalg.diagonal",
    "linalg.matmul", "linalg.matrix_norm", "linalg.matrix_transpose", "linalg.outer", "linalg.svdvals",
    "linalg.tensordot", "linalg.trace", "linalg.vecdot", "linalg.vector_norm", "ndarray.argpartition",
    "ndarray.partition", "ndarray.repeat", "ndarray.searchsorted", "ndarray.swapaxes", "ndarray.tofile")


def _numpy_positional_only(key):
    space, _, name = key.rpartition(".")
    owner = {"": numpy, "linalg": numpy.linalg, "fft": numpy.fft, "random": numpy.random,
             "ndarray": numpy.ndarray}[space]
    params = list(inspect.signature(getattr(owner, name)).parameters.values())[1 if space == "ndarray" else 0:]
    return sorted(p.name for p in params if p.kind == inspect.Parameter.POSITIONAL_ONLY)


for _key in _KEYWORD_ALSO:
    DOCUMENTED[_key] = ({"changed": _numpy_positional_only(_key)},
                        "NumPy's positional-only parameters, which cuarray also takes by keyword")


def _norm_default(value):
    return _NOVALUE if value is _NOVALUE else value


def _same_default(cu, np_):
    """NumPy's _NoValue means "not given": any cuarray default stands for it (False for keepdims, ...)."""
    if np_ is _NOVALUE:
        return cu is not inspect.Parameter.empty
    if cu is inspect.Parameter.empty or np_ is inspect.Parameter.empty:
        return cu is np_
    try:
        return type(cu) is type(np_) and bool(cu == np_)
    except Exception:
        return False


def signature_difference(cu_sig, np_sig, drop_self=False):
    """The difference between two signatures as a dict (empty when they agree); see DOCUMENTED."""
    cu_params = list(cu_sig.parameters.values())
    np_params = list(np_sig.parameters.values())
    if drop_self:
        cu_params, np_params = cu_params[1:], np_params[1:]
    cu_by, np_by = {p.name: p for p in cu_params}, {p.name: p for p in np_params}
    diff = {}
    missing = sorted(set(np_by) - set(cu_by))
    extra = sorted(set(cu_by) - set(np_by))
    changed = sorted(n for n in set(cu_by) & set(np_by)
                     if cu_by[n].kind != np_by[n].kind or not _same_default(cu_by[n].default, np_by[n].default))
    if missing:
        diff["missing"] = missing
    if extra:
        diff["extra"] = extra
    if changed:
        diff["changed"] = changed
    if [p.name for p in cu_params if p.name in np_by] != [p.name for p in np_params if p.name in cu_by]:
        diff["order"] = True
    return diff


def _signature(f):
    try:
        return inspect.signature(f)
    except (ValueError, TypeError):
        return None


def _pairs():
    """(key, cuarray callable, NumPy callable, is_method) for every public callable both libraries have."""
    spaces = [("", cp, numpy), ("linalg.", cp.linalg, numpy.linalg), ("fft.", cp.fft, numpy.fft),
              ("random.", cp.random, numpy.random)]
    for prefix, cu_mod, np_mod in spaces:
        for name in sorted(dir(cu_mod)):
            if name.startswith("_") or not hasattr(np_mod, name):
                continue
            cu_f, np_f = getattr(cu_mod, name), getattr(np_mod, name)
            if cu_f is np_f or isinstance(cu_f, type) or isinstance(np_f, type) or not callable(cu_f):
                continue
            if isinstance(cu_f, cp.ufunc) or isinstance(np_f, numpy.ufunc):
                continue  # test_ufunc_signatures
            yield prefix + name, cu_f, np_f, False
    for name in sorted(dir(cp.ndarray)):
        if name.startswith("_") or not hasattr(numpy.ndarray, name):
            continue
        cu_f, np_f = getattr(cp.ndarray, name), getattr(numpy.ndarray, name)
        if callable(cu_f) and callable(np_f) and not isinstance(cu_f, type):
            yield "ndarray." + name, cu_f, np_f, True


def all_differences():
    """{key: (difference, "cuarray: ... numpy: ...")} for every pair whose signatures differ."""
    out = {}
    for key, cu_f, np_f, is_method in _pairs():
        np_sig = _signature(np_f)
        if np_sig is None:
            continue  # NumPy shows no signature (e.g. numpy.fromstring): nothing to compare with
        cu_sig = _signature(cu_f)
        if cu_sig is None:
            out[key] = ({"no_signature": True}, "cuarray: none, numpy: %s" % np_sig)
            continue
        diff = signature_difference(cu_sig, np_sig, drop_self=is_method)
        if diff:
            out[key] = (diff, "cuarray: %s  numpy: %s" % (cu_sig, np_sig))
    return out


def test_every_public_callable_has_a_signature():
    missing = [key for key, cu_f, np_f, _ in _pairs() if _signature(np_f) is not None and _signature(cu_f) is None]
    assert missing == []


def test_signatures_match_numpy_or_are_documented():
    actual = all_differences()
    problems = []
    for key, (diff, text) in sorted(actual.items()):
        documented = DOCUMENTED.get(key, ({}, ""))[0]
        if diff != documented:
            problems.append("%s: difference %r, documented %r (%s)" % (key, diff, documented, text))
    for key in sorted(set(DOCUMENTED) - set(actual)):
        if any(k == key for k, *_ in _pairs()):
            problems.append("%s: documented difference %r no longer exists" % (key, DOCUMENTED[key][0]))
        else:
            problems.append("%s: documented, but cuarray or NumPy no longer has it" % key)
    assert problems == [], "\n".join(problems)


def test_documented_differences_give_reasons():
    entries = list(DOCUMENTED.items()) + [(key, entry) for _, key, entry in VERSIONED]
    for key, (diff, reason) in entries:
        assert diff and set(diff) <= {"missing", "extra", "changed", "order"}, key
        assert isinstance(reason, str) and len(reason) > 10, key


def test_versioned_entries_apply_by_numpy_version():
    """Each versioned entry is in DOCUMENTED exactly when its predicate holds for the installed NumPy."""
    for applies, key, entry in VERSIONED:
        assert (DOCUMENTED.get(key) is entry) == bool(applies(_NUMPY_VERSION)), key
    sort_applies = next(applies for applies, key, _ in VERSIONED if key == "sort")
    assert [sort_applies(numpy.lib.NumpyVersion(v)) for v in ("2.4.6", "2.5.0", "2.5.2")] == [True, False, False]


def test_ufunc_signatures():
    """cuarray's ufuncs show NumPy's ufunc call signature, as NumPy 2's ufuncs do."""
    names = [n for n in cp._core.ufunc_names() if isinstance(getattr(numpy, n, None), numpy.ufunc)]
    assert len(names) > 50
    for name in names:
        cu_sig, np_sig = inspect.signature(getattr(cp, name)), inspect.signature(getattr(numpy, name))
        assert signature_difference(cu_sig, np_sig) == {}, (name, str(cu_sig), str(np_sig))


def test_signature_difference_detects_each_kind():
    def f(a, b=1, *, c=None):
        pass

    def g(b=2, a=None, d=0):
        pass

    assert signature_difference(inspect.signature(f), inspect.signature(f)) == {}
    assert signature_difference(inspect.signature(g), inspect.signature(f)) == {
        "missing": ["c"], "extra": ["d"], "changed": ["a", "b"], "order": True}


def test_nanobind_signature_text_is_parsed():
    from cuarray import _signature
    sig = _signature.parse("def f(a: object, /, b: object | None = \\0, *, c: dict[str, int] = {'x': 1}, "
                           "d=float, e=(-2, -1)) -> tuple[int, int]", (None,))
    assert str(sig) == "(a, /, b=None, *, c={'x': 1}, d=<class 'float'>, e=(-2, -1))"
    sig = _signature.parse("def g(*args, **kwargs) -> object")
    assert [p.kind for p in sig.parameters.values()] == [inspect.Parameter.VAR_POSITIONAL,
                                                          inspect.Parameter.VAR_KEYWORD]


def test_bound_method_signature_drops_self():
    assert list(inspect.signature(cp.ndarray.sum).parameters)[0] == "self"
    bound = cp.ndarray.__dict__["sum"].__get__(object())
    assert list(inspect.signature(bound).parameters)[:2] == ["axis", "dtype"]


def test_help_shows_numpy_parameters():
    import pydoc
    import re
    text = pydoc.render_doc(cp.max, renderer=pydoc.plaintext)
    # nanobind's docstring line may carry type annotations; the names and their order are NumPy's.
    assert re.search(r"max\(a\b[^,]*, axis\b[^,]*, out\b[^,]*, keepdims\b[^,]*, initial\b[^,]*, where\b", text), text
    text = pydoc.render_doc(cp.ndarray.reshape, renderer=pydoc.plaintext)
    assert "reshape(self, /, *shape, order='C', copy=None)" in text, text


# ---- the positional order and None defaults are accepted (device) ----

@gpu
def test_reductions_take_numpy_positional_order():
    x = numpy.arange(12.0).reshape(3, 4)
    a = cp.asarray(x)
    for name in ("max", "min", "amax", "amin", "nanmax", "nanmin", "all", "any"):
        got = getattr(cp, name)(a, 0, None, True)
        want = getattr(numpy, name)(x, 0, None, True)
        assert got.shape == want.shape == (1, 4), name
        numpy.testing.assert_array_equal(got.get(), want)
    for name in ("sum", "prod", "mean", "nansum", "nanprod", "nanmean"):
        got = getattr(cp, name)(a, 1, None, None, True)
        want = getattr(numpy, name)(x, 1, None, None, True)
        assert got.shape == want.shape == (3, 1), name
        numpy.testing.assert_allclose(got.get(), want)
    for name in ("std", "var", "nanstd", "nanvar"):
        got = getattr(cp, name)(a, 0, None, None, 1, True)
        want = getattr(numpy, name)(x, 0, None, None, 1, True)
        numpy.testing.assert_allclose(got.get(), want)
    numpy.testing.assert_array_equal(a.max(0, None, True).get(), x.max(0, None, True))
    numpy.testing.assert_array_equal(a.sum(0, None, None, True).get(), x.sum(0, None, None, True))
    numpy.testing.assert_array_equal(cp.ptp(a, 1, None, True).get(), numpy.ptp(x, 1, None, True))
    numpy.testing.assert_array_equal(cp.argmax(a, 1, None).get(), numpy.argmax(x, 1, None))


@gpu
def test_creation_takes_none_defaults_and_positional_order():
    for f in (cp.zeros, cp.ones, cp.empty):
        assert f(3, None, None).shape == (3,)
        b = f((2,), float, order=None)
        assert b.shape == (2,) and b.dtype == numpy.float64
        assert f((2, 3), None, "F").flags.f_contiguous
    numpy.testing.assert_array_equal(cp.full((2,), 7, None, None).get(), numpy.full((2,), 7))
    base = cp.arange(6).reshape(2, 3)
    for f in (cp.zeros_like, cp.ones_like, cp.empty_like):
        c = f(base, None, None, True, None)
        assert c.shape == (2, 3) and c.dtype == base.dtype
    numpy.testing.assert_array_equal(cp.full_like(base, 5, None, "K", True, None).get(), numpy.full((2, 3), 5))
