"""Running untrusted programs against tests: the sandbox, the judge and the reward functions.

- `sandbox`: one program on one input, in a fresh directory, with rlimits, a wall clock, output
  caps and (where the kernel allows) namespaces; compiles C/C++ once per distinct source.
- `languages`: one runner per language (compile + run commands, how memory is limited).
- `testcases`: where tests come from (CodeNet statements and derived I/O, HumanEval, JSONL).
- `compare`: output comparison as the origin judge did it (AIZU, AtCoder: `Rules`).
- `judge`: a program against a problem's tests -> a CodeNet verdict; many of them on all cores.
- `completions`: a model's completion as a program (a fenced block; a function body).
- `trl_reward`, `verl_reward`: TRL's reward function and verl's `compute_score` through the
  sandbox.

A leaf package (tests/test_layout.py): it imports only the leaf modules (errors, outcomes,
files, recipe, prompts, schema, ci_format, ...) and itself. What it judges re-enters the flow
at the top as an ordinary CI export; sampling from a model and pass@k are codelog.evaluate.
"""
