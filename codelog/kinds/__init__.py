"""Dataset kinds, one registered object each (codelog.kinds.registry): solutions, repair,
verifier-lists. Importing the package registers all three."""

from codelog.kinds.registry import (
    KINDS,
    Kind,
    built,
    drawn,
    get,
    of_manifest,
    register,
    to_build,
)
from codelog.kinds.repairs import REPAIRS
from codelog.kinds.solutions import SOLUTIONS
from codelog.kinds.verifier_lists import VERIFIER_LISTS

__all__ = [
    "KINDS",
    "REPAIRS",
    "SOLUTIONS",
    "VERIFIER_LISTS",
    "Kind",
    "built",
    "drawn",
    "get",
    "of_manifest",
    "register",
    "to_build",
]
