"""Long work off the GUI thread, with a progress bar and Cancelar (issue 18 §2; Anki's ``CollectionOp`` is the
model): the screen hands ``run_operation`` a function of the domain; it runs in a worker thread with its own
database connection while the window stays responsive (it repaints, Cancelar is heard); the caller gets the result
back, or ``Cancelled`` (:mod:`models.base.errors`, the one cancellation type) or the domain's ``UserError`` raised
where it called. The function never touches a widget: it
reports ``progress(done, total)``, and a cancelled run raises out of it so its transaction is rolled back.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from PySide6.QtCore import QCoreApplication, QEventLoop, QObject, Qt, QThread, QTimer, Signal, Slot
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


# -- reads and writes of the screens (issue 27 §5; Anki's QueryOp and CollectionOp) --------------------------------


def _close_thread_connection() -> None:
    """The worker thread's own connection, closed when its work ends (peewee keeps one connection per thread:
    SQLite in WAL reads beside the GUI thread's, PostgreSQL opens a session bound to the same Praça user)."""
    from models.store.db import db

    if db.obj is not None and not db.is_closed():
        db.close()


def _interrupt(connection: Any) -> None:
    """Stop the statement ``connection`` runs now, from another thread (SQLite's ``interrupt``, psycopg2's
    ``cancel``); a connection already closed is left as it is."""
    stop = getattr(connection, "interrupt", None) or getattr(connection, "cancel", None)
    if stop is None:
        return
    try:
        stop()
    except Exception:  # closed or finished meanwhile: nothing left to stop
        pass


class _Call(QThread):
    """``call()`` in a thread of its own, with that thread's own database connection, closed at the end."""

    def __init__(self, call: Callable[[], Any]):
        super().__init__()
        self.call = call
        self.result: Any = None
        self.error: BaseException | None = None
        self.connection: Any = None
        self.stale = False

    def run(self) -> None:  # the worker thread
        from models.store.db import db

        try:
            if db.obj is not None:
                self.connection = db.connection()  # opened here: the one a stale query interrupts
            if not self.stale:
                self.result = self.call()
        except BaseException as exc:
            self.error = exc
        finally:
            self.connection = None
            _close_thread_connection()

    def interrupt(self) -> None:
        self.stale = True
        connection = self.connection
        if connection is not None:
            _interrupt(connection)


#: The queries started, held until they end: a thread object let go while its thread runs would abort the process.
_calls: set[_Call] = set()


class LatestQuery(QObject):
    """A read of the domain off the GUI thread whose latest request wins (search as you type): :meth:`ask` starts
    ``query(*args)`` on a worker thread; the result reaches ``success`` on the GUI thread. A request made while
    another runs makes that one stale — its statement is interrupted and its result dropped — and waits for it to
    stop; requests made meanwhile collapse into the last one. ``failure(error)`` hears what the query raised."""

    #: the latest request was answered (or failed): nothing runs, nothing waits
    settled = Signal()

    def __init__(
        self,
        parent: QObject,
        query: Callable[..., Any],
        success: Callable[[Any], None],
        failure: Callable[[BaseException], None] | None = None,
    ):
        super().__init__(parent)
        self.query = query
        self.success = success
        self.failure = failure
        self._running: _Call | None = None
        self._waiting: tuple | None = None

    @property
    def busy(self) -> bool:
        return self._running is not None or self._waiting is not None

    def ask(self, *args: Any) -> None:
        if self._running is not None:
            self._running.interrupt()
            self._waiting = args
            return
        self._start(args)

    def _start(self, args: tuple) -> None:
        for done in [w for w in _calls if w.isFinished()]:
            _calls.discard(done)
        worker = _Call(lambda: self.query(*args))
        _calls.add(worker)  # alive until it ends, even when the screen that asked is closed first
        worker.finished.connect(self._finished)  # a slot of this object: delivered on the GUI thread (queued)
        self._running = worker
        worker.start()

    @Slot()
    def _finished(self) -> None:
        worker = self._running
        if worker is None:
            return
        worker.wait()
        _calls.discard(worker)
        worker.deleteLater()
        self._running = None
        if self._waiting is not None:  # a newer request: this answer is stale
            args, self._waiting = self._waiting, None
            self._start(args)
            return
        if worker.stale:
            self.settled.emit()
            return
        if worker.error is None:
            self.success(worker.result)
        elif self.failure is not None:
            self.failure(worker.error)
        else:
            raise worker.error
        self.settled.emit()

    def wait(self) -> None:
        """Until the latest request is answered, the event loop running without user input: before a save that
        needs the answer, and in tests instead of waiting for a widget."""
        while self.busy:
            QCoreApplication.processEvents(
                QEventLoop.ProcessEventsFlag.WaitForMoreEvents | QEventLoop.ProcessEventsFlag.ExcludeUserInputEvents
            )

    def stop(self) -> None:
        """Drop what runs and what waits (the screen closes, the database changes) and wait for the thread."""
        self._waiting = None
        worker = self._running
        if worker is not None:
            worker.interrupt()
            worker.wait()


def in_background(call: Callable[[], Any], *, busy: Iterable[QWidget] = ()) -> Any:
    """``call()`` — a read or a write of the domain — on a worker thread, the GUI thread waiting with its event
    loop running: the window repaints and its timers run, but no click or key reaches it until the work ends (no
    second save while the first runs). ``busy``: the widgets that asked (the Salvar button, a dialog's buttons),
    disabled while it runs and enabled again after. Returns what ``call`` returned, raises what it raised, where
    it was called. ``call`` never touches a widget: read the fields before, show the answer after. For work that
    may last, with a progress bar and Cancelar, :func:`run_operation`."""
    held = [widget for widget in busy if widget.isEnabled()]
    for widget in held:
        widget.setEnabled(False)
    worker = _Call(call)
    loop = QEventLoop()
    worker.finished.connect(loop.quit)
    try:
        worker.start()
        while not worker.isFinished():
            loop.exec(QEventLoop.ProcessEventsFlag.ExcludeUserInputEvents)
        worker.wait()
    finally:
        for widget in held:
            widget.setEnabled(True)
    worker.deleteLater()
    if worker.error is not None:
        raise worker.error
    return worker.result
