"""The package version: a leaf, so that modules recording it import nothing above them."""

__version__ = "0.1.0"
