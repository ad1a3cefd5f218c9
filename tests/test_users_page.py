"""Login, the first administrator, Cadastros → Usuários and Auditoria, driven like a clerk."""

from __future__ import annotations

import pytest
from conftest import type_text
from PySide6.QtCore import Qt

from models.access import session
from models.access.users import User, create_user
from models.store.audit import AuditEntry

PASSWORD = "senha-forte-123"


@pytest.fixture(autouse=True)
def nobody_logged_in():
    yield
    session.log_out()


def test_first_start_creates_the_administrator_and_logs_in(qtbot, database, app_ready):
    from views.login import FirstAdminDialog

    dialog = FirstAdminDialog()
    qtbot.addWidget(dialog)
    type_text(dialog.name, "Joana Prefeitura")
    type_text(dialog.password, "curta")
    qtbot.mouseClick(dialog.ok_button, Qt.MouseButton.LeftButton)
    assert "ao menos 8 caracteres" in dialog.error.text() and User.select().count() == 0
    dialog.password.clear()
    type_text(dialog.password, PASSWORD)
    type_text(dialog.confirm, PASSWORD)
    qtbot.mouseClick(dialog.ok_button, Qt.MouseButton.LeftButton)
    assert dialog.result() == dialog.DialogCode.Accepted
    assert session.current().username == "admin" and session.current().role == "administrador"


def test_login_three_wrong_tries_give_up(qtbot, database, app_ready, queries):
    """…each try checked on a worker (issue 27 §5): no statement on the GUI thread."""
    from views.login import LoginDialog

    create_user(username="admin", name="Admin", role="administrador", password=PASSWORD)
    queries.entries.clear()
    dialog = LoginDialog()
    qtbot.addWidget(dialog)
    type_text(dialog.username, "admin")
    for _attempt in range(2):
        type_text(dialog.password, "errada-123")
        qtbot.mouseClick(dialog.ok_button, Qt.MouseButton.LeftButton)
        assert "Usuário ou senha incorretos" in dialog.error.text() and dialog.password.text() == ""
    type_text(dialog.password, PASSWORD)
    qtbot.mouseClick(dialog.ok_button, Qt.MouseButton.LeftButton)
    assert session.current().username == "admin"
    session.log_out()
    again = LoginDialog()
    qtbot.addWidget(again)
    for _attempt in range(3):
        type_text(again.password, "errada-123")
        qtbot.mouseClick(again.ok_button, Qt.MouseButton.LeftButton)
    assert again.result() == again.DialogCode.Rejected and session.current() is None
    assert queries.entries and queries.on_gui_thread() == []


def test_the_administrator_manages_users_and_a_clerk_cannot(qtbot, database, app_ready, no_blocking_message_boxes):
    from conftest import run_modal

    from views.users_page import AuditPage, UsersPage

    admin = create_user(username="admin", name="Admin", role="administrador", password=PASSWORD)
    session.log_in(admin.as_session())
    page = UsersPage()
    qtbot.addWidget(page)
    page.refresh()

    def fill(dialog):
        type_text(dialog.name, "Ana Souza")
        type_text(dialog.username, "ana.souza")
        dialog.role.setCurrentIndex(dialog.role.findData("atendente"))
        type_text(dialog.password, PASSWORD)
        type_text(dialog.confirm, PASSWORD)
        qtbot.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)

    run_modal(lambda: page.new_user(), fill)
    assert "Usuário ana.souza cadastrado (atendente)" in page.message.text()
    page.table.selectRow([u.username for u in page.model.rows].index("ana.souza"))
    assert page.change_role("fiscal") and User.get(User.username == "ana.souza").role == "fiscal"
    assert page.toggle_active() and not User.get(User.username == "ana.souza").active

    audit = AuditPage()
    qtbot.addWidget(audit)
    audit.refresh()
    assert audit.chain.text().startswith("Trilha de auditoria íntegra:")  # the hash chain checked on opening
    type_text(audit.username, "admin")
    qtbot.waitUntil(lambda: not audit.search_timer.isActive())  # the search as you type has run (not after the test)
    assert audit.model.rowCount() > 0
    changes = [audit.model.index(r, 5).data() for r in range(audit.model.rowCount())]
    assert any("active: True → False" in c for c in changes) and any("role: atendente → fiscal" in c for c in changes)

    ana = User.get(User.username == "ana.souza")
    session.log_in(session.Session(ana.id, ana.username, ana.name, "atendente"))
    page.refresh()
    assert not page.new_button.isEnabled()
    assert not page.change_role("administrador")  # even if called directly, the domain refuses
    assert "não pode administrar usuários" in page.message.text()
    audit.refresh()
    assert audit.model.rowCount() == 0 and "não pode consultar a trilha" in audit.message.text()
    assert AuditEntry.select().where(AuditEntry.username == "admin").count() >= 3
