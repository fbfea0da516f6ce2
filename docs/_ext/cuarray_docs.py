"""Sphinx extension that writes docs/_generated/ from the code at build time: the API pages, the comparison with NumPy
and CuPy, and the benchmark page with its plots."""
import importlib
import inspect
import json
import os
import sys
import types

import numpy

HERE = os.path.dirname(os.path.abspath(__file__))
DOCS = os.path.dirname(HERE)
ROOT = os.path.dirname(DOCS)
OUT = os.path.join(DOCS, "_generated")

# The namespaces of the API reference, each with one line on what it is.
NAMESPACES = [
    ("cuarray", "NumPy's top level on the GPU, CuPy's extras (custom kernels, fuse, pinned arrays...)."),
    ("cuarray.linalg", "numpy.linalg over cuSOLVER and cuBLAS."),
    ("cuarray.fft", "numpy.fft over cuFFT."),
    ("cuarray.random", "numpy.random: the Generator API and the legacy RandomState API."),
    ("cuarray.cuda", "Devices, streams, events, graphs, the memory pools (CuPy's cupy.cuda)."),
    ("cuarray.cuda.runtime", "Thin wrappers of the CUDA runtime with CuPy's names."),
    ("cuarray.jit", "CUDA kernels written in Python (CuPy's cupyx.jit)."),
    ("cuarray.testing", "NumPy's testing assertions for device arrays and CuPy's test helpers."),
    ("cuarray.profiler", "Timing of GPU code (CuPy's cupyx.profiler)."),
    ("cuarray.scipy.sparse", "scipy.sparse over cuSPARSE."),
    ("cuarray.scipy.sparse.linalg", "scipy.sparse.linalg: iterative and direct solvers, eigensolvers."),
    ("cuarray.scipy.special", "scipy.special's functions as GPU ufuncs."),
    ("cuarray.scipy.ndimage", "scipy.ndimage: filters, interpolation, measurements, morphology."),
    ("cuarray.scipy.signal", "scipy.signal: convolution, filtering, windows..."),
    ("cuarray.scipy.linalg", "scipy.linalg."),
    ("cuarray.scipy.fft", "scipy.fft over cuFFT."),
]

# Members whose docstring is not reStructuredText that Sphinx can read, each with the reason it is left out of the
# API pages (the name is still listed).
EXCLUDED = {}


def _write(path, text):
    """Writes only when the text changed, so that Sphinx's incremental build rereads only what changed."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    old = None
    if os.path.exists(path):
        with open(path) as f:
            old = f.read()
    if old != text:
        with open(path, "w") as f:
            f.write(text)


def _public(mod):
    names = getattr(mod, "__all__", None) or [n for n in dir(mod) if not n.startswith("_")]
    return sorted({n for n in names if hasattr(mod, n)}, key=str.lower)


def _is_ufunc(obj):
    return type(obj).__name__ == "ufunc" and (type(obj).__module__ or "").startswith("cuarray")


def _ours(obj):
    """Defined by cuarray (documented from its docstring), not taken from NumPy or the standard library."""
    mod = getattr(obj, "__module__", None) if isinstance(obj, (type, types.FunctionType)) or callable(obj) else None
    return isinstance(mod, str) and mod.startswith("cuarray")


def _first_line(doc):
    for line in (doc or "").strip().splitlines():
        if line.strip():
            return line.strip()
    return ""


def _rst_escape(text):
    return text.replace("\\", "\\\\").replace("*", "\\*").replace("`", "\\`").replace("|", "\\|").replace("_", "\\_")


def _api_page(modname, blurb):
    mod = importlib.import_module(modname)
    funcs, classes, ufuncs, submodules, foreign = [], [], [], [], []
    for name in _public(mod):
        obj = getattr(mod, name)
        if isinstance(obj, types.ModuleType):
            submodules.append(name)
        elif _is_ufunc(obj):
            ufuncs.append((name, obj))
        elif f"{modname}.{name}" in EXCLUDED:
            foreign.append((name, EXCLUDED[f"{modname}.{name}"]))
        elif isinstance(obj, type) and _ours(obj):
            classes.append(name)
        elif callable(obj) and _ours(obj):
            funcs.append(name)
        else:
            origin = getattr(obj, "__module__", None) if isinstance(obj, type) or callable(obj) else None
            foreign.append((name, f"from ``{origin}``" if origin else f"``{type(obj).__name__}`` value"))
    title = f"``{modname}``"
    lines = [title, "=" * len(title), "", f".. module:: {modname}", "", blurb, ""]
    if submodules:
        lines += ["Submodules: " + ", ".join(f"``{modname}.{s}``" for s in submodules) + ".", ""]
    if classes:
        lines += ["Classes", "-------", ""]
        for name in classes:
            lines += [f".. autoclass:: {modname}.{name}", "   :members:", ""]
    if funcs:
        lines += ["Functions", "---------", ""]
        for name in funcs:
            lines += [f".. autofunction:: {modname}.{name}", ""]
    if ufuncs:
        lines += ["Universal functions", "-------------------", "",
                  "Each is a ufunc object (``__call__``, ``reduce``, ``accumulate``, ``outer``, ``at`` where NumPy "
                  "has them) with NumPy's type rules.", "",
                  ".. list-table::", "   :header-rows: 1", "", "   * - name", "     - inputs", "     - outputs",
                  "     - loops", "     - notes"]
        for name, u in ufuncs:
            doc = _rst_escape(_first_line(getattr(u, "__doc__", None)))
            types_ = getattr(u, "types", None)
            lines += [f"   * - ``{name}``", f"     - {getattr(u, 'nin', '')}", f"     - {getattr(u, 'nout', '')}",
                      f"     - {len(types_) if types_ is not None else ''}", f"     - {doc}"]
        lines.append("")
    if foreign:
        lines += ["Other names", "-----------", "",
                  "Names this namespace takes from NumPy or elsewhere unchanged (documented there), and values.", ""]
        lines += [f"- ``{name}``: {what}" for name, what in foreign]
        lines.append("")
    return "\n".join(lines)


def _api_pages():
    entries = []
    for modname, blurb in NAMESPACES:
        doc = "api_" + modname.replace(".", "_")
        _write(os.path.join(OUT, doc + ".rst"), _api_page(modname, blurb))
        entries.append(doc)
    index = ["API reference", "=============", "",
             "Generated at build time from the package's docstrings and signatures (``docs/_ext/cuarray_docs.py``).",
             "", ".. toctree::", "   :maxdepth: 1", ""] + [f"   {e}" for e in entries]
    _write(os.path.join(OUT, "api.rst"), "\n".join(index) + "\n")


# --- the comparison with NumPy and CuPy -----------------------------------------------------------------------

_SECTIONS = [("", "top level"), ("linalg.", "linalg"), ("fft.", "fft"), ("random.", "random"),
             ("ndarray.", "ndarray attributes")]


def _cupy_names():
    path = os.path.join(ROOT, "tests", "python", "data", "cupy_names.txt")
    with open(path) as f:
        header = [line[1:].strip() for line in f if line.startswith("#")]
    with open(path) as f:
        names = [line.strip() for line in f if line.strip() and not line.startswith("#")]
    return names, header


def _numpy_names():
    names = []
    for prefix, _ in _SECTIONS:
        if prefix == "ndarray.":
            obj = numpy.ndarray
        else:
            obj = getattr(numpy, prefix[:-1]) if prefix else numpy
        names += [prefix + n for n in dir(obj) if not n.startswith("_")]
    return names


def _has(root, dotted):
    obj = root
    for part in dotted.split("."):
        if not hasattr(obj, part):
            return False
        obj = getattr(obj, part)
    return True


def _comparison():
    import cuarray

    cupy, header = _cupy_names()
    cupy_set, numpy_set = set(cupy), set(_numpy_names())
    mark = {True: "yes", False: "—"}
    lines = ["Comparison with NumPy and CuPy", "==============================", "",
             "Generated at build time (``docs/_ext/cuarray_docs.py``): every public name of NumPy "
             f"{numpy.__version__} (the version this build imported) and of CuPy 14.2.0 (the list in "
             "``tests/python/data/cupy_names.txt``, made from CuPy's wheel) in the top level, ``linalg``, ``fft``, "
             "``random`` and the attributes of ``ndarray``, and whether cuarray has it (``hasattr``). Names CuPy keeps "
             "in ``cupyx`` live at cuarray's top level, ``cuarray.scipy``, ``cuarray.jit`` and "
             "``cuarray.profiler``; they are counted in the API reference, not here.", ""]
    summary = [".. list-table:: Counts", "   :header-rows: 1", "", "   * - namespace", "     - NumPy",
               "     - CuPy", "     - cuarray has of NumPy's", "     - cuarray has of CuPy's",
               "     - of the names both have, cuarray lacks"]
    tables = []
    for prefix, label in _SECTIONS:
        sec = sorted({n for n in cupy_set | numpy_set if n.startswith(prefix) and "." not in n[len(prefix):]},
                     key=str.lower)
        np_names = [n for n in sec if n in numpy_set]
        cp_names = [n for n in sec if n in cupy_set]
        has = {n: _has(cuarray, n) for n in sec}
        both_missing = [n for n in sec if n in numpy_set and n in cupy_set and not has[n]]
        summary += [f"   * - {label}", f"     - {len(np_names)}", f"     - {len(cp_names)}",
                    f"     - {sum(has[n] for n in np_names)}", f"     - {sum(has[n] for n in cp_names)}",
                    "     - " + (", ".join(f"``{n}``" for n in both_missing) or "none")]
        title = f"{label}"
        tables += [title, "-" * len(title), "", ".. list-table::", "   :header-rows: 1", "",
                   "   * - name", "     - NumPy", "     - CuPy", "     - cuarray"]
        for n in sec:
            tables += [f"   * - ``{n}``", f"     - {mark[n in numpy_set]}", f"     - {mark[n in cupy_set]}",
                       f"     - {mark[has[n]]}"]
        tables.append("")
    lines += summary + [""] + tables
    lines += ["How the CuPy list was made:", "", "::", ""] + ["   " + h for h in header if h] + [""]
    _write(os.path.join(OUT, "comparison.rst"), "\n".join(lines))


# --- benchmarks -------------------------------------------------------------------------------------------------

def _benchmarks():
    sys.path.insert(0, os.path.join(ROOT, "benchmarks"))
    try:
        import plot
    finally:
        sys.path.pop(0)
    src = os.path.join(ROOT, "benchmarks", "latest_results.json")
    with open(src) as f:
        data = json.load(f)
    from pathlib import Path

    pngs = plot.plot_results(data, Path(OUT) / "bench")
    if not pngs:
        raise RuntimeError("the benchmark plots need matplotlib: pip install matplotlib (or .[docs])")
    m = data["meta"]
    libs = ", ".join(f"{k} {v['version']}" for k, v in m["libraries"].items() if v.get("available"))
    lines = ["Benchmark plots", "===============", "",
             f"Drawn at build time by ``benchmarks/plot.py`` from ``benchmarks/latest_results.json``: the latest "
             f"recorded run of ``benchmarks/run.py`` ({'quick' if m.get('quick') else 'full'} mode, "
             f"{m.get('date', '?')}, commit {m.get('commit', '?')}, {m.get('device', '?')}; {libs}). Times are "
             "medians; every library ran in the same process. Cases where a peer has no equivalent show "
             "cuarray alone.", ""]
    for p in sorted(pngs, key=lambda p: (p.stem != "ratios", p.stem)):
        rel = os.path.relpath(p, OUT)
        lines += [f".. image:: {rel}", f"   :alt: {p.stem}", ""]
    _write(os.path.join(OUT, "benchmark_plots.rst"), "\n".join(lines))


def _drop_signature_line(app, what, name, obj, options, lines):
    """Drops the signature line nanobind puts first in a binding's docstring (``concatenate(arrays: object, ...) ->
    object``): autodoc shows the signature from ``__signature__`` already, and the line is not reStructuredText."""
    names = {name.rsplit(".", 1)[-1], getattr(obj, "__name__", None)}  # an alias (concat) has its target's doc
    while lines and lines[0].split("(", 1)[0] in names and "(" in lines[0] and (lines[0].rstrip().endswith(")") or ") -> " in lines[0]):
        del lines[0]
        while lines and not lines[0].strip():
            del lines[0]


def generate(app):
    _api_pages()
    _comparison()
    _benchmarks()


def setup(app):
    app.connect("builder-inited", generate)
    app.connect("autodoc-process-docstring", _drop_signature_line)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
