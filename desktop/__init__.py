"""Praça's application layer: start-up, main window, navigation, command line."""

#: Praça's version: its one home (pyproject.toml reads it from here for the package's metadata). A literal, not
#: ``importlib.metadata.version("praca")``: importing importlib.metadata cost the start-up ~50 ms of CPU, a fifth
#: of a bare window's whole start (bench startup), and a bundle without the metadata said "0.0.0+dev".
__version__ = "0.1.0"
