"""Praça's application layer: start-up, main window, navigation, command line."""


def __getattr__(name: str):
    # ``__version__`` is read from the installed package's metadata when first asked for: importing
    # importlib.metadata costs a start-up more than the rest of this package
    if name == "__version__":
        from importlib.metadata import PackageNotFoundError, version

        try:
            value = version("praca")
        except PackageNotFoundError:  # running from a source tree that was never installed
            value = "0.0.0+dev"
        globals()["__version__"] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
