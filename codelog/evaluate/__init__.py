"""Evaluating a model: sample programs from it, judge them in the sandbox (codelog.execution),
report pass@k.

- `pass_at_k`: `codelog eval`: samples from a model (transformers or vLLM) or a file -> pass@k
  overall and per problem;
- `training_eval`: pass@k as an evaluator of the training loop (`codelog train --eval-samples`).

Beside train/ in the flow: it uses the trainer's models and prompt encoding, and the judge.
"""
