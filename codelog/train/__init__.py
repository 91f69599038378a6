"""`codelog train`: advantage-weighted likelihood on a dataset built by `codelog build`.

Offline: the trainer reads logged, already-judged solutions; it never samples from the model or
runs code. The loss, -mean over a group of A_i * log p(solution_i | prompt), weights the likelihood
of each logged solution by its advantage within its group (sft, rloo, grpo, exp), which is not
on-policy RL.

- `data`: open and check a dataset, index groups, sample them, tokenise, length-aware batches
- `advantages`: the registry of advantage estimators
- `models`: Hugging Face causal LMs, LoRA, the offline `tiny` model
- `trainer`: the loop, in one file

Import the submodules directly; this package imports nothing heavy (torch loads with `trainer`).
"""
