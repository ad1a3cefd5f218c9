"""``python -m desktop`` — the same entry point as the ``praca`` command."""

import sys

from desktop.cli import main

sys.exit(main())
