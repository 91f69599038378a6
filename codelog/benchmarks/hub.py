"""A benchmark's rows from the Hugging Face Hub, as each repository is published today.

`datasets` 4.0 and later refuse a repository that still holds a loading script, so each
benchmark names what it reads: a Parquet dataset through `datasets.load_dataset` (a config, a
revision such as the Hub's own Parquet conversion `refs/convert/parquet`, a folder of it), or
raw files of the repository through `huggingface_hub.hf_hub_download`. Both cache where their
library caches. Offline or unreachable, either fails at once with one line naming the
`NAME:PATH` form (docs/benchmarks.md lists each repository, revision and file).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from codelog.errors import CodelogError


def _unreachable(name: str, what: str, exc: BaseException) -> CodelogError:
    text = str(exc).strip()
    reason = text.splitlines()[0][:160] if text else type(exc).__name__
    return CodelogError(
        f"--benchmark {name}: cannot load {what} from the Hugging Face Hub ({reason}); give a "
        f"local copy in its published form: --benchmark {name}:PATH"
    )


def _missing(name: str, repo: str, package: str) -> CodelogError:
    return CodelogError(
        f"--benchmark {name} loads {repo} from the Hugging Face Hub, which needs the {package} "
        f"package; or give a local copy: --benchmark {name}:PATH"
    )


def hub_rows(
    name: str,
    repo: str,
    split: str,
    config: str | None = None,
    *,
    revision: str | None = None,
    data_dir: str | None = None,
) -> Iterator[tuple[str, int, dict[str, Any]]]:
    """(where, index, row) of a Parquet dataset's split on the Hub through `datasets`, as
    `local_rows` gives a local copy's."""
    try:
        import datasets
    except ImportError:
        raise _missing(name, repo, "datasets") from None
    where = f"{repo} ({', '.join(filter(None, (config, revision, data_dir, split)))})"
    options = {k: v for k, v in (("revision", revision), ("data_dir", data_dir)) if v}
    try:
        data = datasets.load_dataset(repo, config, split=split, **options)
    except Exception as exc:  # datasets raises many kinds (ConnectionError, OfflineModeIsEnabled)
        raise _unreachable(name, where, exc) from None
    for i, row in enumerate(data):
        yield where, i, dict(row)


def hub_file(name: str, repo: str, filename: str, *, revision: str | None = None) -> Path:
    """One file of a dataset repository on the Hub (through `huggingface_hub`'s cache)."""
    try:
        import huggingface_hub
    except ImportError:
        raise _missing(name, repo, "huggingface_hub") from None
    try:
        path = huggingface_hub.hf_hub_download(
            repo, filename, repo_type="dataset", revision=revision
        )
    except Exception as exc:  # LocalEntryNotFoundError offline, HTTP errors online
        raise _unreachable(name, f"{repo}/{filename}", exc) from None
    return Path(path)
