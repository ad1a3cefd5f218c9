"""The selection in words: method, score criteria and their brackets, preferences, tie-breaks, draws."""

from __future__ import annotations

from decimal import Decimal

from models.rules.describe.text import (
    Fact,
    days,
    fact,
    join_words,
    lower_first,
    moment,
    number,
    period,
    plural,
)
from models.rules.describe.words import CATEGORIES, DRAW_PER, EXCLUDES, MEASURES, METHODS, ORDER_BY, TIE_BREAKS
from models.rules.regimes import Regime
from models.rules.regimes.model import Criterion, Selection

# --------------------------------------------------------------------------- selection


def _bound(value: Decimal) -> str:
    return number(value)


def _whole(value: Decimal | None) -> bool:
    return value is not None and value.as_tuple().exponent == 0


def brackets(criterion: Criterion) -> list[str]:
    """Each bracket of a score criterion with its points: "até 1,00: 100 pontos", "mais de 4,00: 20 pontos"."""
    out = []
    previous = None
    for b in criterion.brackets:
        low = b.min
        if low is not None and b.max is not None:
            text = _bound(low) if low == b.max else f"de {_bound(low)} a {_bound(b.max)}"
        elif low is not None:
            text = f"a partir de {_bound(low)}"
        elif b.max is not None and previous is not None:
            if _whole(previous) and _whole(b.max) and b.max - previous == 1:
                text = _bound(b.max)  # whole counts one apart: "mais de 3 até 4" is just 4
            else:
                text = f"mais de {_bound(previous)} até {_bound(b.max)}"
        elif b.max is not None:
            text = f"até {_bound(b.max)}"
        elif previous is not None:
            text = f"mais de {_bound(previous)}"
        else:
            text = "qualquer valor"
        out.append(f"{text}: {plural(b.points, 'ponto', 'pontos')}")
        previous = b.max if b.max is not None else previous
    return out


def category(value: object) -> str:
    if value is True:
        return "sim"
    if value is False:
        return "não"
    return CATEGORIES.get(value, str(value)) if isinstance(value, str) else str(value)


def criterion_items(criterion: Criterion) -> list[str]:
    """Every bracket or value of a criterion with its points, in order."""
    if criterion.brackets:
        return brackets(criterion)
    return [f"{category(v.equals)}: {plural(v.points, 'ponto', 'pontos')}" for v in criterion.values]


def criterion_points(criterion: Criterion) -> str:
    text = "; ".join(criterion_items(criterion))
    if criterion.measure:
        text += f" (contados em {MEASURES[criterion.measure]})"
    return text


def _place(text: str) -> str:
    """ "No local do evento" → "no local do evento"; "Secretaria da Fazenda" → "local: Secretaria da Fazenda"."""
    if text.split(" ", 1)[0] in ("No", "Na", "Nos", "Nas", "Em"):
        return lower_first(text)
    return f"local: {text}"


def selection_facts(regime: Regime, selection: Selection, *, criteria: bool = True) -> list[Fact]:
    """How places are given: method and order, registration, draws, late fill, preferences, score,
    tie-break, exclusions, alternates and appeal deadlines — each with its article. ``criteria=False``
    leaves the score criteria out, for a front end that shows them as a table (:func:`criterion_points`)."""
    if selection is None:
        return []
    s = selection
    method = f"Seleção {METHODS.get(s.method, s.method)}"
    if s.order_by:
        method += f", confirmada {ORDER_BY.get(s.order_by, s.order_by)}"
    out = [fact(regime, method, s)]
    here = regime.cite_item(s)
    if s.permit_kinds:
        kinds = [k.label for k in regime.permit_kinds if k.id in s.permit_kinds]
        out.append(Fact(text="Vale para: " + "; ".join(kinds), cite=here))
    r = s.registration
    if r is not None:
        parts = []
        if r.opens is not None:
            parts.append(f"a partir de {moment(r.opens)}")
        if r.until is not None:
            parts.append(f"até {moment(r.until)}")
        if r.place:
            parts.append(_place(r.place))
        text = "Inscrição " + ", ".join(parts) if parts else "Inscrição prévia"
        if r.proof_until is not None:
            text += f"; comprovante de pagamento até {moment(r.proof_until)}"
            if r.proof_basis:
                text += f" ({regime.cite(r.proof_basis)})"
        out.append(fact(regime, text, r))
    for label, d in (("Sorteio das posições", s.positions), ("Sorteio das vagas", s.draw)):
        if d is None:
            continue
        parts = []
        if d.when_more_than is not None:
            parts.append(f"havendo mais de {d.when_more_than} interessados")
        if d.per and d.per != "event":
            parts.append(DRAW_PER.get(d.per, d.per))
        if d.at is not None:
            parts.append(moment(d.at))
        if d.place:
            parts.append(_place(d.place))
        if d.by:
            parts.append(f"responsável: {d.by}")
        if d.per == "event":
            parts.append("um sorteio para todo o evento")
        out.append(fact(regime, f"{label}: {', '.join(parts)}" if parts else label, d))
    if s.late_fill is not None:
        lf = s.late_fill
        text = f"Vagas que sobrarem após os prazos: {ORDER_BY.get(lf.order_by, lf.order_by)}"
        if lf.pay_days_after_issue is not None:
            text += f", com pagamento em até {days(lf.pay_days_after_issue)} após a emissão do boleto"
        out.append(fact(regime, text, lf))
    if s.preferences:
        prefs = tuple(fact(regime, f"{p.rank}º: {p.label}", p) for p in s.preferences)
        out.append(Fact(text="Preferência, nesta ordem:", details=prefs))
    if s.criteria and criteria:
        crit = tuple(fact(regime, f"{c.label}: {criterion_points(c)}", c) for c in s.criteria)
        out.append(Fact(text="Pontuação (vence quem somar mais pontos):", details=crit))
    if s.tie_break:
        out.append(
            Fact(
                text="Desempate: "
                + "; ".join(f"{n}º {TIE_BREAKS.get(t, t)}" for n, t in enumerate(s.tie_break, start=1))
                + "; o que restar empatado, pela ordem sorteada",
                cite=regime.cite(s.tie_break_basis) if s.tie_break_basis else here,
            )
        )
    if s.exclude:
        out.append(Fact(text="Excluído(s): " + join_words([EXCLUDES.get(x, x) for x in s.exclude]), cite=here))
    if s.alternates:
        out.append(Fact(text=f"{plural(s.alternates, 'suplente', 'suplentes')} além dos titulares", cite=here))
    if s.appeal_days:
        out.append(Fact(text=f"Recurso contra o resultado: {days(s.appeal_days)}", cite=here))
    if s.decision_business_days:
        out.append(Fact(text=f"Decisão do recurso: {period(s.decision_business_days, count='business')}", cite=here))
    return out
