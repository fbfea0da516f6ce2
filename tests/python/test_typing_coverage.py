"""Every public name of cuarray's namespaces is visible to a type checker (names made in loops need a declaration)."""
import importlib
import os
import tempfile

import pytest

mypy_api = pytest.importorskip("mypy.api")

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
NAMESPACES = [
    "cuarray", "cuarray.linalg", "cuarray.fft", "cuarray.random", "cuarray.cuda", "cuarray.cuda.runtime",
    "cuarray.cuda.driver", "cuarray.cuda.memory", "cuarray.jit", "cuarray.testing", "cuarray.profiler",
    "cuarray.scipy.sparse", "cuarray.scipy.sparse.linalg", "cuarray.scipy.special", "cuarray.scipy.ndimage",
    "cuarray.scipy.signal", "cuarray.scipy.linalg", "cuarray.scipy.fft",
]


def _public(modname):
    mod = importlib.import_module(modname)
    names = getattr(mod, "__all__", None) or [n for n in dir(mod) if not n.startswith("_")]
    return sorted(n for n in names if hasattr(mod, n))


def test_every_public_name_is_declared_for_type_checkers():
    lines = []
    for i, modname in enumerate(NAMESPACES):
        lines.append(f"import {modname} as m{i}")
        lines += [f"m{i}.{n}" for n in _public(modname)]
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "names.py")
        with open(path, "w") as f:
            f.write("\n".join(lines) + "\n")
        out, err, status = mypy_api.run(["--config-file", os.path.join(ROOT, "pyproject.toml"), "--no-incremental",
                                         "--disable-error-code", "func-returns-value", path])
    missing = [line for line in out.splitlines() if ": error:" in line]
    assert status == 0 and not missing, "\n".join(missing[:30]) + err
