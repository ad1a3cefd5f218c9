"""Long work off the GUI thread, with a progress bar and Cancelar (issue 18 §2; Anki's ``CollectionOp`` is the
model): the screen hands ``run_operation`` a function of the domain; it runs in a worker thread with its own
database connection while the window stays responsive (it repaints, Cancelar is heard); the caller gets the result
back, or ``Cancelled`` (:mod:`models.base.errors`, the one cancellation type) or the domain's ``UserError`` raised
where it called. The function never touches a widget: it
reports ``progress(done, total)``, and a cancelled run raises out of it so its transaction is rolled back.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QEventLoop, Qt, QThread, QTimer, Signal
from PySide6.QtWidgets import QProgressDialog, QWidget

from models.base.errors import Cancelled


class _Worker(QThread):
    progressed = Signal(int, int)

    def __init__(self, work: Callable[[Callable[[int, int], None]], Any]):
        super().__init__()
        self.work = work
        self.cancelled = False
        self.result: Any = None
        self.error: BaseException | None = None

    def _progress(self, done: int, total: int) -> None:
        self.progressed.emit(done, total)
        if self.cancelled:
            raise Cancelled()

    def run(self) -> None:  # the worker thread
        from models.store.db import db

        try:
            self.result = self.work(self._progress)
        except BaseException as exc:
            self.error = exc
        finally:
            if db.obj is not None and not db.is_closed():
                db.close()  # this thread's own connection


#: The operation running now (tests and the Cancelar of a test reach it here).
current: _Worker | None = None


def run_operation(
    parent: QWidget,
    text: str,
    work: Callable[[Callable[[int, int], None]], Any],
    *,
    title: str = "",
    cancellable: bool = True,
    show_after_ms: int = 300,
    on_start: Callable[[QProgressDialog], None] | None = None,
) -> Any:
    """Run ``work(progress)`` in a worker thread under a window-modal progress dialog (shown when the work lasts
    more than ``show_after_ms``); wait for it with the event loop running and return what it returned. Raises
    ``Cancelled`` when the clerk cancelled (or the domain stopped with it), or whatever ``work`` raised.
    ``on_start(dialog)`` is called with the progress dialog before the work starts; the work starts once the
    events already queued are handled (a Cancelar already asked for is heard at its first progress)."""
    global current

    dialog = QProgressDialog(text, parent.tr("Cancelar") if cancellable else None, 0, 0, parent)
    dialog.setObjectName("operation-progress")
    if title:
        dialog.setWindowTitle(title)
    dialog.setWindowModality(Qt.WindowModality.WindowModal)
    dialog.setMinimumDuration(show_after_ms)
    dialog.setAutoClose(False)
    dialog.setAutoReset(False)
    dialog.setValue(0)
    worker = _Worker(work)

    def progressed(done: int, total: int) -> None:
        if dialog.wasCanceled():
            worker.cancelled = True
            return
        dialog.setMaximum(max(total, 1))
        dialog.setValue(min(done, max(total, 1)))

    def cancel() -> None:
        worker.cancelled = True
        dialog.setLabelText(parent.tr("Cancelando…"))

    worker.progressed.connect(progressed)
    dialog.canceled.connect(cancel)
    loop = QEventLoop()
    worker.finished.connect(loop.quit)
    current = worker
    worker.cancel = cancel
    worker.dialog = dialog
    if on_start is not None:
        on_start(dialog)
    try:

        def start() -> None:
            if dialog.wasCanceled():  # cancelled (QProgressDialog.cancel()) before the work began
                worker.cancelled = True
            worker.start()

        QTimer.singleShot(0, start)
        loop.exec()
        worker.wait()
    finally:
        current = None
        dialog.close()
        dialog.deleteLater()
    if worker.error is not None:
        raise worker.error
    return worker.result  # done before it heard Cancelar: what was written stays written
