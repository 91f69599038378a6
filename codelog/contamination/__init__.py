"""Leakage checks: is a benchmark's problem (or its reference solution) in the training data?

normalize.py turns a statement into comparable tokens, index.py scores statements (document-
frequency-weighted n-grams) and solutions (canonical AST hash, winnowed token fingerprints),
report.py writes what the rule accepts. Used by the build's [decontaminate] step (group/) and
by `codelog contamination`.
"""
