"""The act's worked cases (``[[cases]]``) run: each through the engine the command line uses — ``praca quote``,
``praca penalty``, ``praca deadline`` —, with its inputs read as those commands read them, and compared with
what the case expects. ``praca regimes check`` reports each failure with the file's other mistakes, at the
case's id path (``cases.sb-trailer.expect.total``) and its line, expected against computed.

A case computes from the file alone: the fiscal-unit values the file declares (never a clerk's), the state's and
the nation's holidays and those the case lists (never the town's calendar kept in a database), and the year of
its values is the case's ``inputs.year``, else the year of its ``date``.
"""

from __future__ import annotations

import datetime as dt
import shlex
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from models.base.errors import UserError
from models.base.money import format_brl, parse_typed
from models.enforcement.penalty_inputs import check_codes, parse_prior, parse_prior_dates
from models.enforcement.sanctions import PriorOffence, propose_sanction
from models.rules.deadlines import HolidayCalendar, check_kind, compute_deadline, parse_moment
from models.rules.fees import fee_quote
from models.rules.fees.typed import parse_asked, quote_inputs
from models.rules.regimes import Regime, RegimeError, check_in_force
from models.rules.regimes.loader import checked_regime_text
from models.rules.regimes.locate import key_lines, line_of
from models.rules.regimes.locate import located as _located
from models.rules.regimes.model.cases import Case, CaseInput
from models.selection import Participant, score_participant

#: a case's input name (the command line's option) → the fee engine's keyword, where they differ
_QUOTE_NAMES = {
    "permit-kind": "permit_kind",
    "fee": "fees",
    "admin-value": "admin_values",
    "input": "asked",
    "feira-days": "feira_days",
    "fiscal-years": "fiscal_years",
}


@dataclass(frozen=True)
class Mismatch:
    """One figure of a case that did not come out as expected."""

    key: str  # within the case: "expect.total", "expect.lines.occupation", "inputs.front"; "": the case itself
    what: str  # pt-BR: "total", "linha occupation"
    expected: str
    got: str


@dataclass(frozen=True)
class CaseOutcome:
    case: Case
    #: what the engine computed, as text (figure → value), or its refusal
    got: tuple[tuple[str, str], ...]
    mismatches: tuple[Mismatch, ...]

    @property
    def passed(self) -> bool:
        return not self.mismatches

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.case.id,
            "label": self.case.label,
            "kind": self.case.kind,
            "article": self.case.basis,
            "date": self.case.date.isoformat(),
            "source": self.case.source,
            "passed": self.passed,
            "got": dict(self.got),
            "mismatches": [
                {"key": m.key, "what": m.what, "expected": m.expected, "got": m.got} for m in self.mismatches
            ],
        }


# --------------------------------------------------------------------------- running one case


def _money(value: Decimal, currency: str) -> str:
    return format_brl(value, currency=currency)


def _moment_text(value: dt.date | dt.datetime) -> str:
    return f"{value:%d/%m/%Y %H:%M}" if isinstance(value, dt.datetime) else f"{value:%d/%m/%Y}"


def _pairs(value: CaseInput | None) -> list[tuple[str, str]]:
    """A table input (``admin-value``, ``unit-value``) as its (name, typed value) pairs."""
    if not isinstance(value, tuple):
        return []
    return [item for item in value if isinstance(item, tuple)]


def _typed(case: Case) -> dict[str, Any]:
    typed: dict[str, Any] = {}
    for name, value in case.inputs:
        key = _QUOTE_NAMES.get(name, name)
        if name in ("admin-value", "input"):  # as --admin-value TAXA=VALOR, --input NOME=VALOR
            typed[key] = [f"{ident}={amount}" for ident, amount in _pairs(value)]
        elif name == "fee":
            typed[key] = list(value) if isinstance(value, tuple) else [value]
        else:
            typed[key] = value
    return typed


def _unit_values(case: Case, year: int) -> dict[tuple[str, int], Decimal] | None:
    """``unit-value = { UFS = "100,00" }``: a fiscal unit's value in the case's year, as the clerk enters it
    (``praca units set``) where the act does not give it."""
    given = _pairs(case.input("unit-value"))
    if not given:
        return None
    return {(code, year): parse_typed(value, what=f"unit-value {code}", field="unit-value") for code, value in given}


def _quote(regime: Regime, case: Case) -> dict[str, Any]:
    typed = _typed(case)
    typed.pop("unit-value", None)
    inputs = quote_inputs(typed)
    inputs.setdefault("year", case.date.year)
    result = fee_quote(regime, unit_overrides=_unit_values(case, inputs["year"]), **inputs)
    lines: dict[str, Decimal] = {}
    for line in result.lines:
        if line.fee:
            lines[line.fee] = lines.get(line.fee, Decimal("0.00")) + line.amount
    return {
        "total": result.total,
        "charges": result.total_charges,
        "deposits": result.total_deposits,
        "lines": lines,
    }


def _penalty(regime: Regime, case: Case) -> dict[str, Any]:
    codes = check_codes(regime, _strings(case.input("infraction")))
    dates = _strings(case.input("prior-date"))
    prior: int | list[PriorOffence] = (
        parse_prior_dates(dates, codes, regime) if dates else parse_prior(_whole(case.input("prior"), 0))
    )
    given = case.input("year")
    year = given if isinstance(given, int) and not isinstance(given, bool) else case.date.year
    asked = parse_asked(f"{name}={value}" for name, value in _pairs(case.input("input")))
    proposal = propose_sanction(
        regime, codes, on=case.date, prior=prior, year=year, unit_values=_unit_values(case, year), asked=asked
    )
    days = next((s.days for s in proposal.sanctions if s.days is not None), None)
    until = next((s.until for s in proposal.sanctions if s.until is not None), None)
    return {
        "total": proposal.total,
        "proposed": proposal.total_proposed,
        "sanctions": tuple(s.kind for s in proposal.sanctions),
        "step": proposal.items[0].step if proposal.items else None,
        "days": days,
        "until": until,
    }


def _deadline(regime: Regime, case: Case) -> dict[str, Any]:
    kind_input = case.input("kind")
    kind = check_kind(regime, kind_input if isinstance(kind_input, str) else None)
    start = case.input("from")
    assert isinstance(start, dt.date), "the loader reads a date or a date and time"
    holidays = {}
    for text in _strings(case.input("holiday")):
        day = parse_moment(text, what="Feriado do caso")
        holidays[day if not isinstance(day, dt.datetime) else day.date()] = "feriado municipal (informado no caso)"
    # the state's and the nation's holidays and the case's own: never a town's calendar kept in a database
    calendar = HolidayCalendar(regime.state, holidays)
    result = compute_deadline(regime, kind, start, calendar=calendar)
    return {"due": result.due, "extended": result.extended}


def _strings(value: CaseInput | None) -> list[str]:
    if value is None:
        return []
    if isinstance(value, tuple):
        return [str(v) for v in value]
    return [str(value)]


def _whole(value: CaseInput | None, default: int) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else default


def _score(regime: Regime, case: Case) -> dict[str, Any]:
    """The socio-economic score of an applicant with the case's facts (the desk's: ``score_participant``)."""
    facts: dict[str, Any] = {}
    for name, value in case.inputs:
        if name in ("family_income_mw", "residence_years"):
            facts[name] = parse_typed(str(value), what=name, field=name)
        else:
            facts[name] = value
    applicant = Participant(id="caso", name=case.label, **facts)
    return {"points": score_participant(regime, applicant, on=case.date).total}


_RUNNERS = {"quote": _quote, "penalty": _penalty, "deadline": _deadline, "score": _score}


def _compare(case: Case, got: Mapping[str, Any], currency: str) -> list[Mismatch]:
    e = case.expect
    out: list[Mismatch] = []

    def money(name: str, what: str, expected: Decimal | None) -> None:
        if expected is not None and got.get(name) != expected:
            value = got.get(name)
            out.append(
                Mismatch(
                    f"expect.{name}",
                    what,
                    _money(expected, currency),
                    _money(value, currency) if value is not None else "nada",
                )
            )

    money("total", "total" if case.kind == "quote" else "multas impostas", e.total)
    money("charges", "preços e taxas", e.charges)
    money("deposits", "cauções", e.deposits)
    money("proposed", "multas propostas", e.proposed)
    lines = got.get("lines", {})
    for fee, amount in e.lines:
        if lines.get(fee) != amount:
            computed = _money(lines[fee], currency) if fee in lines else "nenhuma linha deste preço/taxa"
            out.append(Mismatch(f"expect.lines.{fee}", f"linha {fee}", _money(amount, currency), computed))
    if e.sanctions and tuple(got.get("sanctions", ())) != e.sanctions:
        out.append(
            Mismatch(
                "expect.sanctions", "sanções", ", ".join(e.sanctions), ", ".join(got.get("sanctions", ())) or "nenhuma"
            )
        )
    for name, what in (("step", "degrau da gradação"), ("days", "dias"), ("points", "pontos")):
        expected = getattr(e, name)
        if expected is not None and got.get(name) != expected:
            out.append(Mismatch(f"expect.{name}", what, str(expected), str(got.get(name))))
    if e.until is not None and got.get("until") != e.until:
        value = got.get("until")
        out.append(Mismatch("expect.until", "até", _moment_text(e.until), _moment_text(value) if value else "nada"))
    if e.due is not None and (type(got.get("due")) is not type(e.due) or got.get("due") != e.due):
        value = got.get("due")
        out.append(
            Mismatch("expect.due", "fim do prazo", _moment_text(e.due), _moment_text(value) if value else "nada")
        )
    if e.extended is not None and got.get("extended") != e.extended:
        out.append(
            Mismatch(
                "expect.extended",
                "prorrogado para o dia útil seguinte",
                "sim" if e.extended else "não",
                "sim" if got.get("extended") else "não",
            )
        )
    return out


def _got_text(got: Mapping[str, Any], currency: str) -> tuple[tuple[str, str], ...]:
    out: list[tuple[str, str]] = []
    for name, value in got.items():
        if value is None:
            continue
        if isinstance(value, Decimal):
            out.append((name, _money(value, currency)))
        elif isinstance(value, dict):
            out.extend((f"{name}.{k}", _money(v, currency)) for k, v in value.items())
        elif isinstance(value, tuple):
            out.append((name, ", ".join(value)))
        elif isinstance(value, bool):
            out.append((name, "sim" if value else "não"))
        elif isinstance(value, dt.date):
            out.append((name, _moment_text(value)))
        else:
            out.append((name, str(value)))
    return tuple(out)


_INPUT_FIELDS = {
    "admin_value": "admin-value",
    "admin_values": "admin-value",
    "permit_kind": "permit-kind",
    "start": "from",
    "infraction": "infraction",
}


def run_case(regime: Regime, case: Case) -> CaseOutcome:
    """``case`` computed by the engine of its kind, and compared with what it expects (amounts in the act's money)."""
    currency = regime.currency
    try:
        check_in_force(regime, case.date, what="A data do caso")
        got = _RUNNERS[case.kind](regime, case)
    except UserError as exc:
        refusal = exc.message
        if case.expect.refused is not None and case.expect.refused in refusal:
            return CaseOutcome(case, (("refused", refusal),), ())
        field = exc.field or ""
        field = _INPUT_FIELDS.get(field, _INPUT_FIELDS.get(field.split(".")[0], field))  # admin_values.<fee>
        # at the input the engine refused, else at the refusal expected, else at the case itself
        key = f"inputs.{field}" if field and case.input(field) is not None else "expect.refused"
        if case.expect.refused is None and key == "expect.refused":
            key = ""
        expected = f"recusa com «{case.expect.refused}»" if case.expect.refused is not None else "um resultado"
        return CaseOutcome(case, (("refused", refusal),), (Mismatch(key, "resultado", expected, f"recusa: {refusal}"),))
    if case.expect.refused is not None:
        computed = "; ".join(f"{k} {v}" for k, v in _got_text(got, currency))
        return CaseOutcome(
            case,
            _got_text(got, currency),
            (Mismatch("expect.refused", "resultado", f"recusa com «{case.expect.refused}»", f"calculou: {computed}"),),
        )
    return CaseOutcome(case, _got_text(got, currency), tuple(_compare(case, got, currency)))


def run_cases(regime: Regime) -> list[CaseOutcome]:
    """Every worked case of this version of ``regime``, in the file's order."""
    return [run_case(regime, case) for case in regime.cases if of_this_version(regime, case)]


def of_this_version(regime: Regime, case: Case) -> bool:
    """A case dated before an amendment applies is judged by the text before (the installed version it amends):
    the amended file keeps it, and it is not computed with the amended values."""
    return regime.amendment is None or case.date >= regime.amendment.in_force_from


# --------------------------------------------------------------------------- in the check of a file


def _reason(case: Case, mismatch: Mismatch) -> str:
    return (
        f"o caso «{case.label}» ({case.basis}) não confere — {mismatch.what}: "
        f"esperado {mismatch.expected}, calculado {mismatch.got}"
    )


def case_errors(
    regime: Regime, outcomes: list[CaseOutcome], file: str, data: Mapping[str, Any], text: str
) -> list[RegimeError]:
    """Each mismatch of ``outcomes`` as a mistake of the file: at ``cases.<id>.<key>`` and its line."""
    listed = data.get("cases") if isinstance(data.get("cases"), list) else []
    assert isinstance(listed, list)
    positions = {item.get("id"): i for i, item in enumerate(listed) if isinstance(item, dict)}
    errors = []
    for outcome in outcomes:
        where = positions.get(outcome.case.id)
        for mismatch in outcome.mismatches:
            key = f"cases[{where}]" if where is not None else f"cases.{outcome.case.id}"
            key += f".{mismatch.key}" if mismatch.key and where is not None else ""
            errors.append(RegimeError(_reason(outcome.case, mismatch), file=file, key=key))
    return _located(errors, dict(data), text)


@dataclass(frozen=True)
class ActCheck:
    """A regime file checked whole: its mistakes (the cases that do not confer among them, in the file's order),
    the regime as far as it reads, and each case's outcome."""

    errors: list[RegimeError]
    regime: Regime | None
    outcomes: list[CaseOutcome]


def check_act(text: str | bytes, file: str, *, expected_id: str | None = None) -> ActCheck:
    """Every mistake of a regime's text — structure, types, references, articles — and every worked case that does
    not come out as it expects, in one run. A case of an item the file has broken is not run (its mistake is
    the item's)."""
    regime, errors, data = checked_regime_text(text, file, expected_id=expected_id)
    if regime is None:
        return ActCheck(errors, None, [])
    decoded = text.decode("utf-8") if isinstance(text, bytes) else text
    broken = _tainted(data, _broken_names(errors))
    runnable = [case for case in regime.cases if not (_names(case) & broken) and of_this_version(regime, case)]
    outcomes = [run_case(regime, case) for case in runnable]
    found = errors + case_errors(regime, outcomes, file, data, decoded)
    lines = key_lines(decoded)
    found.sort(key=lambda e: e.line if e.line is not None else (line_of(e.key, lines) or 0))
    return ActCheck(found, regime, outcomes)


def _broken_names(errors: list[RegimeError]) -> set[str]:
    """The ids of the items with a mistake (``fees.taxa-licenca.kind`` → ``taxa-licenca``)."""
    out = set()
    for error in errors:
        parts = (error.key or "").split(".")
        if len(parts) >= 2 and parts[0] != "regime":
            out.add(parts[1].split("[")[0])
    return out


def _strings_in(value: Any) -> set[str]:
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return {s for v in value.values() for s in _strings_in(v)}
    if isinstance(value, list):
        return {s for v in value for s in _strings_in(v)}
    return set()


def _tainted(data: Mapping[str, Any], broken: set[str]) -> set[str]:
    """The broken items' ids, and those of the items that name one (an infraction of a broken ladder)."""
    if not broken:
        return broken
    out = set(broken)
    for name, items in data.items():
        if name == "cases" or not isinstance(items, list):
            continue
        for item in items:
            if isinstance(item, dict) and _strings_in(item) & broken:
                ident = item.get("id") or item.get("code")
                if isinstance(ident, str):
                    out.add(ident)
    return out


def _names(case: Case) -> set[str]:
    out: set[str] = set()
    for _, value in case.inputs:
        out.update(_strings(value) if isinstance(value, (str, tuple)) else ())
    for fee, _ in case.expect.lines:
        out.add(fee)
    return out


def command_line(regime: Regime, case: Case) -> str:
    """The command that computes ``case`` at the desk's command line (printed beside a case that fails); "" for a
    score, which the desk computes (Atendimento → Seleção)."""
    if case.kind == "score":
        return ""
    parts = ["praca", case.kind, "--regime", regime.id]
    for name, value in case.inputs:
        option = f"--{name}"
        if isinstance(value, bool):
            if value:
                parts.append(option)
        elif name == "unit-value":
            continue  # entered with  praca units set CODE YEAR VALUE
        elif name in ("admin-value", "input"):
            for fee, amount in _pairs(value):
                parts += [option, f"{fee}={amount}"]
        elif isinstance(value, tuple):
            for item in value:
                parts += [option, str(item)]
        elif isinstance(value, dt.datetime):
            parts += [option, f"{value:%Y-%m-%d %H:%M}"]
        elif isinstance(value, dt.date):
            parts += [option, value.isoformat()]
        else:
            parts += [option, str(value)]
    if case.kind != "deadline":
        parts += ["--date", f"{case.date:%d/%m/%Y}"]
        if case.input("year") is None:
            parts += ["--year", str(case.date.year)]
    return " ".join(shlex.quote(p) for p in parts)
