"""The database: open, create, migrate, refuse newer and foreign ones — on both back ends."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from peewee import fn

from models import schema
from models.db import DatabaseError, close_database, current_url, db, open_database, parse_url, table_names
from models.applications import Application, ApplicationDocument, ApplicationEvent, Counter
from models.fiscal import FiscalUnitValue, IndexCorrection
from models.people import CompanyPartner, HouseholdMember, Person

V4_PERSON_COLUMNS = ["phone2", "disabled", "disability_notes", "family_income_mw", "housing",
                     "experience_years", "photo_path", "photo_sha256", "search_name"]
from models.settings import MUNICIPALITY, get_setting, set_settings


def _version() -> int:
    return schema.read_version(db.obj)


def test_new_database_has_latest_schema(database):
    assert _version() == schema.LATEST
    tables = set(table_names(db.obj, current_url()))
    for model in schema.TABLES:
        assert model._meta.table_name in tables


def test_reopen_is_idempotent(db_url):
    open_database(db_url)
    set_settings({MUNICIPALITY: "Sapezal"})
    close_database()
    open_database(db_url)
    assert get_setting(MUNICIPALITY) == "Sapezal"
    assert _version() == schema.LATEST


def _make_version_1(url: str) -> None:
    """Turn a fresh database into what Praça's first schema looked like."""
    from playhouse.migrate import SchemaMigrator, migrate

    open_database(url)
    migrator = SchemaMigrator.from_database(db.obj)
    with db.atomic():
        db.obj.drop_tables([ApplicationEvent, ApplicationDocument, Application, Counter, FiscalUnitValue,
                            IndexCorrection, HouseholdMember, CompanyPartner])
        migrate(migrator.drop_index("person", "person_search_name"),
                migrator.drop_index("company", "company_search_name"))
        migrate(*[migrator.drop_column("person", name) for name in V4_PERSON_COLUMNS],
                migrator.drop_column("company", "search_name"))
        db.obj.execute_sql("INSERT INTO person (name, cpf, rg, street, number, district, city, state, zip_code, "
                           "phone, email, notes, created_at, version) VALUES ('José da Silva', '52998224725', "
                           "'', '', '', '', '', '', '', '', '', '', '2020-01-01 10:00:00', 1)")
        schema.Meta.update(value="1").where(schema.Meta.key == "schema_version").execute()
    close_database()


def test_migrates_an_older_database(db_url):
    _make_version_1(db_url)
    open_database(db_url)
    assert _version() == schema.LATEST
    # v4 filled the accent-free search name of the person registered under v1
    assert Person.get(Person.cpf == "52998224725").search_name == "jose da silva"
    FiscalUnitValue.create(regime="olimpia-2025", unit="UFESP", year=2027,
                           value=Decimal("40.00"), entered_by="teste")
    assert FiscalUnitValue.select().count() == 1


def test_sqlite_is_copied_aside_before_migrating(tmp_path, sqlite_url):
    _make_version_1(sqlite_url)
    open_database(sqlite_url)
    copies = list(Path(tmp_path).glob("praca.sqlite3.v1-*.bak"))
    assert len(copies) == 1
    close_database()
    # The copy is the old database, still at version 1.
    import sqlite3

    con = sqlite3.connect(copies[0])
    assert con.execute("select value from praca_meta where key='schema_version'").fetchone() == ("1",)
    con.close()


def test_refuses_a_newer_database(db_url):
    open_database(db_url)
    schema.Meta.update(value=str(schema.LATEST + 5)).where(schema.Meta.key == "schema_version").execute()
    close_database()
    with pytest.raises(DatabaseError) as err:
        open_database(db_url)
    message = str(err.value)
    assert f"versão {schema.LATEST + 5}" in message and f"versão {schema.LATEST}" in message
    # Untouched: still the newer version.
    with pytest.raises(DatabaseError):
        open_database(db_url)


def test_refuses_a_foreign_text_file(tmp_path):
    path = tmp_path / "notas.txt"
    path.write_text("isto não é um banco de dados\n" * 50, encoding="utf-8")
    before = path.read_bytes()
    with pytest.raises(DatabaseError, match="não é um banco de dados do Praça"):
        open_database(f"sqlite:///{path}")
    assert path.read_bytes() == before


def test_refuses_a_foreign_sqlite_database(tmp_path):
    import sqlite3

    path = tmp_path / "outro.db"
    con = sqlite3.connect(path)
    con.execute("create table clientes (id integer primary key, nome text)")
    con.commit()
    con.close()
    with pytest.raises(DatabaseError, match="não são do Praça"):
        open_database(f"sqlite:///{path}")
    con = sqlite3.connect(path)
    names = {r[0] for r in con.execute("select name from sqlite_master where type='table'")}
    con.close()
    assert names == {"clientes"}


def test_refuses_a_foreign_postgres_schema(pg_schema_url):
    import psycopg2

    from models.db import parse_url

    target = parse_url(pg_schema_url)
    con = psycopg2.connect(dbname=target.dbname, user=target.user, host=target.host, port=target.port)
    with con, con.cursor() as cur:
        cur.execute(f'create table "{target.schema}".clientes (id serial primary key)')
    con.close()
    with pytest.raises(DatabaseError, match="não são do Praça"):
        open_database(pg_schema_url)


def test_sqlite_pragmas(sqlite_url):
    open_database(sqlite_url)
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
    from models.db import MoneyField

    field = MoneyField()
    assert field.python_value(field.db_value(value)) == value


@pytest.mark.parametrize("url,fragment", [
    ("", "vazia"),
    ("mysql://x@y/z", "inválida"),
    ("sqlite://", "inválida"),
    ("sqlite:///", "sem caminho"),
    ("postgresql://user@host:5432/", "sem o nome do banco"),
    ("postgresql://user@host:porta/db", "Porta inválida"),
])
def test_bad_urls_are_explained(url, fragment):
    with pytest.raises(DatabaseError, match=fragment):
        parse_url(url)


def test_unreachable_postgres_is_one_clear_line():
    with pytest.raises(DatabaseError, match="Não foi possível abrir PostgreSQL 127.0.0.1:1/x"):
        open_database("postgresql://ninguem@127.0.0.1:1/x")
