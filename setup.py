"""The compiled parts of codelog: `codelog.stage._canon`, the parse + canonical AST walk in C,
and `codelog/execution/sandbox/codelog-exec`, the wrapper every sandboxed program starts under.

Everything else is in pyproject.toml. `_canon` is optional: without a C compiler the install
still succeeds and codelog falls back to the pure-Python walk (about 2x slower builds;
`codelog build` says so in its summary). The exec helper is not: the sandbox's accounting
(every process's CPU time, orphans included) and its session keyring depend on it.
"""

import os

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

TREE_SITTER = "vendor/tree-sitter/lib"
EXEC_HELPER = "codelog/execution/sandbox/exec_helper.c"


class BuildWithHelper(build_ext):
    """build_ext, then the exec helper: an executable, not an extension module, built by the
    same compiler into the package (in place for an editable install)."""

    def run(self) -> None:
        super().run()
        target_dir = os.path.dirname(EXEC_HELPER)
        # an editable install (setuptools' editable_mode) keeps built files in the source tree
        if not (self.inplace or getattr(self, "editable_mode", False)):
            target_dir = os.path.join(self.build_lib, target_dir)
        os.makedirs(target_dir, exist_ok=True)
        objects = self.compiler.compile(
            [EXEC_HELPER], output_dir=self.build_temp, extra_postargs=["-O2", "-std=gnu11"]
        )
        self.compiler.link_executable(objects, "codelog-exec", output_dir=target_dir)


setup(
    cmdclass={"build_ext": BuildWithHelper},
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
    ],
)
