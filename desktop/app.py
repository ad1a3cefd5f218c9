"""Start-up of the window application: Qt, translations, icon, database, main window."""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import ClassVar

from PySide6.QtCore import QLibraryInfo, QLocale, QTranslator
from PySide6.QtWidgets import QApplication, QMessageBox

import desktop
import resources
from desktop.errors import explain, report_unexpected, start_log
from desktop.icon import app_icon
from desktop.paths import resolve_db_url, set_application_names, use_data_folder
from models.base.errors import UserError

RESOURCES = Path(resources.__file__).resolve().parent

translators: list[QTranslator] = []


class QtGapsTranslator(QTranslator):
    """Qt's strings that Qt's own pt_BR file does not cover in this version: their source text gained a
    mnemonic ("&Look in:"), so the file dialog Qt draws itself (where the platform has none) said "Look in:" and
    "Files of type:" in English among Portuguese labels. Consulted only after Qt's own files."""

    STRINGS: ClassVar[dict[tuple[str, str], str]] = {
        ("QFileDialog", "&Look in:"): "&Procurar em:",
        ("QFileDialog", "Files of &type:"): "Arquivos do &tipo:",
    }

    def translate(self, context, source, disambiguation=None, n=-1):  # Qt's virtual
        # None is a null QString, "not here"; an empty string would be a translation to nothing
        return self.STRINGS.get((context, source))

    def isEmpty(self) -> bool:  # Qt's virtual
        return False


def install_translations(app: QApplication) -> bool:
    """Load Qt's own pt_BR strings so standard buttons read "Cancelar", "Salvar"."""
    QLocale.setDefault(QLocale(QLocale.Language.Portuguese, QLocale.Country.Brazil))
    folder = QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)
    loaded = False
    gaps = QtGapsTranslator(app)  # installed first, so consulted last (Qt asks the newest translator first)
    app.installTranslator(gaps)
    translators.append(gaps)
    for name in ("qtbase_pt_BR", "qt_pt_BR"):
        translator = QTranslator(app)
        if translator.load(name, folder):
            app.installTranslator(translator)
            translators.append(translator)
            loaded = True
    return loaded


def names_a_style(argv: list[str]) -> bool:
    """Whether Qt's own arguments (or ``QT_STYLE_OVERRIDE``) name a style: ``praca -style Windows``."""
    if os.environ.get("QT_STYLE_OVERRIDE"):
        return True
    return any(arg.lstrip("-").partition("=")[0] == "style" for arg in argv[1:] if arg.startswith("-"))


def ensure_app(argv: list[str] | None = None) -> QApplication:
    """The one QApplication, configured for Praça (created if needed, with ``argv``: the program's name and Qt's
    own arguments, ``-style Fusion``…)."""
    from views import theme

    set_application_names()
    app = QApplication.instance()
    if app is None:
        argv = list(argv) if argv is not None else sys.argv[:1]
        theme.keep_style = names_a_style(argv)  # the style the clerk named stays; Praça's palette still applies
        app = QApplication(argv)
    app.setApplicationVersion(desktop.__version__)
    app.setDesktopFileName("praca")  # praca.desktop (praca install-desktop-entry): the dock's icon and name
    app.setWindowIcon(app_icon())
    if not app.styleSheet():
        theme.apply(app)  # Fusion, the desk's appearance (Sistema/Claro/Escuro), resources/style.qss filled for it
    if not translators:
        install_translations(app)
    from reports.qt_fonts import use_shipped_fonts

    use_shipped_fonts(app)  # the window's and the documents' font, shipped (DejaVu Sans): the same on every desk
    return app


def _install_excepthook() -> None:
    """An error in a button's slot becomes a box in Portuguese (what to do, "Copiar detalhes", the log file's
    place: desktop.errors.report_unexpected), not a silent traceback on a console nobody sees."""
    import traceback

    def hook(kind, value, tb):
        if QApplication.instance() is None or isinstance(value, KeyboardInterrupt):
            traceback.print_exception(kind, value, tb, file=sys.stderr)
            return
        report_unexpected(QApplication.activeWindow(), kind, value, tb)

    sys.excepthook = hook


def daily_backup_at_start() -> None:
    """Once a day, a backup of the embedded database into the data folder's ``backups`` (7 daily, 4 weekly kept).

    A failure (a full disk…) never stops Praça from opening: it is said on stderr.
    """
    from desktop.paths import data_dir
    from models.store.backup import daily_backup
    from views.operations import in_background

    folder = data_dir() / "backups"
    try:  # on a worker (issue 27 §5): a big town's backup takes a moment, the window repaints meanwhile
        result = in_background(lambda: daily_backup(folder, app_version=desktop.__version__))
    except Exception as exc:  # the clerk still gets the application
        print(f"praca: o backup diário não foi gravado: {explain(exc)}", file=sys.stderr)
        return
    if result.shrunk is not None:  # the data may be gone: the clerk is told now, the log keeps it
        print(f"praca: {result.shrunk.text}", file=sys.stderr)
        QMessageBox.warning(
            QApplication.activeWindow(), QApplication.translate("Praca", "Backup diário"), result.shrunk.text
        )


def run_gui(db_url: str | None, qt_arguments: Sequence[str] = ()) -> int:
    """Show the main window at once, then open ``db_url`` (or the default database) in it, make the day's
    backup, ask for the login, and run the event loop. ``qt_arguments``: Qt's own (``-style Fusion``…)."""
    app = ensure_app([sys.argv[0] if sys.argv else "praca", *qt_arguments])
    use_data_folder()
    from desktop import paths

    start_log(paths.data_dir())  # the tracebacks of unexpected errors: in praca.log, never in the clerk's box

    if paths.moved_notice:  # the first start after the data folder moved (desktop/paths.py)
        QMessageBox.information(
            None,
            QApplication.translate("Praca", "Pasta de dados"),
            paths.moved_notice[0].upper() + paths.moved_notice[1:],
        )
    try:
        url = resolve_db_url(db_url)
    except UserError as exc:
        print(f"praca: {exc.message}", file=sys.stderr)
        QMessageBox.critical(None, "Praça", exc.message)
        return exc.exit_code
    _install_excepthook()

    from desktop.main_window import MainWindow

    window = MainWindow(opening=url, at_open=daily_backup_at_start)
    window.show()
    code = app.exec()
    return window.exit_code if window.exit_code is not None else code
