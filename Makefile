# Two commands do all set-up: `make demo` and `make test` (both create .venv on first use).
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
# torch is pinned in the same pip call: an unpinned torch (or peft pulling one) fetches a
# multi-GB CUDA build, while 2.13.0 is a CPU wheel.
TORCH := torch==2.13.0
export HF_HUB_OFFLINE := 1
export TRANSFORMERS_OFFLINE := 1
export HF_DATASETS_OFFLINE := 1

.PHONY: demo test lint bench clean

# setup.py builds codelog._canon (C): a changed C source reinstalls too.
$(BIN)/codelog: pyproject.toml setup.py codelog/_canon.c
	$(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet "$(TORCH)" -e ".[train,dev]"
	touch $@

demo: $(BIN)/codelog
	rm -rf datasets/codenet-python runs/demo
	$(BIN)/codelog build --source codenet --lang python
	$(BIN)/codelog stats datasets/codenet-python
	$(BIN)/codelog sql datasets/codenet-python "SELECT problem_id, n_correct, n_incorrect, round(reward_mean, 3) AS reward_mean FROM groups ORDER BY problem_id"
	$(BIN)/codelog train datasets/codenet-python --algo rloo --steps 100 --out runs/demo

test: $(BIN)/codelog
	HF_HOME=$$(mktemp -d) $(BIN)/python -m pytest -q -p no:cacheprovider
	$(BIN)/ruff check codelog tests bench scripts

lint: $(BIN)/codelog
	$(BIN)/ruff check codelog tests bench scripts
	$(BIN)/ruff format --check codelog tests bench scripts

bench: $(BIN)/codelog
	$(BIN)/python bench/train_step.py
	$(BIN)/python bench/build.py
	$(BIN)/python bench/judge.py

clean:
	rm -rf $(VENV) datasets runs .pytest_cache
