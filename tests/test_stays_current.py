"""Issue 18 §2: a change made on one desk shows on every desk of the window; one made by another desk sharing the
database shows when the clerk returns to the list; a change of user leaves nothing the last user was told."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest
from conftest import run_modal, type_text
from PySide6.QtCore import QSettings, Qt

from models.store.files import set_store


@pytest.fixture
def window(app_ready, qtbot, database, tmp_path):
    QSettings().clear()
    set_store(tmp_path / "files")
    from desktop.main_window import MainWindow

    win = MainWindow()
    qtbot.addWidget(win)
    win.show()
    return win


def register(window, qtbot, name: str, cpf: str) -> None:
    """Atendimento → Balcão → Nova pessoa, typed and saved."""
    window.show_desk("atendimento")
    desk = window.pages["atendimento"].search

    def fill(dialog):
        type_text(dialog.cpf, cpf)
        type_text(dialog.name, name)
        qtbot.keyClicks(dialog.birth, "17051980")
        qtbot.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)
        assert not dialog.isVisible(), dialog.errors.shown

    run_modal(lambda: desk.register("person"), fill)


def test_a_person_registered_at_the_front_desk_counts_on_the_painel_at_once(window, qtbot):
    window.show_desk("painel")
    home = window.pages["painel"]
    assert home.people.text() == "0"
    register(window, qtbot, "Maria José da Silva", "52998224725")
    assert home.people.text() == "0"  # not on screen: refreshed when shown, not before
    window.show_desk("painel")
    assert home.people.text() == "1"
    window.show_desk("cadastros")  # nothing changed since: the desk is not refreshed again
    home.people.setText("sentinel")
    window.show_desk("painel")
    assert home.people.text() == "sentinel"


def test_another_desks_change_reaches_an_open_list_when_the_clerk_returns(window, qtbot, database, tmp_path):
    window.show_desk("painel")
    home = window.pages["painel"]
    assert home.people.text() == "0"
    window.show_desk("atendimento")
    # another desk — another process, on the same database — registers someone
    script = textwrap.dedent(f"""
        from models.access import session
        from models.store.bootstrap import open_database
        from models.registry.people import PersonInput, save_person
        import datetime
        session.log_in(session.SYSTEM)  # a desk of its own: someone is logged in there
        open_database({database!r})
        save_person(PersonInput(name="João Batista Rocha", cpf="111.444.777-35",
                                birth_date=datetime.date(1970, 1, 2)), today=datetime.date(2026, 12, 1))
    """)
    subprocess.run([sys.executable, "-c", script], check=True, cwd=str(__import__("pathlib").Path(__file__).parents[1]))
    assert home.people.text() == "0"
    window.show_desk("painel")
    assert home.people.text() == "1"


def test_a_change_of_user_leaves_nothing_the_last_user_was_told(window, qtbot):
    from models.access.users import create_user

    for username, role in (("admin", "administrador"), ("bia", "fiscal")):
        create_user(username=username, name=username.title(), role=role, password="segredo123", confirm="segredo123")
    window.show_desk("cobranca")
    charges = window.pages["cobranca"].charges
    charges.message.setText("Pagamento de R$ 10,00 registrado na cobrança nº 2026/00001.")
    window.statusBar().showMessage("Backup gravado em /tmp/x.")

    def log_in(dialog):
        type_text(dialog.username, "bia")
        type_text(dialog.password, "segredo123")
        qtbot.mouseClick(dialog.ok_button, Qt.MouseButton.LeftButton)
        assert not dialog.isVisible(), dialog.error.text()

    run_modal(window.switch_user, log_in)
    from models.access import session

    try:
        assert session.current().username == "bia"
        assert charges.message.text() == ""
        assert "Backup" not in window.statusBar().currentMessage()
    finally:
        session.log_out()


def test_a_report_is_written_off_the_gui_thread_while_the_window_stays_responsive(window, qtbot, tmp_path, monkeypatch):
    import threading

    import views.reports_page as reports_page

    seen = {}

    def export(year, month, fmt, path, *, today, progress, municipality):
        seen["thread"] = threading.current_thread()
        progress(1, 2)
        progress(2, 2)
        raise reports_page.UserError("Nada a exportar (teste).")

    monkeypatch.setattr(reports_page, "export_fee_report", export)
    window.show_desk("relatorios")
    page = window.pages["relatorios"]
    assert page.export(tmp_path / "taxas.pdf", open_after=False) is None
    assert seen["thread"] is not threading.main_thread()
    assert "Nada a exportar" in page.message.text() and page.export_button.isEnabled()


def test_f5_reads_the_desk_on_screen_again_the_painel_too(window, qtbot):
    """Issue 31 §6: the Painel refreshed only when reached again; F5 did nothing. Now F5, on any desk, reads it
    again at once — here a person registered while the Painel is on screen (as another desk's write would be)."""
    import datetime

    from models.registry.people import PersonInput, save_person

    window.show_desk("painel")
    home = window.pages["painel"]
    assert home.people.text() == "0"
    save_person(
        PersonInput(name="João Batista Rocha", cpf="111.444.777-35", birth_date=datetime.date(1970, 1, 2)),
        today=datetime.date(2026, 12, 1),
    )
    assert home.people.text() == "0"
    window.activateWindow()
    qtbot.keyClick(window.nav, Qt.Key.Key_F5)
    assert home.people.text() == "1"
    assert window.action_reload.text().replace("&", "") == "Atualizar esta mesa"
    window.show_desk("atendimento")  # another desk: F5 there too
    desk = window.pages["atendimento"]
    refreshed = []
    desk.refresh = lambda: refreshed.append(True)
    qtbot.keyClick(window.nav, Qt.Key.Key_F5)
    assert refreshed == [True]
