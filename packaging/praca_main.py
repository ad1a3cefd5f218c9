"""The bundle's entry point (PyInstaller): the same ``praca`` as the wheel's console script."""

import sys

from desktop.cli import main

if __name__ == "__main__":
    sys.exit(main())
