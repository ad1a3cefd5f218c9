"""Canary for the PySide6 6.12.0 / Python 3.11 crash (DESIGN.md, "Technical decisions").

That build drops a reference to ``None`` on every call that returns nothing,
and the process aborts after about a thousand calls. 10.000 void calls must
leave ``sys.getrefcount(None)`` where it was.
"""

import sys

from PySide6.QtWidgets import QLabel


def test_void_calls_keep_none_refcount(qapp):
    label = QLabel()
    for _ in range(100):  # warm caches that may legitimately hold a None or two
        label.setText("x")
    before = sys.getrefcount(None)
    for i in range(10_000):
        label.setText("aquecimento" if i % 2 else "praça")
    after = sys.getrefcount(None)
    # The broken build moves it by -10.000; allow a handful for interpreter noise.
    assert abs(after - before) < 50, f"refcount(None) moved by {after - before}"
