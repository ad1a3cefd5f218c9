"""Signed checkpoints of the audit trail: the chain's head held outside the database (issue 26 §3).

Whoever can write the database can recompute every hash of the trail after deleting or rewriting entries: the
chain alone then still "verifies". A **checkpoint** pins the head: the number and hash of the last entry, when,
on which database, signed with the municipality's key (:mod:`models.access.signing_keys`). Checkpoints are made
at least once a day (the first start of the day, :func:`ensure_daily`), at every backup (in its manifest,
``audit_checkpoint``), at every restore, and when a report is printed (its footer, :func:`footer_text`); each is
kept in the database (``audit_checkpoint``, append-only like the trail) and, for the daily ones and the automatic
backups', in a file beside the daily backups (``trilha-<banco>.jsonl``, one JSON line each, :func:`append_file`).

A desk whose key is locked cannot sign: its checkpoint says so (``unsigned_reason``) instead of pretending —
it still pins the head, but anyone could have written it.

:func:`trail_report` (``praca audit verify``) checks the chain, the guards (triggers), and that the chain reaches
every checkpoint found — in the database, beside the backups, in the backups' manifests, in a file given: an entry
deleted or rewritten up to the newest checkpoint is named by its number. A checkpoint from before a restore is
set aside only when a valid signed checkpoint covers that restore.

No Qt here (models/ layer).
"""

from __future__ import annotations

import datetime as _dt
import json
import os
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path

from cryptography.exceptions import InvalidSignature
from peewee import AutoField, CharField, DateTimeField, IntegerField, TextField, fn

from models.access.signing import KeyRing, SigningKeyError
from models.store.audit import AuditEntry, ChainState, guard_problems, verify_chain
from models.store.db import BaseModel, current_url, db

FORMAT = "praca-trilha"
FORMAT_VERSION = 1
#: What a checkpoint file may hold (a year of checkpoints is well under 1 MB): more is not read.
MAX_FILE_BYTES = 16 * 1024 * 1024
_HEX64 = re.compile(r"^[0-9a-f]{64}$")
_ID = AuditEntry._meta.primary_key

OCCASIONS = {
    "daily": "diário",
    "backup": "backup",
    "restore": "restauração",
    "report": "relatório",
    "manual": "manual",
}


class AuditCheckpoint(BaseModel):
    id = AutoField()
    entry_id = IntegerField()
    entry_hash = CharField(max_length=64)
    at = DateTimeField()
    source = TextField(default="")  # the database (no password), as url.display() says it
    occasion = CharField(max_length=16)
    key_id = CharField(max_length=8, default="")
    signature = CharField(max_length=128, default="")  # Ed25519, hex; "" when the desk could not sign
    unsigned_reason = TextField(default="")

    class Meta:
        table_name = "audit_checkpoint"


@dataclass(frozen=True)
class Checkpoint:
    """One checkpoint, wherever it was found (``found_in``: the database, a file, a backup)."""

    entry: int
    hash: str
    at: _dt.datetime
    source: str
    occasion: str
    key_id: str = ""
    signature: str = ""
    unsigned_reason: str = ""
    found_in: str = field(default="", compare=False)

    @property
    def signed(self) -> bool:
        return bool(self.signature)

    def message(self) -> bytes:
        """The bytes the signature is over."""
        content = {
            "format": FORMAT,
            "version": FORMAT_VERSION,
            "entry": self.entry,
            "hash": self.hash,
            "at": self.at.isoformat(sep=" "),
            "source": self.source,
            "occasion": self.occasion,
            "key_id": self.key_id,
        }
        return json.dumps(content, ensure_ascii=False, sort_keys=True, separators=(",", ":")).encode("utf-8")

    def to_json(self) -> dict:
        return {
            "format": FORMAT,
            "version": FORMAT_VERSION,
            "entry": self.entry,
            "hash": self.hash,
            "at": self.at.isoformat(sep=" "),
            "source": self.source,
            "occasion": self.occasion,
            "key_id": self.key_id,
            "signature": self.signature,
            "unsigned_reason": self.unsigned_reason,
        }

    @classmethod
    def from_json(cls, data: object, found_in: str = "") -> Checkpoint:
        """A checkpoint read from a file or a manifest; ``ValueError`` for anything not shaped like one."""
        if not isinstance(data, dict) or data.get("format") != FORMAT or data.get("version") != FORMAT_VERSION:
            raise ValueError("não é um ponto de controle da trilha")
        entry = data.get("entry")
        digest = data.get("hash")
        texts = {name: data.get(name, "") for name in ("at", "source", "occasion", "key_id", "signature")}
        reason = data.get("unsigned_reason", "")
        if not isinstance(entry, int) or isinstance(entry, bool) or entry < 1:
            raise ValueError("número do registro ilegível")
        if not isinstance(digest, str) or not _HEX64.match(digest):
            raise ValueError("hash ilegível")
        if not all(isinstance(v, str) for v in texts.values()) or not isinstance(reason, str):
            raise ValueError("campos ilegíveis")
        if len(texts["signature"]) > 128 or len(texts["key_id"]) > 8 or len(texts["occasion"]) > 16:
            raise ValueError("campos longos demais")
        at = _dt.datetime.fromisoformat(texts["at"])
        return cls(
            entry,
            digest,
            at,
            texts["source"],
            texts["occasion"],
            texts["key_id"],
            texts["signature"],
            reason[:500],
            found_in,
        )

    @classmethod
    def from_row(cls, row: AuditCheckpoint) -> Checkpoint:
        at = row.at if isinstance(row.at, _dt.datetime) else _dt.datetime.fromisoformat(str(row.at))
        return cls(
            row.entry_id,
            row.entry_hash,
            at,
            row.source,
            row.occasion,
            row.key_id,
            row.signature,
            row.unsigned_reason,
            "banco de dados",
        )

    def describe(self) -> str:
        """``nº 1234 (hash 1a2b3c4d5e6f…) de 07/12/2026 05:10, assinado pela chave ABCDEFGH``"""
        sign = f"assinado pela chave {self.key_id}" if self.signed else "NÃO assinado"
        return f"nº {self.entry} (hash {self.hash[:12]}…) de {self.at:%d/%m/%Y %H:%M}, {sign}"


# --------------------------------------------------------------------------- making one


def _source() -> str:
    url = current_url()
    return url.display() if url is not None else ""


def head() -> tuple[int, str] | None:
    """The trail's last entry: its number and hash (None for an empty trail)."""
    row = AuditEntry.select(_ID, AuditEntry.hash).order_by(_ID.desc()).limit(1).tuples().first()
    return (row[0], row[1]) if row is not None else None


def _signer_or_reason(signer=None):
    """The municipal signer when this desk may sign (or ``signer`` as given), else the honest reason why not."""
    if signer is not None:
        return signer, ""
    from models.access.signing_keys import active_key, municipal_signer

    try:
        return municipal_signer(), ""
    except SigningKeyError:
        if active_key() is None:
            return None, "não assinado: a prefeitura não tem chave de assinatura"
        return None, "não assinado: a chave da prefeitura está bloqueada nesta mesa (não foi liberada)"


def make(
    occasion: str, *, at_head: tuple[int, str] | None = None, signer=None, store: bool = True
) -> Checkpoint | None:
    """A checkpoint of the trail's head (or of ``at_head``: a backup's snapshot), signed when this desk can sign
    (unsigned otherwise, with the reason), kept in the database when ``store``. None for an empty trail."""
    pinned = at_head if at_head is not None else head()
    if pinned is None:
        return None
    signer, reason = _signer_or_reason(signer)
    checkpoint = Checkpoint(
        pinned[0],
        pinned[1],
        _dt.datetime.now().replace(microsecond=0),
        _source(),
        occasion,
        signer.key_id if signer is not None else "",
        unsigned_reason=reason,
    )
    if signer is not None:
        checkpoint = replace(checkpoint, signature=signer.sign(checkpoint.message()).hex())
    if store:
        keep(checkpoint)
    return checkpoint


def keep(checkpoint: Checkpoint) -> None:
    """Store ``checkpoint`` in the database's ``audit_checkpoint`` (append-only)."""
    with db.atomic():
        AuditCheckpoint.insert(
            entry_id=checkpoint.entry,
            entry_hash=checkpoint.hash,
            at=checkpoint.at,
            source=checkpoint.source,
            occasion=checkpoint.occasion,
            key_id=checkpoint.key_id,
            signature=checkpoint.signature,
            unsigned_reason=checkpoint.unsigned_reason,
        ).execute()


def stored() -> list[Checkpoint]:
    return [Checkpoint.from_row(row) for row in AuditCheckpoint.select().order_by(AuditCheckpoint.id)]


def newest_stored() -> Checkpoint | None:
    row = AuditCheckpoint.select().order_by(AuditCheckpoint.id.desc()).first()
    return Checkpoint.from_row(row) if row is not None else None


def ensure_daily(today: _dt.date | None = None) -> Checkpoint | None:
    """Today's checkpoint, made now if the database has none of today yet (a signed one is made when the day's
    only one is unsigned and this desk can now sign)."""
    today = today or _dt.date.today()
    start = _dt.datetime.combine(today, _dt.time())
    todays = list(AuditCheckpoint.select().where(AuditCheckpoint.at >= start).order_by(AuditCheckpoint.id))
    if any(row.signature for row in todays):
        return None
    if todays:
        signer, _reason = _signer_or_reason()
        if signer is None:
            return None
        return make("daily", signer=signer)
    return make("daily")


def footer_text() -> str:
    """The checkpoint a printed report carries in its footer: a fresh signed one when this desk can sign and the
    trail moved since the last, else the newest kept (made unsigned if there is none). ``""`` when there is no
    trail to pin (or no database)."""
    try:
        newest = newest_stored()
        now = head()
    except Exception:  # any: no database open, an older one — a report is never refused for want of its anchor
        return ""
    if now is None:
        return ""
    if newest is None or newest.entry != now[0] or newest.hash != now[1]:
        signer, _reason = _signer_or_reason()
        if signer is not None or newest is None:
            try:
                newest = make("report", signer=signer) or newest
            except Exception:  # any: a database opened read-only keeps its newest checkpoint
                pass
    if newest is None:
        return ""
    sign = f"assinada pela chave {newest.key_id}" if newest.signed else "NÃO assinada (" + newest.unsigned_reason + ")"
    sign = sign.replace("(não assinado: ", "(")
    return f"Trilha de auditoria nº {newest.entry} · hash {newest.hash[:16]} · {newest.at:%d/%m/%Y %H:%M} · {sign}"


# --------------------------------------------------------------------------- the file beside the backups


def file_stem(url=None) -> str:
    """The name the database's files beside the backups share: the SQLite file's stem, or the PostgreSQL server,
    database and schema."""
    url = url if url is not None else current_url()
    if url is None:
        return "praca"
    if url.backend == "sqlite":
        return Path(url.path or "praca").stem or "praca"
    name = f"pg-{url.host or 'localhost'}-{url.port or 5432}-{url.dbname or ''}-{url.schema or ''}"
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", name).strip("-")


def anchor_file(folder: str | Path, url=None) -> Path:
    return Path(folder) / f"trilha-{file_stem(url)}.jsonl"


def append_file(folder: str | Path, checkpoint: Checkpoint) -> Path:
    """Add ``checkpoint`` as one line to the file beside the backups (created owner-only; links not followed)."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    path = anchor_file(folder)
    line = json.dumps(checkpoint.to_json(), ensure_ascii=False, sort_keys=True) + "\n"
    flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0)
    fd = os.open(path, flags, 0o600)
    try:
        os.write(fd, line.encode("utf-8"))
    finally:
        os.close(fd)
    return path


@dataclass(frozen=True)
class Found:
    """Checkpoints read from somewhere outside the database, and what could not be read."""

    checkpoints: tuple[Checkpoint, ...] = ()
    unreadable: tuple[str, ...] = ()


def read_file(path: str | Path) -> Found:
    """The checkpoints of a checkpoint file (one JSON object a line; a line that is not one is named)."""
    path = Path(path)
    try:
        with path.open("rb") as fh:
            data = fh.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        return Found((), (f"{path.name}: ilegível ({exc.strerror or exc})",))
    if len(data) > MAX_FILE_BYTES:
        return Found((), (f"{path.name}: maior que {MAX_FILE_BYTES // (1024 * 1024)} MB, não foi lido",))
    found, bad = [], []
    for number, raw in enumerate(data.splitlines(), start=1):
        if not raw.strip():
            continue
        try:
            found.append(Checkpoint.from_json(json.loads(raw.decode("utf-8")), f"{path.name}, linha {number}"))
        except (ValueError, TypeError, UnicodeDecodeError):
            bad.append(f"{path.name}, linha {number}: não é um ponto de controle legível")
    return Found(tuple(found), tuple(bad))


# --------------------------------------------------------------------------- checking


def signature_status(checkpoint: Checkpoint, ring: KeyRing) -> str:
    """``valid``, ``unsigned``, ``unknown-key``, ``revoked`` (the key was revoked on or before its date) or
    ``bad`` (the signature does not match what it says)."""
    if not checkpoint.signed:
        return "unsigned"
    entry = ring.get(checkpoint.key_id)
    if entry is None:
        return "unknown-key"
    try:
        entry.public.verify(bytes.fromhex(checkpoint.signature), checkpoint.message())
    except (InvalidSignature, ValueError):
        return "bad"
    if entry.revoked_on is not None and entry.revoked_on <= checkpoint.at.date():
        return "revoked"
    return "valid"


_SIGNATURE_TEXT = {
    "valid": "assinatura confere",
    "unsigned": "sem assinatura",
    "unknown-key": "assinado por uma chave que este banco não conhece",
    "revoked": "assinado por uma chave já revogada",
    "bad": "a assinatura NÃO confere (ponto de controle forjado ou alterado)",
}


@dataclass(frozen=True)
class Verdict:
    checkpoint: Checkpoint
    signature: str  # signature_status
    state: str  # "ok" | "superseded" | "broken"
    text: str


@dataclass(frozen=True)
class TrailReport:
    chain: ChainState
    last_id: int
    guards: dict[str, str]
    repaired: tuple[str, ...]
    verdicts: tuple[Verdict, ...]
    unreadable: tuple[str, ...] = ()
    past_repairs: tuple[str, ...] = ()  # the trail's own record of guards reinstalled before

    @property
    def newest(self) -> Verdict | None:
        usable = [v for v in self.verdicts if v.signature in ("valid", "unsigned")]
        return max(usable, key=lambda v: (v.checkpoint.entry, v.checkpoint.at), default=None)

    @property
    def problems(self) -> list[str]:
        out = []
        if not self.chain.intact:
            out.append(self.chain.text)
        for name, state in sorted(self.guards.items()):
            out.append(f"A proteção {name} da trilha está {state}.")
        out += list(self.repaired)  # found missing at this open: someone worked on the database behind Praça
        for verdict in self.verdicts:
            if verdict.state == "broken" or verdict.signature in ("bad", "unknown-key", "revoked"):
                out.append(verdict.text)
        return out

    @property
    def intact(self) -> bool:
        return not self.problems

    def lines(self) -> list[str]:
        out = [self.chain.text]
        if self.guards:
            out += [f"A proteção {name} da trilha está {state}." for name, state in sorted(self.guards.items())]
        else:
            out.append("Proteções da trilha (gatilhos) presentes e inalteradas.")
        out += list(self.repaired)
        out += list(self.past_repairs)
        newest = self.newest
        if newest is None:
            out.append("Nenhum ponto de controle encontrado: não há como saber se os últimos registros foram apagados.")
        elif newest.state == "ok":
            out.append(
                f"A trilha chega ao ponto de controle mais recente ({newest.checkpoint.describe()}, "
                f"{_SIGNATURE_TEXT[newest.signature]}; em {newest.checkpoint.found_in})."
            )
        for verdict in self.verdicts:
            if verdict.state != "ok" or verdict.signature not in ("valid", "unsigned"):
                out.append(verdict.text)
        out += [f"Ignorado: {text}." for text in self.unreadable]
        checked = len(self.verdicts)
        out.append(
            f"{checked} ponto(s) de controle conferido(s)."
            + ("" if self.intact else f" {len(self.problems)} problema(s) encontrado(s).")
        )
        return out

    def as_json(self) -> dict:
        newest = self.newest
        return {
            "intact": self.intact,
            "count": self.chain.count,
            "first_bad": self.chain.first_bad,
            "reason": self.chain.reason,
            "last_hash": self.chain.last_hash,
            "last_entry": self.last_id,
            "guards": self.guards,
            "repaired": list(self.repaired),
            "past_repairs": list(self.past_repairs),
            "newest_checkpoint": newest.checkpoint.to_json() if newest else None,
            "checkpoints": [
                {
                    "entry": v.checkpoint.entry,
                    "at": v.checkpoint.at.isoformat(sep=" "),
                    "found_in": v.checkpoint.found_in,
                    "signature": v.signature,
                    "state": v.state,
                    "text": v.text,
                }
                for v in self.verdicts
            ],
            "problems": self.problems,
            "unreadable": list(self.unreadable),
        }


def _hashes(entries: Iterable[int]) -> dict[int, str]:
    wanted = sorted(set(entries))
    out: dict[int, str] = {}
    for start in range(0, len(wanted), 500):
        chunk = wanted[start : start + 500]
        for entry, digest in AuditEntry.select(_ID, AuditEntry.hash).where(_ID.in_(chunk)).tuples():
            out[entry] = digest
    return out


def trail_report(
    found: Iterable[Found] = (),
    *,
    ring: KeyRing | None = None,
    source: str | None = None,
    references: Callable[[], Iterable[tuple[str, dict[int, str]]]] | None = None,
) -> TrailReport:
    """Check the open database's trail: the chain, the guards, and every checkpoint — the database's and those
    ``found`` outside it (of this database only: a checkpoint naming another one is left out, except from a
    file given by hand, whose ``found_in`` starts with ``"!"``). ``references`` gives, when a checkpoint shows an
    entry rewritten, the proven trails of backups (name, number → hash) to name the first entry that differs."""
    from models.access.signing_keys import key_ring
    from models.store.audit import GUARD_REPAIRS

    ring = ring if ring is not None else key_ring()
    if references is not None:  # read once, and only if a checkpoint shows a rewrite
        given_references, kept_references = references, []

        def references():
            if not kept_references:
                kept_references.append(list(given_references()))
            return kept_references[0]

    source = source if source is not None else _source()
    chain = verify_chain()
    last = head()
    last_id = last[0] if last else 0
    checkpoints: dict[tuple, Checkpoint] = {}
    unreadable: list[str] = []
    for cp in stored():
        checkpoints.setdefault((cp.entry, cp.hash, cp.at, cp.signature), cp)
    for group in found:
        unreadable += group.unreadable
        for cp in group.checkpoints:
            given = cp.found_in.startswith("!")
            if given:
                cp = replace(cp, found_in=cp.found_in[1:])
            elif cp.source != source:
                continue
            checkpoints.setdefault((cp.entry, cp.hash, cp.at, cp.signature), cp)
    ordered = sorted(checkpoints.values(), key=lambda c: (c.entry, c.at))
    hashes = _hashes(c.entry for c in ordered)
    restores = [
        (entry, _naive(at))
        for entry, at in AuditEntry.select(_ID, AuditEntry.at).where(AuditEntry.action == "restore").tuples()
    ]
    statuses = {id(c): signature_status(c, ring) for c in ordered}
    matching_signed = [c.entry for c in ordered if statuses[id(c)] == "valid" and hashes.get(c.entry) == c.hash]
    verdicts = []
    previous_ok = 0
    for cp in ordered:
        status = statuses[id(cp)]
        where = f"em {cp.found_in}" if cp.found_in else ""
        label = f"O ponto de controle {cp.describe()} ({where}; {_SIGNATURE_TEXT[status]})"
        if hashes.get(cp.entry) == cp.hash:
            verdicts.append(Verdict(cp, status, "ok", f"{label}: confere."))
            previous_ok = max(previous_ok, cp.entry)
            continue
        restore = next((r for r in sorted(restores) if r[1] >= cp.at), None)
        if restore is not None and any(entry >= restore[0] for entry in matching_signed):
            verdicts.append(
                Verdict(
                    cp,
                    status,
                    "superseded",
                    f"{label}: é de antes da restauração de backup registrada no nº {restore[0]} "
                    f"({restore[1]:%d/%m/%Y %H:%M}); a trilha de então foi substituída pela do backup.",
                )
            )
            continue
        if cp.entry not in hashes:
            below = AuditEntry.select(fn.MAX(_ID)).where(_ID < cp.entry).scalar() or 0
            first = below + 1
            what = (
                f"o registro nº {cp.entry} foi apagado"
                if first == cp.entry
                else f"os registros nº {first} a nº {cp.entry} foram apagados"
            )
            tail = f" — a trilha termina no nº {last_id}" if last_id < cp.entry else ""
            text = f"{label}: {what}{tail}."
        else:
            start = previous_ok + 1
            where_changed = (
                f"o registro nº {cp.entry} foi reescrito"
                if start >= cp.entry
                else f"algum registro entre o nº {start} e o nº {cp.entry} foi reescrito ou apagado "
                f"(o nº {cp.entry} não tem mais o hash registrado)"
            )
            if not chain.intact and chain.first_bad is not None and chain.first_bad <= cp.entry:
                where_changed += f"; a cadeia se rompe no nº {chain.first_bad}"
            if references is not None:
                where_changed += _first_difference(references, start, cp.entry)
            text = f"{label}: {where_changed}."
        verdicts.append(Verdict(cp, status, "broken", text))
    from models.store.db import db as _db

    guards = guard_problems(_db.obj)
    past = [
        f"Registro nº {entry} ({_naive(at):%d/%m/%Y %H:%M}): {note}."
        for entry, at, note in AuditEntry.select(_ID, AuditEntry.at, AuditEntry.note)
        .where(AuditEntry.action == "guard")
        .order_by(_ID)
        .tuples()
    ]
    return TrailReport(
        chain, last_id, guards, tuple(GUARD_REPAIRS), tuple(verdicts), tuple(unreadable), tuple(past[-10:])
    )


def _first_difference(references, start: int, end: int) -> str:
    """``; o primeiro registro diferente do backup X é o nº K`` from the first proven backup trail that covers some
    of ``start``..``end`` and differs from the open database there (``""`` when none tells)."""
    for name, hashes in references():
        wanted = [entry for entry in sorted(hashes) if start <= entry <= end]
        if not wanted:
            continue
        here = _hashes(wanted)
        for entry in wanted:
            if here.get(entry) != hashes[entry]:
                state = "foi apagado" if entry not in here else "foi reescrito"
                return f"; comparado ao backup {name}, o primeiro registro diferente é o nº {entry}, que {state}"
    return ""


def _naive(value) -> _dt.datetime:
    if isinstance(value, str):
        value = _dt.datetime.fromisoformat(value)
    return value.replace(microsecond=0)
