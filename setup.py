"""Build the compiled binder when possible; fall back to the pure twin.

Only these environment switches of the project's own change the build (a
generic variable such as ``CI``, which every hosted CI sets, changes
nothing: a user's ``pip install`` behaves the same there as anywhere):

  POSONLY_PURE_PYTHON=1        build no extension (also the run-time switch);
                               the wheel is then the pure py3-none-any one
  POSONLY_REQUIRE_EXTENSION=1  a failed build is an error, never a fallback,
                               and gcc or clang compile with -Werror (the
                               project's own test and release scripts set it)
  POSONLY_DEBUG_BUILD=1        -O0 -g with C asserts on
  POSONLY_SANITIZE=1           AddressSanitizer and UndefinedBehaviorSanitizer
  POSONLY_ANNOTATE=1           write the annotated HTML beside each source file
                               (src/posonly/_bind.html, _binder.html, ...)

An editable or in-place build (``pip install -e .``, ``setup.py develop``,
``build_ext --inplace``) puts the extensions beside their sources, where a
compiled module is imported before a ``.py`` file of the same name: it
compiles no ``posonly._options`` there, so that module runs from its source
and an edit to ``_options.py`` is never hidden by an older build of it.
(``_bind`` has no ``.py`` to hide: edits to ``.pyx``, ``.pxi`` and ``.h``
files need a rebuild, as ever.)

The module does not declare itself free-threading compatible: on a
free-threaded interpreter importing it turns the GIL back on (see
docs/free-threading.md).
"""

import os
import sys

from setuptools import setup


def _flag(name):
    return os.environ.get(name, "").lower() in ("1", "true", "yes")


def _in_place():
    """Whether this build puts the extensions beside their sources."""
    commands = sys.argv[1:]
    return (
        "editable_wheel" in commands  # PEP 660's build_editable (pip install -e .)
        or "develop" in commands
        or ("build_ext" in commands and ("--inplace" in commands or "-i" in commands))
    )


def _extensions():
    if _flag("POSONLY_PURE_PYTHON") or sys.implementation.name != "cpython":
        print("posonly: building the pure-Python package only")
        return []
    required = _flag("POSONLY_REQUIRE_EXTENSION")
    try:
        from Cython.Build import cythonize
    except ImportError:
        if required:
            raise
        print("posonly: Cython is not available; the pure-Python binder will be used")
        return []
    from setuptools import Extension

    compile_args = []
    link_args = []
    # gcc's and clang's flags; MSVC gets its defaults.
    if sys.platform != "win32":
        compile_args.append("-Wall")
        if required:
            compile_args.append("-Werror")
        if _flag("POSONLY_DEBUG_BUILD"):
            compile_args += ["-O0", "-g", "-UNDEBUG"]
        if _flag("POSONLY_SANITIZE"):
            sanitize = ["-fsanitize=address,undefined", "-fno-omit-frame-pointer"]
            compile_args += sanitize + ["-g", "-UNDEBUG"]
            link_args += sanitize
    # The product's one module: _bind.pyx includes its .pxi files and C
    # headers, which are found beside it.  Beside it, the bench's C floor
    # (bench/_floor.pyx), which reuses the binder's header.
    source_dir = os.path.join("src", "posonly")
    bench_dir = os.path.join(source_dir, "bench")
    headers = sorted(
        os.path.join(source_dir, name)
        for name in os.listdir(source_dir)
        if name.endswith((".pxi", ".pxd", ".h"))
    )
    extension = Extension(
        "posonly._bind",
        [os.path.join(source_dir, "_bind.pyx")],
        include_dirs=[source_dir],
        depends=headers,
        extra_compile_args=compile_args,
        extra_link_args=link_args,
        optional=not required,
    )
    floor = Extension(
        "posonly.bench._floor",
        [os.path.join(bench_dir, "_floor.pyx")],
        include_dirs=[bench_dir, source_dir],
        depends=headers + [os.path.join(bench_dir, "_floor.h")],
        extra_compile_args=compile_args,
        extra_link_args=link_args,
        optional=not required,
    )
    # The drop-in's options path, compiled from its Python source (the same
    # file serves interpreters without the extension): what the patched
    # entry points hand on then runs with no Python frame of posonly's.
    options = Extension(
        "posonly._options",
        [os.path.join(source_dir, "_options.py")],
        extra_compile_args=compile_args,
        extra_link_args=link_args,
        optional=not required,
    )
    if _in_place():
        print("posonly: an in-place build: posonly._options runs from its source")
    extensions = cythonize(
        [extension, floor] if _in_place() else [extension, options, floor],
        # No freethreading_compatible: the fast paths read shared mutable
        # objects (a caller's dict, the patch's cache) that only the GIL
        # guards.
        compiler_directives={"language_level": "3", "embedsignature": True},
        annotate=_flag("POSONLY_ANNOTATE"),
    )
    # cythonize() builds new Extension objects and drops `optional`.
    for built in extensions:
        built.optional = not required
    return extensions


setup(ext_modules=_extensions())
