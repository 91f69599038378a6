"""`_canon` is built from a profile under GCC (setup.py, codelog.stage.canon_profile)."""

from __future__ import annotations

import subprocess
import sysconfig

import pytest

from codelog.stage import ast_hash
from codelog.stage.canon_profile import SAMPLE, load_build, train

needs_canon = pytest.mark.skipif(not ast_hash.ACCELERATED, reason="_canon (C) is not built")


def _compiler_is_gcc() -> bool:
    cc = (sysconfig.get_config_var("CC") or "cc").split()[0]
    try:
        out = subprocess.run([cc, "--version"], capture_output=True, text=True, timeout=30)
    except OSError:
        return False
    return "Free Software Foundation" in out.stdout and "clang" not in out.stdout


@needs_canon
def test_the_installed_parse_was_built_from_a_profile() -> None:
    # setup.py falls back to a plain build when the profile run fails: that must not pass
    # unnoticed where GCC is the compiler (the parse is ~15% slower without it).
    if not _compiler_is_gcc():
        pytest.skip("the C compiler is not GCC: setup.py makes the plain build")
    assert ast_hash._canon.PROFILE_GUIDED is True


@needs_canon
def test_the_profile_run_parses_every_sample_program_with_the_build_it_is_given() -> None:
    build = load_build(ast_hash._canon.__file__, "profile_test")
    assert build is not ast_hash._canon  # loaded from the path, not the installed module
    assert train(build) == len(list(SAMPLE.glob("*/Python/*"))) > 1000
    form = ast_hash.make_canonicalizer(build, "python").canonical(b"x = 1\n")
    assert form == ast_hash._canonicalizer("python").canonical(b"x = 1\n")


def test_a_path_that_is_no_extension_module_is_refused(tmp_path) -> None:
    bogus = tmp_path / "_canon.txt"
    bogus.write_text("not a shared object")
    with pytest.raises(ImportError):
        load_build(bogus)
