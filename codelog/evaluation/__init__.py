"""Evaluating a model: sample programs from it (or read them), judge them in the sandbox
(codelog.execution), report pass@k. One module a stage, in the order an eval runs them:

- `spec`: `EvalSpec`, what an eval is (benchmark, problems, samples source, sampling, judging,
  k, output), checked once;
- `problems`: the spec's benchmark as problems with tests;
- `sampling`: samples from a model (`Sampler`: transformers, vLLM) or a file;
- `judging`: samples to verdicts, journaled and resumable;
- `scoring`: pass@k, its standard error, the tally per difficulty, the failure mix;
- `reporting`: summary.json, the tables, `--compare`, the experiment's table and plot;
- `run`: `run_eval(spec)`, the stages in order (`codelog eval`, `codelog.evaluate`).

Above them: `experiment` (`codelog experiment`: the plan and its cells) and `training_eval`
(pass@k as an evaluator of the training loop). docs/development.md, "How an eval flows".
"""
