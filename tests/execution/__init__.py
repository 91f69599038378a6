"""Tests of codelog.execution: the sandbox, judging, pass@k and the verl reward."""
