"""The schema: every table, its version and the migrations between versions.

A new database gets every current table at once and the latest version. An
older one is brought forward by the migrations after its version, each inside
one transaction together with the new version number; an SQLite file is first
copied aside. A database that was not written by Praça, or by a newer Praça, is
refused untouched.

To change the schema: add the table to ``TABLES`` (new tables) or change the
model, then append a migration that performs the same change on an existing
database and bump nothing else — ``LATEST`` follows the list.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from peewee import CharField, Database, PostgresqlDatabase, SqliteDatabase, TextField

from models.access.signing_keys import SigningKey
from models.access.users import LoginThrottle, User
from models.base.text import search_key
from models.billing.charges import Charge, ChargeState, Payment
from models.billing.collection.tables import TABLES as COLLECTION_TABLES
from models.billing.collection.tables import V29_TABLES, CreditUse
from models.billing.fiscal import FiscalUnitValue, IndexCorrection
from models.enforcement import Contest, Record, RecordCharge, RecordEvent, RecordFile, SeizedItem
from models.permits import Permit, PermitDocument, PermitEvent, RenewalDecree
from models.registry.applications import Application, ApplicationDocument, ApplicationEvent, Counter
from models.registry.people import Company, CompanyPartner, HouseholdMember, Person
from models.rules.acts import RegimeAct, install_shipped
from models.rules.holidays import MunicipalHoliday
from models.selection.draws import Draw, DrawEntry
from models.selection.process_tables import ListPublication, PointDraw, RotationEvent, SelectionAppeal
from models.services.importer.staging import ImportRun, ImportStage
from models.sites import NamedPoint, Site, SiteObstacle, SiteSegment, Stall, StallBreach
from models.store.audit import AuditEntry
from models.store.checkpoints import AuditCheckpoint
from models.store.db import (
    DATABASE_ID_KEY,
    META_TABLE,
    SCHEMA_VERSION,
    BaseModel,
    DatabaseError,
    DatabaseURL,
    NoDatabase,
    new_database_id,
    sqlite_copy_aside,
    table_names,
)
from models.store.settings import Setting

MIGRATION_LOCK = 72_72_2026  # PostgreSQL advisory lock key held while migrating


class Meta(BaseModel):
    """Marks the database as Praça's and holds its schema version."""

    key = CharField(primary_key=True, max_length=64)
    value = TextField()

    class Meta:
        table_name = META_TABLE


TABLES: list[type[BaseModel]] = [
    Meta,
    Setting,
    Person,
    Company,
    FiscalUnitValue,
    IndexCorrection,
    HouseholdMember,
    CompanyPartner,
    Counter,
    Application,
    ApplicationDocument,
    ApplicationEvent,
    Permit,
    PermitEvent,
    Charge,
    ChargeState,
    Payment,
    PermitDocument,
    User,
    AuditEntry,
    Draw,
    DrawEntry,
    Site,
    SiteSegment,
    SiteObstacle,
    NamedPoint,
    Stall,
    StallBreach,
    Record,
    RecordFile,
    RecordCharge,
    RecordEvent,
    SeizedItem,
    Contest,
    ListPublication,
    SelectionAppeal,
    RotationEvent,
    PointDraw,
    LoginThrottle,
    RegimeAct,
    MunicipalHoliday,
    SigningKey,
    AuditCheckpoint,
    ImportRun,
    ImportStage,
    *COLLECTION_TABLES,
    RenewalDecree,
]


def _v2_fiscal_unit_values(database: Database) -> None:
    """v2: fiscal-unit values entered by the clerk (override the regime files)."""
    database.create_tables([FiscalUnitValue])


def _v3_index_corrections(database: Database) -> None:
    """v3: yearly corrections of price indexes (INPC…) kept by the clerk."""
    database.create_tables([IndexCorrection])


def _v4_front_desk_people(database: Database) -> None:
    """v4: household, partners, socio-economic fields, photo and accent-free search names."""
    from playhouse.migrate import SchemaMigrator, migrate

    migrator = SchemaMigrator.from_database(database)
    new_person_fields = [
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
    migrate(
        *[migrator.add_column("person", name, Person._meta.fields[name]) for name in new_person_fields],
        migrator.add_column("company", "search_name", Company._meta.fields["search_name"]),  # indexed by peewee
    )
    database.create_tables([HouseholdMember, CompanyPartner])
    for person in Person.select(Person.id, Person.name):
        Person.update(search_name=search_key(person.name)).where(Person.id == person.id).execute()
    for company in Company.select(Company.id, Company.legal_name, Company.trade_name):
        Company.update(search_name=search_key(f"{company.legal_name} {company.trade_name}")).where(
            Company.id == company.id
        ).execute()


def _v5_applications(database: Database) -> None:
    """v5: applications with protocol numbers, documents delivered and status history."""
    database.create_tables([Counter, Application, ApplicationDocument, ApplicationEvent])


def _v6_permits(database: Database) -> None:
    """v6: permits issued from applications and their append-only history."""
    database.create_tables([Permit, PermitEvent])


def _v7_charges(database: Database) -> None:
    """v7: charges with their frozen formula and basis, and their payments."""
    database.create_tables([Charge, Payment])


def _v10_permit_documents(database: Database) -> None:
    """v10: documents delivered with a renewal (kept with their file and hash)."""
    database.create_tables([PermitDocument])


def _v8_draws(database: Database) -> None:
    """v8: public draws (seed, list hash, officials) and each participant's place in them."""
    database.create_tables([Draw, DrawEntry])


def _v9_sites(database: Database) -> None:
    """v9: sites, their segments, obstacles and named points, stalls (one holder each) and kept breaches."""
    database.create_tables([Site, SiteSegment, SiteObstacle, NamedPoint, Stall, StallBreach])


def _v11_users_audit(database: Database) -> None:
    """v11: users with their roles, and the append-only audit trail."""
    database.create_tables([User, AuditEntry])


def _v12_enforcement(database: Database) -> None:
    """v12: enforcement records (notices, infraction, seizure and interdiction records), their photos, charges,
    events and seized items, and defences and appeals with their decisions."""
    database.create_tables([Record, RecordFile, RecordCharge, RecordEvent, SeizedItem, Contest])


def _v13_selection_process(database: Database) -> None:
    """v13: lists published before draws, the ranking's appeals and final list (Sapezal art. 10, §§ 4º–5º), and the
    events of a rotating list with their point draws (Ilha Comprida art. 21, § 1º)."""
    database.create_tables([ListPublication, SelectionAppeal, RotationEvent, PointDraw])


def _v14_charge_indexes(database: Database) -> None:
    """v14: the charges' sums by due date and the open charges read indexes only (the Painel at start-up);
    they replace the index on the due date alone."""
    database.execute_sql('DROP INDEX IF EXISTS "charge_due_on"')
    cast(Any, Charge)._schema.create_indexes(safe=True)  # as a new database gets them (a partial index's WHERE inlined)


def _v16_audit_chain(database: Database) -> None:
    """v16: the audit trail chained (each entry the hash of the one before) and append-only in the database
    itself: the entries it already holds are sealed in order, then the triggers refuse UPDATE and DELETE."""
    from models.store.audit import install_guards, seal_unsealed

    for column in ("prev_hash", "hash"):
        if column not in {c.name for c in database.get_columns("audit_entry")}:
            database.execute_sql(f'ALTER TABLE "audit_entry" ADD COLUMN "{column}" VARCHAR(64) NOT NULL DEFAULT \'\'')
    seal_unsealed(database)
    install_guards(database)


def _v17_application_venue(database: Database) -> None:
    """v17: an application for a public venue keeps the venue, its days of use and the exemption the act grants
    (LC 324/2025, arts. 89 and 90)."""
    present = {c.name for c in database.get_columns("application")}
    for column, kind in (
        ("venue", "VARCHAR(64) NOT NULL DEFAULT ''"),
        ("days", "INTEGER"),
        ("exemption", "VARCHAR(64) NOT NULL DEFAULT ''"),
    ):
        if column not in present:
            database.execute_sql(f'ALTER TABLE "application" ADD COLUMN "{column}" {kind}')


def _v18_login_throttle(database: Database) -> None:
    """v18: failed logins in a row per login name, for the delay and the temporary lock."""
    database.create_tables([LoginThrottle])


def _v19_regime_acts(database: Database) -> None:
    """v19: the acts live in the database (their text, hash and versions), so every desk computes with the same
    text; the acts shipped with Praça are installed as version 1 each."""
    database.create_tables([RegimeAct])
    install_shipped(database)


def _v20_signing_keys(database: Database) -> None:
    """v20: the municipality's signing keys, one identity for every desk (models.access.signing_keys)."""
    database.create_tables([SigningKey])


def _v21_act_hashes(database: Database) -> None:
    """v21: a frozen application, permit, charge and infraction record keeps the SHA-256 of the act's text it was
    computed from ("" for those made before: their version is the one in force on their date)."""
    for table in ("application", "permit", "charge", "enforcement_record"):
        if "act_sha256" not in {c.name for c in database.get_columns(table)}:
            database.execute_sql(f'ALTER TABLE "{table}" ADD COLUMN "act_sha256" VARCHAR(64) NOT NULL DEFAULT \'\'')


def _v22_database_id(database: Database) -> None:
    """v22: the database's identity (a random id in praca_meta): a login belongs to the database it was made on."""
    with database.bind_ctx([Meta]):
        Meta.insert(key=DATABASE_ID_KEY, value=new_database_id()).on_conflict_ignore().execute()


def _v23_trail_checkpoints(database: Database) -> None:
    """v23: the trail's signed checkpoints (models.store.checkpoints), append-only like the trail; and the guards
    that refuse REPLACE, upserts and an entry put before the last (models.store.audit.install_guards)."""
    from models.store.audit import install_guards

    database.create_tables([AuditCheckpoint])
    install_guards(database)


def _v25_import_staging(database: Database) -> None:
    """v25: an import's prepared rows wait in numbered batches before one short transaction publishes them
    (models.services.importer.staging)."""
    database.create_tables([ImportRun, ImportStage])


def _v26_desk_rights(database: Database) -> None:
    """v26: on PostgreSQL, no desk's credential stronger than its clerk (models.store.desks): the server's proof of
    each password, the binding of a Praça user to a desk's connection, row-level security, column grants and the
    trail written by the database for a desk. ``praca pg-setup`` then grants the desks' role. SQLite: nothing."""
    from models.store import desks

    desks.install(database)


def _v27_municipal_holidays(database: Database) -> None:
    """v27: the town's own calendar — holidays and optional closures with their source (models.rules.holidays)."""
    database.create_tables([MunicipalHoliday])


def _v29_collection(database: Database) -> None:
    """v29: collection (issue 30) — guias and their charges, the bank's return files, where a payment came from,
    reversals and credits."""
    database.create_tables(V29_TABLES)


def _v30_credit_uses(database: Database) -> None:
    """v30: a payer's credit used on a charge or refunded — each use an act of its own (issue 30 §5)."""
    from models.store import desks

    database.create_tables([CreditUse])
    desks.install(database)


def _v31_renewal_decrees(database: Database) -> None:
    """v31: the decrees that set a renewal window where the act leaves it to the Executive (issue 29 §2)."""
    from models.store import desks

    database.create_tables([RenewalDecree])
    desks.install(database)


def _v32_charge_state(database: Database) -> None:
    """v32: what is paid on a charge and its status move off the charge's row to ``charge_state`` (one narrow row
    per charge, with the Painel's indexes), so a payment no longer rewrites the ~1 KB charge row in every one of its
    indexes (issue 30: a bank return file of 10.000 records). Each charge's state is copied as it is — one trail
    entry lists every row, as the database rendered it —, then the two columns and their indexes leave ``charge``."""
    from models.base.money import from_centavos
    from models.store import desks
    from models.store.audit import record_migrated

    database.create_tables([ChargeState])
    present = {c.name for c in database.get_columns("charge")}
    state = "status, paid_total" if "status" in present else "'open', 0"  # a charge table v7 made as it is now
    database.execute_sql(
        "INSERT INTO charge_state (id, status, paid_total, due_on, amount, version) "
        f"SELECT id, {state}, due_on, amount, 1 FROM charge"
    )
    rows = [
        (charge, status, from_centavos(paid), due_on, from_centavos(amount), version)
        for charge, status, paid, due_on, amount, version in database.execute_sql(
            "SELECT id, status, paid_total, due_on, amount, version FROM charge_state ORDER BY id"
        )
    ]
    if rows:
        columns = ["id", "status", "paid_total", "due_on", "amount", "version"]
        record_migrated(ChargeState, columns, rows, note="esquema v32: situação de cada cobrança copiada da cobrança")
    for index in ("charge_status", "charge_due_on_figures", "charge_open_by_due_on"):
        database.execute_sql(f'DROP INDEX IF EXISTS "{index}"')
    for column in ("status", "paid_total"):
        if column in present:
            database.execute_sql(f'ALTER TABLE "charge" DROP COLUMN "{column}"')
    desks.install(database)


#: The payment's source, as v29 kept it in ``payment_source`` and v33 keeps it on the payment's row.
_SOURCE_COLUMNS = {
    "channel": "VARCHAR(8) NOT NULL DEFAULT ''",
    "guia_id": "INTEGER",
    "return_file_id": "INTEGER",
    "record": "INTEGER",
    "barcode": "VARCHAR(44) NOT NULL DEFAULT ''",
    "credited_on": "DATE",
    "fee": "BIGINT NOT NULL DEFAULT 0",
}


def _v33_payment_source(database: Database) -> None:
    """v33: where a payment came from (``payment_source``: channel, guia, return file, record, barcode, credit date,
    fee) on the payment's own row — a bank return file of 10.000 records is then 10.000 rows, not 20.000 with three
    more per-row key checks (issue 30). Each source is copied to its payment — one trail entry lists them, as the
    table's own entries did —, then the table goes."""
    from models.base.money import from_centavos
    from models.store import desks
    from models.store.audit import record_migrated

    present = {c.name for c in database.get_columns("payment")}
    for column, kind in _SOURCE_COLUMNS.items():  # (not peewee's migrator: SQLite would rebuild the table)
        if column not in present:
            database.execute_sql(f'ALTER TABLE "payment" ADD COLUMN "{column}" {kind}')
    if "payment_source" not in table_names(database, None):  # a database made before v29 moves through v29 as now
        return
    rows = list(
        database.execute_sql(
            f"SELECT payment_id, {', '.join(c for c in _SOURCE_COLUMNS)} FROM payment_source ORDER BY payment_id"
        )
    )
    database.execute_sql(  # UPDATE … FROM: SQLite 3.33+ and PostgreSQL
        f"UPDATE payment SET {', '.join(f'{c} = s.{c}' for c in _SOURCE_COLUMNS)} FROM payment_source AS s "
        "WHERE s.payment_id = payment.id"
    )
    if rows:
        copied = [(*row[:-1], from_centavos(row[-1])) for row in rows]
        record_migrated(
            Payment,
            ["id", *_SOURCE_COLUMNS],
            copied,
            note="esquema v33: a origem de cada pagamento (payment_source) copiada para o pagamento",
            action="update",
        )
    database.execute_sql('DROP TABLE "payment_source"')
    desks.install(database)


# (version reached, description, function) — in order, never renumbered.
MIGRATIONS: list[tuple[int, str, Callable[[Database], None]]] = [
    (2, "valores de unidades fiscais informados pelo usuário", _v2_fiscal_unit_values),
    (3, "correções anuais de índices de preços", _v3_index_corrections),
    (4, "família, sócios, dados socioeconômicos e busca por nome", _v4_front_desk_people),
    (5, "requerimentos, protocolo, documentos entregues e histórico", _v5_applications),
    (6, "permissões emitidas e seu histórico", _v6_permits),
    (7, "cobranças e pagamentos", _v7_charges),
    (8, "sorteios públicos e seus resultados", _v8_draws),
    (9, "locais, trechos, obstáculos, pontos e bancas", _v9_sites),
    (10, "documentos entregues na renovação", _v10_permit_documents),
    (11, "usuários, perfis e trilha de auditoria", _v11_users_audit),
    (12, "fiscalização: autos, apreensões, defesas e recursos", _v12_enforcement),
    (13, "listas publicadas, recursos e lista definitiva, eventos da lista corrida", _v13_selection_process),
    (14, "índices das somas das cobranças (painel e relatórios)", _v14_charge_indexes),
    (16, "trilha de auditoria encadeada e protegida contra alteração", _v16_audit_chain),
    (17, "imóvel, dias de uso e dispensa no requerimento de evento", _v17_application_venue),
    (18, "tentativas de login recusadas e bloqueio temporário", _v18_login_throttle),
    (19, "atos (regimes) no banco de dados, com versões e alterações", _v19_regime_acts),
    (20, "chaves de assinatura da prefeitura", _v20_signing_keys),
    (21, "o texto do ato (hash) de cada requerimento, permissão, cobrança e auto", _v21_act_hashes),
    (22, "a identidade do banco de dados: um login vale só no banco em que foi feito", _v22_database_id),
    (23, "pontos de controle assinados da trilha de auditoria; REPLACE recusado na trilha", _v23_trail_checkpoints),
    (25, "importações em lotes curtos, publicadas de uma vez", _v25_import_staging),
    (
        26,
        "PostgreSQL: cada mesa só pode o que o seu usuário pode (permissões, vínculo do login, trilha no banco)",
        _v26_desk_rights,
    ),
    (27, "feriados e pontos facultativos do município", _v27_municipal_holidays),
    (29, "guias com código de barras e Pix, retorno do banco, estornos e créditos", _v29_collection),
    (30, "créditos de contribuintes usados em cobranças ou devolvidos", _v30_credit_uses),
    (31, "decretos que fixam a janela de renovação onde o ato a deixa ao Executivo", _v31_renewal_decrees),
    (32, "situação e total pago de cada cobrança numa tabela própria (importação do retorno)", _v32_charge_state),
    (33, "a origem de cada pagamento (guia, arquivo de retorno, registro) no próprio pagamento", _v33_payment_source),
]

#: Version 1 is the first schema: meta, settings, people and companies.
LATEST = MIGRATIONS[-1][0] if MIGRATIONS else 1
if LATEST != SCHEMA_VERSION:  # models.store.bootstrap opens a current database without importing this module
    raise RuntimeError(f"models.store.db.SCHEMA_VERSION is {SCHEMA_VERSION}, the migrations reach {LATEST}")


def _bound(database: Database):
    return database.bind_ctx(TABLES)


def read_version(database: Database) -> int:
    with _bound(database):
        app = Meta.get_or_none(Meta.key == "app")
        row = Meta.get_or_none(Meta.key == "schema_version")
    if app is None or app.value != "praca" or row is None:
        raise DatabaseError("Este banco de dados não é do Praça (marca ausente); nada foi alterado.")
    try:
        return int(row.value)
    except ValueError:
        raise DatabaseError(f"Versão de esquema ilegível: {row.value!r}.") from None


def _write_version(version: int) -> None:
    Meta.insert(key="schema_version", value=str(version)).on_conflict(
        conflict_target=[Meta.key], update={Meta.value: str(version)}
    ).execute()


def create_schema(database: Database) -> None:
    """Create every table of the latest version in one transaction."""
    from models.store.audit import install_guards

    with _bound(database), database.atomic():
        database.create_tables(TABLES)
        install_guards(database)
        Meta.insert(key="app", value="praca").execute()
        Meta.insert(key=DATABASE_ID_KEY, value=new_database_id()).execute()
        _write_version(LATEST)  # no act: the administrator installs the municipality's own (models.rules.acts)
        from models.store import desks

        desks.install(database)


def apply_migrations(database: Database, current: int) -> list[int]:
    """Apply every migration after ``current``; returns the versions applied."""
    applied: list[int] = []
    pending = [m for m in MIGRATIONS if m[0] > current]
    if not pending:
        return applied
    if isinstance(database, SqliteDatabase):
        sqlite_copy_aside(database, f"v{current}")
    for version, _description, func in pending:
        with _bound(database), database.atomic():
            if isinstance(database, PostgresqlDatabase):  # one desk migrates; the others wait here
                database.execute_sql("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
            # Another desk may have migrated while this one waited for the lock: look again.
            if read_version(database) >= version:
                continue
            func(database)
            _write_version(version)
        applied.append(version)
    return applied


def _refuse_desk_migration(database: Database, target: DatabaseURL, version: int) -> None:
    """A desk's role cannot change the schema: the owner migrates (``praca pg-setup`` on the server)."""
    if not isinstance(database, PostgresqlDatabase):
        return
    owner = database.execute_sql(
        "SELECT pg_has_role(session_user, tableowner, 'MEMBER') FROM pg_tables "
        "WHERE schemaname = current_schema() AND tablename = %s",
        (META_TABLE,),
    ).fetchone()
    if owner is not None and not owner[0]:
        raise DatabaseError(
            f"{target.display()} está na versão de esquema {version} e precisa ser atualizado para {LATEST}: "
            f"só o dono do banco atualiza (no servidor: praca --db URL-DO-DONO pg-setup); esta mesa não alterou nada."
        )


def prepare(database: Database, target: DatabaseURL, *, migrate: bool = True, create: bool = False) -> int:
    """Make sure ``database`` holds a current Praça schema; returns its version. An empty one is given the
    schema only when ``create`` (see :func:`models.store.bootstrap.open_database`)."""
    tables = table_names(database, target)
    if META_TABLE not in tables:
        if tables:
            raise DatabaseError(f"{target.display()} já contém tabelas que não são do Praça; nada foi alterado.")
        if not create:
            raise NoDatabase(target.display(), "empty")
        create_schema(database)
        return LATEST
    version = read_version(database)
    if version > LATEST:
        raise DatabaseError(
            f"{target.display()} foi gravado por um Praça mais novo (esquema versão {version}); "
            f"esta versão do Praça conhece até a versão {LATEST}. Atualize o Praça."
        )
    if version < LATEST:
        _refuse_desk_migration(database, target, version)
        if not migrate:
            raise DatabaseError(
                f"{target.display()} está na versão de esquema {version} e precisa ser atualizado para {LATEST}."
            )
        apply_migrations(database, version)
    return LATEST


def is_empty() -> bool:
    """True when no person or company is registered (``praca demo`` refuses otherwise)."""
    return not Person.select().exists() and not Company.select().exists() and not Application.select().exists()
