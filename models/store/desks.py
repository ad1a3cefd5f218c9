"""PostgreSQL: no desk holds a credential stronger than the clerk at it (issue 26 §2).

The tables belong to one role (the *owner*: it creates, migrates and restores them, and runs the server's own
commands). The desks connect as another role, by default ``praca_desk`` (a group: each desk logs in as a role of
its own that is a member of it, ``praca pg-setup --desk-login mesa01``). That role may, by itself, do almost
nothing: read the few tables a login needs (:data:`RIGHTS`, ``read="any"``) and count failed logins. Everything
else needs a **Praça user bound to the connection**: :func:`bind` proves the user's password to the server with a
challenge and an answer (:func:`store_verifier`: a scrypt of the password, kept in ``praca_user_key``, a table no desk
can read), and the server keeps the binding for that connection only (its backend pid and a random token only that
session holds). Then:

* row-level security on every table lets a bound user read, and lets them insert, update or delete only the
  tables their role writes in Praça (:data:`RIGHTS`, from ``models.access.session.PERMISSIONS``); column grants
  leave out what no one changes once written (an issued permit's facts, a charge's number, period and
  formula, an act's number), and ``app_user`` is the administrator's, except one's own password and last login;
* the audit trail is written **by the database** for a desk: a trigger on every audited table appends the entry
  (who is the bound user, the row before and after) in the same transaction, so a change made with ``psql`` is
  audited like one made by Praça; the desk role cannot insert, change or delete an entry itself, and the few
  entries that are no change of a row (a viewing of a person's documents, a refused login) go through
  :func:`audit_note`, whose user is the bound one;
* a deactivated user's binding stops at the next statement (every check reads ``app_user.active``).

The owner's own connections (the server's command line, migrations, restores) are audited by Praça itself, as
on SQLite. ``RIGHTS`` is the one list to extend when a table is added: a table missing from it is granted to no
desk (``tests/test_pg_desks.py`` fails until it is declared).
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass

from peewee import Database, PostgresqlDatabase

from models.access import session
from models.base.errors import UserError
from models.store.db import db, set_rebind_hook

#: The group role the desks log in through (``praca pg-setup --desk-role`` chooses another).
DESK_ROLE = "praca_desk"

#: Every writer: any logged-in Praça user.
ANYONE = "*"


@dataclass(frozen=True)
class Rights:
    """What a desk may do to a table, through the Praça user bound to its connection.

    ``acts``: the acts (``session.PERMISSIONS``) whose roles may write it (the administrator always may; ``ANYONE``:
    every role; empty: the administrator only). ``insert``/``update``/``delete``: which writes at all. ``frozen``:
    columns no desk changes once the row is written (``update`` then grants the others); ``columns``: the only
    columns a desk may change (instead of ``frozen``). ``read``: ``"bound"`` (a Praça user must be bound) or
    ``"any"`` (the login needs it before anyone is bound). ``unbound_write``: writable before a login (the failed
    logins' counter). ``hidden``: columns no desk reads (it may still write them where ``update`` says)."""

    acts: tuple[str, ...] = ()
    insert: bool = True
    update: bool = True
    delete: bool = False
    frozen: tuple[str, ...] = ()
    columns: tuple[str, ...] | None = None
    read: str = "bound"
    unbound_write: bool = False
    hidden: tuple[str, ...] = ()


READ_ONLY = Rights(insert=False, update=False)
_PEOPLE = ("people.save",)
_APPLICATIONS = ("applications.create", "applications.move", "applications.decide")
_PERMITS = ("permits.issue", "permits.lifecycle", "permits.sanction")
_CHARGES = ("charges.create", "charges.generate", "charges.pay", "charges.cancel", "enforcement.record")
_ENFORCEMENT = ("enforcement.record", "enforcement.decide")
_SITES = ("sites.edit",)
_DRAWS = ("draws.hold", "applications.create")
_NUMBERED = ("number", "year", "seq", "regime")
_CREATED = ("created_at", "created_on", "created_by")

#: The desks' rights, table by table: the one declaration to extend for a new table.
RIGHTS: dict[str, Rights] = {
    "praca_meta": Rights(insert=False, update=False, read="any"),
    "setting": Rights(("settings.edit",), read="any"),
    "person": Rights(_PEOPLE, frozen=("created_at",)),
    "company": Rights(_PEOPLE, frozen=("created_at",)),
    "household_member": Rights(_PEOPLE, delete=True),
    "company_partner": Rights(_PEOPLE, delete=True),
    "fiscal_unit_value": Rights(("settings.edit",), update=False, read="any"),
    "index_correction": Rights(("settings.edit",), update=False, read="any"),
    "counter": Rights((ANYONE,)),
    "application": Rights(_APPLICATIONS, frozen=("protocol", "year", "seq", "regime", "created_at", "created_by")),
    "application_document": Rights(_APPLICATIONS),
    "application_event": Rights(_APPLICATIONS, update=False),
    # An issued permit is never edited: its status moves (and its QR is written once, see _GUARDS).
    "permit": Rights(_PERMITS, columns=("status", "status_at", "version", "qr_text")),
    "permit_event": Rights((*_PERMITS, "enforcement.decide"), update=False),
    "permit_document": Rights(_PERMITS, update=False),
    "charge": Rights(
        _CHARGES + _APPLICATIONS + _PERMITS,
        frozen=(*_NUMBERED[:1], "key", "kind", "regime", "period", "formula", "basis", "act_sha256", *_CREATED),
    ),
    # what is paid and the status (schema v32): made with the charge, then only these move
    "charge_state": Rights(_CHARGES + _APPLICATIONS + _PERMITS, columns=("status", "paid_total", "version")),
    "payment": Rights(("charges.pay",), update=False),
    # The administrator's; a user changes only their own password and last login (see _GUARDS).
    "app_user": Rights(read="any", frozen=("created_at",), hidden=("password_hash",)),
    "audit_entry": READ_ONLY,  # written by the database's triggers and functions only
    "draw": Rights(_DRAWS),
    "draw_entry": Rights(_DRAWS),
    "site": Rights(_SITES, delete=True),
    "site_segment": Rights(_SITES, delete=True),
    "site_obstacle": Rights(_SITES, delete=True),
    "named_point": Rights(_SITES, delete=True),
    "stall": Rights((*_SITES, "sites.assign", "permits.issue", "permits.sanction"), delete=True),
    "stall_breach": Rights(_SITES, delete=True),
    "enforcement_record": Rights((*_ENFORCEMENT, "permits.sanction"), frozen=(*_NUMBERED, "kind", "at", "facts")),
    "enforcement_file": Rights(_ENFORCEMENT, update=False),
    "enforcement_charge": Rights(_ENFORCEMENT),
    "enforcement_event": Rights((*_ENFORCEMENT, "permits.sanction"), update=False),
    "enforcement_item": Rights(_ENFORCEMENT),
    "enforcement_contest": Rights((*_ENFORCEMENT, "applications.move")),
    "list_publication": Rights(_DRAWS, update=False),
    "selection_appeal": Rights((*_DRAWS, "applications.decide")),
    "rotation_event": Rights(_DRAWS, delete=True),
    "point_draw": Rights(_DRAWS, update=False),
    "login_throttle": Rights((ANYONE,), delete=True, read="any", unbound_write=True),
    "regime_act": Rights(("regimes.manage",), read="any"),
    "municipal_holiday": Rights(("calendar.edit",), read="any"),  # deadlines count them, logged in or not
    "signing_key": Rights(("settings.edit",), read="any", frozen=("key_id", "public_key", "created_at")),
    # the trail's checkpoints (issue 26 §3): added by whichever desk opens first each day, backs up or prints a
    # report — never changed (its guards refuse UPDATE and DELETE like the trail's); a forged one fails its signature
    "audit_checkpoint": Rights((ANYONE,), update=False, read="any", unbound_write=True),
    # collection (issue 30): guias (issued, never edited: only their status moves), the bank's files, reversals (new
    # acts referring to a payment), credits and dívida ativa inscriptions
    "guia": Rights(_CHARGES, columns=("status", "replaced_by")),
    "guia_charge": Rights(_CHARGES, update=False),
    "return_file": Rights(("charges.pay",), update=False),
    "payment_reversal": Rights(("charges.cancel",), update=False),
    "credit": Rights(("charges.pay", "charges.cancel")),
    "credit_use": Rights(("charges.pay", "charges.cancel"), update=False),
    "debt_inscription": Rights(("charges.cancel",), update=False),
    # an import's staged batches (issue 26 §7): the administrator's, removed once published
    "import_run": Rights(("import",), delete=True),
    "import_stage": Rights(("import",), delete=True),
    # the decree that sets a renewal window the act leaves to the Executive: recorded, corrected by a new row
    "renewal_decree": Rights(("calendar.edit",), read="any", columns=("replaced_by",)),
}

#: Tables the audit trail leaves out (bookkeeping): ``models.store.audit.UNAUDITED``.
_UNAUDITED = {
    "audit_entry",
    "audit_checkpoint",
    "counter",
    "praca_meta",
    "login_throttle",
    "import_run",
    "import_stage",
}


def roles_for(rights: Rights) -> list[str]:
    """The Praça roles that may write a table with ``rights`` (the administrator always)."""
    if ANYONE in rights.acts:
        return sorted(session.ROLES)
    roles = {"administrador"}
    for act in rights.acts:
        roles.update(session.PERMISSIONS[act])
    return sorted(roles)


# --------------------------------------------------------------------------- the server's side

_KEY_TABLES = """
CREATE TABLE IF NOT EXISTS praca_user_key (
    username varchar(40) PRIMARY KEY,
    salt text NOT NULL,
    verifier text NOT NULL,
    failures integer NOT NULL DEFAULT 0,
    locked_until timestamptz
);
CREATE TABLE IF NOT EXISTS praca_desk_session (
    pid integer PRIMARY KEY,
    token text,
    login text NOT NULL DEFAULT '',
    challenge text,
    username varchar(40)
);
REVOKE ALL ON praca_user_key, praca_desk_session FROM PUBLIC;
"""

#: Failed answers in a row that lock a login at the server, and for how long (``models.access.users`` keeps the
#: desk's own count; this one holds for a connection that never runs Praça).
SERVER_MAX_FAILURES = 5
SERVER_LOCK = "15 minutes"


def _functions(schema: str, owner: str) -> str:
    path = f"SET search_path = {_ident(schema)}, pg_temp"
    owner_lit = _literal(owner)
    return f"""
CREATE OR REPLACE FUNCTION praca_is_desk() RETURNS boolean LANGUAGE sql STABLE {path} AS $$
  SELECT NOT pg_has_role(session_user, {owner_lit}, 'MEMBER') $$;

CREATE OR REPLACE FUNCTION praca_bound_username() RETURNS text LANGUAGE sql STABLE SECURITY DEFINER {path} AS $$
  SELECT u.username::text FROM praca_desk_session s JOIN app_user u ON u.username = s.username
  WHERE s.pid = pg_backend_pid() AND s.token IS NOT NULL AND s.token = current_setting('praca.desk_token', true)
    AND u.active $$;

CREATE OR REPLACE FUNCTION praca_bound_user() RETURNS integer LANGUAGE sql STABLE SECURITY DEFINER {path} AS $$
  SELECT id FROM app_user WHERE username = praca_bound_username() $$;

CREATE OR REPLACE FUNCTION praca_bound_role() RETURNS text LANGUAGE sql STABLE SECURITY DEFINER {path} AS $$
  SELECT role::text FROM app_user WHERE username = praca_bound_username() $$;

CREATE OR REPLACE FUNCTION praca_challenge(p_login text) RETURNS TABLE(salt text, challenge text)
LANGUAGE plpgsql VOLATILE SECURITY DEFINER {path} AS $$
DECLARE c text := replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', '');
BEGIN
  DELETE FROM praca_desk_session WHERE pid = pg_backend_pid()
     OR pid NOT IN (SELECT a.pid FROM pg_stat_activity a);
  PERFORM set_config('praca.desk_token', '', false);
  INSERT INTO praca_desk_session (pid, login, challenge) VALUES (pg_backend_pid(), lower(p_login), c);
  RETURN QUERY SELECT k.salt, c FROM praca_user_key k WHERE k.username = lower(p_login)
    UNION ALL SELECT NULL, c WHERE NOT EXISTS (SELECT 1 FROM praca_user_key k WHERE k.username = lower(p_login));
END $$;

CREATE OR REPLACE FUNCTION praca_answer(p_login text, p_answer text) RETURNS text
LANGUAGE plpgsql VOLATILE SECURITY DEFINER {path} AS $$
DECLARE s praca_desk_session; k praca_user_key; t text; live boolean;
BEGIN
  SELECT * INTO s FROM praca_desk_session WHERE pid = pg_backend_pid() FOR UPDATE;
  IF NOT FOUND OR s.challenge IS NULL OR s.login <> lower(p_login) THEN RETURN 'challenge'; END IF;
  UPDATE praca_desk_session SET challenge = NULL WHERE pid = pg_backend_pid();  -- one answer per challenge
  SELECT * INTO k FROM praca_user_key WHERE username = lower(p_login) FOR UPDATE;
  IF NOT FOUND THEN RETURN 'unknown'; END IF;
  IF k.locked_until IS NOT NULL AND k.locked_until > now() THEN RETURN 'locked'; END IF;
  SELECT u.active INTO live FROM app_user u WHERE u.username = k.username;
  IF live IS NOT TRUE
     OR encode(sha256(convert_to(k.verifier || ':' || s.challenge, 'UTF8')), 'hex') <> coalesce(p_answer, '') THEN
    UPDATE praca_user_key SET failures = failures + 1,
      locked_until = CASE WHEN failures + 1 >= {SERVER_MAX_FAILURES} THEN now() + interval '{SERVER_LOCK}' END
      WHERE username = k.username;
    RETURN 'refused';
  END IF;
  t := replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', '');
  UPDATE praca_user_key SET failures = 0, locked_until = NULL WHERE username = k.username;
  UPDATE praca_desk_session SET username = k.username, token = t WHERE pid = pg_backend_pid();
  PERFORM set_config('praca.desk_token', t, false);
  RETURN 'ok';
END $$;

CREATE OR REPLACE FUNCTION praca_unbind() RETURNS void LANGUAGE plpgsql VOLATILE SECURITY DEFINER {path} AS $$
BEGIN
  DELETE FROM praca_desk_session WHERE pid = pg_backend_pid();
  PERFORM set_config('praca.desk_token', '', false);
END $$;

CREATE OR REPLACE FUNCTION praca_set_verifier(p_login text, p_salt text, p_verifier text) RETURNS void
LANGUAGE plpgsql VOLATILE SECURITY DEFINER {path} AS $$
BEGIN
  IF praca_is_desk() AND coalesce(praca_bound_role(), '') <> 'administrador'
     AND coalesce(praca_bound_username(), '') <> lower(p_login) THEN
    RAISE EXCEPTION 'Só o administrador ou o próprio usuário define a senha de %.', p_login
      USING ERRCODE = 'insufficient_privilege';
  END IF;
  INSERT INTO praca_user_key (username, salt, verifier) VALUES (lower(p_login), p_salt, p_verifier)
    ON CONFLICT (username) DO UPDATE SET salt = EXCLUDED.salt, verifier = EXCLUDED.verifier,
      failures = 0, locked_until = NULL;
END $$;

CREATE OR REPLACE FUNCTION praca_audit_write(p_table text, p_record text, p_action text, p_before text,
  p_after text, p_note text, p_person integer, p_user text) RETURNS void
LANGUAGE plpgsql VOLATILE SECURITY DEFINER {path} AS $$
DECLARE prev text; stamp timestamp := date_trunc('second', localtimestamp); digest text;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext(current_schema() || '.audit_entry'));
  SELECT e.hash INTO prev FROM audit_entry e ORDER BY e.id DESC LIMIT 1;
  prev := coalesce(prev, '');
  digest := encode(sha256(convert_to(
    '{{"action":' || to_json(p_action)::text || ',"after":' || to_json(p_after)::text
    || ',"at":' || to_json(to_char(stamp, 'YYYY-MM-DD HH24:MI:SS'))::text
    || ',"before":' || to_json(p_before)::text || ',"note":' || to_json(p_note)::text
    || ',"person_id":' || coalesce(p_person::text, 'null') || ',"prev":' || to_json(prev)::text
    || ',"record_id":' || to_json(p_record)::text || ',"table_name":' || to_json(p_table)::text
    || ',"username":' || to_json(p_user)::text || '}}', 'UTF8')), 'hex');
  INSERT INTO audit_entry (at, username, table_name, record_id, action, before, after, note, person_id,
                           prev_hash, hash)
    VALUES (stamp, p_user, p_table, p_record, p_action, p_before, p_after, p_note, p_person, prev, digest);
END $$;

CREATE OR REPLACE FUNCTION praca_audit_note(p_table text, p_record text, p_action text, p_note text,
  p_person integer, p_login text) RETURNS void
LANGUAGE plpgsql VOLATILE SECURITY DEFINER {path} AS $$
DECLARE who text;
BEGIN
  IF p_action = 'view' THEN
    who := praca_bound_username();
    IF who IS NULL THEN
      RAISE EXCEPTION 'Nenhum usuário do Praça entrou nesta conexão.' USING ERRCODE = 'insufficient_privilege';
    END IF;
  ELSIF p_action = 'login-fail' AND p_table = 'app_user' THEN
    who := left(coalesce(p_login, ''), 100);
  ELSE
    RAISE EXCEPTION 'A trilha de auditoria não aceita este registro (%).', p_action
      USING ERRCODE = 'insufficient_privilege';
  END IF;
  PERFORM praca_audit_write(p_table, left(coalesce(p_record, ''), 64), p_action, '', '', coalesce(p_note, ''),
                            p_person, who);
END $$;

CREATE OR REPLACE FUNCTION praca_audit_row() RETURNS trigger
LANGUAGE plpgsql VOLATILE SECURITY DEFINER {path} AS $$
DECLARE o jsonb; n jsonb; b jsonb; a jsonb; r jsonb; act text; person integer;
BEGIN
  IF TG_OP = 'INSERT' THEN n := to_jsonb(NEW); a := n; act := 'insert';
  ELSIF TG_OP = 'DELETE' THEN o := to_jsonb(OLD); b := o; act := 'delete';
  ELSE
    o := to_jsonb(OLD); n := to_jsonb(NEW); act := 'update';
    SELECT jsonb_object_agg(e.key, o -> e.key), jsonb_object_agg(e.key, e.value) INTO b, a
      FROM jsonb_each(n) e WHERE e.value IS DISTINCT FROM (o -> e.key);
    IF a IS NULL THEN RETURN NULL; END IF;
  END IF;
  IF b ? 'password_hash' THEN b := jsonb_set(b, '{{password_hash}}', '"***"'); END IF;
  IF a ? 'password_hash' THEN a := jsonb_set(a, '{{password_hash}}', '"***"'); END IF;
  r := coalesce(n, o);
  IF TG_TABLE_NAME = 'person' THEN person := (r ->> 'id')::integer;
  ELSIF jsonb_typeof(r -> 'person_id') = 'number' THEN person := (r ->> 'person_id')::integer;
  END IF;
  PERFORM praca_audit_write(TG_TABLE_NAME::text, coalesce(r ->> 'id', r ->> 'key', ''), act,
    coalesce(b::text, ''), coalesce(a::text, ''), '', person, coalesce(praca_bound_username(), session_user::text));
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION praca_guard_row() RETURNS trigger
LANGUAGE plpgsql VOLATILE SECURITY DEFINER {path} AS $$
BEGIN
  IF TG_TABLE_NAME = 'app_user' THEN
    IF coalesce(praca_bound_role(), '') <> 'administrador' AND (NEW.id IS DISTINCT FROM praca_bound_user()
       OR (NEW.username, NEW.name, NEW.role, NEW.active)
          IS DISTINCT FROM (OLD.username, OLD.name, OLD.role, OLD.active))
    THEN
      RAISE EXCEPTION 'Só o administrador altera usuários e perfis.' USING ERRCODE = 'insufficient_privilege';
    END IF;
  ELSIF TG_TABLE_NAME = 'permit' THEN
    IF coalesce(OLD.qr_text, '') <> '' AND NEW.qr_text IS DISTINCT FROM OLD.qr_text THEN
      RAISE EXCEPTION 'Uma permissão emitida não é alterada (o QR code é gravado uma vez).'
        USING ERRCODE = 'insufficient_privilege';
    END IF;
    IF NEW.status IS DISTINCT FROM OLD.status
       AND (NEW.status = ANY ({_array(list(SANCTION_STATUSES))}) OR OLD.status = 'suspended')
       AND coalesce(praca_bound_role(), '') <> ALL ({_array(roles_for(Rights(("permits.sanction",))))}) THEN
      RAISE EXCEPTION 'Só quem pode suspender, cassar ou cancelar permissões muda essa situação.'
        USING ERRCODE = 'insufficient_privilege';
    END IF;
  END IF;
  RETURN NEW;
END $$;

REVOKE ALL ON FUNCTION praca_audit_write(text, text, text, text, text, text, integer, text) FROM PUBLIC;
"""


#: A permit's statuses only ``permits.sanction`` gives (and takes away: a suspended permit reactivated).
SANCTION_STATUSES = ("suspended", "revoked", "cancelled")

#: Tables with a guard trigger for desks (praca_guard_row): what column grants cannot say.
_GUARDS = ("app_user", "permit")

#: The functions a desk calls.
_DESK_FUNCTIONS = (
    "praca_is_desk()",
    "praca_bound_username()",
    "praca_bound_user()",
    "praca_bound_role()",
    "praca_challenge(text)",
    "praca_answer(text, text)",
    "praca_unbind()",
    "praca_set_verifier(text, text, text)",
    "praca_audit_note(text, text, text, text, integer, text)",
)


def _ident(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _literal(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def _array(values: list[str]) -> str:
    return "ARRAY[" + ", ".join(_literal(v) for v in values) + "]::text[]"


def _policies(table: str, rights: Rights, owner: str) -> list[str]:
    bound = "(SELECT praca_bound_username()) IS NOT NULL"
    if rights.unbound_write:
        write = "true"
    else:
        write = f"(SELECT praca_bound_role()) = ANY ({_array(roles_for(rights))})"
    if table == "app_user":  # one's own row too (password, last login): praca_guard_row says which columns
        write = f"({write} OR id = (SELECT praca_bound_user()))"
    read = "true" if rights.read == "any" else bound
    name = _ident(table)
    statements = [f"ALTER TABLE {name} ENABLE ROW LEVEL SECURITY"]
    for policy, clause in (
        ("read", f"FOR SELECT USING ({read})"),
        ("insert", f"FOR INSERT WITH CHECK ({write if rights.insert else 'false'})"),
        ("update", f"FOR UPDATE USING ({write if rights.update else 'false'})"),
        ("delete", f"FOR DELETE USING ({write if rights.delete else 'false'})"),
    ):
        statements.append(f"DROP POLICY IF EXISTS praca_{policy} ON {name}")
        statements.append(f"CREATE POLICY praca_{policy} ON {name} {clause}")
    if table not in _UNAUDITED:
        statements.append(f"DROP TRIGGER IF EXISTS praca_audit_row ON {name}")
        statements.append(
            f"CREATE TRIGGER praca_audit_row AFTER INSERT OR UPDATE OR DELETE ON {name} FOR EACH ROW "
            f"WHEN (NOT pg_has_role(session_user, {_literal(owner)}, 'MEMBER')) EXECUTE FUNCTION praca_audit_row()"
        )
    if table in _GUARDS:
        statements.append(f"DROP TRIGGER IF EXISTS praca_guard_row ON {name}")
        statements.append(
            f"CREATE TRIGGER praca_guard_row BEFORE UPDATE ON {name} FOR EACH ROW "
            f"WHEN (NOT pg_has_role(session_user, {_literal(owner)}, 'MEMBER')) EXECUTE FUNCTION praca_guard_row()"
        )
    return statements


def _schema_and_owner(database: Database) -> tuple[str, str]:
    schema, owner = database.execute_sql(
        "SELECT current_schema(), (SELECT tableowner FROM pg_tables WHERE schemaname = current_schema() "
        "AND tablename = 'audit_entry')"
    ).fetchone()
    return schema, owner


def install(database: Database) -> None:
    """Install (or bring up to date) the desks' side on a PostgreSQL database: the key and session tables, the
    functions, row-level security and the triggers of every table in :data:`RIGHTS`. Run by the owner, inside the
    transaction that creates or migrates the schema; no role is needed (``praca pg-setup`` grants). SQLite: nothing.
    """
    if not isinstance(database, PostgresqlDatabase):
        return
    schema, owner = _schema_and_owner(database)
    _run(database, _KEY_TABLES)
    _run(database, _functions(schema, owner))
    present = set(database.get_tables(schema=schema))
    for table, rights in RIGHTS.items():
        if table in present:
            for statement in _policies(table, rights, owner):
                database.execute_sql(statement)


def _run(database: Database, sql: str) -> None:
    """Statements with no parameters (their text has ``%`` of its own: PL/pgSQL's RAISE)."""
    with database.cursor() as cursor:
        cursor.execute(sql)


def installed(database: Database) -> bool:
    return isinstance(database, PostgresqlDatabase) and bool(
        database.execute_sql("SELECT to_regclass('praca_user_key') IS NOT NULL").fetchone()[0]
    )


def grant(database: Database, role: str = DESK_ROLE) -> None:
    """Give the group ``role`` (created NOLOGIN when missing) exactly the desks' rights on this schema: what
    :data:`RIGHTS` says of each table, nothing on the key and session tables, the functions a desk calls. Revokes
    whatever it held before (the shared role of older versions of the README included)."""
    if not isinstance(database, PostgresqlDatabase):
        raise UserError("As permissões das mesas são do PostgreSQL; o banco embutido é de uma mesa só.")
    check_role_name(role, "o papel das mesas")
    schema, _owner = _schema_and_owner(database)
    role_name = _ident(role)
    exists = database.execute_sql("SELECT 1 FROM pg_roles WHERE rolname = %s", (role,)).fetchone()
    if not exists:
        database.execute_sql(
            f"DO $$ BEGIN CREATE ROLE {role_name} NOLOGIN; "
            "EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL; END $$"
        )
    connect = "SELECT has_database_privilege(%s, current_database(), 'CONNECT')"
    if not database.execute_sql(connect, (role,)).fetchone()[0]:  # PUBLIC usually has it: no GRANT written again
        database.execute_sql(f"GRANT CONNECT ON DATABASE {_ident(_current_database(database))} TO {role_name}")
    database.execute_sql(f"GRANT USAGE ON SCHEMA {_ident(schema)} TO {role_name}")
    present = set(database.get_tables(schema=schema))
    for table in sorted(present):
        database.execute_sql(f"REVOKE ALL ON {_ident(table)} FROM {role_name}")
    for table, rights in RIGHTS.items():
        if table not in present:
            continue
        name = _ident(table)
        columns = [c.name for c in database.get_columns(table, schema=schema)]
        if rights.hidden:
            readable = ", ".join(_ident(c) for c in columns if c not in rights.hidden)
            database.execute_sql(f"GRANT SELECT ({readable}) ON {name} TO {role_name}")
        else:
            database.execute_sql(f"GRANT SELECT ON {name} TO {role_name}")
        if rights.insert:
            database.execute_sql(f"GRANT INSERT ON {name} TO {role_name}")
        if rights.update:
            if rights.columns is not None:
                allowed = [c for c in columns if c in rights.columns]
            else:
                allowed = [c for c in columns if c != "id" and c not in rights.frozen]
            if allowed:
                database.execute_sql(f"GRANT UPDATE ({', '.join(map(_ident, allowed))}) ON {name} TO {role_name}")
        if rights.delete:
            database.execute_sql(f"GRANT DELETE ON {name} TO {role_name}")
    database.execute_sql(f"GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA {_ident(schema)} TO {role_name}")
    for function in _DESK_FUNCTIONS:
        database.execute_sql(f"REVOKE ALL ON FUNCTION {function} FROM PUBLIC")
        database.execute_sql(f"GRANT EXECUTE ON FUNCTION {function} TO {role_name}")


def check_role_name(name: str, what: str) -> None:
    """A PostgreSQL role name Praça creates: letters, digits, ``._-``, at most 63 characters."""
    if not name or not all(c.isascii() and (c.isalnum() or c in "_-.") for c in name) or len(name) > 63:
        raise UserError(f"Nome inválido para {what}: use letras, números, ponto, hífen ou sublinhado (até 63).")


def add_desk_login(database: Database, login: str, password: str, role: str = DESK_ROLE) -> None:
    """A login role for one desk, member of the group ``role`` and of nothing else (its password changed when it
    exists already)."""
    check_role_name(login, "o login da mesa")
    if not password or any(ord(c) < 32 or ord(c) == 127 for c in password):
        raise UserError(f"Senha vazia ou com caractere de controle para o login da mesa {login}.", field="password")
    name = _ident(login)
    exists = database.execute_sql("SELECT rolsuper OR rolcreaterole FROM pg_roles WHERE rolname = %s", (login,))
    row = exists.fetchone()
    if row is not None and row[0]:
        raise UserError(f"O papel {login} do PostgreSQL administra o servidor: não pode ser o login de uma mesa.")
    verb = "ALTER" if row is not None else "CREATE"
    database.execute_sql(f"{verb} ROLE {name} LOGIN INHERIT PASSWORD {_literal(password)}")
    database.execute_sql(f"GRANT {_ident(role)} TO {name}")


def _current_database(database: Database) -> str:
    return database.execute_sql("SELECT current_database()").fetchone()[0]


# --------------------------------------------------------------------------- the desk's side


def is_desk(database) -> bool:
    """Whether ``database`` is a desk's connection (a PostgreSQL role that does not own the tables)."""
    return bool(getattr(database, "praca_desk", False))


def detect(database: Database) -> None:
    """Mark a freshly opened database as a desk's connection, or not (``database.praca_desk``)."""
    desk = False
    if isinstance(database, PostgresqlDatabase) and installed(database):
        desk = bool(database.execute_sql("SELECT praca_is_desk()").fetchone()[0])
    database.praca_desk = desk  # type: ignore[attr-defined]


#: The verifier's scrypt (as the password hash's, ``models.access.users``, with a salt of its own).
SCRYPT_N, SCRYPT_R, SCRYPT_P = 2**14, 8, 1


def _scrypt(password: str, salt: bytes) -> str:
    return hashlib.scrypt(password.encode("utf-8"), salt=salt, n=SCRYPT_N, r=SCRYPT_R, p=SCRYPT_P, dklen=32).hex()


def store_verifier(database, username: str, password: str) -> None:
    """Keep the server's proof of ``username``'s password (a scrypt of it with a salt of its own, never the
    password hash the desks can read), so that the user can be bound at a desk. Nothing on SQLite."""
    if not isinstance(database, PostgresqlDatabase) or not installed(database):
        return
    salt = os.urandom(16).hex()
    key = _scrypt(password, bytes.fromhex(salt))
    database.execute_sql("SELECT praca_set_verifier(%s, %s, %s)", (username, salt, key))
    binding = getattr(database, "praca_binding", None)
    if binding is not None and binding[0] == username.lower():  # one's own new password: rebind with it later
        database.praca_binding = (binding[0], key)  # type: ignore[attr-defined]


def has_verifier(database, username: str) -> bool:
    return bool(
        database.execute_sql("SELECT 1 FROM praca_user_key WHERE username = %s", (username.lower(),)).fetchone()
    )


class BindRefused(UserError):  # noqa: N818 - a refusal the login shows, as PermissionDenied
    pass


def _answer(cursor, login: str, key: str | None) -> str:
    cursor.execute("SELECT salt, challenge FROM praca_challenge(%s)", (login,))
    salt, challenge = cursor.fetchone()
    if salt is None:
        return "unknown"
    secret = key if key is not None else ""
    answer = hashlib.sha256(f"{secret}:{challenge}".encode()).hexdigest()
    cursor.execute("SELECT praca_answer(%s, %s)", (login, answer))
    return cursor.fetchone()[0]


def prove(database, login: str, password: str) -> str:
    """At a desk, the server checks ``login``'s password (a desk cannot read the password hashes): ``"ok"`` (and
    the user is bound to this connection, as :func:`bind`), ``"refused"``, ``"locked"`` (too many wrong answers
    at the server) or ``"unknown"`` (the server has no proof of this login's password). The same scrypt is spent
    whatever the answer. A refusal leaves the connection bound as it was."""
    login = login.strip().lower()
    cursor = database.cursor()
    cursor.execute("SELECT salt FROM praca_challenge(%s)", (login,))
    salt = cursor.fetchone()[0]
    key = _scrypt(password, bytes.fromhex(salt) if salt else b"\0" * 16)
    outcome = _answer(cursor, login, key) if salt else "unknown"
    if outcome == "ok":
        database.praca_binding = (login, key)
    elif getattr(database, "praca_binding", None) is not None:
        rebind(database, database.connection())
    return outcome


def rebind(database, conn) -> None:
    """On a new connection of a desk (another thread, a reconnection): bind the same user again."""
    binding = getattr(database, "praca_binding", None)
    if binding is None:
        return
    login, key = binding
    with conn.cursor() as cursor:
        _answer(cursor, login, key)


set_rebind_hook(rebind)


def bind_like(database, conn) -> None:
    """``conn`` (another thread's connection of this desk: the window's, while a login is checked on a worker)
    bound as this thread's now is — to the user bound, or to nobody."""
    if getattr(database, "praca_binding", None) is not None:
        rebind(database, conn)
        return
    with conn.cursor() as cursor:
        cursor.execute("SELECT praca_unbind()")


def unbind(database) -> None:
    """End the binding of this desk's connection (a logout, a new login)."""
    database.praca_binding = None
    database.execute_sql("SELECT praca_unbind()")


def audit_note(**fields) -> None:
    """A desk's entry of the trail that is no change of a row (a viewing, a refused login), written by the server
    (:func:`models.store.audit.append` calls it for a desk)."""
    db.execute_sql(
        "SELECT praca_audit_note(%s, %s, %s, %s, %s, %s)",
        (
            fields.get("table_name", ""),
            fields.get("record_id", "") or "",
            fields.get("action", ""),
            fields.get("note", "") or "",
            fields.get("person_id"),
            fields.get("username", ""),
        ),
    )
