"""Arquivo → Configurações → Aparência (issue 31 §6): Sistema, Claro or Escuro, drawn with Fusion and Praça's own
palettes, kept per desk and applied at once; every desk, in either, read where text is read at 4.5:1 or more (WCAG
AA); Qt's own arguments (``praca -style Fusion``) accepted."""

from __future__ import annotations

import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QColor, QPalette, QTextCursor, QTextDocument
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QApplication,
    QHeaderView,
    QLabel,
    QLineEdit,
    QTabWidget,
    QWidget,
)

from desktop.cli import main, split_qt_arguments
from views import theme

AA = 4.5
SHOTS = Path(os.environ.get("PRACA_SHOTS", "")) if os.environ.get("PRACA_SHOTS") else None


@pytest.fixture
def appearance(app_ready):
    """Choose an appearance as the clerk does; the desk's choice and the application's look restored after."""
    app = QApplication.instance()
    yield theme.choose
    QSettings().remove(theme.SETTING)
    theme.apply(app)


# --------------------------------------------------------------------------- the palettes, as numbers


@pytest.mark.parametrize("dark", [False, True], ids=["claro", "escuro"])
def test_each_palette_and_each_role_reads_on_every_ground(dark):
    palette = theme.make_palette(dark)
    assert theme.is_dark(palette) == dark
    role = QPalette.ColorRole
    text_on = {
        role.WindowText: [role.Window, role.Button],
        role.Text: [role.Base, role.AlternateBase, role.Window],
        role.ButtonText: [role.Button, role.Window],
        role.ToolTipText: [role.ToolTipBase],
        role.HighlightedText: [role.Highlight],
        role.PlaceholderText: [role.Base],
        role.Link: [role.Base, role.Window],
    }
    for ink, grounds in text_on.items():
        for ground in grounds:
            ratio = theme.contrast(palette.color(ink), palette.color(ground))
            assert ratio >= AA, (ink.name, ground.name, round(ratio, 2))
    grounds = [palette.color(r) for r in (role.Window, role.Base, role.AlternateBase, role.Button)]
    grounds += [theme.qcolour(name, palette) for name in ("panel", "status_bar")]
    for name in theme.TEXT_ROLES:
        for ground in grounds:
            ratio = theme.contrast(theme.qcolour(name, palette), ground)
            assert ratio >= AA, (name, ground.name(), round(ratio, 2))
    shades = theme.values(palette)
    assert theme.contrast(QColor(shades["field_ink"]), QColor(shades["error_field"])) >= AA
    assert theme.contrast(QColor(shades["error"]), QColor(shades["error_background"])) >= AA  # refused import rows
    assert theme.contrast(QColor(shades["nav_text"]), QColor(shades["nav"])) >= AA
    assert theme.contrast(QColor(shades["nav_selected_text"]), QColor(shades["nav_selected"])) >= AA


# --------------------------------------------------------------------------- the choice


def test_configuracoes_aparencia_switches_the_whole_application_at_once_and_is_kept(appearance, database, qtbot):
    from desktop.main_window import MainWindow
    from views.blocks import FieldErrorsView

    QSettings().clear()
    window = MainWindow()
    qtbot.addWidget(window)
    window.show()
    app = QApplication.instance()
    assert theme.style_name() == "fusion"
    assert not theme.is_dark(app.palette())  # Sistema, and the offscreen desk says nothing: light
    assert window.appearance_actions[theme.SYSTEM].isChecked()
    file_menu = window.menuBar().actions()[0].menu()
    settings = next(a.menu() for a in file_menu.actions() if a.text() == "&Configurações")
    shown = next(a.menu() for a in settings.actions() if a.text() == "&Aparência")
    assert [a.text() for a in shown.actions()] == [
        "&Sistema (claro ou escuro, como o computador)",
        "&Claro",
        "&Escuro",
    ]

    # what a screen had already drawn with the light shades: a muted hint and a refused field
    hint, field = QLabel("dica"), QLineEdit("x")
    theme.styled(hint, "color: ${muted};")
    FieldErrorsView(QLabel(), {"name": field}).show({"name": "Informe o nome."})
    assert theme.ROLES["muted"][0] in hint.styleSheet() and theme.ROLES["error_field"][0] in field.styleSheet()

    window.appearance_actions[theme.DARK].trigger()  # Arquivo → Configurações → Aparência → Escuro
    assert QSettings().value(theme.SETTING) == theme.DARK
    assert theme.is_dark(app.palette()) and theme.style_name() == "fusion"
    assert app.palette().color(QPalette.ColorRole.Base) == QColor(theme.PALETTE["Base"][1])
    assert theme.ROLES["heading"][1] in app.styleSheet()
    assert theme.ROLES["muted"][1] in hint.styleSheet()  # filled again for the dark palette
    assert theme.ROLES["error_field"][1] in field.styleSheet()
    assert window.appearance_actions[theme.DARK].isChecked()
    assert not window.appearance_actions[theme.SYSTEM].isChecked()

    field.setStyleSheet("")  # the clerk corrected it: a cleared field is not marked again by a later switch
    window.appearance_actions[theme.LIGHT].trigger()
    assert not theme.is_dark(app.palette()) and QSettings().value(theme.SETTING) == theme.LIGHT
    assert theme.ROLES["muted"][0] in hint.styleSheet() and field.styleSheet() == ""

    # the next start (ensure_app → theme.apply) takes the desk's saved choice
    QSettings().setValue(theme.SETTING, theme.DARK)
    theme.apply(app)
    assert theme.is_dark(app.palette())
    window.appearance_actions[theme.SYSTEM].trigger()
    assert not theme.is_dark(app.palette()) and QSettings().value(theme.SETTING) == theme.SYSTEM


def test_sistema_follows_the_desktop_when_it_switches_to_dark(appearance, monkeypatch):
    app = QApplication.instance()
    appearance(theme.SYSTEM)
    monkeypatch.setattr(theme, "system_is_dark", lambda: True)
    theme._system_switched(app)  # what the desktop's colorSchemeChanged calls
    assert theme.is_dark(app.palette())
    appearance(theme.LIGHT)  # a choice of the clerk's is not overridden by the desktop
    theme._system_switched(app)
    assert not theme.is_dark(app.palette())


# --------------------------------------------------------------------------- every desk, read


def _ground(widget: QWidget) -> QColor:
    """The colour the widget's text is read on: its most common pixel, drawn over its parent as seen."""
    parent = widget.parentWidget()
    image = (parent.grab(widget.geometry()) if parent is not None else widget.grab()).toImage()
    pixels = Counter(image.pixel(x, y) for x in range(0, image.width(), 2) for y in range(0, image.height(), 2))
    return QColor.fromRgb(pixels.most_common(1)[0][0])


def _inks(label: QLabel) -> set[str]:
    """Every colour the label's text is written in: its palette's, and each one its rich text names."""
    default = label.palette().color(label.foregroundRole())
    if label.textFormat() == Qt.TextFormat.PlainText or "<" not in label.text():
        return {default.name()}
    document = QTextDocument()
    document.setHtml(label.text())
    inks: set[str] = set()
    block = document.begin()
    while block.isValid():
        fragment_it = block.begin()
        while not fragment_it.atEnd():
            fragment = fragment_it.fragment()
            if fragment.text().strip(" \xa0"):
                brush = fragment.charFormat().foreground()
                ground = fragment.charFormat().background()
                if ground.style() == Qt.BrushStyle.NoBrush:  # a swatch (ink = ground) is a colour, not text
                    inks.add((brush.color() if brush.style() != Qt.BrushStyle.NoBrush else default).name())
            fragment_it += 1
        block = block.next()
    return inks


def _cell_colours(view: QAbstractItemView, index, row: int) -> tuple[QColor, QColor]:
    palette = view.palette()
    ink = index.data(Qt.ItemDataRole.ForegroundRole)
    ground = index.data(Qt.ItemDataRole.BackgroundRole)
    ink = QColor(ink.color() if hasattr(ink, "color") else ink) if ink is not None else None
    ground = QColor(ground.color() if hasattr(ground, "color") else ground) if ground is not None else None
    if ground is None or ground.alpha() == 0:
        alternate = view.alternatingRowColors() and row % 2 == 1
        ground = palette.color(QPalette.ColorRole.AlternateBase if alternate else QPalette.ColorRole.Base)
    return ink or palette.color(QPalette.ColorRole.Text), ground


def _low_contrast(root: QWidget, where: str) -> tuple[list[str], int]:
    """What ``root`` shows below 4.5:1: labels (every colour of their text on the ground drawn under them), the
    cells of its tables and lists (their foreground on their background), headers, buttons and fields (those
    enabled: a disabled one is greyed on purpose)."""
    low: list[str] = []
    checked = 0

    def check(what: str, ink: QColor, ground: QColor) -> None:
        nonlocal checked
        checked += 1
        ratio = theme.contrast(ink, ground)
        if ratio < AA:
            low.append(f"{where}: {what} {ink.name()} sobre {ground.name()} = {ratio:.2f}")

    for widget in root.findChildren(QWidget):
        if not widget.isVisible() or widget.width() < 4 or widget.height() < 4:
            continue
        name = widget.objectName() or type(widget).__name__
        if isinstance(widget, QLabel) and widget.text().strip() and widget.pixmap().isNull():
            ground = _ground(widget)
            for ink in _inks(widget):
                check(f"rótulo {name} {widget.text()[:30]!r}", QColor(ink), ground)
        elif isinstance(widget, QHeaderView):
            model, palette = widget.model(), widget.palette()
            if model is None:
                continue
            count = model.columnCount() if widget.orientation() == Qt.Orientation.Horizontal else 0
            for section in range(min(count, 30)):
                if widget.isSectionHidden(section):
                    continue
                ink = model.headerData(section, widget.orientation(), Qt.ItemDataRole.ForegroundRole)
                ink = QColor(ink.color() if hasattr(ink, "color") else ink) if ink is not None else None
                check(
                    f"cabeçalho {name}[{section}]",
                    ink or palette.color(QPalette.ColorRole.ButtonText),
                    palette.color(QPalette.ColorRole.Button),
                )
            if count:  # and as drawn: the white-on-white header under a dark desktop theme (issue 31 §6)
                image = widget.grab().toImage()
                pixels = Counter(image.pixel(x, y) for x in range(image.width()) for y in range(image.height()))
                ground = QColor.fromRgb(pixels.most_common(1)[0][0])
                ink = max((QColor.fromRgb(p) for p in pixels), key=lambda c: theme.contrast(ground, c))
                check(f"cabeçalho {name} desenhado", ink, ground)
        elif isinstance(widget, QAbstractItemView) and not isinstance(widget, QHeaderView):
            model = widget.model()
            if model is None:
                continue
            try:
                columns = model.columnCount()
            except TypeError:  # a list model keeps columnCount private: one column
                columns = 1
            for row in range(min(model.rowCount(), 25)):
                for column in range(min(columns, 15)):
                    index = model.index(row, column)
                    if not index.data(Qt.ItemDataRole.DisplayRole):
                        continue
                    ink, ground = _cell_colours(widget, index, row)
                    check(f"célula {name}[{row},{column}]", ink, ground)
        elif not widget.isEnabled():  # a disabled control: greyed on purpose, WCAG asks no contrast of it
            continue
        elif isinstance(widget, QAbstractButton) and widget.text().strip():
            palette = widget.palette()
            check(
                f"botão {name}",
                palette.color(widget.foregroundRole()),
                palette.color(widget.backgroundRole()),
            )
        elif isinstance(widget, QLineEdit):
            palette = widget.palette()
            check(f"campo {name}", palette.color(QPalette.ColorRole.Text), palette.color(QPalette.ColorRole.Base))
    return low, checked


def _settle() -> None:
    """Let the layouts settle (a word-wrapped label gets its height over a few passes): drawn as the clerk sees it."""
    for _ in range(4):
        QApplication.processEvents()


def _every_tab(page: QWidget):
    """The page as shown, then each tab of its tab widgets in turn (the desk's other screens)."""
    yield "início"
    for tabs in page.findChildren(QTabWidget):
        if not tabs.isVisible():
            continue
        for index in range(tabs.count()):
            if tabs.isTabEnabled(index) and tabs.isTabVisible(index):
                tabs.setCurrentIndex(index)
                _settle()
                yield tabs.tabText(index).replace("&", "")


@pytest.mark.parametrize("mode", [theme.LIGHT, theme.DARK], ids=["claro", "escuro"])
def test_every_desk_and_its_tabs_read_at_4_5_to_1(appearance, demo_database, qtbot, mode):
    """On the full demo (a year of permits, charges and enforcement: the lists have rows in their colours)."""
    from desktop.main_window import MainWindow

    QSettings().clear()
    appearance(mode)
    window = MainWindow()
    qtbot.addWidget(window)
    window.resize(1366, 768)
    window.show()
    qtbot.waitExposed(window)
    low: list[str] = []
    checked = 0
    for desk in window.desks:
        window.show_desk(desk.key)
        _settle()
        page = window.pages[desk.key]
        for tab in _every_tab(page):
            found, count = _low_contrast(page, f"{desk.key}/{tab}")
            low += found
            checked += count
            if SHOTS is not None:  # PRACA_SHOTS=folder: the screens as checked, to look at
                SHOTS.mkdir(parents=True, exist_ok=True)
                window.grab().save(str(SHOTS / f"{mode}-{desk.key}-{tab.replace('/', '-')}.png"))
    navigation, nav_count = _low_contrast(window.nav.parentWidget(), "navegação")
    assert checked + nav_count > 500
    assert not low + navigation, sorted(set(low + navigation))


@pytest.mark.parametrize("mode", [theme.LIGHT, theme.DARK], ids=["claro", "escuro"])
def test_the_application_opened_to_decide_reads_with_its_marks_in_colour(appearance, database, qtbot, mode):
    """The approval view: under a dark desktop theme its table header was white on white and ✔/✘ lost their
    colours (issue 31 §6). The record as filed is on paper, the marks in their roles' paper shades."""
    import datetime as dt

    from models.registry.applications import ApplicationInput, change_status
    from models.registry.people import PersonInput, save_person
    from models.services.filing import create_application
    from views.application_view import ApplicationView

    today = dt.date(2026, 11, 30)
    person = save_person(
        PersonInput(name="Maria José da Silva", cpf="529.982.247-25", birth_date=dt.date(1980, 5, 17)), today=today
    )
    application = create_application(
        ApplicationInput(regime="sapezal-2014", permit_kind="ponto-fixo", person_id=person.id), clerk="ana", today=today
    )
    change_status(application, "analysis", by="ana")
    appearance(mode)
    view = ApplicationView(application.id)
    qtbot.addWidget(view)
    view.show()
    qtbot.waitExposed(view)
    low, checked = _low_contrast(view, "decisão")
    assert checked > 10 and not low, low
    html = view.filed.toHtml()
    paper = view.filed.palette().color(QPalette.ColorRole.Base)
    from views.application_view import MARK_ROLES

    ink = view.filed.palette().color(QPalette.ColorRole.Text)
    block = view.filed.document().begin()
    while block.isValid():  # every fragment of the record on its ground — a table cell's (the header's) included
        ground = paper
        table = QTextCursor(block).currentTable()
        if table is not None:
            cell_ground = table.cellAt(QTextCursor(block)).format().background()
            if cell_ground.style() != Qt.BrushStyle.NoBrush:
                ground = cell_ground.color()
        fragments = block.begin()
        while not fragments.atEnd():
            fragment = fragments.fragment()
            fmt = fragment.charFormat()
            if fragment.text().strip():
                fg = fmt.foreground().color() if fmt.foreground().style() != Qt.BrushStyle.NoBrush else ink
                bg = fmt.background().color() if fmt.background().style() != Qt.BrushStyle.NoBrush else ground
                assert theme.contrast(fg, bg) >= AA, (fragment.text()[:30], fg.name(), bg.name())
            fragments += 1
        block = block.next()
    assert paper == QColor("#ffffff")

    coloured = [status for status in ("passed", "failed") if theme.on_paper(MARK_ROLES[status]) in html]
    assert coloured, "✔/✘ sem cor"
    for colour in {theme.on_paper(role) for role in theme.TEXT_ROLES}:
        assert theme.contrast(QColor(colour), paper) >= AA


@pytest.mark.parametrize("mode", [theme.LIGHT, theme.DARK], ids=["claro", "escuro"])
def test_the_dialogs_the_desks_open_read_at_4_5_to_1(appearance, demo_database, qtbot, monkeypatch, mode):
    """The forms a clerk fills (a person, a company, an application, a payment, an infraction record, a user), as
    opened from their desks, kept instead of run."""
    from conftest import searched
    from PySide6.QtWidgets import QDialog

    from desktop.main_window import MainWindow

    QSettings().clear()
    appearance(mode)
    opened: list[QDialog] = []
    monkeypatch.setattr(QDialog, "exec", lambda dialog: opened.append(dialog) or 0)
    window = MainWindow()
    qtbot.addWidget(window)
    window.resize(1366, 768)
    window.show()
    desk = window.pages["atendimento"]
    window.show_desk("atendimento")
    desk.search.register("person")
    desk.search.register("company")
    desk.search.query.setText("a")
    desk.search.search()
    searched(qtbot, desk.search)
    desk.search.table.selectRow(0)
    desk.search.start_application()
    window.show_desk("cobranca")
    charges = window.pages["cobranca"].charges
    month = charges.month
    for index in range(month.count()):  # a month of the demo's with a charge to pay
        month.setCurrentIndex(index)
        charges.refresh_rows()
        payable = [i for i, r in enumerate(charges.model.rows) if r.status != "cancelled"]
        if payable:
            charges.table.selectRow(payable[0])
            break
    charges.pay_selected()
    window.show_desk("fiscalizacao")
    window.pages["fiscalizacao"].records.new_record()
    window.show_desk("cadastros")
    window.pages["cadastros"].users.new_user()
    assert len(opened) >= 5, [type(d).__name__ for d in opened]
    low: list[str] = []
    for dialog in opened:
        qtbot.addWidget(dialog)
        dialog.show()
        _settle()
        found, checked = _low_contrast(dialog, f"{type(dialog).__name__} {dialog.windowTitle()!r}")
        assert checked > 3, dialog.windowTitle()
        low += found
        if SHOTS is not None:
            SHOTS.mkdir(parents=True, exist_ok=True)
            dialog.grab().save(str(SHOTS / f"{mode}-dialog-{type(dialog).__name__}.png"))
        dialog.close()
    assert not low, sorted(set(low))


# --------------------------------------------------------------------------- Qt's own arguments


def test_qts_own_arguments_are_taken_off_the_command_line():
    assert split_qt_arguments(["-style", "Fusion"]) == ([], ["-style", "Fusion"])
    assert split_qt_arguments(["--db", "sqlite:///x", "-style=windows", "-reverse"]) == (
        ["--db", "sqlite:///x"],
        ["-style=windows", "-reverse"],
    )
    assert split_qt_arguments(["check-window", "-platform", "offscreen"]) == (
        ["check-window"],
        ["-platform", "offscreen"],
    )
    assert split_qt_arguments(["quote", "--style", "x"]) == (["quote", "--style", "x"], [])  # two dashes: Praça's


def test_praca_dash_style_fusion_opens_the_window_with_qts_arguments(monkeypatch):
    import desktop.app

    seen = {}
    monkeypatch.setattr(desktop.app, "run_gui", lambda db, qt=(): seen.update(db=db, qt=list(qt)) or 0)
    assert main(["-style", "Fusion", "--db", "sqlite:///nada.sqlite3"]) == 0
    assert seen == {"db": "sqlite:///nada.sqlite3", "qt": ["-style", "Fusion"]}


def test_qts_arguments_on_a_command_without_a_window_are_refused_in_one_line(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["regimes", "-style", "Fusion"])
    assert exit_.value.code == 2
    assert capsys.readouterr().err == "praca: argumentos não reconhecidos: -style Fusion\n"


@pytest.mark.subprocess
def test_praca_dash_style_opens_every_desk_in_the_style_named(tmp_path):
    """The real command in a process of its own: Qt takes ``-style``; without it Praça draws with Fusion."""
    url = f"sqlite:///{tmp_path / 'praca.sqlite3'}"
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "PRACA_PASSWORD": "senha-forte-123", "PRACA_USER": "ana"}
    env.pop("QT_STYLE_OVERRIDE", None)

    def praca(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, "-m", "desktop", *args], capture_output=True, text=True, env=env, timeout=300
        )

    made = praca("init", "--admin", "ana", "--db", url)
    assert made.returncode == 0, made.stderr
    for argv, style in ((["-style", "Windows"], "windows"), (["-style=Fusion"], "fusion"), ([], "fusion")):
        shown = praca(*argv, "check-window", "--offscreen", "--db", url)
        assert shown.returncode == 0, shown.stderr
        assert f"Aparência: estilo {style}, paleta clara (system)." in shown.stdout, shown.stdout
