"""The one compiled part of codelog: `codelog.stage._canon`, the parse + canonical AST walk in C.

Everything else is in pyproject.toml. The extension is optional: without a C compiler the
install still succeeds and codelog falls back to the pure-Python walk (about 2x slower builds;
`codelog build` says so in its summary).
"""

from setuptools import Extension, setup

TREE_SITTER = "vendor/tree-sitter/lib"

setup(
    ext_modules=[
        Extension(
            "codelog.stage._canon",
            sources=["codelog/stage/_canon.c", f"{TREE_SITTER}/src/lib.c"],
            include_dirs=[f"{TREE_SITTER}/include", f"{TREE_SITTER}/src"],
            # As tree-sitter's own Makefile: fdopen and be16toh are POSIX/BSD, not C11.
            define_macros=[
                ("_POSIX_C_SOURCE", "200809L"),
                ("_DEFAULT_SOURCE", None),
                ("TREE_SITTER_HIDE_SYMBOLS", None),
            ],
            # Hidden symbols: our copy of the tree-sitter core must not clash with py-tree-sitter's.
            extra_compile_args=["-std=c11", "-fvisibility=hidden"],
            optional=True,
        )
    ]
)
