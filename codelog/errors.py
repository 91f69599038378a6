"""User-facing errors: one type per kind, each naming the place; the CLI catches them once."""

from __future__ import annotations


class CodelogError(Exception):
    """An error a user can act on; printed without a traceback, exit status 1."""


class InputError(CodelogError):
    """Bad input data: names the file and, where known, the line and column."""

    def __init__(self, path: str, message: str, line: int | None = None, column: str | None = None):
        self.path, self.line, self.column = str(path), line, column
        where = self.path if line is None else f"{self.path} line {line}"
        if column is not None:
            where += f": column '{column}'"
        self.message = message
        super().__init__(f"{where}: {message}")

    def __reduce__(self):
        # Staging workers raise this; it must unpickle in the parent from its parts.
        return (type(self), (self.path, self.message, self.line, self.column))


class RecipeError(CodelogError):
    """A recipe that cannot be used."""


class DatasetError(CodelogError):
    """A dataset directory that is missing, incomplete, corrupt or from an incompatible version."""


class OutputError(CodelogError):
    """An output codelog will not write: it would replace what codelog did not create, or an
    input; or it cannot be written (disk full, read-only, no permission)."""


class BusyError(CodelogError):
    """Another codelog process holds the lock on the same output."""


class EmptyResultError(CodelogError):
    """A run that worked but produced nothing usable (0 rows in, 0 groups kept, 0 rows exported)."""
