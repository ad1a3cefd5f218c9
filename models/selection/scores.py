"""Scores by the regime's criteria, the tie-breaks and the ranking by score."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from decimal import ROUND_DOWN, Decimal
from typing import Any

from models.base.errors import UserError
from models.rules.regimes import Regime
from models.rules.regimes.model import Criterion
from models.selection.participants import (
    TIE_BREAKS,
    Participant,
    decimal_text,
    json_value,
)


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


def _measured(start: dt.date, end: dt.date, measure: str | None) -> Decimal:
    """The years from ``start`` to ``end`` as the regime measures them: exact elapsed time, or whole years."""
    exact = _years_between(start, end)
    return exact.to_integral_value(rounding=ROUND_DOWN) if measure == "completed-years" else exact


def fact_value(p: Participant, name: str, on: dt.date | None = None, measure: str | None = None) -> Any:
    """The value of fact ``name`` (a criterion's ``field``) for ``p`` on the reference date.

    ``age_years``/``residence_years`` are derived from the dates when not given, measured as the criterion
    declares (``measure``: ``elapsed`` or ``completed-years``; whole years when none is declared).
    An unknown field is a ``UserError`` (the regime names a fact Praça does not keep)."""
    when = _reference_date(p, on)
    if name == "age_years":
        if p.age_years is not None:
            return p.age_years
        if p.birth_date is None or when is None:
            return None
        return _measured(p.birth_date, when, measure or "completed-years")
    if name == "residence_years":
        if p.residence_years is not None:
            return p.residence_years
        if p.resident_since is None or when is None:
            return None
        return _measured(p.resident_since, when, measure or "elapsed")
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


def _value_text(field_name: str, value: Any, p: Participant, on: dt.date | None, measure: str | None = None) -> str:
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
    if field_name in ("age_years", "residence_years"):
        given = p.age_years if field_name == "age_years" else p.residence_years
        start = p.birth_date if field_name == "age_years" else p.resident_since
        when = _reference_date(p, on)
        if given is not None or start is None or when is None:
            return f"{describe.number(value)} anos"
        y, m, d = elapsed(start, when)
        parts = [
            describe.plural(y, "ano", "anos"),
            describe.plural(m, "mês", "meses"),
            describe.plural(d, "dia", "dias"),
        ]
        since = "nascimento em" if field_name == "age_years" else "desde"
        how = f"; contados em {describe.MEASURES[measure]}" if measure else ""
        return f"{parts[0]}, {parts[1]} e {parts[2]} ({since} {describe.date(start)}{how})"
    if field_name == "experience_years" and isinstance(value, int):
        return describe.plural(value, "ano", "anos")
    if isinstance(value, Decimal):
        return describe.number(value)
    return str(value)


def _criterion_line(regime: Regime, criterion: Criterion, p: Participant, on: dt.date | None) -> ScoreLine:
    value = fact_value(p, criterion.field, on, criterion.measure)
    basis = regime.cite_item(criterion)
    text = _value_text(criterion.field, value, p, on, criterion.measure)
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


def placings(
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
            elif outcome == "missing" and name is not None and neighbour is not None and not missing:
                lacking = p if _tie_value(name, p) is None else neighbour
                fact = TIE_FACTS.get(name, "{who}: " + str(name)).format(who=_who_text(lacking))
                missing = (
                    f"empate em {points} pontos entre {_who_text(p)} e {_who_text(neighbour)}: "
                    f"para o desempate{where}, informe {fact}"
                )
            elif outcome == "decided" and name is not None and other == n + 1 and not text:
                text = f"empate em {points} pontos: {TIE_BREAKS[name]}{where}"
        result.append((i, _Placing(rank=ranks[n], tie_break=text, unresolved=unresolved, missing=missing)))
    return result


def tie_basis(regime: Regime) -> str:
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
    appeal, Sapezal art. 10, § 5º) by total, then the regime's ``tie_break`` (see :func:`placings`)."""
    selection = regime.selection
    tie_break = selection.tie_break if selection else ()
    scores = list(scores)
    check_unique_ids([s.participant for s in scores])
    placed = placings([(s.participant, s.total) for s in scores], tie_break, tie_basis(regime))
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


def check_unique_ids(participants: Sequence[Participant]) -> None:
    seen: set[str] = set()
    for p in participants:
        if p.id in seen:
            raise UserError(f"Participante repetido: o id '{p.id}' aparece mais de uma vez na lista.", field="id")
        seen.add(p.id)
