"""The search for NVIDIA's pip-wheel libraries (cuarray._libpaths) and the loader's record of what it loaded."""
import os

import cuarray
from cuarray import _core, _libpaths


def _make(root, *subdirs):
    for d in subdirs:
        os.makedirs(os.path.join(root, "nvidia", d, "lib"))


def test_wheel_dirs_cu13_first_then_per_library_dirs(tmp_path):
    a, b = tmp_path / "site-a", tmp_path / "site-b"
    _make(str(a), "cublas", "cu13", "cuda_nvrtc")
    _make(str(b), "cu12", "cufft")
    os.makedirs(a / "nvidia" / "no_lib_here")
    dirs = _libpaths.nvidia_lib_dirs([str(a), str(tmp_path / "missing"), str(b), str(a)])
    expect = [a / "nvidia" / "cu13" / "lib", a / "nvidia" / "cublas" / "lib", a / "nvidia" / "cuda_nvrtc" / "lib",
              b / "nvidia" / "cu12" / "lib", b / "nvidia" / "cufft" / "lib"]
    assert dirs == [str(p) for p in expect]


def test_no_wheels_gives_no_dirs(tmp_path):
    (tmp_path / "nvidia").write_text("a file, not a folder")
    assert _libpaths.nvidia_lib_dirs([str(tmp_path), str(tmp_path / "absent")]) == []


def test_install_keeps_the_users_dirs_first(tmp_path, monkeypatch):
    _make(str(tmp_path), "cu13")
    wheel = str(tmp_path / "nvidia" / "cu13" / "lib")
    monkeypatch.setenv("CUARRAY_NVIDIA_LIB_DIRS", os.pathsep.join(["/opt/mine", wheel]))
    assert _libpaths.install([str(tmp_path)]) == ["/opt/mine", wheel]
    assert os.environ["CUARRAY_NVIDIA_LIB_DIRS"] == os.pathsep.join(["/opt/mine", wheel])


def test_loaded_libraries_are_listed_with_their_paths():
    assert _core.nvrtc_compile('extern "C" __global__ void k() {}', "k.cu", 80, []) > 0  # loads NVRTC
    loaded = _core.cuda_library_paths()
    assert [p for what, p in loaded if what.startswith("NVRTC")] == [_core.nvrtc_info()[0]]
    assert isinstance(loaded, list)
    for what, path in loaded:
        assert isinstance(what, str) and os.path.isabs(path)
    info = str(cuarray.get_runtime_info())
    assert "NVIDIA Wheel Library Dirs" in info
