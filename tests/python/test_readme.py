"""The README's Python tour runs as written (its blocks in order, in one namespace) on the GPU."""
import linecache
import pathlib
import re

import pytest

README = pathlib.Path(__file__).resolve().parents[2] / "README.md"


def _python_blocks():
    return re.findall(r"```python\n(.*?)```", README.read_text(), flags=re.S)


def test_readme_has_python_tour():
    blocks = _python_blocks()
    assert blocks, "README.md lost its Python tour"
    for b in blocks:
        compile(b, "<README.md>", "exec")  # at least valid Python everywhere


@pytest.mark.gpu
@pytest.mark.no_leak_check
def test_readme_python_tour_runs():
    pytest.importorskip("torch")  # the tour shows DLPack exchange with PyTorch
    pytest.importorskip("scipy")  # cuarray.scipy.sparse construction helpers use SciPy's conventions
    import cuarray
    namespace = {"__name__": "readme_tour"}
    pool = cuarray.get_default_memory_pool()
    try:
        for i, block in enumerate(_python_blocks()):
            # cuarray.jit reads a kernel's source through inspect, so each block gets a linecache entry
            # under a name that is no file (the real README.md's line numbers differ from the block's).
            name = "<README.md python block {}>".format(i)
            linecache.cache[name] = (len(block), None, block.splitlines(True), name)
            exec(compile(block, name, "exec"), namespace)
        cuarray.cuda.Device().synchronize()
    finally:
        pool.set_limit(size=0)  # the tour sets a 2 GiB limit; later tests in this process must not inherit it
