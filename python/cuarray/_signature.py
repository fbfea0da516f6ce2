"""inspect.signature for nanobind functions: a __signature__ built from nanobind's __nb_signature__ text."""
import ast
import builtins
import inspect

import numpy

_P = inspect.Parameter


class _DefaultText:
    """A default that is not a Python literal (e.g. a C++ value nanobind rendered): shown as its text."""

    __slots__ = ("text",)

    def __init__(self, text):
        self.text = text

    def __repr__(self):
        return self.text


def _split_top_level(text, sep):
    """Split at `sep` where no bracket or quote is open (type annotations hold commas and '=')."""
    parts, depth, quote, start, i = [], 0, None, 0, 0
    while i < len(text):
        c = text[i]
        if quote:
            if c == "\\":
                i += 1
            elif c == quote:
                quote = None
        elif c in "'\"":
            quote = c
        elif c in "([{<":
            depth += 1
        elif c in ")]}>" and not (c == ">" and text[i - 1:i] == "-"):
            depth -= 1
        elif depth == 0 and text.startswith(sep, i) and (sep != "=" or text[i + 1:i + 2] != "="):
            parts.append(text[start:i])
            start = i + len(sep)
            i = start
            continue
        i += 1
    parts.append(text[start:])
    return parts


def _default_value(text, placeholders):
    text = text.strip()
    if text == "<no value>":  # NumPy's sentinel for "not given", as NumPy's own signatures show it
        return getattr(numpy, "_NoValue", _DefaultText(text))
    if text.startswith("\\") and text[1:].isdigit():
        return placeholders[int(text[1:])]
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        pass
    # A name such as `float` or `numpy.float64` (a dtype default written in nb::sig).
    head, _, rest = text.partition(".")
    obj = getattr(builtins, head, None) if head != "numpy" else numpy
    if obj is not None and head.isidentifier():
        for part in rest.split(".") if rest else ():
            obj = getattr(obj, part, None)
            if obj is None:
                break
        else:
            return obj
    return _DefaultText(text)


def parse(sig_text, placeholders=()):
    """An inspect.Signature from one nanobind signature line ("def f(a: T, b=\\0, *, c=None) -> R")."""
    text = sig_text.strip().splitlines()[-1].strip()
    if text.startswith("def "):
        text = text[4:]
    open_at = text.index("(")
    depth, close_at = 0, -1
    for i in range(open_at, len(text)):
        if text[i] in "([{":
            depth += 1
        elif text[i] in ")]}":
            depth -= 1
            if depth == 0:
                close_at = i
                break
    if close_at < 0:
        raise ValueError("unbalanced signature: " + sig_text)
    params, kind = [], _P.POSITIONAL_OR_KEYWORD
    body = text[open_at + 1:close_at].strip()
    for item in (_split_top_level(body, ",") if body else []):
        item = item.strip()
        if item == "/":
            params = [p.replace(kind=_P.POSITIONAL_ONLY) for p in params]
            continue
        if item == "*":
            kind = _P.KEYWORD_ONLY
            continue
        name_ann, *default = _split_top_level(item, "=")
        name = _split_top_level(name_ann, ":")[0].strip()
        if name.startswith("**"):
            params.append(_P(name[2:], _P.VAR_KEYWORD))
            continue
        if name.startswith("*"):
            params.append(_P(name[1:], _P.VAR_POSITIONAL))
            kind = _P.KEYWORD_ONLY
            continue
        value = _default_value(default[0], placeholders) if default else _P.empty
        params.append(_P(name, kind, default=value))
    return inspect.Signature(params)


def _function_signature(func):
    try:
        overloads = func.__nb_signature__
        if len(overloads) != 1:
            return None  # overloads have no single signature; inspect then reports none
        sig_text, _doc, placeholders = overloads[0]
        return parse(sig_text, placeholders or ())
    except Exception:  # never break inspect (or help()) over a signature nanobind renders unexpectedly
        return None


def _bound_method_signature(method):
    sig = _function_signature(method.__func__)
    if sig is None:
        return None
    return sig.replace(parameters=list(sig.parameters.values())[1:])


_UFUNC_KEYWORDS = (("where", True), ("casting", "same_kind"), ("order", "K"), ("dtype", None), ("subok", True),
                   ("signature", None))


class _UfuncSignature:
    """ufunc.__signature__ as NumPy 2's ufuncs show it; None on the class itself, so inspect reads the class."""

    def __get__(self, ufunc, owner=None):
        if ufunc is None:
            return None
        nin, nout = ufunc.nin, ufunc.nout
        names = ["x"] if nin == 1 else ["x%d" % (i + 1) for i in range(nin)]
        params = [_P(n, _P.POSITIONAL_ONLY) for n in names]
        params.append(_P("out", _P.POSITIONAL_OR_KEYWORD, default=None if nout == 1 else (None,) * nout))
        params += [_P(n, _P.KEYWORD_ONLY, default=d) for n, d in _UFUNC_KEYWORDS]
        return inspect.Signature(params)


def install(core):
    """Give nanobind's function, method and bound-method types a __signature__ property (no per-call cost)."""
    func_type = type(core.is_available)
    method = core.ndarray.__dict__["get"]
    method_type = type(method)
    bound_type = type(method.__get__(object()))
    core._set_type_attr(func_type, "__signature__", property(_function_signature))
    core._set_type_attr(method_type, "__signature__", property(_function_signature))
    core._set_type_attr(bound_type, "__signature__", property(_bound_method_signature))
    core.ufunc.__signature__ = _UfuncSignature()
