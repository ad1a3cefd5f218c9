"""The one clock of Praça: what every row is stamped with (issue 21 §3).

A timestamp column keeps seconds, not microseconds, so the clock says the local time to the second: the value
read back from the database equals the one written. Tests that freeze time patch ``models.base.clock.now``.
"""

from __future__ import annotations

import datetime as _dt


def now() -> _dt.datetime:
    """The local date and time, to the second."""
    return _dt.datetime.now().replace(microsecond=0)
