"""Issue 26 §2: on PostgreSQL no desk holds a credential stronger than its clerk (models/store/desks.py).

Each test builds its own schema as the tables' owner, gives the desks' group role its rights (``desks.grant``, what
``praca pg-setup`` runs) and a desk a login role with a password of its own, then attacks the way an insider at a
desk would: with the desk's credentials in ``psql`` (here a raw psycopg2 connection), with and without a Praça
user bound to the connection. Praça itself then works through the same credentials. The roles are dropped after.
"""

from __future__ import annotations

import datetime as dt
import uuid
from decimal import Decimal

import psycopg2
import pytest
from factories import TODAY, open_new_database, person, tpu

from models.access import session, users
from models.store import audit, desks
from models.store.bootstrap import close_database, open_database
from models.store.db import parse_url

PASSWORD = "segredo-123"
CLERKS = {"admin": "administrador", "ana": "atendente", "fiscal.marcos": "fiscal", "chefe": "chefe"}


class Desk:
    """A schema with Praça's tables, its owner's URL, and a desk's login role and URL."""

    def __init__(self, owner_url: str):
        self.owner_url = owner_url
        tag = uuid.uuid4().hex[:10]
        self.role = f"praca_desk_t{tag}"
        self.login = f"mesa_t{tag}"
        self.password = f"mesa-{tag}"
        target = parse_url(owner_url)
        host = f"{target.host or '127.0.0.1'}:{target.port or 5432}"
        self.url = f"postgresql://{self.login}:{self.password}@{host}/{target.dbname}?schema={target.schema}"
        self._target = target

    def psql(self, login: str | None = None, password: str = PASSWORD):
        """A raw connection with the desk's credentials (autocommit, as psql), bound to ``login`` when given."""
        target = self._target
        conn = psycopg2.connect(
            dbname=target.dbname,
            user=self.login,
            password=self.password,
            host=target.host,
            port=target.port,
            options=f"-c search_path={target.schema}",
        )
        conn.autocommit = True
        if login is not None:
            with conn.cursor() as cur:
                cur.execute("SELECT salt FROM praca_challenge(%s)", (login,))
                (salt,) = cur.fetchone()
                assert desks._answer(cur, login, desks._scrypt(password, bytes.fromhex(salt))) == "ok"
        return conn

    def owner(self):
        target = self._target
        conn = psycopg2.connect(
            dbname=target.dbname,
            user=target.user,
            host=target.host,
            port=target.port,
            options=f"-c search_path={target.schema}",
        )
        conn.autocommit = True
        return conn

    def open_as(self, login: str, password: str = PASSWORD):
        """Praça at the desk: the database opened with the desk's credentials and ``login`` logged in."""
        close_database()
        database = open_database(self.url)
        with session.acting_as(None):
            user = users.authenticate(login, password)
        session.log_in(user.as_session())
        return database


@pytest.fixture
def desk(pg_schema_url, tmp_path):
    from models.store.files import set_store

    set_store(tmp_path / "files")
    database = open_new_database(pg_schema_url)
    users.create_user(username="admin", name="Admin", role="administrador", password=PASSWORD)
    for login, role in CLERKS.items():
        if login != "admin":
            users.create_user(username=login, name=login.title(), role=role, password=PASSWORD)
    place = Desk(pg_schema_url)
    desks.grant(database, place.role)
    desks.add_desk_login(database, place.login, place.password, place.role)
    try:
        yield place
    finally:
        session.log_in(session.SYSTEM)
        close_database()
        with place.owner() as conn, conn.cursor() as cur:
            cur.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = %s AND pid <> pg_backend_pid()",
                (place.login,),
            )
            cur.execute(f'DROP OWNED BY "{place.login}", "{place.role}"')
            cur.execute(f'DROP ROLE "{place.login}"')
            cur.execute(f'DROP ROLE "{place.role}"')


def _role_of(desk: Desk, login: str) -> str:
    with desk.owner() as conn, conn.cursor() as cur:
        cur.execute("SELECT role FROM app_user WHERE username = %s", (login,))
        return cur.fetchone()[0]


def _trail(desk: Desk) -> list[tuple]:
    with desk.owner() as conn, conn.cursor() as cur:
        cur.execute("SELECT id, username, table_name, action, before, after FROM audit_entry ORDER BY id")
        return cur.fetchall()


def _refused(conn, sql: str, params=()) -> str:
    with conn.cursor() as cur, pytest.raises(psycopg2.Error) as caught:
        cur.execute(sql, params)
    return str(caught.value)


def _count(conn, sql: str, params=()) -> int:
    with conn.cursor() as cur:
        cur.execute(sql, params)
        return cur.rowcount


def test_the_desk_credential_alone_reads_no_personal_data_and_writes_nothing(desk):
    with session.acting_as(session.SYSTEM):
        person("Maria das Dores")
    conn = desk.psql()
    with conn.cursor() as cur:
        cur.execute("SELECT count(*) FROM person")
        assert cur.fetchone()[0] == 0  # the row is there; no Praça user is bound to this connection
    assert _count(conn, "UPDATE app_user SET role = 'administrador' WHERE username = 'ana'") == 0
    assert "row-level security" in _refused(
        conn,
        "INSERT INTO app_user (username, name, role, password_hash, active, created_at, version) "
        "VALUES ('eve', 'Eve', 'administrador', 'x', true, now(), 1)",
    )
    assert "permission denied" in _refused(conn, "SELECT * FROM praca_user_key")
    assert "permission denied" in _refused(conn, "SELECT * FROM praca_desk_session")
    assert _role_of(desk, "ana") == "atendente"


def test_a_clerk_cannot_promote_anyone_not_even_themself(desk):
    before = len(_trail(desk))
    conn = desk.psql("ana")
    assert "Só o administrador" in _refused(conn, "UPDATE app_user SET role = 'administrador' WHERE username = 'ana'")
    assert _count(conn, "UPDATE app_user SET role = 'administrador' WHERE username = 'fiscal.marcos'") == 0
    assert _count(conn, "UPDATE app_user SET active = false WHERE username = 'admin'") == 0
    assert "row-level security" in _refused(
        conn,
        "INSERT INTO app_user (username, name, role, password_hash, active, created_at, version) "
        "VALUES ('eve', 'Eve', 'administrador', 'x', true, now(), 1)",
    )
    # nor give themself the administrator's password at the server
    assert "Só o administrador" in _refused(conn, "SELECT praca_set_verifier('admin', 'aa', 'bb')")
    assert {login: _role_of(desk, login) for login in CLERKS} == CLERKS
    assert len(_trail(desk)) == before


def test_a_clerk_changes_their_own_password_only(desk):
    conn = desk.psql("ana")
    assert _count(conn, "UPDATE app_user SET last_login = now() WHERE username = 'ana'") == 1
    assert _count(conn, "UPDATE app_user SET password_hash = 'x' WHERE username = 'admin'") == 0
    entry = _trail(desk)[-1]
    assert entry[1:4] == ("ana", "app_user", "update")


def test_an_issued_permit_is_not_edited_at_any_desk(desk, tmp_path):
    with session.acting_as(session.SYSTEM):
        permit = tpu(tmp_path / "keys", person("Maria das Dores"))
    assert permit.status == "active"
    for login in ("chefe", "admin"):
        conn = desk.psql(login)
        for change in ("valid_until = valid_until + 365", "person_id = NULL", "number = '9999/2026'"):
            assert "permission denied" in _refused(conn, f"UPDATE permit SET {change} WHERE id = %s", (permit.id,))
        assert "permission denied" in _refused(conn, "DELETE FROM permit WHERE id = %s", (permit.id,))
    with desk.owner() as conn, conn.cursor() as cur:
        cur.execute("SELECT valid_until, number FROM permit WHERE id = %s", (permit.id,))
        assert cur.fetchone() == (permit.valid_until, permit.number)


def test_an_issued_permits_qr_is_written_once(desk, tmp_path):
    with session.acting_as(session.SYSTEM):
        permit = tpu(tmp_path / "keys", person("Maria das Dores"))
    assert permit.qr_text
    conn = desk.psql("chefe")
    assert "emitida" in _refused(conn, "UPDATE permit SET qr_text = 'forjado' WHERE id = %s", (permit.id,))


def test_a_fiscal_cannot_write_what_only_the_front_desk_writes(desk):
    conn = desk.psql("fiscal.marcos")
    assert "row-level security" in _refused(
        conn,
        "INSERT INTO payment (charge_id, paid_on, amount, reference, recorded_at, recorded_by, note) "
        "VALUES (1, now(), 100, 'x', now(), 'x', '')",
    )
    assert "row-level security" in _refused(conn, "INSERT INTO setting (key, value) VALUES ('x', 'y')")


def test_the_trail_cannot_be_deleted_rewritten_or_forged(desk):
    trail = _trail(desk)
    conn = desk.psql("chefe")
    assert "permission denied" in _refused(conn, "DELETE FROM audit_entry")
    assert "permission denied" in _refused(conn, "UPDATE audit_entry SET username = 'eve'")
    assert "permission denied" in _refused(conn, "TRUNCATE audit_entry")
    # a forged entry with a valid hash, linked to the last one
    fields = {"at": dt.datetime(2026, 1, 1), "username": "admin", "table_name": "app_user", "record_id": "2"}
    fields.update(action="update", before='{"role": "atendente"}', after='{"role": "administrador"}', note="")
    digest = audit.entry_hash(_last_hash(desk), fields)
    assert "permission denied" in _refused(
        conn,
        "INSERT INTO audit_entry (at, username, table_name, record_id, action, before, after, note, prev_hash, hash) "
        "VALUES (%(at)s, %(username)s, %(table_name)s, %(record_id)s, %(action)s, %(before)s, %(after)s, "
        "%(note)s, %(prev)s, %(hash)s)",
        {**fields, "prev": _last_hash(desk), "hash": digest},
    )
    assert "permission denied" in _refused(
        conn, "SELECT praca_audit_write('app_user', '2', 'update', '', '', '', NULL, 'admin')"
    )
    assert "não aceita" in _refused(
        conn, "SELECT praca_audit_note('app_user', '2', 'update', 'promovida', NULL, 'admin')"
    )
    assert "must be owner" in _refused(conn, "ALTER TABLE audit_entry DISABLE TRIGGER USER")
    assert "must be owner" in _refused(conn, "DROP TRIGGER audit_entry_append_only ON audit_entry")
    assert _trail(desk) == trail


def _last_hash(desk: Desk) -> str:
    with desk.owner() as conn, conn.cursor() as cur:
        cur.execute("SELECT hash FROM audit_entry ORDER BY id DESC LIMIT 1")
        return cur.fetchone()[0]


def test_a_direct_write_at_a_desk_is_audited_by_the_database(desk):
    with session.acting_as(session.SYSTEM):
        maria = person("Maria das Dores")
    conn = desk.psql("ana")
    assert _count(conn, "UPDATE person SET name = 'Maria Alterada' WHERE id = %s", (maria.id,)) == 1
    entry = _trail(desk)[-1]
    assert entry[1:4] == ("ana", "person", "update")
    assert '"Maria das Dores"' in entry[4] and '"Maria Alterada"' in entry[5]
    # the server's entry is chained as Praça's own: the whole trail verifies
    with session.acting_as(session.SYSTEM):
        assert audit.verify_chain().intact


def test_a_deactivated_clerk_stops_at_the_next_statement(desk):
    with session.acting_as(session.SYSTEM):
        maria = person("Maria das Dores")
    conn = desk.psql("ana")
    assert _count(conn, "UPDATE person SET phone = '1' WHERE id = %s", (maria.id,)) == 1
    with desk.owner() as owner, owner.cursor() as cur:
        cur.execute("UPDATE app_user SET active = false WHERE username = 'ana'")
    assert _count(conn, "UPDATE person SET phone = '2' WHERE id = %s", (maria.id,)) == 0


def test_the_server_locks_a_login_after_wrong_answers(desk):
    conn = desk.psql()
    with conn.cursor() as cur:
        for _ in range(desks.SERVER_MAX_FAILURES):
            cur.execute("SELECT praca_challenge('admin')")
            assert desks._answer(cur, "admin", "0" * 64) == "refused"
        cur.execute("SELECT salt FROM praca_challenge('admin')")
        (salt,) = cur.fetchone()
        assert desks._answer(cur, "admin", desks._scrypt(PASSWORD, bytes.fromhex(salt))) == "locked"
        cur.execute("SELECT praca_bound_username()")
        assert cur.fetchone()[0] is None


def test_a_binding_belongs_to_its_connection(desk):
    bound = desk.psql("admin")
    other = desk.psql()
    with bound.cursor() as cur:
        cur.execute("SELECT current_setting('praca.desk_token')")
        (token,) = cur.fetchone()
    with other.cursor() as cur:  # another connection that learnt the token is still nobody
        cur.execute("SELECT set_config('praca.desk_token', %s, false)", (token,))
        cur.execute("SELECT praca_bound_username()")
        assert cur.fetchone()[0] is None


def test_the_old_shared_role_is_no_stronger_than_a_desk(desk):
    """The README once told servers to grant a desk role every table (and INSERT on the trail): its writes now
    need a bound Praça user as well."""
    with desk.owner() as conn, conn.cursor() as cur:
        cur.execute(
            f'GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA "{desk._target.schema}" TO "{desk.login}"'
        )
    conn = desk.psql()
    assert _count(conn, "UPDATE app_user SET role = 'administrador'") == 0
    assert _count(conn, "DELETE FROM person") == 0
    assert "row-level security" in _refused(
        conn,
        "INSERT INTO audit_entry (at, username, table_name, record_id, action, before, after, note, prev_hash, hash) "
        "VALUES (now(), 'admin', 'x', '', 'insert', '', '', '', '', '')",
    )


def test_praca_works_through_the_desk(desk, tmp_path):
    """Login, a person, an application approved and its permit issued, a charge and its payment — all through the
    desk's role, each entry of the trail written by the server under the clerk's name, the chain intact."""
    from models.billing.charges import create_charge, record_payment

    before = len(_trail(desk))
    database = desk.open_as("chefe")
    assert desks.is_desk(database)
    permit = tpu(tmp_path / "keys", person("Maria das Dores"))
    assert permit.qr_text and permit.status == "active"
    charge = create_charge(
        kind="event",
        regime="olimpia-2025",
        label="Preço do evento",
        amount="150,00",
        due_on=TODAY,
        basis="LC 324/2025, art. 90",
        by="",
        permit=permit,
    )
    record_payment(charge, paid_on=TODAY, amount=Decimal("150.00"), reference="REC-1", by="", today=TODAY)
    session.log_out()
    database = desk.open_as("ana")
    assert users.get_user(1).username == "admin"
    new = _trail(desk)[before:]
    assert {e[1] for e in new} <= {"chefe", "ana"} and {"permit", "charge", "payment", "person"} <= {e[2] for e in new}
    with session.acting_as(session.SYSTEM):
        assert audit.verify_chain().intact


def test_a_password_the_server_does_not_know_is_refused_at_the_desk(desk):
    with desk.owner() as conn, conn.cursor() as cur:
        cur.execute("DELETE FROM praca_user_key WHERE username = 'ana'")
    close_database()
    open_database(desk.url)
    with session.acting_as(None), pytest.raises(desks.BindRefused, match="ainda não vale nas mesas"):
        users.authenticate("ana", PASSWORD)


def test_a_wrong_password_at_the_desk_is_audited_by_the_server(desk):
    close_database()
    open_database(desk.url)
    with session.acting_as(None), pytest.raises(users.UserError):
        users.authenticate("ana", "errada-123")
    entry = _trail(desk)[-1]
    assert entry[1:4] == ("ana", "app_user", "login-fail")


def test_every_table_has_its_desk_rights():
    """A table added to the schema is declared in models.store.desks.RIGHTS (otherwise no desk can use it)."""
    from models.store.schema import TABLES

    assert {t._meta.table_name for t in TABLES} - set(desks.RIGHTS) == set()
    assert set(desks.RIGHTS) - {t._meta.table_name for t in TABLES} == set()
    assert desks._UNAUDITED == audit.UNAUDITED  # the server audits for a desk what Praça audits


def test_the_servers_hash_is_praca_s_for_any_text(desk):
    """The entries the server writes are hashed as models.store.audit.entry_hash hashes them, whatever the text."""
    with session.acting_as(session.SYSTEM):
        maria = person("Maria das Dores")
    conn = desk.psql("ana")
    odd = 'aspas " barra \\ tab\t nova\nlinha ção 𝄞 \u2028 \x7f <!-- </script>'
    with conn.cursor() as cur:
        cur.execute("UPDATE person SET notes = %s WHERE id = %s", (odd, maria.id))
    with session.acting_as(session.SYSTEM):
        assert audit.verify_chain().intact


@pytest.fixture
def roles(pg_schema_url):
    """Role names of this test's own for the desks' group and one desk's login, dropped afterwards."""
    tag = uuid.uuid4().hex[:10]
    names = (f"praca_desk_t{tag}", f"mesa_t{tag}")
    yield names
    close_database()
    from conftest import _pg_admin

    conn = _pg_admin()
    conn.autocommit = True
    with conn.cursor() as cur:
        for name in reversed(names):
            cur.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", (name,))
            if cur.fetchone():
                cur.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = %s", (name,))
                cur.execute(f'DROP OWNED BY "{name}"')
                cur.execute(f'DROP ROLE "{name}"')
    conn.close()


def _desk_url(owner_url: str, login: str, password: str) -> str:
    target = parse_url(owner_url)
    return (
        f"postgresql://{login}:{password}@{target.host or '127.0.0.1'}:{target.port or 5432}/{target.dbname}"
        f"?schema={target.schema}"
    )


def test_init_then_pg_setup_give_each_desk_a_login_of_its_own(pg_schema_url, roles, monkeypatch, capsys):
    from desktop.cli import main

    role, login = roles
    monkeypatch.setenv("PRACA_PASSWORD", PASSWORD)
    assert main(["init", "--db", pg_schema_url, "--admin", "joana"]) == 0
    assert "papel praca_desk" in capsys.readouterr().out
    monkeypatch.setenv("PRACA_DESK_PASSWORD", "mesa-senha-1")
    assert main(["pg-setup", "--db", pg_schema_url, "--desk-role", role, "--desk-login", login]) == 0
    out = capsys.readouterr().out
    assert f"Login da mesa {login} pronto" in out and "Ainda não entram" not in out
    url = _desk_url(pg_schema_url, login, "mesa-senha-1")
    assert main(["pg-setup", "--db", url, "--desk-role", role]) == 2  # a desk cannot grant itself anything
    assert "dono das tabelas" in capsys.readouterr().err
    database = open_database(url)
    assert desks.is_desk(database)
    with session.acting_as(None):
        assert users.authenticate("joana", PASSWORD).role == "administrador"


def test_pg_setup_is_the_upgrade_of_a_server_from_before(pg_schema_url, roles, monkeypatch, capsys):
    """A database of schema 21 (no desks' side, a shared role granted everything): pg-setup migrates it, gives the
    desks their rights, names the users whose password the server does not know yet and enrolls one."""
    from desktop import login as cli_login
    from desktop.cli import main

    role, login = roles
    monkeypatch.setenv("PRACA_PASSWORD", PASSWORD)
    assert main(["init", "--db", pg_schema_url, "--admin", "joana"]) == 0
    from conftest import _pg_admin

    schema = parse_url(pg_schema_url).schema
    conn = _pg_admin()
    conn.autocommit = True
    with conn.cursor() as cur:  # back to version 21: the desks' side removed
        cur.execute(f'SET search_path = "{schema}"')
        cur.execute("DROP FUNCTION praca_bound_username() CASCADE")
        cur.execute("DROP FUNCTION praca_audit_row() CASCADE")
        cur.execute("DROP FUNCTION praca_guard_row() CASCADE")
        cur.execute("DROP TABLE praca_user_key, praca_desk_session CASCADE")
        for table in desks.RIGHTS:
            cur.execute(f'ALTER TABLE "{table}" DISABLE ROW LEVEL SECURITY')
        cur.execute("UPDATE praca_meta SET value = '21' WHERE key = 'schema_version'")
    conn.close()
    monkeypatch.delenv("PRACA_PASSWORD")
    monkeypatch.setenv("PRACA_DESK_PASSWORD", "mesa-senha-1")
    answers = iter([PASSWORD])
    monkeypatch.setattr(cli_login, "ask_password", lambda prompt: next(answers))
    assert main(["pg-setup", "--db", pg_schema_url, "--desk-role", role, "--desk-login", login]) == 0
    assert "Ainda não entram nas mesas (a senha deles é anterior): joana" in capsys.readouterr().out
    url = _desk_url(pg_schema_url, login, "mesa-senha-1")
    open_database(url)
    with session.acting_as(None), pytest.raises(desks.BindRefused):
        users.authenticate("joana", PASSWORD)
    close_database()
    assert main(["pg-setup", "--db", pg_schema_url, "--desk-role", role, "--enroll", "joana"]) == 0
    assert "A senha de joana vale nas mesas" in capsys.readouterr().out
    open_database(url)
    with session.acting_as(None):
        assert users.authenticate("joana", PASSWORD).username == "joana"


def test_the_administrator_manages_users_at_a_desk(desk):
    """What the administrator may do in Praça, the administrator's desk may do: users and roles, audited by the
    server; the new user's password is valid at the desks at once."""
    desk.open_as("admin")
    users.create_user(username="nova", name="Nova", role="atendente", password=PASSWORD)
    ana = users.User.get(users.User.username == "ana")
    users.change_role(ana, "chefe")
    assert _role_of(desk, "ana") == "chefe"
    assert [e[1:4] for e in _trail(desk)[-2:]] == [("admin", "app_user", "insert"), ("admin", "app_user", "update")]
    assert '"***"' in _trail(desk)[-2][5]  # never a password hash in the server's entries
    session.log_out()
    desk.open_as("nova")
    assert session.current().username == "nova"


def test_a_desks_other_connection_is_bound_to_the_same_clerk(desk):
    """peewee opens a connection per thread (a worker, a reconnection): it is bound to the clerk logged in."""
    import threading

    from models.registry.people import Person

    with session.acting_as(session.SYSTEM):
        person("Maria das Dores")
    database = desk.open_as("ana")
    seen: list[int | str] = []

    def worker():
        try:
            with database.connection_context():
                cur = database.execute_sql("SELECT praca_bound_username()")
                seen.append(cur.fetchone()[0])
                seen.append(Person.select().count())
        except Exception as exc:  # the assertion below shows it
            seen.append(repr(exc))

    thread = threading.Thread(target=worker)
    thread.start()
    thread.join()
    assert seen == ["ana", 1]


def test_a_desk_does_not_migrate_it_says_who_does(desk):
    with desk.owner() as conn, conn.cursor() as cur:
        cur.execute("UPDATE praca_meta SET value = '25' WHERE key = 'schema_version'")
    close_database()
    from models.store.db import DatabaseError

    with pytest.raises(DatabaseError, match="só o dono do banco atualiza"):
        open_database(desk.url)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--desk-login", "mesa 01"], "Nome inválido para o login da mesa"),
        (["--desk-role", "x" * 64], "Nome inválido para o papel das mesas"),
        (["--desk-role", "grupo'; DROP TABLE person; --"], "Nome inválido"),
    ],
)
def test_pg_setup_refuses_a_bad_name_before_anything(db_url, monkeypatch, capsys, argv, message):
    from desktop.cli import main

    monkeypatch.setenv("PRACA_DESK_PASSWORD", "mesa-senha-1")
    assert main(["pg-setup", "--db", db_url, *argv]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and (message in err or "é para um servidor PostgreSQL" in err)


def test_only_who_may_sanction_moves_a_permit_into_or_out_of_a_sanction(desk, tmp_path):
    with session.acting_as(session.SYSTEM):
        permit = tpu(tmp_path / "keys", person("Maria das Dores"))
    conn = desk.psql("ana")  # an atendente writes permits (issues, renews) but does not revoke them
    for status in desks.SANCTION_STATUSES:
        assert "Só quem pode suspender" in _refused(
            conn, "UPDATE permit SET status = %s WHERE id = %s", (status, permit.id)
        )
    chefe = desk.psql("chefe")
    assert _count(chefe, "UPDATE permit SET status = 'suspended' WHERE id = %s", (permit.id,)) == 1
    assert "Só quem pode suspender" in _refused(conn, "UPDATE permit SET status = 'active' WHERE id = %s", (permit.id,))
    assert _trail(desk)[-1][1:4] == ("chefe", "permit", "update")


def test_no_desk_reads_a_password_hash(desk):
    """A desk's login cannot read the users' password hashes (nor find them in the trail), bound or not: a guess
    tried offline against them would be worth a clerk's — or the administrator's — password."""
    desk.open_as("admin")
    users.set_password(users.User.get(users.User.username == "ana"), "outra-senha-1", "outra-senha-1")
    for login in (None, "chefe", "admin"):
        conn = desk.psql(login)
        assert "permission denied" in _refused(conn, "SELECT password_hash FROM app_user")
        with conn.cursor() as cur:
            cur.execute("SELECT before || after FROM audit_entry WHERE table_name = 'app_user'")
            assert all("scrypt$" not in text for (text,) in cur.fetchall())
    session.log_out()
    desk.open_as("ana", "outra-senha-1")  # the server checked the new password
    users.set_password(users.User.get(users.User.username == "ana"), "terceira-1", "terceira-1", old="outra-senha-1")
    with pytest.raises(users.FieldErrors):
        users.set_password(users.User.get(users.User.username == "ana"), "quarta-123", "quarta-123", old="errada-1")
    from models.store.db import db

    assert db.execute_sql("SELECT praca_bound_username()").fetchone()[0] == "ana"  # still bound
    import threading

    seen = []
    database = db.obj

    def worker():  # a new connection after the password changed is bound with the new one
        with database.connection_context():
            seen.append(database.execute_sql("SELECT praca_bound_username()").fetchone()[0])

    thread = threading.Thread(target=worker)
    thread.start()
    thread.join()
    assert seen == ["ana"]


def test_the_trail_keeps_no_password_hash_on_either_back_end(database):
    """Praça's own entries (the owner's connection, SQLite) mask the hash as the server's do."""
    from models.store.audit import AuditEntry

    users.create_user(username="admin", name="Admin", role="administrador", password=PASSWORD)
    users.set_password(users.User.get(users.User.username == "admin"), "outra-senha-1", "outra-senha-1")
    assert all("scrypt$" not in e.before + e.after for e in AuditEntry.select())


def test_a_return_file_is_imported_in_bulk_by_the_desks_own_login(desk, tmp_path):
    """Issue 30 §4 at a desk: the bank's return file imported in bulk through the desk's login role (its temporary
    tables, its ``INSERT … SELECT`` and ``UPDATE … FROM`` under the GRANTs and row-level security), each row of the
    trail written by the server under the clerk's name, the chain intact; the same file again changes nothing, and
    a file with a wrong record is refused whole."""
    from models.billing.charges import Charge, Payment, create_charge
    from models.billing.collection.agreement import set_agreement
    from models.billing.collection.bank_files import import_return
    from models.billing.collection.guias import issue_guia
    from models.billing.collection.returns import ReturnFileError, build_return
    from models.billing.collection.tables import ReturnFile

    with session.acting_as(session.SYSTEM):
        set_agreement(agreement="0042", value_id="6", pix_key="", pix_name="", pix_city="")
        issued = []
        for n, (name, amount) in enumerate([("Maria das Dores", "300,00"), ("João Batista", "120,00")]):
            charge = create_charge(
                kind="fine",
                regime="olimpia-2025",
                label="Multa — art. 160",
                amount=amount,
                due_on=TODAY + dt.timedelta(days=10 + n),
                basis="LC 324/2025, art. 160",
                by="tesouraria",
                person_id=person(name).id,
                today=TODAY,
            )
            issued.append((issue_guia([charge], today=TODAY), charge))
    ret = tmp_path / "RET0009.txt"
    ret.write_bytes(
        build_return(
            agreement="0042",
            nsa=9,
            generated_on=TODAY,
            payments=[(issued[0][0].barcode, 30000, TODAY), (issued[1][0].barcode, 5000, TODAY)],
        )
    )
    bad = tmp_path / "RET0010.txt"
    lines = build_return(
        agreement="0042", nsa=10, generated_on=TODAY, payments=[(issued[1][0].barcode, 7000, TODAY)]
    ).split(b"\r\n")
    bad.write_bytes(b"\r\n".join([lines[0], lines[1][:81] + b"00000000X000" + lines[1][93:], *lines[2:]]))
    before = len(_trail(desk))
    database = desk.open_as("ana")  # atendente: records payments
    assert desks.is_desk(database)
    done = import_return(ret, today=TODAY)
    assert (done.payments, done.credits) == (2, 0)
    paid, part = (Charge.get_by_id(c.id) for _g, c in issued)
    assert (paid.status, paid.paid_total) == ("paid", Decimal("300.00"))
    assert (part.status, part.open_amount) == ("open", Decimal("70.00"))
    assert Payment.select().where(Payment.channel == "bank").count() == 2 and ReturnFile.get().nsa == 9
    again = import_return(ret, today=TODAY)
    assert again.payments == 0 and again.return_file.id == done.return_file.id
    with pytest.raises(ReturnFileError, match="registro 2: o valor recebido não é"):
        import_return(bad, today=TODAY)
    assert Payment.select().count() == 2 and ReturnFile.select().count() == 1
    new = _trail(desk)[before:]
    assert {e[1] for e in new} == {"ana"}
    written = {(e[2], e[3]) for e in new}
    assert {("payment", "insert"), ("charge_state", "update"), ("return_file", "insert")} <= written
    assert ("charge", "update") not in written  # what is paid and the status: charge_state (schema v32)
    assert sum(1 for e in new if e[2:4] == ("payment", "insert")) == 2  # the server's triggers: row by row
    with session.acting_as(session.SYSTEM):
        assert audit.verify_chain().intact


def test_the_login_window_checks_on_a_worker_and_binds_the_windows_connection(desk, app_ready, qtbot, queries):
    """Issue 27 §5: Entrar checks the password on a worker (the server's scrypt and a refusal's wait leave the
    window painting); the window's own connection is then bound to the clerk — and, after a refusal, to nobody."""
    from conftest import type_text
    from PySide6.QtCore import Qt

    from views.login import LoginDialog

    close_database()
    database = open_database(desk.url)
    session.log_out()

    def log_in(password: str) -> LoginDialog:
        dialog = LoginDialog()
        qtbot.addWidget(dialog)
        type_text(dialog.username, "ana")
        type_text(dialog.password, password)
        queries.entries.clear()
        qtbot.mouseClick(dialog.ok_button, Qt.MouseButton.LeftButton)
        assert queries.entries and queries.on_gui_thread() == []
        return dialog

    assert log_in(PASSWORD).result() == LoginDialog.DialogCode.Accepted
    assert session.current().username == "ana"
    assert database.execute_sql("SELECT praca_bound_username()").fetchone()[0] == "ana"  # the window's connection
    session.log_out()
    refused = log_in("errada-123")
    assert "Usuário ou senha incorretos" in refused.error.text() and session.current() is None
    assert database.execute_sql("SELECT praca_bound_username()").fetchone()[0] is None
