"""`codelog train`: advantage-weighted likelihood on a dataset built by `codelog build`.

Offline: the trainer reads logged, already-judged solutions; it never samples from the model or
runs code. The loss, -mean over a group of A_i * log p(solution_i | prompt), weights the likelihood
of each logged solution by its advantage within its group (sft, rloo, grpo, exp), which is not
on-policy RL.

- `options`: the recipe's [train] knobs checked, and TrainOptions (how a run runs); a leaf
- `data`: open and check a dataset, index groups, sample them, tokenise, length-aware batches
- `advantages`: the registry of advantage estimators
- `models`: Hugging Face causal LMs, LoRA, the offline `tiny` model
- `batches`: one step's groups as micro-batches
- `logprobs`: the forward pass shared by the loss, the reference and the evaluation
- `reference`: the KL penalty to the reference policy, its log-probs cached beside the run
- `evaluation`: the held-out margin, and the hook other evaluations (pass@k) plug into
- `checkpoint`: the run directory, checkpoints, resume, the lock
- `distributed`: several processes under torchrun (DDP), sharding, reductions
- `memory`: precision of weights and arithmetic, the memory estimate and refusal
- `report`: metrics.jsonl, --report-to trackers, the progress bar, the summary
- `loop`: the training loop, read in one sitting

Import the submodules directly; this package imports nothing heavy (torch loads with `loop`).
"""
