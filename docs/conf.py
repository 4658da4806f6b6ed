"""Sphinx configuration of the verifiedref documentation site.

Build: ``python3 dev.py docs`` (or ``python -m sphinx -W -b html docs docs/_build/html`` in an
environment with the ``docs`` extra); the examples run with ``-b doctest``.  The family pages,
the suites' entries, the algorithm table and the API pages are generated from the registries at
build time by ``_ext/vr_pages.py`` into ``docs/generated/`` (git-ignored).
"""

from __future__ import annotations

import sys
import zlib
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))  # the library of this checkout, before any installed copy
sys.path.insert(0, str(HERE / "_ext"))

import verifiedref  # noqa: E402

project = "verifiedref"
author = "verifiedref developers"
copyright = "2026, verifiedref developers"
version = release = verifiedref.__version__

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "sphinx.ext.intersphinx",
    "sphinx.ext.doctest",
    "sphinx.ext.mathjax",
    "myst_parser",
    "vr_pages",
]
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
exclude_patterns = ["_build", "README.md", "examples"]  # examples: included by the family pages
root_doc = "index"

# Docstrings are Google style (ruff's pydocstyle convention) with reST markup inside.
napoleon_google_docstring = True
napoleon_numpy_docstring = False
napoleon_use_ivar = True  # "Attributes:" as fields: no second entry beside autodoc's members
napoleon_use_rtype = False
autodoc_member_order = "bysource"
autodoc_typehints = "signature"
autodoc_class_signature = "separated"
autodoc_preserve_defaults = True
autodoc_default_options = {"exclude-members": "__init__, __new__"}

# The examples of the family pages and guides are doctest blocks run by `-b doctest`; the
# docstrings' own examples are run by pytest --doctest-modules, not a second time here.
doctest_test_doctest_blocks = ""
doctest_global_setup = "import numpy as np"

myst_enable_extensions = ["colon_fence"]
myst_heading_anchors = 3

# intersphinx: each project's inventory, with an empty local one as the fallback, so that a
# build without network (the gate's) resolves no outside link but stays free of warnings.
_EMPTY_INVENTORY = HERE / "_build" / "empty-objects.inv"
_EMPTY_INVENTORY.parent.mkdir(parents=True, exist_ok=True)
_EMPTY_INVENTORY.write_bytes(
    b"# Sphinx inventory version 2\n# Project: none\n# Version: 0\n"
    b"# The remainder of this file is compressed using zlib.\n" + zlib.compress(b"")
)
intersphinx_mapping = {
    name: (url, (None, str(_EMPTY_INVENTORY)))
    for name, url in {
        "python": "https://docs.python.org/3",
        "numpy": "https://numpy.org/doc/stable",
        "scipy": "https://docs.scipy.org/doc/scipy",
        "torch": "https://docs.pytorch.org/docs/stable",
        "hypothesis": "https://hypothesis.readthedocs.io/en/latest",
    }.items()
}
intersphinx_timeout = 10

html_theme = "pydata_sphinx_theme"
html_title = f"verifiedref {release}"
html_theme_options = {
    "navigation_depth": 2,
    "show_toc_level": 2,
    "secondary_sidebar_items": ["page-toc"],
}
html_static_path = ["_static"]
html_css_files = ["custom.css"]
