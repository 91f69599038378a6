"""Running untrusted programs against tests: the sandbox, the judge, pass@k and verl rewards.

- `sandbox`: one program on one input, in a fresh directory, with rlimits, a wall clock, output
  caps and (where the kernel allows) namespaces; compiles C/C++ once per distinct source.
- `languages`: one runner per language (compile + run commands, how memory is limited).
- `testcases`: where tests come from (CodeNet statements and derived I/O, HumanEval, JSONL).
- `compare`: output comparison as the origin judge did it (AIZU, AtCoder: `Rules`).
- `judge`: a program against a problem's tests -> a CodeNet verdict; many of them on all cores.
- `evaluate`: samples from a model (or a file) -> pass@k.
- `verl_reward`: verl's `compute_score` through the sandbox.
- `training_eval`: pass@k as an evaluator of the training loop (`codelog train --eval-samples`).

The sandbox/judge core imports only the leaf modules (errors, outcomes, recipe, progress).
"""
