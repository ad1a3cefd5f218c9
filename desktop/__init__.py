"""Praça's application layer: start-up, main window, navigation, command line."""

from importlib.metadata import PackageNotFoundError, version as _version

try:
    __version__ = _version("praca")
except PackageNotFoundError:  # running from a source tree that was never installed
    __version__ = "0.0.0+dev"
