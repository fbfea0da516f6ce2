"""Sphinx configuration of cuarray's documentation (build: bash tools/build_docs.sh; warnings are errors)."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(HERE, "_ext"))
# The package from the build tree (PYTHONPATH=build/python, as tools/build_docs.sh sets), else an installed one.
if os.path.isdir(os.path.join(ROOT, "build", "python", "cuarray")):
    sys.path.insert(0, os.path.join(ROOT, "build", "python"))

project = "cuarray"
author = "the cuarray authors"
copyright = "the cuarray authors, BSD-3-Clause"  # noqa: A001 - Sphinx's name
import cuarray  # noqa: E402

release = version = cuarray.__version__

extensions = ["sphinx.ext.autodoc", "myst_parser", "cuarray_docs"]
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
exclude_patterns = ["_build"]
myst_heading_anchors = 3
autodoc_default_options = {"member-order": "bysource"}
# Signatures as the functions declare them; the stubs' types are mostly `object` for the bindings.
autodoc_typehints = "none"
html_theme = "alabaster"
html_static_path = []
html_theme_options = {"page_width": "1150px", "sidebar_width": "250px"}
# No network during the build: no intersphinx, no remote images.
