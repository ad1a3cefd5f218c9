"""Late payment as the town's tax code says (issue 30 §3): multa and juros de mora of an overdue charge.

The rates and their source are the municipality's settings (Cadastros → Arrecadação, ``praca collection late``),
never code: the multa de mora (a percentage of the amount, once), the juros de mora (a percentage per month,
a month begun counting whole — the "por mês ou fração" of CTN art. 161, § 1º, the common reading of the towns'
codes), the article they come from, and how many days a second copy of a guia gives to pay. While no rule is set,
nothing is added and the guia says so.

A guia issued for a charge past its due date carries the additions as an accessory charge (kind ``late``) with
its formula and basis, due on the new date; the bank paying an old guia after its due date leaves the additions
owed as such a charge, named in the import.
"""

from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation

from models.access.session import require
from models.base.errors import FieldErrors, UserError
from models.base.money import format_brl
from models.store.db import db
from models.store.settings import get_setting, write_setting

FINE = "late_fine_percent"
INTEREST = "late_interest_percent_month"
SOURCE = "late_source"
DUE_DAYS = "late_new_due_days"
DEBT_TERM = "debt_term_days"  # days after the due date before a charge goes to dívida ativa ("" = not set)
CORRECTION_INDEX = "late_correction_index"  # the price index the tax code corrects debts by ("" = none declared)
CORRECTION_SOURCE = "late_correction_source"  # the article that says so
CENT = Decimal("0.01")


class MissingIndex(UserError):  # noqa: N818 - a refusal named for what is missing, like Overpayment
    """The tax code corrects overdue debts by an index whose yearly correction was not entered for a year the
    debt crosses: Praça never invents one (Cadastros → Correção monetária)."""


@dataclass(frozen=True)
class LateRules:
    fine_percent: Decimal
    interest_percent: Decimal
    source: str
    due_days: int
    debt_term: int | None = None
    correction_index: str = ""
    correction_source: str = ""

    @property
    def configured(self) -> bool:
        """Multa or juros de mora declared, with their source."""
        return bool(self.source) and (self.fine_percent > 0 or self.interest_percent > 0)

    @property
    def correcting(self) -> bool:
        """Monetary correction declared: the index and the article that orders it."""
        return bool(self.correction_index) and bool(self.correction_source)

    @property
    def applies(self) -> bool:
        return self.configured or self.correcting

    def as_dict(self) -> dict[str, object]:
        return {
            "fine_percent": f"{self.fine_percent}",
            "interest_percent_month": f"{self.interest_percent}",
            "source": self.source,
            "new_due_days": self.due_days,
            "debt_term_days": self.debt_term,
            "configured": self.configured,
            "correction_index": self.correction_index,
            "correction_source": self.correction_source,
        }


@dataclass(frozen=True)
class Correction:
    """The monetary correction of an overdue amount: the index's yearly corrections between the due year and the
    year it is paid (or computed) in, accumulated (:func:`models.billing.fiscal.index_factor`)."""

    index: str
    factor: Decimal
    amount: Decimal  # what the correction adds (corrected − original), rounded to the cent half-up
    corrected: Decimal
    formula: str
    basis: str


@dataclass(frozen=True)
class Late:
    months: int
    fine: Decimal
    interest: Decimal
    formula: str
    basis: str
    correction: Decimal = Decimal("0.00")

    @property
    def total(self) -> Decimal:
        return self.correction + self.fine + self.interest

    @property
    def what(self) -> str:
        """The accessory charge's name: what it adds."""
        return "Correção monetária, multa e juros de mora" if self.correction else "Multa e juros de mora"


def _percent(text: str) -> Decimal:
    try:
        return Decimal((text or "0").replace(",", "."))
    except InvalidOperation:
        return Decimal("0")


def get_late_rules() -> LateRules:
    days = get_setting(DUE_DAYS)
    return LateRules(
        fine_percent=_percent(get_setting(FINE)),
        interest_percent=_percent(get_setting(INTEREST)),
        source=get_setting(SOURCE),
        due_days=int(days) if days.isdigit() else 5,
        debt_term=int(get_setting(DEBT_TERM)) if get_setting(DEBT_TERM).isdigit() else None,
        correction_index=get_setting(CORRECTION_INDEX),
        correction_source=get_setting(CORRECTION_SOURCE),
    )


def set_late_rules(
    *,
    fine_percent: str,
    interest_percent: str,
    source: str,
    due_days: str = "5",
    debt_term: str = "",
    correction_index: str = "",
    correction_source: str = "",
) -> LateRules:
    """Check and store the rules (one transaction); :class:`FieldErrors` naming each wrong field."""
    require("settings.edit")
    values = check_late_rules(
        fine_percent=fine_percent,
        interest_percent=interest_percent,
        source=source,
        due_days=due_days,
        debt_term=debt_term,
        correction_index=correction_index,
        correction_source=correction_source,
    )
    with db.atomic():
        for key, value in values.items():
            write_setting(key, value)
    return get_late_rules()


def save_collection_settings(agreement: dict[str, str], late: dict[str, str]) -> LateRules:
    """Cadastros → Arrecadação: the agreement and the late-payment rules checked together and written in one
    transaction — a wrong field anywhere stores nothing."""
    from models.billing.collection.agreement import check_agreement

    require("settings.edit")
    errors: dict[str, str] = {}
    values: dict[str, str] = {}
    for check, fields in ((check_agreement, agreement), (check_late_rules, late)):
        try:
            values.update(check(**fields))
        except FieldErrors as exc:
            errors.update(exc.errors)
    if errors:
        raise FieldErrors(errors)
    with db.atomic():
        for key, value in values.items():
            write_setting(key, value)
    return get_late_rules()


def check_late_rules(
    *,
    fine_percent: str,
    interest_percent: str,
    source: str,
    due_days: str = "5",
    debt_term: str = "",
    correction_index: str = "",
    correction_source: str = "",
) -> dict[str, str]:
    """The rules as settings to write; :class:`FieldErrors` naming each wrong field."""
    errors: dict[str, str] = {}
    values: dict[str, Decimal] = {}
    for key, raw, what, top in (
        ("fine_percent", fine_percent, "a multa de mora", Decimal("100")),
        ("interest_percent", interest_percent, "os juros de mora ao mês", Decimal("100")),
    ):
        text = (raw or "").strip().replace(",", ".")
        try:
            value = Decimal(text or "0")
        except InvalidOperation:
            errors[key] = f"Percentual inválido para {what}: {raw!r} (use, por exemplo, 2 ou 0,33)."
            continue
        if not value.is_finite() or value < 0 or value > top:
            errors[key] = f"Percentual fora de 0 a {top} para {what}: {raw}."
            continue
        values[key] = value
    source = " ".join((source or "").split())
    if not source and any(values.get(k, Decimal(0)) > 0 for k in ("fine_percent", "interest_percent")):
        errors["source"] = "Informe a fonte: o artigo do código tributário do município que fixa a multa e os juros."
    days = (due_days or "").strip()
    if not (days.isdigit() and 1 <= int(days) <= 90):
        errors["due_days"] = f"Prazo da segunda via inválido: {due_days!r} (de 1 a 90 dias)."
    term = (debt_term or "").strip()
    if term and not (term.isdigit() and int(term) <= 3650):
        errors["debt_term"] = (
            f"Prazo para inscrição em dívida ativa inválido: {debt_term!r} (dias depois do vencimento)."
        )
    index = (correction_index or "").strip().upper()
    basis = " ".join((correction_source or "").split())
    if index and not (len(index) <= 16 and all(c.isalnum() or c in "-/" for c in index)):
        errors["correction_index"] = f"Índice inválido: {correction_index!r} (o código do índice, como INPC ou IPCA-E)."
    elif basis and not index:
        errors["correction_index"] = "Informe o índice da correção monetária (como INPC ou IPCA-E)."
    elif index and not basis:
        errors["correction_source"] = (
            "Informe a fonte da correção monetária: o artigo do código tributário do município que a manda aplicar."
        )
    if errors:
        raise FieldErrors(errors)
    return {
        CORRECTION_INDEX: index,
        CORRECTION_SOURCE: basis,
        FINE: f"{values['fine_percent'].normalize():f}",
        INTEREST: f"{values['interest_percent'].normalize():f}",
        SOURCE: source,
        DUE_DAYS: days,
        DEBT_TERM: str(int(term)) if term else "",
    }


def months_late(due_on: _dt.date, on: _dt.date) -> int:
    """Months of delay from ``due_on`` to ``on``, a month begun counting whole (0 when not late)."""
    if on <= due_on:
        return 0
    months = (on.year - due_on.year) * 12 + on.month - due_on.month
    if on.day > due_on.day:
        months += 1
    return max(months, 1)


def monetary_correction(amount: Decimal, due_on: _dt.date, on: _dt.date, rules: LateRules) -> Correction | None:
    """The monetary correction of ``amount`` due on ``due_on`` up to ``on``, as the town's tax code declares it
    (the index and its source, :class:`LateRules`): the index's yearly corrections entered in Cadastros → Correção
    monetária for each year after the due year up to ``on``'s year, accumulated — an annual index, the way the
    towns' codes correct by their UFM or a yearly index. ``None`` when no correction is declared or the debt is not
    late; :class:`MissingIndex` when a year it crosses has no correction entered (never invented)."""
    from models.billing.fiscal import index_factor

    if not rules.correcting or on <= due_on:
        return None
    found = index_factor(rules.correction_index, due_on.year, on.year)
    if found.missing:
        years = ", ".join(str(y) for y in found.missing)
        raise MissingIndex(
            f"Falta a correção do {found.index} de {years} (Cadastros → Correção monetária): a correção monetária "
            f"que {rules.correction_source} manda aplicar não pode ser calculada; nada foi gravado."
        )
    corrected = (amount * found.factor).quantize(CENT, ROUND_HALF_UP)
    if on.year == due_on.year:
        formula = (
            f"correção monetária ({found.index}, anual): vencimento e data no mesmo ano ({on.year}), nada a corrigir"
        )
    else:
        factor = f"{found.factor.quantize(Decimal('0.000001'), ROUND_HALF_UP)}".replace(".", ",")
        formula = (
            f"correção monetária ({found.index} de {due_on.year + 1} a {on.year}): {format_brl(amount)} × "
            f"{found.formula} = {format_brl(amount)} × {factor} = {format_brl(corrected)} "
            f"(+ {format_brl(corrected - amount)})"
        )
    return Correction(found.index, found.factor, corrected - amount, corrected, formula, rules.correction_source)


def late_charge(amount: Decimal, due_on: _dt.date, on: _dt.date, rules: LateRules) -> Late | None:
    """The monetary correction, multa and juros on ``amount`` due on ``due_on``, paid (or recomputed) on ``on``;
    ``None`` when not late or when the town declared no rule. The multa and juros are computed on the corrected
    amount (the formula says so) — the amount owed on ``on`` is the corrected one."""
    months = months_late(due_on, on)
    if months == 0 or not rules.applies:
        return None
    correction = monetary_correction(amount, due_on, on, rules)
    base = correction.corrected if correction is not None else amount
    parts, bases = [], []
    if correction is not None:
        parts.append(correction.formula)
        bases.append(f"correção monetária: {correction.basis}")
    fine = interest = Decimal("0.00")
    if rules.configured:
        fine = (base * rules.fine_percent / 100).quantize(CENT, ROUND_HALF_UP)
        interest = (base * rules.interest_percent / 100 * months).quantize(CENT, ROUND_HALF_UP)
        pct = lambda d: f"{d.normalize():f}".replace(".", ",")  # noqa: E731 - a local formatter
        on_what = f"{format_brl(base)}{' (corrigido)' if correction is not None else ''}"
        parts.append(
            f"multa {pct(rules.fine_percent)}% × {on_what} = {format_brl(fine)}; "
            f"juros {pct(rules.interest_percent)}% ao mês × {months} mês(es) × {on_what} = {format_brl(interest)}"
        )
        bases.insert(0, rules.source if correction is None else f"multa e juros: {rules.source}")
    return Late(
        months,
        fine,
        interest,
        "; ".join(parts),
        "; ".join(bases),
        correction.amount if correction is not None else Decimal("0.00"),
    )
