"""The act's worked cases (``[[cases]]``) in words: what each case gives and what it must come out as, in the act's
money — for the regime sheet and ``praca regimes --show`` (``praca regimes check`` computes them)."""

from __future__ import annotations

from models.base.money import format_brl
from models.rules.describe.words import SANCTIONS
from models.rules.regimes.model.cases import Case

#: where a case comes from, in words
CASE_SOURCE_WORDS = {"act": "exemplo ou linha de tabela do ato", "reading": "lido do texto"}
CASE_KIND_WORDS = {"quote": "preço", "penalty": "penalidade", "deadline": "prazo", "score": "pontuação"}


def case_expectation(case: Case, currency: str = "R$") -> str:
    """ "total R$ 591,67; linha occupation R$ 591,67" — what the case expects, in the act's money."""
    e = case.expect
    if e.refused is not None:
        return f"recusado («{e.refused}»)"

    def money(value: object) -> str:
        return format_brl(str(value), currency=currency)

    parts: list[str] = []
    if e.total is not None:
        parts.append(f"{'total' if case.kind == 'quote' else 'multas impostas'} {money(e.total)}")
    if e.charges is not None:
        parts.append(f"preços e taxas {money(e.charges)}")
    if e.deposits is not None:
        parts.append(f"cauções {money(e.deposits)}")
    parts.extend(f"linha [{fee}] {money(amount)}" for fee, amount in e.lines)
    if e.proposed is not None:
        parts.append(f"multas propostas {money(e.proposed)}")
    if e.sanctions:
        parts.append("sanções: " + ", ".join(SANCTIONS.get(k, k) for k in e.sanctions))
    if e.step is not None:
        parts.append(f"degrau {e.step}")
    if e.days is not None:
        parts.append(f"{e.days} dias")
    if e.until is not None:
        parts.append(f"até {e.until:%d/%m/%Y}")
    if e.due is not None:
        parts.append(f"termina em {e.due:%d/%m/%Y %H:%M}" if hasattr(e.due, "hour") else f"termina em {e.due:%d/%m/%Y}")
    if e.extended is not None:
        parts.append("prorrogado ao dia útil seguinte" if e.extended else "sem prorrogação")
    if e.points is not None:
        parts.append(f"{e.points} pontos")
    return "; ".join(parts)


def case_line(case: Case, currency: str = "R$") -> str:
    """One case in one line: its label, what it is and where it comes from, what it expects."""
    what = CASE_KIND_WORDS.get(case.kind, case.kind)
    source = CASE_SOURCE_WORDS.get(case.source, case.source)
    return f"{case.label} ({what}, {case.date:%d/%m/%Y}; {source}) — espera {case_expectation(case, currency)}"
