"""Parser of ``[[cases]]``: the act's worked cases, with their inputs as the command line takes them and what
they must come out as. The loader reads them; ``praca regimes check`` runs them (``models.services.act_cases``)."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from models.rules.regimes.model.cases import Case, CaseExpect, CaseInput
from models.rules.regimes.reader import Node, show, type_name
from models.rules.regimes.vocabulary import CASE_KINDS, CASE_SOURCES, DECIMAL_RE, ID_RE, SANCTION_KINDS

#: the inputs of each kind, as the options of ``praca quote``, ``praca penalty``, ``praca deadline`` (without "--")
_TEXT = {
    "quote": ("equipment", "line", "front", "depth", "hitch", "area", "energy", "venue", "exemption", "permit-kind"),
    "penalty": (),
    "deadline": ("kind",),
    # the applicant's facts, by the names the criteria read (``field``): measures as typed ("1,50")
    "score": ("housing", "family_income_mw", "residence_years"),
}
_FLAGS = {"quote": ("mei", "local"), "penalty": (), "deadline": (), "score": ("disabled",)}
_WHOLE = {
    "quote": ("days", "feira-days", "events", "months", "fiscal-years", "year"),
    "penalty": ("prior", "year"),
    "deadline": (),
    "score": ("age_years", "dependants_under_16", "experience_years"),
}
_LISTS = {"quote": ("fee",), "penalty": ("infraction", "prior-date"), "deadline": (), "score": ()}
#: what each kind's expectation may say (``refused`` goes with any kind, alone)
_EXPECT = {
    "quote": ("total", "charges", "deposits", "lines"),
    "penalty": ("total", "proposed", "sanctions", "step", "days", "until"),
    "deadline": ("due", "extended"),
    "score": ("points",),
}


def _moment(node: Node, name: str, value: object) -> dt.date | dt.datetime:
    """A TOML date, or a local date and time (a count in hours starts at an hour)."""
    if isinstance(value, dt.datetime):
        if value.tzinfo is not None:
            node.fail(name, "use data e hora locais, sem fuso horário")
        return value
    if isinstance(value, dt.date):
        return value
    node.fail(
        name,
        f"esperada uma data TOML (2026-03-20) ou data e hora (2026-03-20T18:00), veio {type_name(value)} {show(value)}",
    )


def _inputs(node: Node, kind: str) -> tuple[tuple[str, CaseInput], ...]:
    read: dict[str, CaseInput] = {}
    for name in _TEXT[kind]:
        text = node.text(name, required=kind == "deadline")
        if text is not None:
            read[name] = text
    for name in _FLAGS[kind]:
        flag = node.optional_bool(name)
        if flag is not None:
            read[name] = flag
    for name in _WHOLE[kind]:
        number = node.integer(name, False, minimum=0)
        if number is not None:
            read[name] = number
    for name in _LISTS[kind]:
        items = node.text_list(name, required=kind == "penalty" and name == "infraction")
        if items:
            read[name] = items
    # admin-value (--admin-value TAXA=VALOR), input (--input NOME=VALOR: what a formula leaves open), unit-value
    tables = {
        "quote": ("admin-value", "input", "unit-value"),
        "penalty": ("input", "unit-value"),  # input: what a fine written as a formula leaves to the authority
        "deadline": (),
        "score": (),
    }[kind]
    for table in tables:
        given = node.raw(table, False)
        if given is None:
            continue
        if not isinstance(given, dict) or not given:
            node.fail(table, f'esperada uma tabela {{ NOME = "150,00" }}, veio {type_name(given)} {show(given)}')
        for name, value in given.items():
            if not isinstance(value, str) or not value.strip():
                node.fail(
                    f"{table}.{name}",
                    f'esperado o valor como na linha de comando ("150,00"), veio {type_name(value)} {show(value)}',
                )
        read[table] = tuple((str(k), str(v)) for k, v in given.items())
    if kind == "deadline":
        start = node.raw("from", True)
        read["from"] = _moment(node, "from", start)
        holidays = node.raw("holiday", False)
        if holidays is not None:
            if not isinstance(holidays, list):
                node.fail("holiday", f"esperada uma lista de datas, veio {type_name(holidays)} {show(holidays)}")
            for i, day in enumerate(holidays):
                if type(day) is not dt.date:
                    node.fail(f"holiday[{i}]", f"esperada uma data TOML, veio {type_name(day)} {show(day)}")
            read["holiday"] = tuple(day.isoformat() for day in holidays)
    node.done()
    order = list(node.data)
    return tuple(sorted(read.items(), key=lambda item: order.index(item[0])))


def _lines(node: Node) -> tuple[tuple[str, Decimal], ...]:
    raw = node.raw("lines", False)
    if raw is None:
        return ()
    if not isinstance(raw, dict) or not raw:
        node.fail("lines", f'esperada uma tabela {{ id-do-preço = "591.67" }}, veio {type_name(raw)} {show(raw)}')
    out = []
    for fee, value in raw.items():
        if not ID_RE.match(fee):
            node.fail(f"lines.{fee}", f"id de preço/taxa inválido {show(fee)}")
        if not isinstance(value, str) or not DECIMAL_RE.match(value):
            node.fail(
                f"lines.{fee}", f'esperado um decimal em texto, como "591.67"; veio {type_name(value)} {show(value)}'
            )
        out.append((fee, Decimal(value)))
    return tuple(out)


def _expect(node: Node, kind: str) -> CaseExpect:
    refused = node.text("refused", required=False)
    allowed = _EXPECT[kind]
    given = [name for name in node.data if name not in ("refused", "notes")]
    if refused is not None and given:
        node.fail(given[0], 'um caso recusado ("refused") não espera figuras: tire as outras chaves')
    for name in given:
        if name not in allowed and any(name in names for names in _EXPECT.values()):
            node.fail(name, f"não se aplica a um caso de kind {show(kind)}; aqui: {', '.join(allowed)}, refused")
    due = node.raw("due", False) if kind == "deadline" else None
    sanctions = node.text_list("sanctions") if kind == "penalty" else ()
    for i, item in enumerate(sanctions):
        if item not in SANCTION_KINDS:
            node.fail(f"sanctions[{i}]", f"sanção {show(item)} não prevista; use: {', '.join(SANCTION_KINDS)}")
    result = CaseExpect(
        total=node.decimal("total", False) if "total" in allowed else None,
        charges=node.decimal("charges", False) if kind == "quote" else None,
        deposits=node.decimal("deposits", False) if kind == "quote" else None,
        lines=_lines(node) if kind == "quote" else (),
        proposed=node.decimal("proposed", False) if kind == "penalty" else None,
        sanctions=sanctions,
        step=node.integer("step", False, minimum=1) if kind == "penalty" else None,
        days=node.integer("days", False, minimum=1) if kind == "penalty" else None,
        until=node.date("until", False) if kind == "penalty" else None,
        due=_moment(node, "due", due) if due is not None else None,
        extended=node.optional_bool("extended") if kind == "deadline" else None,
        points=node.integer("points", False, minimum=0) if kind == "score" else None,
        refused=refused,
    )
    node.done()
    if refused is None and result == CaseExpect():
        node.fail(None, f"diga o que o caso espera: {', '.join(allowed)} (ou refused)")
    return result


def parse_case(node: Node) -> Case:
    ident = node.ident()
    kind = node.enum("kind", CASE_KINDS)
    result = Case(
        id=ident,
        label=node.text("label"),
        basis=node.basis("article"),
        date=node.date("date"),
        kind=kind,
        inputs=_inputs(node.table("inputs", required=True), kind),
        expect=_expect(node.table("expect", required=True), kind),
        source=node.enum("source", CASE_SOURCES, False, default="act"),
        notes=node.notes(),
    )
    node.done()
    return result
