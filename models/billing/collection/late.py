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
from models.base.errors import FieldErrors
from models.base.money import format_brl
from models.store.db import db
from models.store.settings import get_setting, write_setting

FINE = "late_fine_percent"
INTEREST = "late_interest_percent_month"
SOURCE = "late_source"
DUE_DAYS = "late_new_due_days"
DEBT_TERM = "debt_term_days"  # days after the due date before a charge goes to dívida ativa ("" = not set)
CENT = Decimal("0.01")


@dataclass(frozen=True)
class LateRules:
    fine_percent: Decimal
    interest_percent: Decimal
    source: str
    due_days: int
    debt_term: int | None = None

    @property
    def configured(self) -> bool:
        return bool(self.source) and (self.fine_percent > 0 or self.interest_percent > 0)

    def as_dict(self) -> dict[str, object]:
        return {
            "fine_percent": f"{self.fine_percent}",
            "interest_percent_month": f"{self.interest_percent}",
            "source": self.source,
            "new_due_days": self.due_days,
            "debt_term_days": self.debt_term,
            "configured": self.configured,
        }


@dataclass(frozen=True)
class Late:
    months: int
    fine: Decimal
    interest: Decimal
    formula: str
    basis: str

    @property
    def total(self) -> Decimal:
        return self.fine + self.interest


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
    )


def set_late_rules(
    *, fine_percent: str, interest_percent: str, source: str, due_days: str = "5", debt_term: str = ""
) -> LateRules:
    """Check and store the rules (one transaction); :class:`FieldErrors` naming each wrong field."""
    require("settings.edit")
    values = check_late_rules(
        fine_percent=fine_percent,
        interest_percent=interest_percent,
        source=source,
        due_days=due_days,
        debt_term=debt_term,
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
    *, fine_percent: str, interest_percent: str, source: str, due_days: str = "5", debt_term: str = ""
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
    if errors:
        raise FieldErrors(errors)
    return {
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


def late_charge(amount: Decimal, due_on: _dt.date, on: _dt.date, rules: LateRules) -> Late | None:
    """The multa and juros on ``amount`` due on ``due_on``, paid (or recomputed) on ``on``; ``None`` when not late
    or when the town set no rule."""
    months = months_late(due_on, on)
    if months == 0 or not rules.configured:
        return None
    fine = (amount * rules.fine_percent / 100).quantize(CENT, ROUND_HALF_UP)
    interest = (amount * rules.interest_percent / 100 * months).quantize(CENT, ROUND_HALF_UP)
    pct = lambda d: f"{d.normalize():f}".replace(".", ",")  # noqa: E731 - a local formatter
    formula = (
        f"multa {pct(rules.fine_percent)}% × {format_brl(amount)} = {format_brl(fine)}; "
        f"juros {pct(rules.interest_percent)}% ao mês × {months} mês(es) × {format_brl(amount)} = "
        f"{format_brl(interest)}"
    )
    return Late(months, fine, interest, formula, rules.source)
