"""Praça's users: login with a memory-hard password hash, a role each, managed by the administrator.

Passwords are hashed with ``hashlib.scrypt`` (n = 2¹⁴, r = 8, p = 1, 16-byte
salt, 32-byte key) and stored as ``scrypt$n$r$p$salt$hash`` (hex), compared in
constant time, each with a salt of its own (the demo's users too). A user is
never deleted (the audit trail names them): an administrator deactivates them.

Logins are throttled per login name, known or not (:class:`LoginThrottle`):
each failure in a row waits longer before its answer (:func:`failure_delay`),
the :data:`MAX_FAILURES`-th locks the name for :data:`LOCK_MINUTES` minutes,
and every failure is an entry of the audit trail (``login-fail``). An attempt
is counted in the database, atomically, before its password is checked
(:func:`_take_attempt`): attempts made at once from many desks or threads check
at most :data:`MAX_FAILURES` passwords between two successes. An
unknown login costs the same scrypt as a known one and leaves the same trace:
its answer does not tell whether the login exists.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import hmac
import os
import time
from dataclasses import dataclass

from peewee import BooleanField, CharField, DateTimeField, IntegerField, IntegrityError, ModelSelect, PostgresqlDatabase

from models.access import session
from models.base import clock
from models.base.errors import FieldErrors, UserError
from models.store import desks
from models.store.db import BaseModel, current_database_id, db, update_versioned

SCRYPT_N, SCRYPT_R, SCRYPT_P = 2**14, 8, 1
MIN_PASSWORD = 8
MAX_FAILURES = 5  # failures in a row that lock a login name
LOCK_MINUTES = 15
#: How a failed login waits before answering (``time.sleep``; tests record it instead of waiting).
pause = time.sleep


class User(BaseModel):
    username = CharField(max_length=40, unique=True)
    name = CharField(max_length=100)
    role = CharField(max_length=20)
    password_hash = CharField(max_length=200)
    active = BooleanField(default=True)
    created_at = DateTimeField(default=clock.now)
    last_login = DateTimeField(null=True)
    version = IntegerField(default=1)

    class Meta:
        table_name = "app_user"

    @classmethod
    def select(cls, *fields):
        """At a desk (PostgreSQL), every column but the password hash, which no desk may read (``models.store.desks``):
        the server checks passwords there."""
        if not fields and desks.is_desk(db.obj):
            return ModelSelect(cls, [f for f in cls._meta.sorted_fields if f.name != "password_hash"], is_default=True)
        return super().select(*fields)

    @property
    def role_label(self) -> str:
        return session.ROLES.get(self.role, self.role)

    def as_session(self) -> session.Session:
        return session.Session(self.id, self.username, self.name, self.role, current_database_id())


class LoginThrottle(BaseModel):
    """Failed logins in a row for one login name (known or not), kept by the name's SHA-256."""

    key = CharField(max_length=64, unique=True)
    failures = IntegerField(default=0)
    last_failure = DateTimeField(null=True)
    locked_until = DateTimeField(null=True)

    class Meta:
        table_name = "login_throttle"


def failure_delay(failures: int) -> float:
    """Seconds a failed login waits before answering: 0,5 s after the first, doubling, at most 8 s."""
    return min(0.5 * 2 ** max(failures - 1, 0), 8.0)


def hash_password(password: str, *, salt: bytes | None = None) -> str:
    salt = salt or os.urandom(16)
    key = hashlib.scrypt(password.encode("utf-8"), salt=salt, n=SCRYPT_N, r=SCRYPT_R, p=SCRYPT_P, dklen=32)
    return f"scrypt${SCRYPT_N}${SCRYPT_R}${SCRYPT_P}${salt.hex()}${key.hex()}"


def check_password(password: str, stored: str) -> bool:
    try:
        scheme, n, r, p, salt, key = stored.split("$")
        if scheme != "scrypt":
            return False
        got = hashlib.scrypt(
            password.encode("utf-8"),
            salt=bytes.fromhex(salt),
            n=int(n),
            r=int(r),
            p=int(p),
            dklen=len(bytes.fromhex(key)),
        )
    except (ValueError, TypeError):
        return False
    return hmac.compare_digest(got, bytes.fromhex(key))


def _validate(
    errors: dict,
    *,
    username: str | None = None,
    name: str | None = None,
    role: str | None = None,
    password: str | None = None,
    confirm: str | None = None,
) -> None:
    if username is not None:
        if not username:
            errors["username"] = "Informe o nome de usuário (login)."
        elif len(username) > 40 or not all(c.isalnum() or c in "._-" for c in username):
            errors["username"] = "Use só letras, números, ponto, hífen ou sublinhado (até 40)."
    if name is not None and not name:
        errors["name"] = "Informe o nome da pessoa."
    if role is not None and role not in session.ROLES:
        errors["role"] = "Escolha o perfil: atendente, fiscal, chefe ou administrador."
    if password is not None:
        if len(password) < MIN_PASSWORD:
            errors["password"] = f"A senha precisa de ao menos {MIN_PASSWORD} caracteres."
        elif confirm is not None and password != confirm:
            errors["confirm"] = "A confirmação não é igual à senha."


def check_new_login(*, username: str, password: str | None = None, confirm: str | None = None) -> None:
    """Refuse, before anything is created, a login (and password, when given) :func:`create_user` would
    refuse."""
    errors: dict[str, str] = {}
    _validate(errors, username=(username or "").strip().lower(), password=password, confirm=confirm)
    if errors:
        raise FieldErrors(errors)


def has_users() -> bool:
    return User.select().exists()


def create_user(*, username: str, name: str, role: str, password: str, confirm: str | None = None) -> User:
    """A new user (the administrator creates them; the very first one is the administrator)."""
    first = not has_users()
    if not first:
        session.require("users.manage")
    username, name = (username or "").strip().lower(), (name or "").strip()
    errors: dict[str, str] = {}
    _validate(errors, username=username, name=name, role=role, password=password or "", confirm=confirm)
    if first and role != "administrador":
        errors["role"] = "O primeiro usuário é o administrador."
    if "username" not in errors and User.select().where(User.username == username).exists():
        errors["username"] = f"Já existe o usuário {username}."
    if errors:
        raise FieldErrors(errors)
    try:
        with db.atomic():
            user = User.create(username=username, name=name, role=role, password_hash=hash_password(password))
            desks.store_verifier(db.obj, username, password)  # PostgreSQL: the server's proof, for the desks
            return user
    except IntegrityError:  # another desk created this login after the check above
        raise FieldErrors(
            {"username": f"Já existe o usuário {username} (acabou de ser criado em outra mesa)."}
        ) from None


_DECOY: list[str] = []


def _decoy_hash() -> str:
    """A hash no password matches, so that an unknown login costs the scrypt a known one costs."""
    if not _DECOY:
        _DECOY.append(hash_password(os.urandom(16).hex()))
    return _DECOY[0]


def _throttle_key(login: str) -> str:
    return hashlib.sha256(login.encode("utf-8", "replace")).hexdigest()


def _take_attempt(key: str, now: _dt.datetime) -> tuple[int, _dt.datetime | None]:
    """Count one more attempt at ``key`` before its password is checked, as one atomic step in the database:
    the throttle's row is created if missing (an upsert: two desks never race into a duplicate key), locked for
    the rest of the transaction (``SELECT … FOR UPDATE`` on PostgreSQL; SQLite's transactions take the write
    lock at ``BEGIN IMMEDIATE``), refused while locked, and given this attempt's number — and the lock, when it
    is the :data:`MAX_FAILURES`-th — before anyone checks a password. So N attempts at once check at most
    :data:`MAX_FAILURES` passwords; a success clears the row (:func:`authenticate`).

    Returns the attempt's number in the current series and the lock it set (``None``: none)."""
    with db.atomic():
        LoginThrottle.insert(key=key, failures=0).on_conflict_ignore().execute()
        query = LoginThrottle.select().where(LoginThrottle.key == key)
        if isinstance(db.obj, PostgresqlDatabase):
            query = query.for_update()
        throttle = query.get()
        if throttle.locked_until is not None and throttle.locked_until > now:
            raise UserError(
                f"Login bloqueado por excesso de tentativas: tente de novo às "
                f"{throttle.locked_until:%H:%M} de {throttle.locked_until:%d/%m/%Y}.",
                field="password",
            )
        fresh = (
            throttle.locked_until is not None
            or throttle.last_failure is None
            or now - throttle.last_failure > _dt.timedelta(minutes=LOCK_MINUTES)
        )  # a lock served, or failures long ago
        attempt = 1 if fresh else throttle.failures + 1
        locked = now + _dt.timedelta(minutes=LOCK_MINUTES) if attempt >= MAX_FAILURES else None
        LoginThrottle.update(failures=attempt, last_failure=now, locked_until=locked).where(
            LoginThrottle.key == key
        ).execute()
    return attempt, locked


def desk_connection():
    """At a desk, this thread's connection (for :func:`authenticate_for` on a worker); elsewhere None."""
    return db.connection() if desks.is_desk(db.obj) else None


def authenticate_for(connection, username: str, password: str) -> User:
    """:func:`authenticate` on this thread (a worker, issue 27 §5); at a desk, ``connection`` — the window's, from
    :func:`desk_connection` — is then bound as this thread's is: to the user who logged in, or, after a refusal, to
    nobody (as :func:`authenticate` leaves a desk's own connection)."""
    try:
        return authenticate(username, password)
    finally:
        if connection is not None:
            desks.bind_like(db.obj, connection)


def authenticate(username: str, password: str, *, now: _dt.datetime | None = None) -> User:
    """The active user with this login and password; one message for any failure (no hint which was wrong).

    A login name locked by repeated failures is refused until the lock ends, even with the right password;
    every attempt is counted before its password is checked (:func:`_take_attempt`), a failure waits
    :func:`failure_delay` before answering and is audited."""
    from models.store import audit

    login = (username or "").strip().lower()
    now = now or clock.now()
    desk = desks.is_desk(db.obj)
    if desk:  # a new login at a desk: whoever was bound to its connection is no longer
        desks.unbind(db.obj)
    key = _throttle_key(login)
    failures, locked = _take_attempt(key, now)
    user = User.get_or_none(User.username == login) if 0 < len(login) <= 40 and login.isprintable() else None
    # The same work whether the login exists or not: one scrypt, the same reads and writes.
    if desk:  # a desk cannot read the password hashes: the server checks, and binds the user to this connection
        outcome = desks.prove(db.obj, login if user is not None else "", password or "")
        if outcome == "unknown" and user is not None and user.active:
            raise desks.BindRefused(
                f"A senha de {login} ainda não vale nas mesas do servidor: o administrador precisa redefini-la "
                f"(Cadastros → Usuários) ou cadastrá-la com praca pg-setup --enroll {login}.",
                field="password",
            )
        if outcome == "locked":
            raise desks.BindRefused(
                "O servidor bloqueou este login por excesso de tentativas: tente mais tarde.", field="password"
            )
        matches = outcome == "ok"
    else:
        matches = check_password(password or "", user.password_hash if user is not None else _decoy_hash())
    if user is not None and user.active and matches:
        if not desk and desks.installed(db.obj) and not desks.has_verifier(db.obj, login):
            desks.store_verifier(db.obj, login, password or "")  # an older user's first login on the server
        with session.acting_as(user.as_session()), db.atomic():
            User.update(last_login=now).where(User.id == user.id).execute()
            LoginThrottle.delete().where(LoginThrottle.key == key).execute()
        return user
    audit.append(
        table_name="app_user",
        record_id=str(user.id) if user is not None else "",
        action="login-fail",
        username=_shown_login(login),
        note=f"tentativa {failures} seguida" + (f"; bloqueado até {locked:%d/%m/%Y %H:%M}" if locked else ""),
    )
    pause(failure_delay(failures))
    if locked is not None:
        raise UserError(
            f"Usuário ou senha incorretos. Login bloqueado por {LOCK_MINUTES} minutos após "
            f"{MAX_FAILURES} tentativas seguidas.",
            field="password",
        )
    return _refuse()


def _refuse():
    raise UserError("Usuário ou senha incorretos (ou usuário desativado).", field="password")


def _shown_login(login: str) -> str:
    """The login name as the audit trail keeps it: printable, at most 100 characters."""
    from models.base.errors import one_line

    return one_line(login)[:100] or "(vazio)"


def _claim(user: User, **changes) -> None:
    update_versioned(user, f"O usuário {user.username} foi alterado em outra mesa; reabra a lista.", **changes)


def _last_admin(user: User) -> bool:
    return (
        user.role == "administrador"
        and User.select().where((User.role == "administrador") & User.active & (User.id != user.id)).count() == 0
    )


def change_role(user: User, role: str) -> User:
    session.require("users.manage")
    errors: dict[str, str] = {}
    _validate(errors, role=role)
    if errors:
        raise FieldErrors(errors)
    if role != "administrador" and _last_admin(user):
        raise UserError("É preciso manter ao menos um administrador ativo.")
    with db.atomic():
        _claim(user, role=role)
    return User.get_by_id(user.id)


def set_active(user: User, active: bool) -> User:
    session.require("users.manage")
    if not active and _last_admin(user):
        raise UserError("É preciso manter ao menos um administrador ativo.")
    current = session.current()
    if not active and current is not None and current.user_id == user.id:
        raise UserError("Você não pode desativar o próprio usuário.")
    with db.atomic():
        _claim(user, active=active)
    return User.get_by_id(user.id)


def set_password(user: User, password: str, confirm: str | None = None, *, old: str | None = None) -> None:
    """The administrator resets anyone's password; a user changes their own with the old one."""
    current = session.current()
    own = current is not None and current.user_id == user.id
    if not own:
        session.require("users.manage")
    elif not (
        desks.prove(db.obj, user.username, old or "") == "ok"
        if desks.is_desk(db.obj)  # a desk cannot read the hash: the server checks the old password
        else check_password(old or "", user.password_hash)
    ):
        raise FieldErrors({"old": "A senha atual não confere."})
    errors: dict[str, str] = {}
    _validate(errors, password=password or "", confirm=confirm)
    if errors:
        raise FieldErrors(errors)
    with db.atomic():
        _claim(user, password_hash=hash_password(password))
        desks.store_verifier(db.obj, user.username, password)


@dataclass(frozen=True)
class UserRow:
    id: int
    username: str
    name: str
    role: str
    role_label: str
    active: bool
    last_login: _dt.datetime | None


def user_rows() -> list[UserRow]:
    return [
        UserRow(u.id, u.username, u.name, u.role, u.role_label, u.active, u.last_login)
        for u in User.select().order_by(User.username)
    ]


def get_user(user_id: int) -> User:
    user = User.get_or_none(User.id == user_id)
    if user is None:
        raise UserError(f"Usuário {user_id} não encontrado.")
    return user
