"""Start-up to the main window shown, on a database of 50.000 people and 20.000 permits, against a bare window.

Praça: a fresh Python process that starts as the application does
(:func:`desktop.app.run_gui`): Qt set up (:func:`desktop.app.ensure_app`:
names, icon, style sheet, pt_BR translations), the user's folders (the
parsed regimes are kept in the cache folder, as after any earlier run), then
``MainWindow(opening=url)`` shown — the window with its desks and the
Painel's frame appears first; its first paint opens the database and fills
the Painel (the month's figures and what is due today). Judged: the window
exposed and painted. Reported beside it: the Painel filled (the database
opened and read). The login dialog and the daily backup are left out (as in
the tests). The database also holds three months of charges with their
payments.

Baseline: a fresh Python process that imports PySide6, makes a QApplication
and shows a bare ``QMainWindow`` of the same size, the same way.

Both run offscreen with a clean settings folder; each child reports the CPU time
it has used when its window is exposed (``time.process_time``: the interpreter's
start and every import included — what a busy machine does not inflate) — Qt
paints a widget window while it handles its expose event, and the Praça child
checks that the Painel was painted by then — and the parent also measures the
elapsed time to that moment. Budget: ≤ 2×.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import time

from bench import data
from bench.common import MODE, PYTHON, Figure, at_least, open_scratch, python_env, ratio_figure, say, thousands

NAME = "startup"
LIMIT = 2.0
SIZE = (1200, 760)

SHOWN = """
def shown(window, app):
    while window.windowHandle() is None or not window.windowHandle().isExposed():
        app.processEvents()
    import time
    print("shown", time.process_time(), flush=True)
"""

PRAÇA = (
    SHOWN
    + """
import sys
from PySide6.QtCore import QEvent, QObject
from desktop.app import ensure_app
from desktop.paths import use_data_folder
app = ensure_app()
use_data_folder()
from desktop.main_window import MainWindow
window = MainWindow(opening=sys.argv[1], log_in=False)

class Painted(QObject):
    seen = False

    def eventFilter(self, watched, event):
        Painted.seen = Painted.seen or event.type() == QEvent.Type.Paint
        return False

painted = Painted()
window.pages.built["painel"].heading.installEventFilter(painted)
started = []
window.started.connect(lambda: started.append(1))
window.show()
shown(window, app)
if not Painted.seen:
    raise SystemExit("the Painel was not painted when the window was exposed")
import time
deadline = time.monotonic() + 120
while not started:
    app.processEvents()
    if time.monotonic() > deadline:
        raise SystemExit("the Painel was not filled within 120 s (did the database open?)")
print("filled", time.process_time(), flush=True)
"""
)

BARE = (
    SHOWN
    + """
import sys
from PySide6.QtWidgets import QApplication, QMainWindow
app = QApplication(sys.argv[:1])
window = QMainWindow()
window.resize({}, {})
window.show()
shown(window, app)
""".format(*SIZE)
)


def _launch(code: str, args: list[str], home: str) -> tuple[float, float, float | None, float | None]:
    """Run ``code`` in a fresh interpreter: (elapsed until its window is shown, its CPU time by then) and, for a
    child that says so, the same two until its window is filled (else ``None``)."""
    env = python_env()
    for var in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME"):
        env[var] = os.path.join(home, var.lower())
    shutil.rmtree(os.path.join(home, "xdg_config_home"), ignore_errors=True)  # no window state remembered
    start = time.perf_counter()
    child = subprocess.Popen(
        [PYTHON, "-c", code, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, text=True
    )
    line = child.stdout.readline()
    elapsed = time.perf_counter() - start
    filled = child.stdout.readline() if line.startswith("shown") and "filled" in code else ""
    elapsed_filled = time.perf_counter() - start
    child.kill()
    _out, err = child.communicate()
    if not line.startswith("shown") or ("filled" in code and not filled.startswith("filled")):
        raise RuntimeError(f"the child did not show and fill its window: {line!r} {filled!r} {err[-2000:]}")
    if filled:
        return elapsed, float(line.split()[1]), elapsed_filled, float(filled.split()[1])
    return elapsed, float(line.split()[1]), None, None


def run(backend: str, repeat: int) -> list[Figure]:
    from models.store.bootstrap import close_database

    with open_scratch(backend) as url:
        say(f"  [{backend}] dados: {data.PEOPLE} pessoas, {data.PERMITS} permissões, três meses de cobranças…")
        people, _ = data.add_people()
        data.add_index_corrections()
        data.add_permits(people)
        for month, paid in {9: 0.93, 10: 0.90, 11: 0.80}.items():
            data.add_month_of_charges(2026, month, paid=paid)
        from bench.common import analyze

        analyze()
        close_database()  # the child opens it, as the application does
        home = tempfile.mkdtemp(prefix="praca-bench-home-")
        try:
            _launch(PRAÇA, [url], home), _launch(BARE, [], home)  # warm: the files are in the page cache
            ours, theirs = [], []
            for _ in range(at_least(repeat, 5)):
                ours.append(_launch(PRAÇA, [url], home))
                theirs.append(_launch(BARE, [], home))
        finally:
            shutil.rmtree(home, ignore_errors=True)
        cpu = MODE["clock"] == "cpu"
        pick = 1 if cpu else 0
        other = "elapsed" if cpu else "CPU"
        best_other = (min(t[1 - pick] for t in ours), min(t[1 - pick] for t in theirs))
        shown = ratio_figure(
            f"start-up to the main window shown ({thousands(data.PEOPLE)} people, {thousands(data.PERMITS)} permits) "
            "vs bare window",
            backend,
            [t[pick] for t in ours],
            [t[pick] for t in theirs],
            LIMIT,
            detail=f"{'CPU' if cpu else 'elapsed'} time of the child; best {other}: "
            f"{best_other[0] * 1000:.0f} ms vs {best_other[1] * 1000:.0f} ms",
        )
        filled = ratio_figure(
            "… and the Painel filled (database opened and read) vs bare window",
            backend,
            [t[pick + 2] for t in ours],
            [t[pick] for t in theirs],
            LIMIT,
            detail=f"best {other}: {min(t[3 - pick] for t in ours) * 1000:.0f} ms",
        )
        filled.budget, filled.ok, filled.judged = "—", True, False
        return [shown, filled]
