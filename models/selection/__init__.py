"""Selection: socio-economic scores, ranking, and public, verifiable draws.

Pure functions over plain values — no database, no Qt. The screens and the
``praca draw`` command gather the participants as :class:`Participant`
records; ``models/selection/draws.py`` keeps the draws that were held.

Scores (``selection.criteria`` of a regime; Sapezal, Lei 1.171/2014, art. 10)
-------------------------------------------------------------------------------

:func:`score_participant` gives one :class:`ScoreLine` per criterion — its
label, the value read, the points and the article — and the total;
:func:`rank_by_score` orders the participants by total, then by the regime's
``tie_break`` (Sapezal art. 10, § 3º: the disabled first, then the oldest);
those equal on all of it share a rank (``tie_unresolved``) and the draw's
order decides between them, and only between them. A tie a tie-break would
decide but whose fact is unknown is flagged (``tie_missing``) and stops the
list: the lot never decides what the act decides. Readings:

* **Brackets**: the first bracket of the file whose ``min`` (inclusive) and
  ``max`` (inclusive) hold the value; upper limits are inclusive because the
  act says "menor ou igual a" (art. 10, II–IV). **Values**: by equality (a
  category, yes/no or a count).
* **Age** (``age_years``): whole years completed on the reference date — how
  the act states ages: a person "tem 60 anos" until the 61st birthday, so
  "maior de 60 anos" is 61 completed years or more.
* **Residence time** (``residence_years``): the exact time elapsed since
  ``resident_since``, as a decimal number of years (years completed plus the
  fraction of the current year of residence): "mais de 4 anos" is true from
  the day after the 4th anniversary — the reading the eligibility check takes
  of "há mais de N anos" (``models/rules/eligibility/``).
* **Reference date**: the date of registration (``registered_at``), else the
  ``on`` date given — the act fixes none; the Sapezal regime adopts the
  registration date.
* A fact nobody gave makes its line ``missing`` (0 points) and the score
  ``complete = False``; a value outside every bracket makes it ``out-of-range``.

Draws (algorithm ``praca-sorteio-1``, documented in the README, "Sorteios: como conferir")
-----------------------------------------------------------------------------------------

1. **The list.** Each participant becomes one line of UTF-8 text
   ``id;name`` followed, in this order and only when set, by
   ``;group=G``, ``;quota=1``, ``;preference=P``, ``;rank=R``, ``;score=S``
   and ``;paid_at=AAAA-MM-DDTHH:MM:SS`` — every fact that decides the result.
   Texts are NFC-normalised with single spaces; ``;`` and line breaks are not
   allowed in them. Lines are sorted by id (Unicode code points, as Python
   sorts strings) and each ends with ``\\n``; the SHA-256 of that text is
   ``list_sha256``, published with the list before the draw.
2. **The order.** Each participant gets the key
   ``sha256((seed + "\\n" + list_sha256 + "\\n" + id).encode("utf-8")).hexdigest()``;
   the drawn ``order`` is the ids sorted by (key, id). Only ``hashlib`` — no
   ``random`` — so any Python on any machine gives the same order.
3. **Selection**, per group (``group``; Sapezal art. 12, II–III: per product
   group), with ``N`` vacancies and ``K`` alternates:

   * plain draw: the group in drawn order;
   * with ``rank``/``score`` (Sapezal art. 10, § 2º): by rank, ties in drawn order;
     scores without ranks are ranked here, equal scores by the regime's
     ``tie_break`` (art. 10, § 3º; CSV columns ``disability``, ``birth_date``);
   * by payment time (São Bento art. 3º, § 2º): by ``paid_at``, ties in drawn
     order; a participant without ``paid_at`` is excluded;
   * with preferences (SJC art. 11, § 3º): founders, then day-feira holders,
     then the others, each class in drawn order.

   **Holders** are the first ``N`` of that sequence and are listed in drawn
   order, which is their order of choice of place / their position (Sapezal
   art. 12, § 1º; São Bento art. 3º, I). With a quota among the rules of the
   permit kinds the selection serves (``[selection] permit_kinds``; Ilha
   Comprida's 10 % of art. 11, § 2º is of the beach licences, not of the event
   draws of art. 21) ``ceil(percent × N)`` places are reserved — a
   fraction of a place is a whole place, the reading the eligibility check
   takes of the same quota — and go first to the quota participants in the
   sequence; reserved places nobody of the quota takes go to the general list.
   **Alternates** are the next ``K`` (Sapezal art. 12, § 3º: 10, per group);
   with scores they are the next ``K`` *in drawn order* among the others
   ("serão sorteados mais dez suplentes"); by payment time, the next in
   payment order. Everybody else follows in the same order (``others``).

Debtors are left out before the list is made when the regime's ``exclude``
holds ``"debtors"`` (Sapezal art. 12, I), each with reason and article.
:func:`rotation` applies one drawn order as Ilha Comprida's rotating list over
several events (art. 21, § 1º, I) and :func:`assign_points` is the second draw
that spreads one event's vendors over its points (art. 21, § 1º, II; at most
60 points, art. 22).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from decimal import ROUND_CEILING, ROUND_DOWN, Decimal
from functools import cached_property
from typing import Any

from models.base.errors import UserError
from models.rules.regimes import Criterion, Preference, Regime
from models.selection.csv_input import parse_vacancies, read_participants_csv
from models.selection.participants import (
    ALGORITHM,
    ALGORITHM_STEPS,
    CSV_COLUMNS,
    ROLES,
    TIE_BREAKS,
    Participant,
    decimal_text,
    json_value,
    normalize_text,
)

__all__ = [
    "ALGORITHM",
    "ALGORITHM_STEPS",
    "CSV_COLUMNS",
    "ROLES",
    "TIE_BREAKS",
    "DrawResult",
    "DrawRules",
    "Exclusion",
    "GroupResult",
    "Participant",
    "PointsResult",
    "PublishedList",
    "Ranked",
    "Score",
    "ScoreLine",
    "assign_points",
    "canonical_line",
    "canonical_list",
    "canonical_participants",
    "draw_key",
    "draw_rules",
    "drawn_order",
    "event_vendors",
    "fact_value",
    "list_sha256",
    "max_points_of",
    "normalize_seed",
    "normalize_text",
    "order_from_list",
    "parse_vacancies",
    "published_list",
    "rank_by_score",
    "rank_scores",
    "read_participants_csv",
    "rotation",
    "run_draw",
    "score_participant",
    "with_ranks",
]

# --------------------------------------------------------------------------- scores


@dataclass(frozen=True)
class ScoreLine:
    criterion_id: str
    label: str
    field: str
    value: Any  # what was read (None when missing)
    value_text: str  # pt-BR
    points: int
    basis: str  # full citation
    status: str = "ok"  # ok | missing | out-of-range
    note: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "criterion": self.criterion_id,
            "label": self.label,
            "field": self.field,
            "value": json_value(self.value),
            "value_text": self.value_text,
            "points": self.points,
            "basis": self.basis,
            "status": self.status,
            "note": self.note,
        }


@dataclass(frozen=True)
class Score:
    participant: Participant
    lines: tuple[ScoreLine, ...]
    total: int
    on: dt.date | None  # reference date of ages and residence

    @property
    def complete(self) -> bool:
        return all(line.status == "ok" for line in self.lines)

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.participant.id,
            "name": self.participant.name,
            "total": self.total,
            "complete": self.complete,
            "on": self.on.isoformat() if self.on else None,
            "lines": [line.to_dict() for line in self.lines],
        }


@dataclass(frozen=True)
class Ranked:
    """One place of the ranked list (``rank`` 1 = best)."""

    rank: int
    score: Score
    tie_break: str = ""  # pt-BR: what decided against the next one, when the totals were equal
    tie_unresolved: bool = False  # equal to a neighbour on every criterion of the act: the draw decides
    tie_missing: str = ""  # a fact the act's tie-break needs is not known (pt-BR, who and what)

    @property
    def participant(self) -> Participant:
        return self.score.participant

    def to_dict(self) -> dict[str, Any]:
        return {
            "rank": self.rank,
            **self.score.to_dict(),
            "tie_break": self.tie_break,
            "tie_unresolved": self.tie_unresolved,
            "tie_missing": self.tie_missing,
        }


def _years_between(start: dt.date, end: dt.date) -> Decimal:
    """Exact elapsed years as a decimal: whole years + the fraction of the running year (6 places, down)."""
    from models.rules.eligibility import add_months, elapsed

    if end <= start:
        return Decimal(0)
    years, _, _ = elapsed(start, end)
    anniversary = add_months(start, 12 * years)
    following = add_months(start, 12 * (years + 1))
    fraction = Decimal((end - anniversary).days) / Decimal((following - anniversary).days)
    return Decimal(years) + fraction.quantize(Decimal("0.000001"), rounding=ROUND_DOWN)


def _reference_date(p: Participant, on: dt.date | None) -> dt.date | None:
    if p.registered_at is not None:
        return p.registered_at.date() if isinstance(p.registered_at, dt.datetime) else p.registered_at
    return on


def fact_value(p: Participant, name: str, on: dt.date | None = None) -> Any:
    """The value of fact ``name`` (a criterion's ``field``) for ``p`` on the reference date.

    ``age_years``/``residence_years`` are derived from the dates when not given.
    An unknown field is a ``UserError`` (the regime names a fact Praça does not keep)."""
    from models.rules.eligibility import age_on

    when = _reference_date(p, on)
    if name == "age_years":
        if p.age_years is not None:
            return p.age_years
        if p.birth_date is None or when is None:
            return None
        return age_on(p.birth_date, when)
    if name == "residence_years":
        if p.residence_years is not None:
            return p.residence_years
        if p.resident_since is None or when is None:
            return None
        return _years_between(p.resident_since, when)
    if name not in Participant.__dataclass_fields__ or name in ("id", "name"):
        raise UserError(f"O critério lê o campo '{name}', que o Praça não conhece.", field=name)
    value = getattr(p, name)
    if name == "housing" and value == "":
        return None
    return value


def _same(value: Any, equals: Any) -> bool:
    if isinstance(equals, bool) or isinstance(value, bool):
        return isinstance(value, bool) and isinstance(equals, bool) and value is equals
    if isinstance(equals, int):
        return isinstance(value, (int, Decimal)) and value == equals
    return isinstance(value, str) and value == equals


def _value_text(field_name: str, value: Any, p: Participant, on: dt.date | None) -> str:
    from models.registry.people import HOUSING
    from models.rules import describe
    from models.rules.eligibility import elapsed

    if value is None:
        return "não informado"
    if isinstance(value, bool):
        return "sim" if value else "não"
    if field_name == "housing":
        return HOUSING.get(value, value)
    if field_name == "family_income_mw":
        return f"{describe.number(value)} salário(s) mínimo(s)"
    if field_name == "age_years":
        since = f" (nascimento em {describe.date(p.birth_date)})" if p.birth_date and p.age_years is None else ""
        return f"{describe.plural(int(value), 'ano', 'anos')}{since}"
    if field_name == "residence_years":
        when = _reference_date(p, on)
        if p.residence_years is None and p.resident_since and when:
            y, m, d = elapsed(p.resident_since, when)
            parts = [
                describe.plural(y, "ano", "anos"),
                describe.plural(m, "mês", "meses"),
                describe.plural(d, "dia", "dias"),
            ]
            return f"{parts[0]}, {parts[1]} e {parts[2]} (desde {describe.date(p.resident_since)})"
        return f"{describe.number(value)} anos"
    if field_name == "experience_years" and isinstance(value, int):
        return describe.plural(value, "ano", "anos")
    if isinstance(value, Decimal):
        return describe.number(value)
    return str(value)


def _criterion_line(regime: Regime, criterion: Criterion, p: Participant, on: dt.date | None) -> ScoreLine:
    value = fact_value(p, criterion.field, on)
    basis = regime.cite_item(criterion)
    text = _value_text(criterion.field, value, p, on)
    common = dict(
        criterion_id=criterion.id,
        label=criterion.label,
        field=criterion.field,
        value=value,
        value_text=text,
        basis=basis,
    )
    if value is None:
        return ScoreLine(points=0, status="missing", note="Informe o dado para pontuar este critério.", **common)
    if criterion.values:
        for option in criterion.values:
            if _same(value, option.equals):
                return ScoreLine(points=option.points, **common)
        return ScoreLine(
            points=0, status="out-of-range", note="Valor que o regime não pontua: a comissão pontua à mão.", **common
        )
    number = Decimal(value) if isinstance(value, int) and not isinstance(value, bool) else value
    if not isinstance(number, Decimal):
        return ScoreLine(points=0, status="out-of-range", note="Valor não numérico para uma faixa.", **common)
    for bracket in criterion.brackets:
        if bracket.min is not None and number < bracket.min:
            continue
        if bracket.max is not None and number > bracket.max:
            continue
        return ScoreLine(points=bracket.points, **common)
    return ScoreLine(
        points=0, status="out-of-range", note="Valor fora das faixas do regime: a comissão pontua à mão.", **common
    )


def score_participant(regime: Regime, participant: Participant, on: dt.date | None = None) -> Score:
    """The socio-economic score of one participant: one line per criterion of
    ``regime.selection.criteria`` (label, value, points, article) and the total.

    ``on`` is the reference date of ages and residence when the participant
    has no ``registered_at``."""
    selection = regime.selection
    if selection is None or not selection.criteria:
        raise UserError(f"O regime {regime.id} ({regime.short}) não prevê pontuação socioeconômica.", field="regime")
    lines = tuple(_criterion_line(regime, c, participant, on) for c in selection.criteria)
    return Score(
        participant=participant,
        lines=lines,
        total=sum(line.points for line in lines),
        on=_reference_date(participant, on),
    )


#: the fact each tie-break reads, for "informe …" (in parentheses, the CSV column of ``praca draw``)
TIE_FACTS = {
    "disabled": "se {who} é pessoa com deficiência (disability)",
    "oldest": "a data de nascimento de {who} (birth_date)",
    "earliest-registration": "a data e hora da inscrição de {who}",
    "earliest-payment": "a data e hora do pagamento de {who} (paid_at)",
}


def _tie_value(name: str, p: Participant) -> Any:
    """The fact tie-break ``name`` reads for ``p`` — the smaller goes first — or ``None`` when not known."""
    if name == "disabled":
        return None if p.disabled is None else (0 if p.disabled else 1)
    if name == "oldest":
        return p.birth_date  # the earlier birth is the older person
    if name == "earliest-registration":
        return p.registered_at
    if name == "earliest-payment":
        return p.paid_at
    raise UserError(
        f"Critério de desempate desconhecido: '{name}' (aceitos: {', '.join(TIE_BREAKS)}).", field="tie_break"
    )


def _tie_order(name: str, p: Participant) -> tuple:
    value = _tie_value(name, p)
    return (True, 0) if value is None else (False, value)


def _total_text(total: Any) -> str:
    return decimal_text(total) if isinstance(total, Decimal) else str(total)


def _who_text(p: Participant) -> str:
    return f"[{p.id}] {p.name}"


@dataclass(frozen=True)
class _Placing:
    rank: int  # shared by those the act's criteria cannot separate: the lot decides between them
    tie_break: str = ""  # what put this one ahead of the next, when their totals were equal
    unresolved: bool = False  # equal to a neighbour on the total and every tie-break: the lot decides
    missing: str = ""  # a fact a tie-break needs is not known (the lot must not decide what the act decides)


def _placings(
    entries: Sequence[tuple[Participant, Any]], tie_break: Sequence[str], basis: str
) -> list[tuple[int, _Placing]]:
    """``entries`` (participant, total) ordered by total, highest first, then by the act's ``tie_break``
    in order (Sapezal, Lei 1.171/2014, art. 10, § 3º: the disabled first, then the oldest), then by id
    only to list alike; each with its index in ``entries`` and its :class:`_Placing`.

    Two participants share a rank when their totals are equal and no tie-break separates them — the
    draw's lot decides between them, and only between them — or when a fact a tie-break needs is not
    known (``missing`` says which: such a list must not go to the draw)."""
    where = f" ({basis})" if basis else ""
    order = sorted(
        range(len(entries)),
        key=lambda i: (-entries[i][1], *[_tie_order(name, entries[i][0]) for name in tie_break], entries[i][0].id),
    )
    ranks: list[int] = []
    links: list[tuple[str, str | None]] = []  # how each one compares with the one before it
    for n, i in enumerate(order):
        p, total = entries[i]
        outcome, name = "apart", None
        if n and entries[order[n - 1]][1] == total:
            before = entries[order[n - 1]][0]
            outcome = "equal"
            for name in tie_break:
                a, b = _tie_value(name, before), _tie_value(name, p)
                if a is None or b is None:
                    outcome = "missing"
                    break
                if a != b:
                    outcome = "decided"
                    break
            else:
                name = None
        links.append((outcome, name))
        ranks.append(ranks[-1] if outcome in ("equal", "missing") else n + 1)
    result = []
    for n, i in enumerate(order):
        p, total = entries[i]
        points = _total_text(total)
        text, unresolved, missing = "", False, ""
        after = links[n + 1] if n + 1 < len(order) else ("apart", None)
        for (outcome, name), other in ((links[n], n - 1), (after, n + 1)):
            neighbour = entries[order[other]][0] if 0 <= other < len(order) else None
            if outcome == "equal":
                unresolved = True
                text = text or (
                    f"empate em {points} pontos"
                    + (" também nos critérios de desempate" if tie_break else "")
                    + f"{where}: decide o sorteio"
                )
            elif outcome == "missing" and neighbour is not None and not missing:
                lacking = p if _tie_value(name, p) is None else neighbour
                fact = TIE_FACTS.get(name, "{who}: " + str(name)).format(who=_who_text(lacking))
                missing = (
                    f"empate em {points} pontos entre {_who_text(p)} e {_who_text(neighbour)}: "
                    f"para o desempate{where}, informe {fact}"
                )
            elif outcome == "decided" and other == n + 1 and not text:
                text = f"empate em {points} pontos: {TIE_BREAKS[name]}{where}"
        result.append((i, _Placing(rank=ranks[n], tie_break=text, unresolved=unresolved, missing=missing)))
    return result


def _tie_basis(regime: Regime) -> str:
    sel = regime.selection
    if sel is None or not sel.tie_break:
        return ""
    return regime.cite(sel.tie_break_basis or sel.basis)


def rank_by_score(regime: Regime, participants: Iterable[Participant], on: dt.date | None = None) -> tuple[Ranked, ...]:
    """The ranked list (Sapezal art. 10, §§ 2º–3º): highest total first, then the regime's
    ``tie_break`` in order; those the act cannot separate share a rank and the draw decides.

    Pass the ranks on as ``Participant.rank`` (``with_ranks``) when the winners go to the draw."""
    return rank_scores(regime, [score_participant(regime, p, on) for p in participants])


def rank_scores(regime: Regime, scores: Iterable[Score]) -> tuple[Ranked, ...]:
    """Rank scores already made (:func:`score_participant`, or a score the commission corrected on
    appeal, Sapezal art. 10, § 5º) by total, then the regime's ``tie_break`` (see :func:`_placings`)."""
    selection = regime.selection
    tie_break = selection.tie_break if selection else ()
    scores = list(scores)
    _check_unique_ids([s.participant for s in scores])
    placed = _placings([(s.participant, s.total) for s in scores], tie_break, _tie_basis(regime))
    return tuple(
        Ranked(
            rank=pl.rank, score=scores[i], tie_break=pl.tie_break, tie_unresolved=pl.unresolved, tie_missing=pl.missing
        )
        for i, pl in placed
    )


def with_ranks(ranked: Iterable[Ranked]) -> tuple[Participant, ...]:
    """The ranked participants with ``rank`` and ``score`` (the total) filled in, ready for
    :func:`run_draw`: holders then go by rank, the regime's tie-breaks included."""
    return tuple(replace(r.participant, rank=r.rank, score=Decimal(r.score.total)) for r in ranked)


# --------------------------------------------------------------------------- the published list

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


def _check_unique_ids(participants: Sequence[Participant]) -> None:
    seen: set[str] = set()
    for p in participants:
        if p.id in seen:
            raise UserError(f"Participante repetido: o id '{p.id}' aparece mais de uma vez na lista.", field="id")
        seen.add(p.id)


def _normalized(p: Participant) -> Participant:
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
    return _listed(participants, rules)[0]


def _listed(
    participants: Iterable[Participant], rules: DrawRules | None
) -> tuple[tuple[Participant, ...], dict[str, str]]:
    items = [_normalized(p) for p in participants]
    if not items:
        raise UserError("A lista de participantes está vazia.", field="participants")
    _check_unique_ids(items)
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
        for i, placing in _placings([(p, p.score) for p in members], rules.tie_break, rules.tie_basis):
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


# --------------------------------------------------------------------------- rules from the regime


@dataclass(frozen=True)
class DrawRules:
    """What the act says about one draw, read from the regime (or given by hand in tests).

    ``mode`` is ``"draw"`` (plain, also Ilha Comprida's rotating list),
    ``"payment-time"`` (São Bento art. 3º, § 2º) or ``"preference"`` (SJC);
    a ranking (``rank``/``score`` in the participants) applies in any mode
    except payment time."""

    regime_id: str = ""
    method: str = "draw"
    mode: str = "draw"
    alternates: int = 0
    alternates_basis: str = ""
    exclude_debtors: bool = False
    debt_basis: str = ""
    quota_percent: Decimal | None = None
    quota_basis: str = ""
    quota_note: str = ""  # a quota of the regime that is not this draw's (Ilha Comprida art. 11, § 2º vs art. 21)
    when_more_than: int | None = None
    preferences: tuple[Preference, ...] = ()
    tie_break: tuple[str, ...] = ()  # between equal scores, in the act's order (Sapezal art. 10, § 3º)
    tie_basis: str = ""
    # the act's cut-offs (São Bento, Dec. 4.794/2026, art. 3º; art. 6º): registered or paid after them → left out
    registration_until: dt.datetime | None = None
    registration_basis: str = ""
    late_note: str = ""  # what the act allows a late request (art. 10), in words with its article
    proof_until: dt.datetime | None = None
    proof_basis: str = ""
    basis: str = ""  # full citation of the draw
    payment_basis: str = ""
    group_labels: Mapping[str, str] = field(default_factory=dict)
    title: str = ""  # "Sapezal/MT — Lei nº 1.171/2014"


def _selected_kinds(regime: Regime):
    """The permit kinds whose places the selection gives (the regime's ``selection.permit_kinds``; all by default)."""
    named = regime.selection.permit_kinds if regime.selection is not None else ()
    return [k for k in regime.permit_kinds if not named or k.id in named]


def _first_rule(regime: Regime, kind: str, kinds=None):
    for permit_kind in regime.permit_kinds if kinds is None else kinds:
        for rule in permit_kind.rules:
            if rule.kind == kind:
                return rule
    return None


def _quota_elsewhere(regime: Regime, kinds) -> str:
    """Why a quota of the regime is not one of its draws: it belongs to other permit kinds (pt-BR)."""
    others = [k for k in regime.permit_kinds if k not in kinds and any(r.kind == "quota" for r in k.rules)]
    if not others:
        return ""
    rule = _first_rule(regime, "quota", others)
    pct = "" if rule.percent is None else f" de {decimal_text(rule.percent * 100)} %"
    sel = regime.selection
    spec = sel.draw or sel.positions
    where = regime.cite_item(spec) if spec is not None else regime.cite(sel.basis)
    return (
        f"a cota{pct} ({regime.cite_item(rule)}) é das vagas de {'; '.join(k.label for k in others)} — "
        f"não deste sorteio ({where})"
    )


def draw_rules(regime: Regime, *, alternates: int | None = None) -> DrawRules:
    """The :class:`DrawRules` of ``regime``; ``alternates`` overrides the act's number.

    A ``UserError`` when the act foresees no draw (Olímpia's LC 324/2025 has none)."""
    sel = regime.selection
    has_draw = sel is not None and (
        sel.method in ("draw", "rotating-draw", "preference-then-draw")
        or sel.draw is not None
        or sel.positions is not None
    )
    if not has_draw:
        where = f" ({regime.cite(sel.basis)})" if sel is not None else ""
        raise UserError(f"O regime {regime.id} ({regime.short}) não prevê sorteio{where}.", field="regime")
    assert sel is not None
    spec = sel.draw or sel.positions
    mode = "draw"
    if sel.order_by == "payment-time":
        mode = "payment-time"
    elif sel.method == "preference-then-draw":
        mode = "preference"
    if alternates is not None and alternates < 0:
        raise UserError(f"O número de suplentes não pode ser negativo (veio {alternates}).", field="alternates")
    from models.rules.filing import late_text

    kinds = _selected_kinds(regime)
    reg = sel.registration
    debt_rule = _first_rule(regime, "no-debts", kinds)
    quota_rule = _first_rule(regime, "quota", kinds)
    labels = {g.id: g.label for g in regime.groups}
    labels.update({line.id: line.label for line in regime.lines if line.id not in labels})
    return DrawRules(
        regime_id=regime.id,
        method=sel.method,
        mode=mode,
        alternates=alternates if alternates is not None else (sel.alternates or 0),
        alternates_basis=regime.cite(sel.basis) if sel.alternates else "",
        exclude_debtors="debtors" in sel.exclude,
        debt_basis=regime.cite_item(debt_rule) if debt_rule is not None else regime.cite(sel.basis),
        quota_percent=quota_rule.percent if quota_rule is not None else None,
        quota_basis=regime.cite_item(quota_rule) if quota_rule is not None else "",
        quota_note=_quota_elsewhere(regime, kinds) if quota_rule is None else "",
        when_more_than=spec.when_more_than if spec is not None else None,
        preferences=sel.preferences,
        tie_break=sel.tie_break,
        tie_basis=_tie_basis(regime),
        registration_until=reg.until if reg is not None else None,
        registration_basis=regime.cite_item(reg) if reg is not None else "",
        late_note=late_text(regime) if reg is not None and reg.until is not None else "",
        proof_until=reg.proof_until if reg is not None else None,
        proof_basis=(
            regime.cite(reg.proof_basis or reg.basis) if reg is not None and reg.proof_until is not None else ""
        ),
        basis=regime.cite_item(spec) if spec is not None else regime.cite(sel.basis),
        payment_basis=regime.cite(sel.basis) if mode == "payment-time" else "",
        group_labels=labels,
        title=regime.title,
    )


# --------------------------------------------------------------------------- the draw


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
        out = {
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
    normalized = [_normalized(p) for p in participants]
    if not normalized:
        raise UserError("A lista de participantes está vazia.", field="participants")
    _check_unique_ids(normalized)
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
    listed, ties = _listed(kept, rules)
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


# --------------------------------------------------------------------------- rotating list (Ilha Comprida art. 21)


def rotation(order: Sequence[str], vacancies_per_event: Sequence[int]) -> tuple[tuple[str, ...], ...]:
    """The vendors of each event from one drawn ``order`` used as a rotating list
    (Ilha Comprida, Dec. 890/2017, art. 21, § 1º, I): each event takes the next
    names in sequence; when the list ends it starts again from its beginning.
    An event never takes the same vendor twice (at most ``len(order)`` names).
    The list is the drawn order itself: art. 21 reserves nothing, so the quota
    of art. 11, § 2º (licences) does not reorder it."""
    if not order:
        raise UserError("A lista corrida está vazia.", field="order")
    events, cursor, size = [], 0, len(order)
    for n in vacancies_per_event:
        if isinstance(n, bool) or not isinstance(n, int) or n <= 0:
            raise UserError(f"O número de vagas de cada evento deve ser maior que zero (veio {n}).", field="vacancies")
        take = min(n, size)
        events.append(tuple(order[(cursor + i) % size] for i in range(take)))
        cursor = (cursor + take) % size
    return tuple(events)


def event_vendors(order: Sequence[str], vacancies_per_event: Sequence[int], k: int) -> tuple[str, ...]:
    """The vendors of event ``k`` (1 = the first) of the rotating list."""
    if k < 1 or k > len(vacancies_per_event):
        raise UserError(f"Evento {k} fora da sequência (1 a {len(vacancies_per_event)}).", field="event")
    return rotation(order, vacancies_per_event[:k])[k - 1]


def max_points_of(regime: Regime, site_id: str | None = None) -> tuple[int | None, str]:
    """The most points an event area may have, and its citation (Ilha Comprida art. 22: 60)."""
    if site_id:
        site = regime.site(site_id)
        if getattr(site, "max_points", None):
            return site.max_points, regime.cite_item(site)
    layout = regime.layout
    if layout is not None and layout.max_points is not None and layout.max_points.value is not None:
        return layout.max_points.value, regime.cite_item(layout.max_points)
    return None, ""


@dataclass(frozen=True)
class PointsResult:
    """The second draw of Ilha Comprida (art. 21, § 1º, II): vendor → point."""

    seed: str
    list_sha256: str
    list_text: str
    order: tuple[str, ...]
    assignments: tuple[tuple[str, str], ...]  # (vendor id, point label), in drawn order

    def to_dict(self) -> dict[str, Any]:
        return {
            "algorithm": ALGORITHM,
            "seed": self.seed,
            "list_sha256": self.list_sha256,
            "list": self.list_text.splitlines(),
            "order": list(self.order),
            "assignments": [{"id": pid, "point": point} for pid, point in self.assignments],
        }


def assign_points(
    vendors: Iterable[Participant],
    points: Sequence[str],
    seed: str,
    *,
    max_points: int | None = None,
    max_basis: str = "",
) -> PointsResult:
    """Spread one event's vendors over its points by a draw of their own: the
    first in drawn order takes the first point, and so on. More points than
    ``max_points`` (Ilha Comprida art. 22: 60) or more vendors than points is
    a ``UserError``."""
    points = [normalize_text(p) for p in points]
    if not points:
        raise UserError("Informe os pontos do evento.", field="points")
    if len(set(points)) != len(points):
        raise UserError("Há pontos repetidos na lista de pontos.", field="points")
    if max_points is not None and len(points) > max_points:
        where = f" ({max_basis})" if max_basis else ""
        raise UserError(f"São {len(points)} pontos; o ato permite no máximo {max_points}{where}.", field="points")
    listed = canonical_participants(vendors)
    if len(listed) > len(points):
        raise UserError(f"São {len(listed)} ambulantes para {len(points)} pontos.", field="points")
    seed = normalize_seed(seed)
    text = "".join(canonical_line(p) + "\n" for p in listed)
    order = order_from_list(text, seed)
    return PointsResult(
        seed=seed,
        list_sha256=list_sha256(text),
        list_text=text,
        order=order,
        assignments=tuple(zip(order, points, strict=False)),
    )
