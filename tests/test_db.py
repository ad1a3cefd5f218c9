"""The database: open, create, migrate, refuse newer and foreign ones — on both back ends."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from peewee import fn

from models.billing.fiscal import FiscalUnitValue
from models.registry.people import Company, Person
from models.store import schema
from models.store.bootstrap import close_database, open_database
from models.store.db import DatabaseError, current_url, db, parse_url, table_names
from models.store.settings import MUNICIPALITY, Setting, get_setting, set_settings

V4_PERSON_COLUMNS = [
    "phone2",
    "disabled",
    "disability_notes",
    "family_income_mw",
    "housing",
    "experience_years",
    "photo_path",
    "photo_sha256",
    "search_name",
]


def _version() -> int:
    return schema.read_version(db.obj)


def test_the_version_read_at_open_is_the_migrations_last():
    from models.store.db import SCHEMA_VERSION

    assert SCHEMA_VERSION == schema.LATEST == schema.MIGRATIONS[-1][0]


def test_new_database_has_latest_schema(database):
    assert _version() == schema.LATEST
    tables = set(table_names(db.obj, current_url()))
    for model in schema.TABLES:
        assert model._meta.table_name in tables


def test_reopen_is_idempotent(db_url):
    open_database(db_url, create=True)
    set_settings({MUNICIPALITY: "Sapezal"})
    close_database()
    open_database(db_url, create=True)
    assert get_setting(MUNICIPALITY) == "Sapezal"
    assert _version() == schema.LATEST


def _make_version_1(url: str) -> None:
    """Turn a fresh database into what Praça's first schema looked like."""
    from playhouse.migrate import SchemaMigrator, migrate

    open_database(url, create=True)
    migrator = SchemaMigrator.from_database(db.obj)
    with db.atomic():
        # every table after v1 (meta, settings, people, companies); peewee drops dependants first
        db.obj.drop_tables([m for m in schema.TABLES if m not in (schema.Meta, Setting, Person, Company)])
        migrate(
            migrator.drop_index("person", "person_search_name"), migrator.drop_index("company", "company_search_name")
        )
        migrate(
            *[migrator.drop_column("person", name) for name in V4_PERSON_COLUMNS],
            migrator.drop_column("company", "search_name"),
        )
        db.obj.execute_sql(
            "INSERT INTO person (name, cpf, rg, street, number, district, city, state, zip_code, "
            "phone, email, notes, created_at, version) VALUES ('José da Silva', '52998224725', "
            "'', '', '', '', '', '', '', '', '', '', '2020-01-01 10:00:00', 1)"
        )
        schema.Meta.update(value="1").where(schema.Meta.key == "schema_version").execute()
    close_database()


def test_migrates_an_older_database(db_url):
    _make_version_1(db_url)
    open_database(db_url, create=True)
    assert _version() == schema.LATEST
    # v4 filled the accent-free search name of the person registered under v1
    assert Person.get(Person.cpf == "52998224725").search_name == "jose da silva"
    FiscalUnitValue.create(regime="olimpia-2025", unit="UFESP", year=2027, value=Decimal("40.00"), entered_by="teste")
    assert FiscalUnitValue.select().count() == 1


def test_v14_gives_the_charges_sums_their_indexes(db_url):
    """v14 dropped the index on the due date alone; the sums' indexes are the charges' states' since v32
    (tests/test_charge_state.py migrates a v30 database with them)."""
    open_database(db_url, create=True)
    with db.atomic():
        db.obj.execute_sql('CREATE INDEX "charge_due_on" ON "charge" ("due_on")')
        schema.Meta.update(value="13").where(schema.Meta.key == "schema_version").execute()
    close_database()
    open_database(db_url, create=True)
    assert _version() == schema.LATEST
    assert "charge_due_on" not in {index.name for index in db.obj.get_indexes("charge")}
    indexes = {index.name: index for index in db.obj.get_indexes("charge_state")}
    assert indexes["charge_state_due_on_figures"].columns[:2] == ["due_on", "status"]
    assert "open" in indexes["charge_state_open_by_due_on"].sql  # partial: the open charges only


def test_sqlite_is_copied_aside_before_migrating(tmp_path, sqlite_url):
    _make_version_1(sqlite_url)
    open_database(sqlite_url, create=True)
    copies = list(Path(tmp_path).glob("praca.sqlite3.v1-*.bak"))
    assert len(copies) == 1
    close_database()
    # The copy is the old database, still at version 1.
    import sqlite3

    con = sqlite3.connect(copies[0])
    assert con.execute("select value from praca_meta where key='schema_version'").fetchone() == ("1",)
    con.close()


def test_refuses_a_newer_database(db_url):
    open_database(db_url, create=True)
    schema.Meta.update(value=str(schema.LATEST + 5)).where(schema.Meta.key == "schema_version").execute()
    close_database()
    with pytest.raises(DatabaseError) as err:
        open_database(db_url, create=True)
    message = str(err.value)
    assert f"versão {schema.LATEST + 5}" in message and f"versão {schema.LATEST}" in message
    # Untouched: still the newer version.
    with pytest.raises(DatabaseError):
        open_database(db_url, create=True)


def test_refuses_a_foreign_text_file(tmp_path):
    path = tmp_path / "notas.txt"
    path.write_text("isto não é um banco de dados\n" * 50, encoding="utf-8")
    before = path.read_bytes()
    with pytest.raises(DatabaseError, match="não é um banco de dados do Praça"):
        open_database(f"sqlite:///{path}", create=True)
    assert path.read_bytes() == before


def test_refuses_a_foreign_sqlite_database(tmp_path):
    import sqlite3

    path = tmp_path / "outro.db"
    con = sqlite3.connect(path)
    con.execute("create table clientes (id integer primary key, nome text)")
    con.commit()
    con.close()
    with pytest.raises(DatabaseError, match="não são do Praça"):
        open_database(f"sqlite:///{path}", create=True)
    con = sqlite3.connect(path)
    names = {r[0] for r in con.execute("select name from sqlite_master where type='table'")}
    con.close()
    assert names == {"clientes"}


def test_refuses_a_foreign_postgres_schema(pg_schema_url):
    import psycopg2

    from models.store.db import parse_url

    target = parse_url(pg_schema_url)
    con = psycopg2.connect(dbname=target.dbname, user=target.user, host=target.host, port=target.port)
    with con, con.cursor() as cur:
        cur.execute(f'create table "{target.schema}".clientes (id serial primary key)')
    con.close()
    with pytest.raises(DatabaseError, match="não são do Praça"):
        open_database(pg_schema_url, create=True)


def test_sqlite_pragmas(sqlite_url):
    open_database(sqlite_url, create=True)
    assert db.obj.execute_sql("pragma journal_mode").fetchone()[0] == "wal"
    assert db.obj.execute_sql("pragma foreign_keys").fetchone()[0] == 1
    assert db.obj.execute_sql("pragma synchronous").fetchone()[0] == 1  # NORMAL
    assert db.obj.execute_sql("pragma busy_timeout").fetchone()[0] >= 5000


def test_money_is_stored_as_centavos_and_sums_exactly(database):
    values = [Decimal("0.10"), Decimal("0.20"), Decimal("124.87"), Decimal("31.50")]
    for i, value in enumerate(values):
        FiscalUnitValue.create(regime="r", unit="U", year=2000 + i, value=value, entered_by="t")
    raw = [r[0] for r in db.obj.execute_sql("select value from fiscal_unit_value order by year").fetchall()]
    assert raw == [10, 20, 12487, 3150]
    total = FiscalUnitValue.select(fn.SUM(FiscalUnitValue.value)).scalar()
    assert Decimal(total) == Decimal("15667")  # centavos, exact
    assert [r.value for r in FiscalUnitValue.select().order_by(FiscalUnitValue.year)] == values


@settings(max_examples=60, deadline=None)
@given(st.decimals(min_value=Decimal("-99999999.99"), max_value=Decimal("99999999.99"), places=2))
def test_money_field_round_trip(value):
    from models.store.db import MoneyField

    field = MoneyField()
    assert field.python_value(field.db_value(value)) == value


@pytest.mark.parametrize(
    "url,fragment",
    [
        ("", "vazia"),
        ("mysql://x@y/z", "inválida"),
        ("sqlite://", "inválida"),
        ("sqlite:///", "sem caminho"),
        ("postgresql://user@host:5432/", "sem o nome do banco"),
        ("postgresql://user@host:porta/db", "Porta inválida"),
    ],
)
def test_bad_urls_are_explained(url, fragment):
    with pytest.raises(DatabaseError, match=fragment):
        parse_url(url)


def test_unreachable_postgres_is_one_clear_line():
    with pytest.raises(DatabaseError) as exc:
        open_database("postgresql://ninguem@127.0.0.1:1/x")
    message = exc.value.message
    assert message.startswith(
        "Não foi possível conectar ao servidor PostgreSQL 127.0.0.1:1: confira se o servidor "
        "está ligado e aceita conexões: "
    )
    assert "Connection refused" in message  # the server's own words, after the colon
    assert "\n" not in message


def _pg_target():
    from conftest import PG_URL

    return parse_url(PG_URL)


def _pg_url(target, *, user=None, dbname=None) -> str:
    user = user or target.user or "postgres"
    return f"postgresql://{user}@{target.host or '127.0.0.1'}:{target.port or 5432}/{dbname or target.dbname}"


def test_postgres_missing_database_in_portuguese(pg_available):
    if not pg_available:
        pytest.skip("PostgreSQL not configured (set PRACA_TEST_PG)")
    target = _pg_target()
    with pytest.raises(DatabaseError) as exc:
        open_database(_pg_url(target, dbname="praca_nao_existe_xyz"))
    message = exc.value.message
    assert message.startswith("O banco de dados praca_nao_existe_xyz não existe no servidor PostgreSQL")
    assert 'database "praca_nao_existe_xyz" does not exist' in message and "\n" not in message


def test_postgres_missing_role_in_portuguese(pg_available):
    if not pg_available:
        pytest.skip("PostgreSQL not configured (set PRACA_TEST_PG)")
    target = _pg_target()
    with pytest.raises(DatabaseError) as exc:
        open_database(_pg_url(target, user="praca_ninguem_xyz"))
    message = exc.value.message
    assert message.startswith("O usuário praca_ninguem_xyz não existe no servidor PostgreSQL")
    assert 'role "praca_ninguem_xyz" does not exist' in message


@pytest.mark.parametrize(
    "server_text, start",
    [
        (
            'connection to server at "db", port 5432 failed: FATAL:  password authentication failed for user "praca"',
            "Senha recusada para o usuário praca no servidor PostgreSQL db:5432: connection to server",
        ),
        (
            'could not connect to server: Connection refused\n\tIs the server running on host "db" (10.0.0.5) and '
            "accepting\n\tTCP/IP connections on port 5432?",
            "Não foi possível conectar ao servidor PostgreSQL db:5432: confira se o servidor está ligado e aceita "
            "conexões: could not connect to server: Connection refused Is the server running",
        ),
        (
            'connection to server at "db", port 5432 failed: FATAL:  database "praca" does not exist',
            "O banco de dados praca não existe no servidor PostgreSQL db:5432 (crie-o com createdb): connection",
        ),
        (
            'connection to server at "db", port 5432 failed: FATAL:  role "praca" does not exist',
            "O usuário praca não existe no servidor PostgreSQL db:5432: connection",
        ),
        (
            'could not translate host name "db" to address: Name or service not known',
            "Servidor PostgreSQL db não encontrado (confira o nome do servidor): could not translate",
        ),
        ("something else entirely", "Não foi possível abrir PostgreSQL db:5432/praca: something else entirely"),
    ],
)
def test_postgres_errors_are_one_portuguese_line(server_text, start):
    from models.store.db import postgres_error_text

    text = postgres_error_text(parse_url("postgresql://praca:x@db:5432/praca"), server_text)
    assert text.startswith(start), text
    assert "\n" not in text and "\t" not in text
    assert "x@" not in text  # never the password


def test_sqlite_in_a_missing_folder_is_refused_and_nothing_is_created(tmp_path):
    folder = tmp_path / "nao" / "existe"
    with pytest.raises(DatabaseError) as exc:
        open_database(f"sqlite:///{folder / 'praca.sqlite3'}", create=True)
    assert f"A pasta {folder.resolve()} não existe" in exc.value.message
    assert not (tmp_path / "nao").exists()
    not_a_folder = tmp_path / "arquivo"
    not_a_folder.write_text("x")
    with pytest.raises(DatabaseError, match="não é uma pasta"):
        open_database(f"sqlite:///{not_a_folder / 'praca.sqlite3'}", create=True)
    open_database(f"sqlite:///{tmp_path / 'praca.sqlite3'}", create=True)  # an existing folder: created there
    close_database()
    assert (tmp_path / "praca.sqlite3").exists()


def test_empty_db_option_is_refused_not_read_as_default():
    from desktop.paths import resolve_db_url

    for empty in ("", "   "):
        with pytest.raises(DatabaseError, match="URL vazia"):
            resolve_db_url(empty)
    assert resolve_db_url(" sqlite:///x.sqlite3 ") == "sqlite:///x.sqlite3"
