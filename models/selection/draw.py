"""The draw itself: exclusions, groups and vacancies, the published list and its result."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import ROUND_CEILING
from functools import cached_property
from typing import Any

from models.base.errors import UserError
from models.selection.participants import (
    ALGORITHM,
    Participant,
    normalize_text,
)
from models.selection.published import canonical_line, draw_key, listing_order, normalize_seed, normalized_participant
from models.selection.regime_rules import DrawRules
from models.selection.scores import check_unique_ids


@dataclass(frozen=True)
class Exclusion:
    participant: Participant
    reason: str
    basis: str

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.participant.id, "name": self.participant.name, "reason": self.reason, "basis": self.basis}


@dataclass(frozen=True)
class GroupResult:
    group: str  # "" when the list has no groups
    label: str
    vacancies: int
    holders: tuple[str, ...]  # in drawn order = order of choice / position
    alternates: tuple[str, ...]  # in order of call
    others: tuple[str, ...]
    quota_reserved: int = 0
    quota_holders: tuple[str, ...] = ()
    draw_required: bool = True  # SJC: only when more than two apply (art. 18, parágrafo único)
    note: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "group": self.group,
            "label": self.label,
            "vacancies": self.vacancies,
            "holders": list(self.holders),
            "alternates": list(self.alternates),
            "others": list(self.others),
            "quota_reserved": self.quota_reserved,
            "quota_holders": list(self.quota_holders),
            "draw_required": self.draw_required,
            "note": self.note,
        }


@dataclass(frozen=True)
class DrawResult:
    """The outcome of one draw; ``to_dict()`` is the JSON of ``praca draw --json``."""

    seed: str
    list_sha256: str
    list_text: str
    participants: tuple[Participant, ...]  # those in the list, sorted by id
    order: tuple[str, ...]  # every listed id, in drawn order
    groups: tuple[GroupResult, ...]
    excluded: tuple[Exclusion, ...] = ()
    rules: DrawRules = field(default_factory=DrawRules)
    algorithm: str = ALGORITHM
    ties: Mapping[str, str] = field(default_factory=dict)  # id → what decided its tie of scores

    @property
    def holders(self) -> tuple[str, ...]:
        return tuple(pid for g in self.groups for pid in g.holders)

    @property
    def alternates(self) -> tuple[str, ...]:
        return tuple(pid for g in self.groups for pid in g.alternates)

    @property
    def others(self) -> tuple[str, ...]:
        return tuple(pid for g in self.groups for pid in g.others)

    @property
    def has_groups(self) -> bool:
        return any(g.group for g in self.groups)

    @cached_property
    def _by_id(self) -> dict[str, Participant]:
        found = {e.participant.id: e.participant for e in self.excluded}
        found.update({p.id: p for p in self.participants})
        return found

    @cached_property
    def _positions(self) -> dict[str, int]:
        return {pid: i for i, pid in enumerate(self.order, start=1)}

    @cached_property
    def _roles(self) -> dict[str, str]:
        roles = {e.participant.id: "excluded" for e in self.excluded}
        for g in self.groups:
            roles.update({pid: "holder" for pid in g.holders})
            roles.update({pid: "alternate" for pid in g.alternates})
            roles.update({pid: "other" for pid in g.others})
        return roles

    def participant(self, pid: str) -> Participant:
        """The participant (listed or excluded) with id ``pid``; ``KeyError`` if none."""
        return self._by_id[pid]

    def position(self, pid: str) -> int:
        """1-based place of ``pid`` in the drawn order (``KeyError`` for the excluded)."""
        return self._positions[pid]

    def role(self, pid: str) -> str:
        """``holder``, ``alternate``, ``other`` or ``excluded``."""
        return self._roles[pid]

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "algorithm": self.algorithm,
            "regime": self.rules.regime_id or None,
            "basis": self.rules.basis or None,
            "seed": self.seed,
            "list_sha256": self.list_sha256,
            "list": self.list_text.splitlines(),
            "order": list(self.order),
            "holders": list(self.holders),
            "alternates": list(self.alternates),
            "others": list(self.others),
            "excluded": [e.to_dict() for e in self.excluded],
        }
        if self.ties:
            out["tie_breaks"] = dict(self.ties)
        if self.has_groups:
            out["groups"] = [g.to_dict() for g in self.groups]
        else:
            only = self.groups[0]
            out["vacancies"] = only.vacancies
            out["quota_reserved"] = only.quota_reserved
            out["quota_holders"] = list(only.quota_holders)
            out["draw_required"] = only.draw_required
            if only.note:
                out["note"] = only.note
        return out


def _exclusions(items: Sequence[Participant], rules: DrawRules) -> tuple[list[Participant], list[Exclusion]]:
    kept, out = [], []
    for p in items:
        if rules.exclude_debtors and p.debtor:
            out.append(Exclusion(p, "em débito com o Fisco Municipal", rules.debt_basis))
        elif rules.mode == "payment-time" and p.paid_at is None:
            out.append(Exclusion(p, "sem data e hora do pagamento do preço público", rules.payment_basis))
        elif rules.registration_until and p.registered_at and p.registered_at > rules.registration_until:
            late = f"; {rules.late_note}" if rules.late_note else ""
            out.append(
                Exclusion(
                    p,
                    f"inscrição em {p.registered_at:%d/%m/%Y %H:%M}, depois do prazo de "
                    f"{rules.registration_until:%d/%m/%Y %H:%M}{late}",
                    rules.registration_basis,
                )
            )
        elif rules.proof_until and p.paid_at and p.paid_at > rules.proof_until:
            out.append(
                Exclusion(
                    p,
                    f"pagamento em {p.paid_at:%d/%m/%Y %H:%M:%S}, depois do prazo do comprovante "
                    f"({rules.proof_until:%d/%m/%Y %H:%M})",
                    rules.proof_basis,
                )
            )
        else:
            kept.append(p)
    return kept, out


def _group_vacancies(vacancies: int | Mapping[str, int], groups: Sequence[str]) -> dict[str, int]:
    if isinstance(vacancies, Mapping):
        vacancies = {normalize_text(str(g)): n for g, n in vacancies.items()}
        result = {}
        unknown = sorted(set(vacancies) - set(groups))
        if unknown:
            raise UserError(f"Vagas para grupo sem participantes: {', '.join(unknown)}.", field="vacancies")
        for g in groups:
            if g not in vacancies:
                raise UserError(f"Informe as vagas do grupo '{g or '(sem grupo)'}'.", field="vacancies")
            result[g] = vacancies[g]
    else:
        result = {g: vacancies for g in groups}
    for g, n in result.items():
        if isinstance(n, bool) or not isinstance(n, int) or n <= 0:
            where = f" do grupo '{g}'" if g else ""
            raise UserError(
                f"O número de vagas{where} deve ser um inteiro maior que zero (veio {n}).", field="vacancies"
            )
    return result


@dataclass(frozen=True)
class PublishedList:
    """The list to publish before the draw: who is in it (sorted by id), its text and SHA-256,
    and who was left out, with reason and article."""

    participants: tuple[Participant, ...]
    text: str
    sha256: str
    excluded: tuple[Exclusion, ...] = ()
    ties: Mapping[str, str] = field(default_factory=dict)  # id → what decided its tie (scores only)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "algorithm": ALGORITHM,
            "list_sha256": self.sha256,
            "list": self.text.splitlines(),
            "excluded": [e.to_dict() for e in self.excluded],
        }
        if self.ties:
            out["tie_breaks"] = dict(self.ties)
        return out


def published_list(participants: Iterable[Participant], rules: DrawRules | None = None) -> PublishedList:
    """Check the participants, leave out who the act excludes, and make the list to publish.

    The same list :func:`run_draw` hashes: show and print it (with
    ``sha256``) before the seed is announced."""
    rules = rules or DrawRules()
    normalized = [normalized_participant(p) for p in participants]
    if not normalized:
        raise UserError("A lista de participantes está vazia.", field="participants")
    check_unique_ids(normalized)
    if rules.mode == "payment-time" and all(p.paid_at is None for p in normalized):
        raise UserError(
            "Informe a data e a hora do pagamento (paid_at) de cada participante: a ordem de inscrição "
            f"é confirmada pelo pagamento ({rules.payment_basis}).",
            field="paid_at",
        )
    if rules.preferences:
        known = {pref.id for pref in rules.preferences}
        for p in normalized:
            if p.preference and p.preference not in known:
                raise UserError(
                    f"Participante '{p.id}': preferência '{p.preference}' desconhecida "
                    f"(o regime prevê: {', '.join(sorted(known))}).",
                    field="preference",
                )
    if any(p.quota for p in normalized) and rules.quota_percent is None:
        why = f": {rules.quota_note}" if rules.quota_note else ""
        raise UserError(
            f"Há participantes marcados como cotistas, mas o regime não prevê cota neste sorteio{why}.", field="quota"
        )
    kept, excluded = _exclusions(normalized, rules)
    if not kept:
        raise UserError("Nenhum participante restou para o sorteio depois das exclusões.", field="participants")
    listed, ties = listing_order(kept, rules)
    text = "".join(canonical_line(p) + "\n" for p in listed)
    return PublishedList(
        participants=listed,
        text=text,
        sha256=hashlib.sha256(text.encode("utf-8")).hexdigest(),
        excluded=tuple(excluded),
        ties=ties,
    )


def run_draw(
    participants: Iterable[Participant], seed: str, vacancies: int | Mapping[str, int], rules: DrawRules | None = None
) -> DrawResult:
    """Hold a draw: exclusions, the published list and its hash, the drawn
    order, and per group the holders, alternates and the others.

    ``vacancies`` is one number for every group, or ``{group: number}``.
    ``rules`` comes from :func:`draw_rules` (default: a plain draw, no alternates)."""
    rules = rules or DrawRules()
    seed = normalize_seed(seed)
    published = published_list(participants, rules)
    listed, text, digest = published.participants, published.text, published.sha256
    order = tuple(sorted((p.id for p in listed), key=lambda pid: (draw_key(seed, digest, pid), pid)))
    by_id = {p.id: p for p in listed}
    position = {pid: i for i, pid in enumerate(order)}
    group_ids = sorted({p.group for p in listed})
    per_group = _group_vacancies(vacancies, group_ids)
    total = sum(per_group.values())
    if rules.max_points is not None and total > rules.max_points:
        raise UserError(
            f"São {total} vagas; o ato permite no máximo {rules.max_points} pontos na área ({rules.max_points_basis}).",
            field="vacancies",
        )
    results = tuple(
        _select_group(g, [by_id[pid] for pid in order if by_id[pid].group == g], per_group[g], position, rules)
        for g in group_ids
    )
    return DrawResult(
        seed=seed,
        list_sha256=digest,
        list_text=text,
        participants=listed,
        order=order,
        groups=results,
        excluded=published.excluded,
        rules=rules,
        ties=published.ties,
    )


def _select_group(
    group: str, members: list[Participant], vacancies: int, position: Mapping[str, int], rules: DrawRules
) -> GroupResult:
    """Holders, alternates and others of one group; ``members`` come in drawn order."""
    ranked = any(p.rank is not None for p in members)
    pref_rank = {pref.id: pref.rank for pref in rules.preferences}
    last_pref = len(pref_rank) + 1

    def key(p: Participant) -> tuple:
        if rules.mode == "payment-time":
            return (p.paid_at, position[p.id])
        if ranked:
            return (p.rank, position[p.id])
        if rules.mode == "preference":
            return (pref_rank.get(p.preference or "", last_pref), position[p.id])
        return (position[p.id],)

    sequence = sorted(members, key=key)
    reserved = 0
    if rules.quota_percent is not None:
        reserved = min(int((rules.quota_percent * vacancies).to_integral_value(rounding=ROUND_CEILING)), vacancies)
    quota_holders = [p for p in sequence if p.quota][:reserved]
    taken = {p.id for p in quota_holders}
    general = [p for p in sequence if p.id not in taken][: vacancies - len(quota_holders)]
    taken.update(p.id for p in general)
    holders = sorted((p for p in members if p.id in taken), key=lambda p: position[p.id])
    remaining = [p for p in sequence if p.id not in taken]
    if ranked and rules.mode != "payment-time":
        remaining.sort(key=lambda p: position[p.id])  # alternates are drawn (Sapezal art. 12, § 3º)
    alternates = remaining[: rules.alternates]
    others = remaining[rules.alternates :]
    required = rules.when_more_than is None or len(members) > rules.when_more_than
    note = ""
    if not required:
        note = (
            f"{len(members)} interessado(s): o ato só exige sorteio com mais de {rules.when_more_than} "
            f"({rules.basis}); a ordem sorteada fica registrada."
        )
    return GroupResult(
        group=group,
        label=rules.group_labels.get(group, group),
        vacancies=vacancies,
        holders=tuple(p.id for p in holders),
        alternates=tuple(p.id for p in alternates),
        others=tuple(p.id for p in others),
        quota_reserved=reserved,
        quota_holders=tuple(p.id for p in sorted(quota_holders, key=lambda p: position[p.id])),
        draw_required=required,
        note=note,
    )
