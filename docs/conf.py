"""Sphinx configuration of posonly's documentation (MyST Markdown pages).

Build: ``sphinx-build -W -n -b html docs docs/_build/html`` (the test
command builds it so, warnings as errors, in ``tests/test_docs.py``).
"""

import os
import pathlib
import sys

# Both implementations share their docstrings; the pure twin's are plain
# Python, so autodoc reads them whether or not the extension is built.
os.environ["POSONLY_PURE_PYTHON"] = "1"
try:
    import posonly
except ImportError:  # a checkout without an install: the pure package from src/
    sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "src"))
    import posonly

project = "posonly"
author = "the posonly authors"
copyright = "the posonly authors"
release = version = posonly.__version__

extensions = ["myst_parser", "sphinx.ext.autodoc"]
source_suffix = {".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build"]
myst_heading_anchors = 3
myst_enable_extensions = ["colon_fence"]

# Furo, as attrs uses: its content column shows 88 characters of a code
# line (tests/test_docs.py keeps every line of the pages' code within that)
# and wraps a long signature instead of cutting it off.
html_theme = "furo"
html_title = f"posonly {release}"
html_static_path = []

autodoc_member_order = "bysource"
# The signatures as the interpreter shows them; the types are the pure
# twin's annotations, which name private helpers (ParamSpec variables).
autodoc_typehints = "none"
autodoc_default_options = {"members": True}

# No network when the docs are built: references into the standard library
# and to the builtins stay plain text rather than links.
nitpick_ignore_regex = [
    (r"py:.*", r"(inspect|functools|typing|types|ast|collections|unittest)(\..*)?"),
    (r"py:(exc|class|obj|func|data)", r"(TypeError|ValueError|AttributeError|str|int|tuple|dict|object|callable|None|bool)"),
]
