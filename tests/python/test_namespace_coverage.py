"""Every public name NumPy and CuPy 14.2 share exists in cuarray (names only: runs without a GPU and without CuPy)."""
import importlib
import pathlib

import numpy
import pytest

import cuarray

# CuPy's names, generated once from the CuPy 14.2 wheel (how: the file's header).
_CUPY_NAMES = pathlib.Path(__file__).parent / "data" / "cupy_names.txt"

# Names NumPy and CuPy share that cuarray leaves out on purpose, each with its reason (also in README.md's
# differences section). Empty: everything shared is provided.
EXCEPTIONS = {}


_MISSING = object()


def _cupy_names():
    lines = _CUPY_NAMES.read_text().splitlines()
    return [line.strip() for line in lines if line.strip() and not line.startswith("#")]


def _lookup(root, dotted):
    """The object at `dotted` under module `root`, importing submodules on the way (``cupy.testing`` exists after
    ``import cupy``; a cuarray submodule counts too when ``import cuarray.NAME`` works); _MISSING if absent
    (a name may hold None: ``newaxis``)."""
    obj = root
    path = root.__name__
    for part in dotted.split("."):
        path = f"{path}.{part}"
        if hasattr(obj, part):
            obj = getattr(obj, part)
            continue
        if not isinstance(obj, type(numpy)):
            return _MISSING
        try:
            obj = importlib.import_module(path)
        except ImportError:
            return _MISSING
    return obj


def _has(root, dotted):
    obj = root
    for part in dotted.split("."):
        obj = getattr(obj, part, _MISSING)
        if obj is _MISSING:
            return False
    return True


def shared_names():
    """CuPy's names that NumPy also has (top level, linalg, fft, random, ndarray attributes)."""
    return [name for name in _cupy_names() if _has(numpy, name)]


def missing_names():
    return sorted(name for name in shared_names() if _lookup(cuarray, name) is _MISSING)


def test_cupy_name_list_is_present_and_plausible():
    names = _cupy_names()
    # A truncated or regenerated-wrong file would make the coverage test pass vacuously.
    assert len(names) > 600
    for name in ("ndarray", "asarray", "linalg.solve", "fft.fft", "random.normal", "ndarray.get", "ElementwiseKernel"):
        assert name in names
    assert len(shared_names()) > 400


def test_exceptions_are_still_missing_and_documented():
    readme = (pathlib.Path(__file__).parents[2] / "README.md").read_text()
    for name, reason in EXCEPTIONS.items():
        assert reason, name
        assert name in shared_names(), f"{name} is no longer shared by NumPy and CuPy: drop the exception"
        assert _lookup(cuarray, name) is _MISSING, f"cuarray has {name} now: drop the exception"
        assert f"`{name}`" in readme, f"README.md's differences section does not explain {name}"


def test_every_name_numpy_and_cupy_share_exists():
    missing = [name for name in missing_names() if name not in EXCEPTIONS]
    assert not missing, f"{len(missing)} names NumPy and CuPy 14.2 share are missing from cuarray: {missing}"


@pytest.mark.parametrize("dotted", ["asarray", "linalg.solve", "fft.fft", "ndarray.get", "lib.stride_tricks",
                                    "exceptions.AxisError", "typing.NDArray"])
def test_lookup_finds_existing_names(dotted):
    assert _lookup(cuarray, dotted) is not _MISSING


def test_lookup_reports_absent_names():
    assert _lookup(cuarray, "no_such_name_anywhere") is _MISSING
    assert _lookup(cuarray, "linalg.no_such_function") is _MISSING
    assert _lookup(cuarray, "ndarray.no_such_method") is _MISSING
    assert _lookup(cuarray, "newaxis") is None  # present, and None
