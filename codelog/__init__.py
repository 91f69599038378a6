"""codelog: judged-code archives (CodeNet, CI logs) to offline-RL training data, plus a trainer."""

from codelog.version import __version__

__all__ = ["__version__"]
