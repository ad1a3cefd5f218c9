"""Issue 26 §1: a session belongs to one database, and every act re-checks its author in the database.

The attacks of the issue, on SQLite and on PostgreSQL: a login made on a database of one's own (``praca init
--admin eve``) carried into the town's — in the window, on the command line, through the domain —, and a chefe
deactivated or demoted by the administrator at another desk who goes on acting in a window left open.
"""

from __future__ import annotations

import threading

import pytest
from conftest import type_text
from factories import open_new_database
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLineEdit

from desktop import login as cli_login
from desktop.cli import main
from models.access import session
from models.access.session import PermissionDenied, acting_as
from models.access.users import User, authenticate, change_role, create_user, set_active
from models.registry.people import Person, PersonInput, save_person
from models.store.audit import AuditEntry, verify_chain
from models.store.bootstrap import close_database, open_database
from models.store.db import current_database_id, db

PASSWORD = "senha-forte-123"
MARIA = PersonInput(name="Maria da Silva", cpf="529.982.247-25")


@pytest.fixture(autouse=True)
def nobody_at_the_end():
    yield
    session.log_out()


@pytest.fixture
def town(database):
    """The town's database (each back end): its administrator and a chefe; closed, as a desk finds it."""
    create_user(username="admin", name="Joana Admin", role="administrador", password=PASSWORD)
    with acting_as(authenticate("admin", PASSWORD).as_session()):
        create_user(username="chefe", name="Carlos Chefe", role="chefe", password=PASSWORD)
    close_database()
    return database


@pytest.fixture
def eves(tmp_path):
    """A database anyone can make without a login (``praca init --admin eve``): eve is its administrator."""
    url = f"sqlite:///{tmp_path / 'eve.sqlite3'}"
    open_new_database(url)
    create_user(username="eve", name="Eve", role="administrador", password=PASSWORD)
    close_database()
    return url


def _eve_logged_in(eves: str) -> session.Session:
    open_database(eves)
    with acting_as(None):
        eve = authenticate("eve", PASSWORD).as_session()
    session.log_in(eve)
    return eve


def _names_in_trail() -> set[str]:
    return {e.username for e in AuditEntry.select(AuditEntry.username)}


# --------------------------------------------------------------------------- a login carried to another database


def test_every_database_has_an_identity_of_its_own_and_a_login_carries_it(town, eves):
    open_database(town)
    mine = current_database_id()
    with acting_as(None):
        assert authenticate("admin", PASSWORD).as_session().database_id == mine
    close_database()
    open_database(eves)
    assert len(mine) == 32 and current_database_id() not in ("", mine)
    close_database()


def test_opening_another_database_ends_the_session(town, eves):
    eve = _eve_logged_in(eves)
    assert session.current() == eve
    open_database(town)  # the town's database, by any path
    assert session.current() is None
    with pytest.raises(PermissionDenied, match="Ninguém entrou"):
        save_person(MARIA)
    close_database()


def test_a_login_of_another_database_is_refused_at_every_act_and_never_reaches_the_trail(town, eves):
    eve = _eve_logged_in(eves)
    close_database()
    open_database(town)
    with acting_as(eve):  # however the session got here
        with pytest.raises(PermissionDenied, match="feito em outro banco de dados"):
            save_person(MARIA)
        with pytest.raises(PermissionDenied, match="feito em outro banco de dados"):
            create_user(username="eve", name="Eve", role="administrador", password=PASSWORD)
        with pytest.raises(PermissionDenied, match="feito em outro banco de dados"):
            # a write that asks for no role: the trail itself refuses to record a user the database lacks
            Person.create(name="Maria", cpf="52998224725", search_name="maria")
    assert "eve" not in _names_in_trail() and not Person.select().exists()
    assert User.select().where(User.username == "eve").count() == 0
    assert verify_chain().intact
    close_database()


def test_a_session_whose_user_this_database_lacks_is_refused_even_with_its_identity(town):
    """A session that names this database but a user it does not have (an id of another user, say)."""
    open_database(town)
    forged = session.Session(1, "eve", "Eve", "administrador", current_database_id())
    with acting_as(forged), pytest.raises(PermissionDenied, match="usuário eve não existe neste banco"):
        save_person(MARIA)
    assert "eve" not in _names_in_trail()
    close_database()


def test_the_window_asks_a_login_in_the_database_it_opens(town, eves, app_ready, qtbot, monkeypatch):
    import views.login
    from desktop.main_window import MainWindow

    _eve_logged_in(eves)
    window = MainWindow()
    qtbot.addWidget(window)
    asked = []

    def log_in_there(parent, place=""):
        asked.append((place, session.current()))
        return False  # eve has no user there: she gives up

    monkeypatch.setattr(views.login, "log_in_at_start", log_in_there)
    assert not window.switch_database(town)  # Arquivo → Abrir banco de dados…
    assert asked == [(town, None)]  # the login is asked there, with nobody logged in meanwhile
    assert session.current() is None and not window.isVisible()
    assert "eve" not in _names_in_trail()


def test_the_window_goes_on_with_the_user_who_logs_in_there(town, eves, app_ready, qtbot, monkeypatch):
    import views.login
    from desktop.main_window import MainWindow

    _eve_logged_in(eves)
    window = MainWindow()
    qtbot.addWidget(window)

    def log_in_there(parent, place=""):
        with acting_as(None):
            chefe = authenticate("chefe", PASSWORD).as_session()
        session.log_in(chefe)
        return True

    monkeypatch.setattr(views.login, "log_in_at_start", log_in_there)
    assert window.switch_database(town)
    assert session.current().username == "chefe" and "Carlos Chefe" in window.db_label.text()
    save_person(MARIA)
    assert "chefe" in _names_in_trail() and "eve" not in _names_in_trail()


def test_the_command_line_logs_in_the_database_it_opens_not_the_session_it_finds(town, eves, monkeypatch, capsys):
    for name in ("PRACA_USER", "PRACA_PASSWORD"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(cli_login, "ask_password", lambda prompt: (_ for _ in ()).throw(EOFError()))
    _eve_logged_in(eves)
    close_database()
    assert main(["--db", town, "sites"]) == 2
    assert "praca sites exige login" in capsys.readouterr().err
    monkeypatch.setenv("PRACA_USER", "chefe")
    monkeypatch.setenv("PRACA_PASSWORD", PASSWORD)
    _eve_logged_in(eves)
    close_database()
    assert main(["--db", town, "sites"]) == 0  # the town's own user, logged in there
    assert session.current() is None


# --------------------------------------------------------------------------- deactivated or demoted at another desk


def _at_another_desk(act) -> None:
    """``act`` run as the town's administrator from another desk: a thread with a connection of its own."""
    failed = []

    def desk():
        try:
            with acting_as(None):
                admin = authenticate("admin", PASSWORD)
            with acting_as(admin.as_session()):
                act()
        except BaseException as exc:  # said by the test below
            failed.append(exc)
        finally:
            db.close()  # this thread's connection

    thread = threading.Thread(target=desk)
    thread.start()
    thread.join(60)
    assert not failed, failed


def _chefe_logged_in(town: str) -> session.Session:
    open_database(town)
    with acting_as(None):
        chefe = authenticate("chefe", PASSWORD).as_session()
    session.log_in(chefe)
    return chefe


def test_a_chefe_deactivated_at_another_desk_stops_at_the_next_act(town):
    _chefe_logged_in(town)
    maria = save_person(MARIA)  # acting, before
    _at_another_desk(lambda: set_active(User.get(User.username == "chefe"), False))
    with pytest.raises(PermissionDenied, match="chefe foi desativado pelo administrador: nada foi gravado"):
        save_person(PersonInput(name="Maria da Silva Santos", cpf="529.982.247-25"), person=maria)
    assert Person.get_by_id(maria.id).name == "Maria da Silva"
    close_database()


def test_the_check_is_made_in_the_transaction_that_writes(town):
    """Deactivated after the act's role was checked and before it writes: the write itself is refused."""
    _chefe_logged_in(town)
    session.require("people.save")  # the act's check, passed
    _at_another_desk(lambda: set_active(User.get(User.username == "chefe"), False))
    with pytest.raises(PermissionDenied, match="desativado"):
        Person.create(name="Maria", cpf="52998224725", search_name="maria")
    assert not Person.select().exists()
    assert not AuditEntry.select().where(AuditEntry.username == "chefe", AuditEntry.table_name == "person").exists()
    close_database()


def test_a_chefe_demoted_at_another_desk_stops_at_the_next_act(town):
    from models.billing.charges import Charge

    _chefe_logged_in(town)
    _at_another_desk(lambda: change_role(User.get(User.username == "chefe"), "atendente"))
    with pytest.raises(PermissionDenied, match="mudou de chefe para atendente, que não pode cancelar cobranças"):
        session.require("charges.cancel")
    with pytest.raises(PermissionDenied, match="mudou de chefe para atendente: nada foi gravado"):
        save_person(MARIA)  # even what an atendente may do: logged in as chefe, the session no longer holds
    assert not Person.select().exists() and not Charge.select().exists()
    session.log_out()
    _chefe_logged_in(town)  # logged in again, as what they are now
    assert save_person(MARIA).name == "Maria da Silva"
    close_database()


def test_a_user_promoted_at_another_desk_goes_on(town):
    _chefe_logged_in(town)
    _at_another_desk(lambda: change_role(User.get(User.username == "chefe"), "administrador"))
    assert save_person(MARIA).id  # every act a chefe may do, an administrator may do
    close_database()


def test_the_open_window_of_a_deactivated_chefe_refuses_the_next_save(town, app_ready, qtbot):
    from views.person_form import PersonDialog

    _chefe_logged_in(town)
    dialog = PersonDialog()
    qtbot.addWidget(dialog)
    for key, value in {"name": "Maria José da Silva", "cpf": "52998224725", "birth_date": "17051980"}.items():
        type_text(dialog.findChild(QLineEdit, key), value)
    _at_another_desk(lambda: set_active(User.get(User.username == "chefe"), False))
    qtbot.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)
    assert dialog.result() != dialog.DialogCode.Accepted
    assert "foi desativado pelo administrador" in dialog.error.text()
    assert not Person.select().exists()
    dialog.dirty = False
    dialog.close()
    close_database()


def test_confirm_is_the_hook_for_an_act_that_writes_no_row(town):
    """An act whose effect is outside the database (a file signed, a page exported) checks its role in the
    database with ``session.confirm(act)`` inside its own transaction."""
    _chefe_logged_in(town)
    with db.atomic():
        session.confirm("people.save")
        with pytest.raises(PermissionDenied, match="não pode fazer e restaurar cópias de segurança"):
            session.confirm("backup")
    _at_another_desk(lambda: set_active(User.get(User.username == "chefe"), False))
    with db.atomic(), pytest.raises(PermissionDenied, match="desativado"):
        session.confirm("people.save")
    close_database()
