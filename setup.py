"""The compiled parts of codelog: `codelog.stage._canon`, the parse + canonical AST walk in C,
and `codelog/execution/sandbox/codelog-exec`, the wrapper every sandboxed program starts under.

Everything else is in pyproject.toml. `_canon` is optional: without a C compiler the install
still succeeds and codelog falls back to the pure-Python walk (about 2x slower builds;
`codelog build` says so in its summary). The exec helper is not: the sandbox's accounting
(every process's CPU time, orphans included) and its session keyring depend on it.

Under GCC, `_canon` is built from a profile: built instrumented, run over the bundled sample
(codelog.stage.canon_profile), then built again with the counts. The parse is ~15% faster for
it. Where that cannot be done (another compiler, a failed run), the plain build is made
instead, and `codelog.stage._canon.PROFILE_GUIDED` says which one is installed.
"""

import copy as copy_module
import os
import shutil
import subprocess
import sys
import tempfile

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.errors import CompileError, LinkError

TREE_SITTER = "vendor/tree-sitter/lib"
EXEC_HELPER = "codelog/execution/sandbox/exec_helper.c"
CANON = "codelog.stage._canon"


class BuildWithHelper(build_ext):
    """build_ext (`_canon` from a profile where the compiler is GCC), then the exec helper: an
    executable, not an extension module, built by the same compiler into the package (in place
    for an editable install)."""

    def build_extension(self, ext: Extension) -> None:
        if ext.name != CANON or not self._is_gcc():
            super().build_extension(ext)
            return
        profile_dir = None
        force = self.force
        # Every build below compiles and links anew: the output of the one before it is newer
        # than the sources, and an instrumented build must never be left in place.
        self.force = True
        try:
            profile_dir = tempfile.mkdtemp(prefix="codelog-canon-profile-")
            self._build_from_profile(ext, profile_dir)
        except (OSError, subprocess.SubprocessError, CompileError, LinkError) as exc:
            print(
                f"codelog: the profile-guided build of {CANON} failed ({exc}); "
                "building it without a profile",
                file=sys.stderr,
            )
            super().build_extension(ext)
        finally:
            self.force = force
            if profile_dir:
                shutil.rmtree(profile_dir, ignore_errors=True)

    def _build_from_profile(self, ext: Extension, profile_dir: str) -> None:
        # The same object paths in both builds: GCC finds each object's counts by its path.
        super().build_extension(
            _with_flags(
                ext,
                ["-fprofile-generate", f"-fprofile-dir={profile_dir}"],
                ["-fprofile-generate"],
            )
        )
        # The instrumented build runs from where it was written. PYTHONPATH finds the codelog
        # sources it needs (the grammar tables), ahead of what pip's build isolation put there
        # (its sitecustomize, which makes the build requirements importable).
        paths = [os.path.abspath("."), os.environ.get("PYTHONPATH", "")]
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in paths if p))
        subprocess.run(
            [
                sys.executable,
                "-m",
                "codelog.stage.canon_profile",
                self.get_ext_fullpath(ext.name),
            ],
            check=True,
            env=env,
            timeout=600,
            stdout=subprocess.DEVNULL,
        )
        super().build_extension(
            _with_flags(
                ext,
                # partial training: code the sample never ran stays optimised as usual
                [
                    "-fprofile-use",
                    f"-fprofile-dir={profile_dir}",
                    "-fprofile-partial-training",
                    "-Wno-missing-profile",
                ],
                [],
                [("CANON_PROFILE_GUIDED", "1")],
            )
        )

    def _is_gcc(self) -> bool:
        # clang takes -fprofile-generate too, but its counts need llvm-profdata to be used.
        if self.compiler.compiler_type != "unix":
            return False
        try:
            version = subprocess.run(
                [self.compiler.compiler_so[0], "--version"],
                capture_output=True,
                text=True,
                timeout=30,
            ).stdout
        except (OSError, subprocess.SubprocessError):
            return False
        return "Free Software Foundation" in version and "clang" not in version

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


def _with_flags(
    ext: Extension,
    compile_args: list[str],
    link_args: list[str],
    macros: list[tuple[str, str | None]] | None = None,
) -> Extension:
    """A copy of `ext` with flags added: the same name, sources and output path, and the
    attributes build_ext sets on it while finalizing."""
    copy = copy_module.copy(ext)
    copy.define_macros = list(ext.define_macros) + (macros or [])
    copy.extra_compile_args = list(ext.extra_compile_args) + compile_args
    copy.extra_link_args = list(ext.extra_link_args) + link_args
    return copy


setup(
    cmdclass={"build_ext": BuildWithHelper},
    ext_modules=[
        Extension(
            CANON,
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
