"""The published list: its canonical text, its hash and the order a seed draws from it."""

from __future__ import annotations

import hashlib
import unicodedata
from collections.abc import Iterable
from dataclasses import replace

from models.base.errors import UserError
from models.selection.participants import (
    Participant,
    decimal_text,
    normalize_text,
)
from models.selection.regime_rules import DrawRules
from models.selection.scores import check_unique_ids, placings

_FORBIDDEN = (";", "\n", "\r")


def normalize_seed(seed: str) -> str:
    """The seed as used: NFC, no leading/trailing blanks; one line, not empty."""
    text = unicodedata.normalize("NFC", seed or "").strip()
    if not text:
        raise UserError("Informe a semente do sorteio (por exemplo, o resultado da Loteria Federal).", field="seed")
    if "\n" in text or "\r" in text:
        raise UserError("A semente do sorteio deve ter uma linha só.", field="seed")
    return text


def _check_text(what: str, value: str, pid: str) -> None:
    for bad in _FORBIDDEN:
        if bad in value:
            shown = "';'" if bad == ";" else "quebra de linha"
            raise UserError(f"Participante '{pid}': {what} não pode conter {shown}.", field=what)


def normalized_participant(p: Participant) -> Participant:
    pid = normalize_text(p.id)
    name = normalize_text(p.name)
    group = normalize_text(p.group)
    pref = normalize_text(p.preference) if p.preference else None
    if not pid:
        raise UserError(f"Participante sem id (nome: '{name or '—'}').", field="id")
    if not name:
        raise UserError(f"Participante '{pid}' sem nome.", field="name")
    for what, value in (("id", pid), ("nome", name), ("grupo", group), ("preferência", pref or "")):
        _check_text(what, value, pid)
    paid = p.paid_at.replace(microsecond=0) if p.paid_at is not None else None
    if p.rank is not None and (isinstance(p.rank, bool) or p.rank < 1):
        raise UserError(f"Participante '{pid}': classificação inválida ({p.rank}).", field="rank")
    return replace(p, id=pid, name=name, group=group, preference=pref or None, paid_at=paid)


def canonical_line(p: Participant) -> str:
    """One participant as a line of the published list (without the line break)."""
    parts = [p.id, p.name]
    if p.group:
        parts.append(f"group={p.group}")
    if p.quota:
        parts.append("quota=1")
    if p.preference:
        parts.append(f"preference={p.preference}")
    if p.rank is not None:
        parts.append(f"rank={p.rank}")
    if p.score is not None:
        parts.append(f"score={decimal_text(p.score)}")
    if p.paid_at is not None:
        parts.append(f"paid_at={p.paid_at.isoformat(timespec='seconds')}")
    return ";".join(parts)


def canonical_participants(
    participants: Iterable[Participant], rules: DrawRules | None = None
) -> tuple[Participant, ...]:
    """The participants normalised, checked (no empty list, no repeated id,
    no ``;`` in a text) and sorted by id; ranks filled in from scores per group
    (with the act's tie-breaks of ``rules``)."""
    return listing_order(participants, rules)[0]


def listing_order(
    participants: Iterable[Participant], rules: DrawRules | None
) -> tuple[tuple[Participant, ...], dict[str, str]]:
    items = [normalized_participant(p) for p in participants]
    if not items:
        raise UserError("A lista de participantes está vazia.", field="participants")
    check_unique_ids(items)
    items, ties = _ranks_from_scores(items, rules or DrawRules())
    return tuple(sorted(items, key=lambda p: p.id)), ties


def _ranks_from_scores(items: list[Participant], rules: DrawRules) -> tuple[list[Participant], dict[str, str]]:
    """Scores without ranks → ranks within each group: by score, then the act's tie-breaks
    (``rules.tie_break``; Sapezal art. 10, § 3º); those still equal share a rank, and the lot decides
    between them. A tie that a tie-break would decide but whose fact is missing is refused. Also
    returns, by id, what decided each tie (pt-BR)."""
    with_score = [p for p in items if p.score is not None or p.rank is not None]
    if not with_score:
        return items, {}
    if len(with_score) != len(items):
        missing = next(p for p in items if p.score is None and p.rank is None)
        raise UserError(
            f"Participante '{missing.id}' sem pontuação: informe a pontuação de todos ou de nenhum.", field="score"
        )
    if all(p.rank is not None for p in items):
        return items, {}
    if any(p.rank is not None for p in items):
        missing = next(p for p in items if p.rank is None)
        raise UserError(
            f"Participante '{missing.id}' sem classificação: informe a de todos ou de nenhum.", field="rank"
        )
    rank: dict[str, int] = {}
    ties: dict[str, str] = {}
    by_group: dict[str, list[Participant]] = {}
    for p in items:
        by_group.setdefault(p.group, []).append(p)
    for members in by_group.values():
        for i, placing in placings([(p, p.score) for p in members], rules.tie_break, rules.tie_basis):
            p = members[i]
            if placing.missing:
                raise UserError(placing.missing[:1].upper() + placing.missing[1:] + ".", field="tie_break")
            rank[p.id] = placing.rank
            if placing.tie_break:
                ties[p.id] = placing.tie_break
    return [replace(p, rank=rank[p.id]) for p in items], ties


def canonical_list(participants: Iterable[Participant]) -> str:
    """The text of the published list: one line per participant, sorted by id, each ending with ``\\n``."""
    return "".join(canonical_line(p) + "\n" for p in canonical_participants(participants))


def list_sha256(participants_or_text: Iterable[Participant] | str) -> str:
    """SHA-256 (hex) of the published list (participants, or the list text itself)."""
    text = participants_or_text if isinstance(participants_or_text, str) else canonical_list(participants_or_text)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def draw_key(seed: str, list_hash: str, participant_id: str) -> str:
    """The value that places one participant: SHA-256 of seed, list hash and id, one per line."""
    return hashlib.sha256((seed + "\n" + list_hash + "\n" + participant_id).encode("utf-8")).hexdigest()


def order_from_list(list_text: str, seed: str) -> tuple[str, ...]:
    """The drawn order straight from a published list's text (what the README snippet does)."""
    seed = normalize_seed(seed)
    digest = hashlib.sha256(list_text.encode("utf-8")).hexdigest()
    ids = [line.split(";")[0] for line in list_text.splitlines() if line]
    return tuple(sorted(ids, key=lambda pid: (draw_key(seed, digest, pid), pid)))


def drawn_order(participants: Iterable[Participant], seed: str) -> tuple[str, ...]:
    """Every participant id, in drawn order."""
    return order_from_list(canonical_list(participants), seed)
