"""Fees in words: what each kind charges, its discounts and energy tiers, venues, when it is due."""

from __future__ import annotations

from models.base.money import format_brl, format_decimal_br, format_factor
from models.rules.describe.rules import rule_facts
from models.rules.describe.text import (
    Fact,
    amount,
    cap,
    date,
    days,
    fact,
    join_words,
    metres,
    months,
    notes,
    number,
    percent,
)
from models.rules.describe.words import FEE_KINDS, PER, SANCTIONS
from models.rules.fees.formula import bounds_span
from models.rules.fees.needs import fee_needs
from models.rules.formulas.evaluate import shown
from models.rules.formulas.syntax import parse
from models.rules.regimes import Regime
from models.rules.regimes.model import Condition, Due, EnergyTier, Fee, Venue
from models.rules.regimes.model.fees import SETTERS, DecisionTable

# --------------------------------------------------------------------------- fees


def condition(when: Condition, regime: Regime) -> str:
    """When a discount applies, every part of it."""
    parts = []
    if when.mei is True:
        parts.append("MEI")
    elif when.mei is False:
        parts.append("não MEI")
    if when.local is True:
        parts.append("do município")
    elif when.local is False:
        parts.append("de fora do município")
    if when.equipment:
        parts.append("equipamento: " + join_words([_equipment_label(regime, e).lower() for e in when.equipment], "ou"))
    if when.lines:
        parts.append("ramo: " + join_words([_line_label(regime, x) for x in when.lines], "ou"))
    if when.max_depth is not None:
        parts.append(f"profundidade até {metres(when.max_depth)}")
    if when.max_metres is not None:
        parts.append(f"até {metres(when.max_metres)} lineares")
    return ", ".join(parts)


def _equipment_label(regime: Regime, ident: str) -> str:
    try:
        return regime.equipment(ident).label
    except Exception:  # an id the act no longer has: shown as it is
        return ident


def _line_label(regime: Regime, ident: str) -> str:
    try:
        return regime.line(ident).label
    except Exception:  # an id the act no longer has: shown as it is
        return ident


def tier_condition(tier: EnergyTier, regime: Regime) -> str:
    parts = []
    if tier.equipment:
        parts.append(join_words([_equipment_label(regime, e).lower() for e in tier.equipment], "ou"))
    if tier.max_metres is not None:
        parts.append(f"até {metres(tier.max_metres)} lineares")
    if tier.max_depth is not None:
        parts.append(f"profundidade máxima de {metres(tier.max_depth)}")
    return ", ".join(parts)


def fee_kind(regime: Regime, fee: Fee) -> str:
    """What kind of charge a fee is — never "valor fixo" for a value the act leaves open (its whole value left to
    the Administration, whatever its wording: ``fee_needs(…).administration``)."""
    needs = fee_needs(regime, fee)
    if needs.administration is not None:
        per = f", {PER.get(needs.per, needs.per)}" if needs.per else ""
        return (
            "valor definido pela Administração"
            + (per or "; o ato não fixa a periodicidade")
            + " (o servidor o informa antes do cálculo)"
        )
    return FEE_KINDS.get(fee.kind, fee.kind)


def due(item: Due) -> str:
    """When a fee is paid: "antecipadamente, até o dia 20 de cada mês" (SJC art. 11, § 5º)."""
    if item.date is not None:
        return f"até {date(item.date)}"
    if item.day_of_month is not None:
        advance = getattr(item, "in_advance", None)
        if advance is None:
            advance = "antecipad" in notes(item).lower()
        return f"{'antecipadamente, ' if advance else ''}até o dia {item.day_of_month} de cada mês"
    if item.days_after_issue is not None:
        return f"em até {days(item.days_after_issue)} após a emissão da guia"
    return "—"


def act_word(kind: str, word: str | None = None) -> str:
    """The act's own word for a sanction kind as the file declares it (``word``: "revogação"), else the label."""
    return word or SANCTIONS.get(kind, kind)


def choice_values(table: DecisionTable, ident: str) -> str:
    """An option's value(s) in a table of choices: ``100 UFESP/dia`` or, with columns, each column's
    (``Taxa por 1 dia: 100 UFESP/dia; …``)."""
    row = next(r for r in table.rows if r.id == ident)
    if not table.columns:
        return f"{format_factor(row.value or 0)} {table.unit}".strip()
    values = dict(row.values)
    return "; ".join(f"{c.label}: {format_factor(values[c.name])} {c.unit}".strip() for c in table.columns)


def venue(item: Venue) -> str:
    text = (
        f"menos de {days(item.min_days)}: {amount(item.one_day)} por dia; "
        f"a partir de {days(item.min_days)}: {amount(item.per_day)} por dia"
    )
    if item.deposit is not None:
        text += f"; caução (restituível) de {amount(item.deposit)}"
    return text


def _written(text: str) -> str:
    """A formula of the file as a person reads it (``×``, ``−``, ``máx``), its names as the file names them."""
    return shown(parse(text), lambda node: node.name, None, format_factor)


def _formula_facts(regime: Regime, fee: Fee) -> list[Fact]:
    """A formula fee: its rule, each term and table row, each value it asks for, its exceptions in order."""
    assert fee.formula is not None, "the loader requires it of a formula fee"
    out = [fact(regime, f"Regra geral: {_written(fee.formula)}", fee)]
    money = regime.currency  # a unit in money is the act's: "1.500,00 CR$/exercicio"
    for term in fee.terms:
        unit = term.unit.replace("R$", money) if term.unit else ""
        value = _written(term.formula) if term.formula else f"{format_factor(term.value or 0)} {unit}".strip()
        out.append(fact(regime, f"{term.name} ({term.label or 'termo'}) = {value}", term))
    for table in fee.tables:
        if table.choice is not None:  # the act's list of options, each with its value(s)
            for row in table.rows:
                said = choice_values(table, row.id or "")
                option = f"--{table.choice}"
                out.append(fact(regime, f"{table.label}: {row.label} → {said}", row, ident=row.id or "", option=option))
            continue
        for row in table.rows:
            case = _written(row.when) if row.when else "demais casos"
            unit = table.unit.replace("R$", money) if table.unit else ""
            out.append(fact(regime, f"{table.label}: {case} → {format_factor(row.value or 0)} {unit}".strip(), row))
    for item in fee.inputs:
        out.append(
            fact(
                regime,
                f"{item.label}: valor que {SETTERS.get(item.set_by, item.set_by)}, {bounds_span(item)}",
                item,
                ident=item.name,
                option="--input",
            )
        )
    for n, exc in enumerate(fee.exceptions, start=1):
        out.append(
            fact(regime, f"Exceção {n} — {exc.label}: quando {_written(exc.when)}, {_written(exc.formula)}", exc)
        )
    return out


def fee_facts(regime: Regime, fee: Fee) -> list[Fact]:
    """A fee in words: its kind, formula, minimums, discounts and tiers with their conditions, due date,
    correction and arrears — each with its article."""
    if fee.kind in ("fixed", "per-day") and fee.amount is not None:
        per = f" {PER.get(fee.per, fee.per)}" if fee.per else (" por dia" if fee.kind == "per-day" else "")
        head = f"{'Valor fixo: ' if fee.kind == 'fixed' else ''}{amount(fee.amount, regime.currency)}{per}"
    else:
        head = cap(fee_kind(regime, fee))
    out = [fact(regime, head, fee)]
    rules = rule_facts(regime, fee)
    if rules:
        out.append(Fact(text="A regra, como o ato a diz", details=tuple(rules)))
    if fee.kind == "linear-metre":
        assert fee.coefficient is not None, "the loader requires it of a linear-metre fee"
        formula = f"V = {format_decimal_br(fee.coefficient, 2)} × {fee.unit} × ML × (1 − D)"
        if fee.year:
            formula += f", com a {fee.unit} de {fee.year}"
        out.append(Fact(text=formula))
        if fee.min_metres is not None:
            out.append(
                Fact(
                    text=f"Mínimo de {metres(fee.min_metres)} por unidade",
                    cite=regime.cite(fee.min_metres_basis) if fee.min_metres_basis else regime.cite_item(fee),
                )
            )
        if fee.hitch_counts:
            out.append(
                Fact(
                    text="O engate conta na metragem",
                    cite=regime.cite(fee.hitch_basis) if fee.hitch_basis else regime.cite_item(fee),
                )
            )
        for d in fee.discounts:
            when = condition(d.when, regime)
            out.append(
                fact(
                    regime,
                    f"D = {percent(d.rate)}: {d.label}" + (f" (condição: {when})" if when else ""),
                    d,
                    ident=d.id,
                )
            )
    elif fee.kind == "energy":
        for tier in fee.tiers:
            value = f" = {format_brl(tier.expected, currency=regime.currency)}" if tier.expected is not None else ""
            when = tier_condition(tier, regime)
            out.append(
                fact(
                    regime,
                    f"{tier.label}: {number(tier.factor)} × {fee.unit}{value}" + (f" — para {when}" if when else ""),
                    tier,
                    ident=tier.id,
                    option="--energy",
                )
            )
    elif fee.kind == "per-area-month":
        area = {
            "line": " (área do ramo: frente × profundidade)",
            "declared": " (área declarada)",
            "used": " (área utilizada: frente × profundidade, até o tamanho máximo do ramo)",
        }.get(fee.area or "", "")
        out.append(Fact(text=f"{amount(fee.rate, regime.currency)} por m² ao mês{area}"))
        if fee.index:
            index = regime.index(fee.index)
            out.append(
                fact(
                    regime,
                    f"Corrigido anualmente pelo {index.code} ({index.name}), a partir dos valores de {index.base_year}",
                    index,
                )
            )
    elif fee.kind == "formula" and fee_needs(regime, fee).administration is None:
        # (a value the Administration sets is typed by the fee's id: its rule in words above says it all)
        out.extend(_formula_facts(regime, fee))
    elif fee.kind == "venue-table":
        for v in fee.venues:
            out.append(fact(regime, f"{v.label}: {venue(v)}", v, ident=v.id, option="--venue"))
    if fee.due is not None:
        out.append(fact(regime, f"Pagamento: {due(fee.due)}", fee.due))
    for e in fee.exemptions:
        waived = " e ".join({"fee": "taxa", "deposit": "caução"}[w] for w in e.waives)
        proof = f"; comprovação: documento {e.document}" if e.document else ""
        out.append(fact(regime, f"Dispensa ({waived}): {e.label}{proof}", e, ident=e.id, option="--exemption"))
    if fee.reading:
        out.append(Fact(text=f"Leitura adotada: {fee.reading}", cite=regime.cite_item(fee)))
    if fee.arrears is not None:
        a = fee.arrears
        word = act_word(a.sanction, getattr(a, "word", None))
        out.append(fact(regime, f"{months(a.months)}{' consecutivos' if a.consecutive else ''} sem pagar: {word}", a))
    return out
