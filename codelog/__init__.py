"""codelog: judged-code archives (CodeNet, CI logs) to offline-RL training data, plus a trainer."""

__version__ = "0.1.0"
