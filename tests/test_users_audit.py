"""Users and roles (enforced in the domain functions) and the audit trail (same transaction, append-only).

Every database test runs on SQLite and, with ``PRACA_TEST_PG``, on PostgreSQL.
"""

from __future__ import annotations

import datetime as dt
import json

import pytest
from factories import TODAY, approved, company, issue, new_cpf, open_new_database, person
from hypothesis import given, settings
from hypothesis import strategies as st
from peewee import PostgresqlDatabase

from models.access import session
from models.access.session import PermissionDenied, acting_as
from models.access.users import (
    User,
    authenticate,
    change_role,
    check_password,
    create_user,
    hash_password,
    set_active,
    set_password,
    user_rows,
)
from models.base.errors import FieldErrors, UserError
from models.billing.charges import Charge, cancel_charge, create_charge, generate_month
from models.registry.people import Person, PersonInput, save_person
from models.store.audit import AuditEntry, AuditRow, audit_rows, bulk_rows, export_csv, record_view
from models.store.db import db

PASSWORD = "senha-forte-123"


@pytest.fixture
def admin(database):
    return create_user(username="Admin", name="Administradora", role="administrador", password=PASSWORD)


def as_(user):
    return acting_as(user.as_session())


def make(admin, username, role):
    with as_(admin):
        return create_user(username=username, name=username.title(), role=role, password=PASSWORD, confirm=PASSWORD)


# --------------------------------------------------------------------------- passwords and users


def test_password_hash_is_scrypt_salted_and_checked():
    stored = hash_password("segredo123")
    assert stored.startswith("scrypt$16384$8$1$") and stored != hash_password("segredo123")
    assert check_password("segredo123", stored) and not check_password("segredo124", stored)
    assert not check_password("segredo123", "md5$abc") and not check_password("x", "lixo")


@settings(max_examples=25, deadline=None)
@given(st.text(max_size=40))
def test_check_password_never_crashes(text):
    assert check_password(text, "scrypt$16384$8$1$00$00") in (True, False)


def test_first_user_is_the_administrator_then_only_admins_create_users(database):
    with pytest.raises(FieldErrors, match="primeiro usuário é o administrador"):
        create_user(username="ana", name="Ana", role="atendente", password=PASSWORD)
    admin = create_user(username="Admin", name="Administradora", role="administrador", password=PASSWORD)
    assert admin.username == "admin"  # logins are lower case
    ana = make(admin, "ana", "atendente")
    with as_(ana), pytest.raises(PermissionDenied, match="não pode administrar usuários"):
        create_user(username="beto", name="Beto", role="fiscal", password=PASSWORD)
    with as_(admin), pytest.raises(FieldErrors) as caught:
        create_user(username="ana", name="", role="rei", password="curta", confirm="outra")
    assert {"username", "name", "role", "password"} <= set(caught.value.errors)
    assert [u.username for u in user_rows()] == ["admin", "ana"]


def test_login_refuses_wrong_password_and_inactive_users_alike(admin):
    ana = make(admin, "ana", "atendente")
    assert authenticate("ANA ", PASSWORD).id == ana.id
    assert User.get_by_id(ana.id).last_login is not None
    for login, password in (("ana", "errada123"), ("ninguem", PASSWORD)):
        with pytest.raises(UserError, match="Usuário ou senha incorretos"):
            authenticate(login, password)
    with as_(admin):
        set_active(ana, False)
    with pytest.raises(UserError, match="Usuário ou senha incorretos"):
        authenticate("ana", PASSWORD)


def test_the_last_administrator_stays_and_passwords_change(admin):
    with as_(admin):
        with pytest.raises(UserError, match="ao menos um administrador"):
            change_role(admin, "chefe")
        with pytest.raises(UserError):
            set_active(admin, False)
    ana = make(admin, "ana", "atendente")
    with as_(ana):
        with pytest.raises(FieldErrors, match="senha atual"):
            set_password(ana, "nova-senha-1", "nova-senha-1", old="errada")
        set_password(User.get_by_id(ana.id), "nova-senha-1", "nova-senha-1", old=PASSWORD)
        with pytest.raises(PermissionDenied):
            set_password(admin, "invadida-123")
    assert authenticate("ana", "nova-senha-1").id == ana.id


# --------------------------------------------------------------------------- roles in the domain


def test_roles_are_enforced_by_the_domain_functions_themselves(keys, admin):
    ana, marcos, helena = (
        make(admin, "ana", "atendente"),
        make(admin, "marcos", "fiscal"),
        make(admin, "helena", "chefe"),
    )
    maker = company("Pastel da Maria Ltda", person("Maria José da Silva"))
    with as_(marcos), pytest.raises(PermissionDenied, match="protocolar requerimentos"):
        approved("olimpia-2025", "street-food-tpu-a", holder=maker, site="Praça Rui Barbosa", equipment="food-truck")
    with as_(ana), pytest.raises(PermissionDenied, match="aprovar ou indeferir"):
        approved("olimpia-2025", "street-food-tpu-a", holder=maker, site="Praça Rui Barbosa", equipment="food-truck")
    with as_(helena):
        app = approved(
            "olimpia-2025", "street-food-tpu-a", holder=maker, site="Praça Rui Barbosa", equipment="food-truck"
        )
    with as_(ana):
        permit = issue(app, keys)  # the desk issues what the chief approved
    charge = create_charge(
        kind="other",
        regime="olimpia-2025",
        label="Preço público",
        amount="10,00",
        due_on=TODAY,
        basis="art. 178",
        by="x",
        company_id=maker.id,
        today=TODAY,
    )
    with as_(ana), pytest.raises(PermissionDenied, match="cancelar cobranças"):
        cancel_charge(charge, reason="engano", by="ana")
    with as_(ana), pytest.raises(PermissionDenied, match="gerar as cobranças"):
        generate_month(2026, 11, by="ana")
    from models.permits import revoke

    with as_(ana), pytest.raises(PermissionDenied, match="é preciso ser chefe ou administrador"):
        revoke(permit, by="ana", reason="teste", today=TODAY)
    with as_(helena):
        cancel_charge(charge, reason="engano", by="helena")
    assert Charge.get_by_id(charge.id).status == "cancelled"


# --------------------------------------------------------------------------- the audit trail


def entries(table: str) -> list[AuditEntry]:
    return list(AuditEntry.select().where(AuditEntry.table_name == table).order_by(AuditEntry.id))


def test_every_change_is_audited_with_who_before_and_after(admin):
    ana = make(admin, "ana", "atendente")
    with as_(ana):
        maria = save_person(
            PersonInput(name="Maria da Silva", cpf="529.982.247-25", birth_date=dt.date(1980, 1, 2)), today=TODAY
        )
        save_person(
            PersonInput(name="Maria da Silva Souza", cpf="529.982.247-25", birth_date=dt.date(1980, 1, 2)),
            person=Person.get_by_id(maria.id),
            today=TODAY,
        )
    inserted, updated = entries("person")
    assert inserted.action == "insert" and inserted.username == "ana" and inserted.record_id == str(maria.id)
    assert json.loads(inserted.after)["cpf"] == "52998224725" and inserted.person_id == maria.id
    assert updated.action == "update"
    before, after = json.loads(updated.before), json.loads(updated.after)
    assert before["name"] == "Maria da Silva" and after["name"] == "Maria da Silva Souza"
    assert "cpf" not in after  # only what changed
    with as_(admin):
        rows = audit_rows(person_id=maria.id)
    assert [r.action for r in rows][:2] == ["update", "insert"]
    assert "name: Maria da Silva → Maria da Silva Souza" in rows[0].changes


def test_the_audit_entry_commits_with_the_change_or_not_at_all(admin):
    count = AuditEntry.select().count()
    with pytest.raises(RuntimeError):
        with db.atomic():
            save_person(PersonInput(name="João Pereira", cpf="111.444.777-35"), today=TODAY)
            raise RuntimeError("queda no meio da gravação")
    assert Person.select().count() == 0 and AuditEntry.select().count() == count


def test_bulk_inserts_and_deletes_are_audited(admin):
    Person.insert_many(
        [{"name": f"Pessoa {i}", "cpf": f"0000000000{i}", "search_name": f"pessoa {i}"} for i in range(3)]
    ).execute()
    bulk = entries("person")[-1]
    assert bulk.action == "insert" and len(bulk_rows(bulk.after)) == 3 and "3 registro(s)" in bulk.note
    Person.delete().where(Person.name == "Pessoa 1").execute()
    gone = entries("person")[-1]
    assert gone.action == "delete" and json.loads(gone.before)["name"] == "Pessoa 1"


def test_a_process_that_only_opens_the_database_audits_its_changes(sqlite_database):
    """Opening a current database imports no table module (start-up): the audit trail is installed anyway."""
    import subprocess
    import sys

    from models.store.bootstrap import close_database

    close_database()
    code = (
        "import sys\nfrom models.store.db import db\nfrom models.store.bootstrap import open_database\n"
        "open_database(sys.argv[1])\n"
        "from models.access import session\nsession.log_in(session.SYSTEM)\n"
        "from models.store.settings import set_settings, MUNICIPALITY\nset_settings({MUNICIPALITY: 'Sapezal'})\n"
        "print(db.execute_sql(\"SELECT COUNT(*) FROM audit_entry WHERE table_name = 'setting'\").fetchone()[0])"
    )
    done = subprocess.run([sys.executable, "-c", code, sqlite_database], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert int(done.stdout.strip()) >= 1


def test_a_bulk_entry_keeps_each_distinct_value_once_and_reads_back(database):
    from decimal import Decimal

    from models.store.audit import _compact, _dump

    rows = [
        ("0.05", Decimal("0.05"), dt.date(2026, 1, 2), "linha longa" * 50, 1),
        ("0.050", Decimal("0.050"), dt.date(2026, 1, 2), "linha longa" * 50, True),
    ]
    text = _dump(_compact(["texto", "taxa", "dia", "detalhe", "n"], rows))
    stored = json.loads(text)
    assert stored["columns"] == ["detalhe", "dia", "n", "taxa", "texto"]
    assert stored["values"][0] == ["linha longa" * 50] and stored["values"][1] == ["2026-01-02"]
    assert stored["values"][3] == ["0.05", "0.050"]  # equal amounts written differently stay apart
    assert stored["values"][2] == [1, True]
    assert bulk_rows(text) == [
        {"texto": "0.05", "taxa": "0.05", "dia": "2026-01-02", "detalhe": "linha longa" * 50, "n": 1},
        {"texto": "0.050", "taxa": "0.050", "dia": "2026-01-02", "detalhe": "linha longa" * 50, "n": True},
    ]
    # entries written before the compact form (a list of rows) still read, and both say how many rows
    assert bulk_rows(json.dumps([{"a": 1}, {"a": 2}])) == [{"a": 1}, {"a": 2}]
    for after in (text, json.dumps([{"a": 1}, {"a": 2}])):
        assert (
            AuditRow(1, dt.datetime(2026, 1, 1), "x", "t", "", "insert", "inclusão", "", after, "").changes
            == "2 registro(s)"
        )


_cell = st.one_of(
    st.none(),
    st.integers(-(10**6), 10**6),
    st.text(max_size=8),
    st.booleans(),
    st.decimals(allow_nan=False, allow_infinity=False, places=3, min_value=-1000, max_value=1000),
    st.dates(),
)


@given(st.integers(1, 4).flatmap(lambda width: st.lists(st.tuples(*[_cell] * width), min_size=1, max_size=12)))
def test_the_compact_form_reads_back_every_row(rows):
    from models.store.audit import _compact, _dump, _plain

    columns = [f"c{i}" for i in range(len(rows[0]))]
    expected = [{c: json.loads(json.dumps(_plain(v))) for c, v in zip(columns, row, strict=False)} for row in rows]
    assert bulk_rows(_dump(_compact(columns, rows))) == expected


def test_viewing_documents_is_recorded_and_the_trail_needs_a_role(admin):
    ana, marcos = make(admin, "ana", "atendente"), make(admin, "marcos", "fiscal")
    maria = save_person(PersonInput(name="Maria da Silva", cpf="529.982.247-25"), today=TODAY)
    with as_(ana):
        record_view(Person, maria.id, "CPF e atestado de saúde", person_id=maria.id)
        with pytest.raises(PermissionDenied):
            audit_rows()
    with as_(marcos), pytest.raises(PermissionDenied):
        audit_rows(username="ana")
    with as_(admin):
        seen = audit_rows(username="ana")
    assert seen[0].action == "view" and seen[0].note == "CPF e atestado de saúde"


def test_export_csv(admin, tmp_path):
    save_person(PersonInput(name="Maria da Silva", cpf="529.982.247-25"), today=TODAY)
    with as_(admin):
        rows = audit_rows(table="person")
    export_csv(rows, tmp_path / "trilha.csv")
    text = (tmp_path / "trilha.csv").read_text(encoding="utf-8-sig")
    assert text.splitlines()[0].startswith("quando;usuário;tabela") and "Maria da Silva" in text


def test_no_function_edits_or_deletes_the_trail():
    import models.store.audit as audit

    public = [name for name in dir(audit) if not name.startswith("_") and callable(getattr(audit, name))]
    assert not [n for n in public if any(w in n.lower() for w in ("delete", "remove", "edit", "purge", "clear"))]
    assert "audit_entry" in audit.UNAUDITED  # writing an entry is not itself a change to audit


def test_session_require_names_the_missing_role():
    with acting_as(session.Session(None, "zé", "Zé", "fiscal")):
        with pytest.raises(PermissionDenied, match="Zé \\(fiscal\\) não pode cancelar cobranças: é preciso ser chefe"):
            session.require("charges.cancel")
        session.require("enforcement.record")
    session.require("users.manage")  # nobody logged in: the system (command line, demo)


def test_a_persons_documents_open_only_for_roles_that_need_them_and_each_view_is_recorded(admin):
    from models.registry.people import open_person_record

    ana, marcos = make(admin, "ana", "atendente"), make(admin, "marcos", "fiscal")
    maria = save_person(PersonInput(name="Maria da Silva", cpf="529.982.247-25"), today=TODAY)
    with as_(ana):
        assert open_person_record(maria.id).cpf == "52998224725"
    with as_(marcos), pytest.raises(PermissionDenied, match="ver documentos pessoais"):
        open_person_record(maria.id)
    views = AuditEntry.select().where((AuditEntry.action == "view") & (AuditEntry.person_id == maria.id))
    assert [v.username for v in views] == ["ana"]


# --------------------------------------------------------------------------- the chain (issue 16, § 5)


def test_the_trail_is_append_only_in_the_database_itself(admin):
    """A direct UPDATE or DELETE of the audit table fails on both back ends (triggers), not only in Praça."""
    from peewee import DatabaseError as PeeweeError

    from models.store.audit import AuditEntry, verify_chain
    from models.store.db import db

    entry = AuditEntry.select().order_by(AuditEntry.id.desc()).get()
    for sql in (
        'UPDATE "audit_entry" SET "username" = \'outro\' WHERE "id" = %s',
        'DELETE FROM "audit_entry" WHERE "id" = %s',
    ):
        with pytest.raises(PeeweeError, match="só aceita inclusões"):
            with db.atomic():
                db.obj.execute_sql(sql.replace("%s", str(entry.id)))
    assert AuditEntry.get_by_id(entry.id).username == entry.username
    state = verify_chain()
    assert state.intact and state.count == AuditEntry.select().count() and state.last_hash == entry.hash


def test_the_chain_names_the_first_entry_that_does_not_follow(admin):
    """Each entry carries the hash of the one before; ``verify_chain`` (and ``praca audit verify``) names the
    first that was altered, or the one after an entry removed."""
    from models.store.audit import AuditEntry, install_guards, lift_guards, verify_chain
    from models.store.db import db

    for name in ("Encadeada da Silva", "Encadeado Souza"):
        save_person(PersonInput(name=name, cpf=new_cpf(), birth_date=dt.date(1980, 1, 1)))
    ids = [e.id for e in AuditEntry.select(AuditEntry.id).order_by(AuditEntry.id)]
    assert len(ids) >= 3 and verify_chain().intact
    with db.atomic():  # someone with the owner's rights lifts the guards and edits an entry
        lift_guards(db.obj)
        AuditEntry.update(note="apagado o rastro").where(AuditEntry.id == ids[1]).execute()
        install_guards(db.obj) if not isinstance(db.obj, PostgresqlDatabase) else db.obj.execute_sql(
            'ALTER TABLE "audit_entry" ENABLE TRIGGER USER'
        )
    state = verify_chain()
    assert not state.intact and state.first_bad == ids[1] and "foi alterado" in state.reason
    with db.atomic():
        lift_guards(db.obj)
        AuditEntry.update(note="").where(AuditEntry.id == ids[1]).execute()
        AuditEntry.delete().where(AuditEntry.id == ids[1]).execute()
    state = verify_chain()
    assert state.first_bad == ids[2] and "apagado" in state.reason


def test_praca_audit_verify_says_intact_or_where_it_broke(database, capsys):
    from desktop.cli import main
    from models.access.users import create_user
    from models.store.bootstrap import close_database

    create_user(username="admin", name="Administradora", role="administrador", password=PASSWORD)
    close_database()
    assert main(["audit", "verify", "--db", database]) == 0
    assert capsys.readouterr().out.startswith("Trilha de auditoria íntegra:")
    assert main(["audit", "verify", "--json", "--db", database]) == 0
    assert json.loads(capsys.readouterr().out)["intact"] is True


def test_a_database_of_version_14_gets_its_trail_sealed_and_guarded(db_url):
    """The migration seals the entries it finds, in order, then installs the guards."""
    from peewee import DatabaseError as PeeweeError

    from models.store import schema
    from models.store.audit import AuditEntry, verify_chain
    from models.store.bootstrap import close_database
    from models.store.db import db

    open_new_database(db_url)
    save_person(PersonInput(name="Antes da Cadeia", cpf=new_cpf(), birth_date=dt.date(1980, 1, 1)))
    with db.atomic():
        if isinstance(db.obj, PostgresqlDatabase):
            db.obj.execute_sql('DROP TRIGGER audit_entry_append_only ON "audit_entry"')
        else:
            db.obj.execute_sql('DROP TRIGGER "audit_entry_no_update"')
            db.obj.execute_sql('DROP TRIGGER "audit_entry_no_delete"')
        AuditEntry.update(prev_hash="", hash="").execute()
        schema.Meta.update(value="14").where(schema.Meta.key == "schema_version").execute()
    close_database()
    open_new_database(db_url)
    state = verify_chain()
    assert state.intact and state.count >= 1
    with pytest.raises(PeeweeError):
        with db.atomic():
            AuditEntry.delete().execute()


def test_a_restore_keeps_the_chain_and_adds_itself_to_it(admin, tmp_path):
    from models.store.audit import AuditEntry, verify_chain
    from models.store.backup import restore_backup, write_backup

    path = tmp_path / "copia.praca-backup"
    write_backup(path)
    from models.store.sealed import Trust

    restore_backup(path, force=True, trust=Trust(accept_unsigned=True))
    state = verify_chain()
    assert state.intact
    assert AuditEntry.select().order_by(AuditEntry.id.desc()).get().action == "restore"


def test_the_author_is_the_session_user_never_a_typed_name(keys, admin):
    """Issue 16 §4: the domain takes who acts from the session; a ``by`` naming someone else is ignored, an empty
    one is the session's user, and nobody logged in is refused."""
    helena = make(admin, "helena", "chefe")
    maker = company("Autor da Sessão Ltda", person("Joana Autora da Silva"))
    with as_(helena):
        charge = create_charge(
            kind="other",
            regime="olimpia-2025",
            label="Preço público",
            amount="10,00",
            due_on=TODAY,
            basis="art. 178",
            by="Fulano Digitado",
            company_id=maker.id,
            today=TODAY,
        )
        cancel_charge(charge, reason="lançada em duplicidade", by="")
    stored = Charge.get_by_id(charge.id)
    assert (stored.created_by, stored.cancelled_by) == (helena.name, helena.name)
    assert "Fulano" not in helena.name
    with acting_as(None), pytest.raises(PermissionDenied):
        create_charge(
            kind="other",
            regime="olimpia-2025",
            label="Preço público",
            amount="10,00",
            due_on=TODAY,
            basis="art. 178",
            by="Fulano Digitado",
            company_id=maker.id,
            today=TODAY,
        )
