#!/usr/bin/env bash
# bench/gpu.py on the GPU machine (issue 36): run from a copy of the repository with $OUT set to
# the folder whose files come back. Needs python3 with torch, transformers, peft, tokenizers,
# pyarrow, numpy, click, rich and psutil; codelog itself is found through PYTHONPATH.
set -euo pipefail
cd "$(dirname "$0")/.."
export PYTHONPATH=. PYTHONUNBUFFERED=1
exec python3 bench/gpu.py --out "${OUT:?set OUT to the folder that comes back}" "$@"
