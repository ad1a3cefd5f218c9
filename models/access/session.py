"""Who is working: the user logged in at this desk, and what their role lets them do.

Roles are checked in the domain functions (``require``), not only by hiding
buttons.

Nobody logged in means no permission (deny by default): the window logs a user
in first (:mod:`views.login`), the command line authenticates a Praça user
(``--user`` or ``PRACA_USER``/``PRACA_PASSWORD``, :mod:`desktop.login`), and
the few acts of the system itself — the demo filling a new database — run
explicitly as :data:`SYSTEM` (``acting_as(SYSTEM)``). Who did a thing (the
``by`` of an act, the audit trail's user) comes from the session:
:func:`author` and :func:`who`, never from text someone typed.

A login belongs to one database (issue 26 §1): its session carries the identity of the database it was made on
(``database_id``, a random id in the database's ``praca_meta``). Opening a database with another identity ends
it (:func:`database_opened`), and every act re-checks it against the database (:func:`confirm`): :func:`require`
before the act, and the audit trail again inside the transaction that writes — the same database, a user it
has, still active, with a role that still allows the act. A user the administrator deactivated or demoted
stops at the next act, at every desk where they are logged in. Sessions made by code with no user (``user_id``
``None``: :data:`SYSTEM`, the tests' clerks) are not users of any database and are not re-checked.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass

from models.base.errors import UserError
from models.store import db as store

ROLES = {
    "atendente": "atendente",
    "fiscal": "fiscal",
    "chefe": "chefe",
    "administrador": "administrador",
}

#: What each act needs: the roles that may do it (the administrator may do everything).
PERMISSIONS: dict[str, tuple[str, ...]] = {
    "people.save": ("atendente", "fiscal", "chefe"),
    "people.view-documents": ("atendente", "chefe"),
    "applications.create": ("atendente", "chefe"),
    "applications.move": ("atendente", "chefe"),
    "applications.decide": ("chefe",),  # approve, refuse
    "permits.issue": ("atendente", "chefe"),
    "permits.lifecycle": ("atendente", "chefe"),  # renew, leave, start, pick-up, extend
    "permits.sanction": ("chefe",),  # suspend, revoke, cancel, transfer, exchange
    "charges.generate": ("chefe",),
    "charges.create": ("atendente", "fiscal", "chefe"),
    "charges.pay": ("atendente", "chefe"),
    "charges.cancel": ("chefe",),
    "draws.hold": ("chefe",),
    "sites.edit": ("chefe",),
    "sites.assign": ("atendente", "chefe"),
    "enforcement.record": ("fiscal", "chefe"),
    "enforcement.decide": ("chefe",),
    "settings.edit": (),
    "users.manage": (),
    "regimes.manage": (),  # install, amend, retire an act
    "calendar.edit": ("chefe",),  # the town's holidays and optional closures
    "backup": (),
    "import": (),
    "audit.view": ("chefe",),
}
ACT_LABELS = {
    "people.save": "cadastrar pessoas e empresas",
    "people.view-documents": "ver documentos pessoais",
    "applications.create": "protocolar requerimentos",
    "applications.move": "movimentar requerimentos",
    "applications.decide": "aprovar ou indeferir requerimentos",
    "permits.issue": "emitir permissões",
    "permits.lifecycle": "renovar e registrar fatos das permissões",
    "permits.sanction": "suspender, cassar, cancelar, transferir ou permutar permissões",
    "charges.generate": "gerar as cobranças do mês",
    "charges.create": "lançar cobranças",
    "charges.pay": "registrar pagamentos",
    "charges.cancel": "cancelar cobranças",
    "draws.hold": "realizar ou anular sorteios",
    "sites.edit": "editar locais e mapas",
    "sites.assign": "atribuir bancas",
    "enforcement.record": "lavrar autos e notificações",
    "enforcement.decide": "decidir defesas, recursos e as sanções deixadas à autoridade",
    "settings.edit": "alterar as configurações",
    "users.manage": "administrar usuários",
    "regimes.manage": "instalar, alterar ou retirar atos (regimes)",
    "calendar.edit": "cadastrar feriados e pontos facultativos do município",
    "backup": "fazer e restaurar cópias de segurança",
    "import": "importar planilhas",
    "audit.view": "consultar a trilha de auditoria",
}


@dataclass(frozen=True)
class Session:
    user_id: int | None
    username: str
    name: str
    role: str
    database_id: str = ""  # the identity of the database the login was made on (models.store.db)


SYSTEM = Session(None, "sistema", "Sistema", "administrador")
_current: Session | None = None


def nobody(what: str = "agir") -> str:
    """The refusal when nobody is logged in."""
    return (
        f"Ninguém entrou no Praça: é preciso entrar com um usuário para {what} (no aplicativo, ou na linha "
        f"de comando com --user NOME ou PRACA_USER e PRACA_PASSWORD)."
    )


class PermissionDenied(UserError):  # noqa: N818 - a public name the screens and the tests use
    def __init__(self, message: str):
        super().__init__(message, field="role")


def current() -> Session | None:
    """The user logged in at this desk, or ``None`` (nobody: every act is refused)."""
    return _current


def who() -> str:
    """The login that the audit trail records (``sistema`` for what no one does: a failed login's entry)."""
    return _current.username if _current is not None else SYSTEM.username


def author() -> str:
    """The name a record keeps as who acted (``by``, ``issued_by``…): the logged-in user's, never typed text."""
    if _current is None:
        raise PermissionDenied(nobody())
    return _current.name


def acting(by: str | None = None) -> str:
    """Who a record keeps as having acted, for a domain function that still takes ``by``: always the session's
    user (:func:`author`; nobody logged in is refused). ``by`` is accepted so that callers stay compatible and is
    ignored — no screen or command can record a typed name as the author. Only the system's own session
    (:data:`SYSTEM`: the demo filling a new database, the tests' fixtures), which no login gives, keeps the
    official it names."""
    name = author()
    if _current is SYSTEM:
        return " ".join((by or "").split()) or name
    return name


def database_opened(database_id: str) -> None:
    """A database was opened: a login made on another database ends here (its user is not this one's)."""
    if _current is not None and _current.user_id is not None and _current.database_id != database_id:
        log_out()


def log_in(session: Session | None) -> None:
    global _current
    _current = session


def log_out() -> None:
    log_in(None)


@contextlib.contextmanager
def acting_as(session: Session | None):
    """Run a block as ``session`` (tests, and the desk while a dialog acts for the logged-in user)."""
    global _current
    before = _current
    _current = session
    try:
        yield
    finally:
        _current = before


def can(act: str, session: Session | None = None) -> bool:
    session = session if session is not None else _current
    if session is None:  # deny by default: nobody logged in may do nothing
        return False
    if session.role == "administrador":
        return True
    return session.role in PERMISSIONS.get(act, ())


def _refused(session: Session, role: str, act: str) -> PermissionDenied:
    allowed = [ROLES[r] for r in PERMISSIONS[act]] + ["administrador"]
    return PermissionDenied(
        f"{session.name} ({ROLES.get(role, role)}) não pode {ACT_LABELS[act]}: é preciso ser {' ou '.join(allowed)}."
    )


def require(act: str) -> None:
    """Refuse ``act`` to the logged-in user whose role does not allow it — as the session says, and as the open
    database says now (:func:`confirm`)."""
    if act not in PERMISSIONS:
        raise KeyError(act)
    if _current is None:
        raise PermissionDenied(nobody(ACT_LABELS[act]))
    if not can(act):
        raise _refused(_current, _current.role, act)
    if store.current_url() is not None:  # a database is open: it has the last word
        confirm(act)


def _allowed(role: str) -> set[str]:
    return {act for act in PERMISSIONS if can(act, Session(None, "", "", role))}


_CONFIRMED = "_praca_author_confirmed"


def confirm(act: str | None = None) -> None:
    """Re-check, against the open database, that the logged-in user may still act — call it inside the
    transaction that writes, so that what it reads is what the write commits with (the audit trail does, for
    every write; a domain function whose act writes no row of the database — a file signed, a key changed — calls
    it with its ``act``).

    Refused, with one pt-BR line, when the login was made on another database, when the database has no such user
    (or another with that id), when the user is no longer active, and when the role the database now gives them
    does not allow ``act`` (without ``act``: any act their role at login allowed). Sessions with no user (the
    system's, the tests') are not users of a database and pass."""
    session = _current
    if session is None or session.user_id is None:
        return
    database = store.db.obj
    if database is None or store.current_url() is None:
        raise PermissionDenied("Nenhum banco de dados aberto.")
    transactions = database._state.transactions
    top = transactions[0] if act is None and transactions else None  # the outermost transaction (not a savepoint)
    if top is not None and getattr(top, _CONFIRMED, None) == session:
        return  # this transaction already checked this user
    if session.database_id != store.current_database_id():
        raise PermissionDenied(
            f"O login de {session.name} foi feito em outro banco de dados: neste é preciso entrar de novo, com "
            f"um usuário deste banco. Nada foi gravado."
        )
    row = database.execute_sql(
        f'SELECT "username", "role", "active" FROM "app_user" WHERE "id" = {database.param}', (session.user_id,)
    ).fetchone()
    if row is None or row[0] != session.username:
        raise PermissionDenied(
            f"O usuário {session.username} não existe neste banco de dados: entre com um usuário dele. "
            f"Nada foi gravado."
        )
    _username, role, active = row
    if not active:
        raise PermissionDenied(
            f"O usuário {session.username} foi desativado pelo administrador: nada foi gravado. Entre com um "
            f"usuário ativo (Arquivo → Trocar de usuário)."
        )
    if act is not None:
        if not can(act, Session(None, "", "", role)):
            if role == session.role:
                raise _refused(session, role, act)
            raise PermissionDenied(
                f"O perfil de {session.name} mudou de {ROLES.get(session.role, session.role)} para "
                f"{ROLES.get(role, role)}, que não pode {ACT_LABELS[act]}: nada foi gravado."
            )
    elif role != session.role and not _allowed(session.role) <= _allowed(role):
        raise PermissionDenied(
            f"O perfil de {session.name} mudou de {ROLES.get(session.role, session.role)} para "
            f"{ROLES.get(role, role)}: nada foi gravado. Entre de novo (Arquivo → Trocar de usuário) para continuar "
            f"com o novo perfil."
        )
    if top is not None:
        setattr(top, _CONFIRMED, session)
