"""Writes the type stubs of cuarray._core with nanobind's stubgen (run by tools/gen_stubs.sh), fixed up for type checkers.

Usage: python3 tools/gen_stubs.py OUTDIR   (with build/python on PYTHONPATH). Writes OUTDIR/_core/*.pyi (the
extension and its submodules fft, linalg, sparse...), OUTDIR/_ufunc_names.pyi and OUTDIR/cuda/_device_attributes.pyi.
"""
import os
import re
import sys
import types

import cuarray
from cuarray import _core
from nanobind.stubgen import main as stubgen_main

HERE = os.path.dirname(os.path.abspath(__file__))


def _own_python_members():
    """Python functions that cuarray attaches to the extension's classes are rendered inline, not as imports.

    stubgen writes a member whose function comes from another module as ``from mod import f as member`` at the top of
    the stub, which declares a module-level name instead of a method (and a lambda becomes ``<lambda>``, not
    Python). Renaming each function to its member and module makes stubgen render it as a method from its signature.
    cuarray also sets ``ndarray.__module__ = "cuarray"`` (for repr and pickling), which would make stubgen import the
    class from the package instead of declaring it.
    """
    _core.ndarray.__module__ = "cuarray._core"
    for cls in vars(_core).values():
        if not isinstance(cls, type):
            continue
        for name, member in list(vars(cls).items()):
            funcs = [member.fget, member.fset] if isinstance(member, property) else [member]
            for f in funcs:
                if isinstance(f, (staticmethod, classmethod)):
                    f = f.__func__
                if isinstance(f, types.FunctionType):
                    f.__module__ = "cuarray._core"
                    f.__name__ = name
                    f.__qualname__ = f"{cls.__name__}.{name}"


# A binding that returns nb::object declares ``-> object``, which a type checker takes literally (``a.T.copy()`` would
# be an error); the returned value's type is only known at run time, which is what ``Any`` says.
_RETURN_OBJECT = re.compile(r"\) -> object:")
# Properties bound with free functions (nb::prop_rw over lambdas taking the object) come out as static methods.
_STATIC_GETTER = re.compile(r"@property\n(\s*)@staticmethod\n\s*def (\w+)\(arg: (\w+), /\)")
_STATIC_SETTER = re.compile(r"@(\w+)\.setter\n(\s*)@staticmethod\n\s*def (\w+)\(arg0: \w+, arg1: (\w+), /\)")


# A default that stubgen can only show by its repr (NumPy's ``<no value>`` sentinel) is not Python: ``...`` is.
_REPR_DEFAULT = re.compile(r"=<[^<>]*>")


def _fix(text):
    text = _RETURN_OBJECT.sub(") -> Any:", text)
    text = _REPR_DEFAULT.sub("=...", text)
    text = _STATIC_GETTER.sub(lambda m: f"@property\n{m.group(1)}def {m.group(2)}(self)", text)
    text = _STATIC_SETTER.sub(lambda m: f"@{m.group(1)}.setter\n{m.group(2)}def {m.group(3)}(self, value: {m.group(4)}, /)",
                              text)
    if re.search(r"\bAny\b", text) and not re.search(r"^from typing import .*\bAny\b", text, re.M):
        # After the module docstring, before the first import: stubgen imports Any only where it used it.
        head, sep, rest = text.partition('"""\n\n')
        text = head + sep + "from typing import Any\n" + rest if sep else "from typing import Any\n" + text
    return text


def _ufunc_names_stub():
    names = sorted(_core.ufunc_names())
    lines = ['"""The universal functions that cuarray/__init__.py creates in a loop, named for type checkers '
             '(tools/gen_stubs.py)."""', "", "from cuarray._core import ufunc", ""]
    lines += [f"{n}: ufunc" for n in names]
    return "\n".join(lines) + "\n"


def _device_attributes_stub():
    from cuarray.cuda import runtime
    lines = ['"""The cudaDevAttr* constants that cuarray/cuda/runtime.py makes in a loop, named for type checkers '
             '(tools/gen_stubs.py)."""', ""]
    lines += [f"cudaDevAttr{n}: int" for n in runtime._DEVICE_ATTRIBUTES]
    return "\n".join(lines) + "\n"


def main(outdir):
    _own_python_members()
    stubgen_main(["-q", "-m", "cuarray._core", "-r", "-P", "-p", os.path.join(HERE, "stubgen_patterns.txt"),
                  "-O", outdir])
    for root, _, files in os.walk(os.path.join(outdir, "_core")):
        for f in files:
            path = os.path.join(root, f)
            with open(path) as fh:
                text = _fix(fh.read())
            with open(path, "w") as fh:
                fh.write(text)
    with open(os.path.join(outdir, "_ufunc_names.pyi"), "w") as fh:
        fh.write(_ufunc_names_stub())
    os.makedirs(os.path.join(outdir, "cuda"), exist_ok=True)
    with open(os.path.join(outdir, "cuda", "_device_attributes.pyi"), "w") as fh:
        fh.write(_device_attributes_stub())


if __name__ == "__main__":
    assert cuarray  # imported first: it attaches the Python members that _own_python_members renames
    main(sys.argv[1])
