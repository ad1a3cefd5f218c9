"""The JSON Schema of the regime format, generated from the loader itself (``docs/regime.schema.json``).

The loader (:mod:`models.rules.regimes`) is the one definition of the format: every key
is read through one of the typed readers of ``Node`` (:mod:`models.rules.regimes.reader`): ``text``, ``decimal``,
``enum`` with its choices, ``tables``…, with ``required`` said at the call. This
module loads regime files with those readers watched, and turns what they were
asked — at which key path, of which type, required or not — into a JSON Schema
(draft 2020-12) that editors such as VS Code (with a TOML extension) use to check
a file while it is typed. A key is required only where every table at its path
required it; an enum lists the loader's own choices.

What the schema cannot say (a reference to an id declared elsewhere in the file,
a rule that depends on another key) the loader still checks: ``praca regimes
check FILE`` is the final word, the schema is the editor's help.

The schema covers what the loader reads when it loads the given files (the
shipped acts, one of them amended and one with a formula fee): a branch of the
format none of them uses is not described in detail — its table is accepted as
any table.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import re
import threading
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

import models
from models.rules import regimes
from models.rules.regimes.reader import Node

SCHEMA_ID = "https://praca.example/regime.schema.json"
_LOCK = threading.Lock()
_INDEX = re.compile(r"\[\d+\]")


def _pattern(path: str) -> str:
    return _INDEX.sub("[]", path)


def _ecma(regex: re.Pattern[str]) -> str:
    return regex.pattern


class _Trace:
    """What the readers were asked, by table path pattern (``fees[].discounts[]``)."""

    def __init__(self) -> None:
        self.visits: dict[str, set[int]] = {}  # pattern -> serials of the tables read there
        self.keys: dict[str, dict[str, dict[str, Any]]] = {}  # pattern -> key -> {"schema", "required": serials}
        self.serial = 0
        self.serials: dict[int, int] = {}  # id of a table read -> its serial
        self.depth = 0

    def visit(self, node: Node) -> None:
        self.serial += 1
        self.serials[id(node)] = self.serial  # set at each table's creation: an id reused is set anew
        self.visits.setdefault(_pattern(node.path), set()).add(self.serial)

    def record(self, node: Node, name: str, schema: dict[str, Any], required: bool) -> None:
        entry = self.keys.setdefault(_pattern(node.path), {}).setdefault(name, {"schema": None, "required": set()})
        known = entry["schema"]
        if known is None or known == schema:
            entry["schema"] = schema
        elif "enum" in known and "enum" in schema:
            entry["schema"] = {"enum": sorted(set(known["enum"]) | set(schema["enum"]))}
        elif "$raw" in known or "$raw" in schema:  # read as it comes, then by its type: the loader decides
            entry["schema"] = {"$raw": True}
        else:  # one key, two readings (true, or the text of a site: same_site): either
            options = known["anyOf"] if "anyOf" in known else [known]
            if schema not in options:
                options = [*options, schema]
            entry["schema"] = {"anyOf": options}
        if required:
            entry["required"].add(self.serials[id(node)])


_TEXT = {"type": "string", "pattern": r"\S"}


def _reader_schemas() -> dict[str, Any]:
    """Each typed reader of ``Node``: (the schema of its value, whether its ``required`` defaults to True)."""
    basis = {
        "type": "string",
        "pattern": r"^\s*([Aa][Rr][Tt][Ss]?\.|[Aa][Nn][Ee][Xx][Oo]|[Tt][Aa][Bb][Ee][Ll][Aa]|[Ee][Mm][Ee][Nn][Tt][Aa]"
        r"|[Pp][Rr][Ee][Ââ][Mm][Bb][Uu][Ll][Oo]|[Dd][Ii][Ss][Pp][Oo][Ss][Ii][Tt][Ii][Vv][Oo])",
        "description": 'o artigo do ato, como "art. 9º, § 2º" (ou "dispositivo …, sem número na cópia lida")',
    }
    return {
        "text": lambda kw: dict(_TEXT),
        "ident": lambda kw: {"type": "string", "pattern": _ecma(regimes.ID_RE)},
        "code": lambda kw: {"type": "string", "pattern": _ecma(regimes.CODE_RE)},
        "basis": lambda kw: dict(basis),
        "decimal": lambda kw: {
            "type": "string",
            "pattern": _ecma(regimes.DECIMAL_RE),
            "description": 'decimal entre aspas, com ponto: "5.50"',
        },
        "integer": lambda kw: (
            {"type": "integer", "minimum": kw["minimum"]} if kw.get("minimum") is not None else {"type": "integer"}
        ),
        "boolean": lambda kw: {"type": "boolean"},
        "optional_bool": lambda kw: {"type": "boolean"},
        "date": lambda kw: {"type": "string", "format": "date", "description": "data TOML, sem aspas: 2026-03-24"},
        "datetime": lambda kw: {"type": "string", "description": "data e hora locais: 2026-03-27T12:00"},
        "time": lambda kw: {"type": "string", "pattern": _ecma(regimes.TIME_RE), "description": 'hora "HH:MM"'},
        "enum": lambda kw: {"enum": list(kw["choices"])},
        "text_list": lambda kw: {"type": "array", "items": dict(_TEXT)},
        "ident_list": lambda kw: {"type": "array", "items": {"type": "string", "pattern": _ecma(regimes.ID_RE)}},
        "enum_list": lambda kw: {"type": "array", "items": {"enum": list(kw["choices"])}, "uniqueItems": True},
    }


_REQUIRED_BY_DEFAULT = {"text", "ident", "code", "basis", "decimal", "integer", "date", "datetime", "time", "enum"}
_ARG_NAMES = {
    "enum": ("name", "choices", "required", "default"),
    "enum_list": ("name", "choices"),
    "boolean": ("name", "default"),
    "optional_bool": ("name",),
    "text_list": ("name",),
    "ident_list": ("name",),
}
#: the readers that may leave out the key's name, and the name they read then
_DEFAULT_NAMES = {"ident": "id", "code": "code", "basis": "basis"}
_MARKERS = {"table": {"$table": True}, "tables": {"$tables": True}}


@contextlib.contextmanager
def _watching(trace: _Trace) -> Iterator[None]:
    node_cls = Node
    originals: dict[str, Any] = {}

    def patch(name: str, wrapper: Any) -> None:
        originals[name] = getattr(node_cls, name)
        setattr(node_cls, name, wrapper)

    init = node_cls.__init__

    def traced_init(self: Node, *args: Any, **kwargs: Any) -> None:
        init(self, *args, **kwargs)
        trace.visit(self)

    patch("__init__", traced_init)
    schemas = _reader_schemas()
    for reader, make in schemas.items():
        original = getattr(node_cls, reader)

        def wrapper(
            self: Node,
            *args: Any,
            _original: Callable[..., Any] = original,
            _reader: str = reader,
            _make: Callable[[dict[str, Any]], dict[str, Any]] = make,
            **kwargs: Any,
        ) -> Any:  # whatever the reader it stands for returns
            if trace.depth:
                return _original(self, *args, **kwargs)
            names = _ARG_NAMES.get(_reader, ("name", "required"))
            bound = dict(zip(names, args, strict=False))  # the arguments given by position, each named
            bound.update(kwargs)
            name = bound["name"] if "name" in bound else _DEFAULT_NAMES[_reader]
            required = bound.get("required", _reader in _REQUIRED_BY_DEFAULT)
            if _reader in ("text_list", "ident_list", "enum_list"):
                required = bound.get("required", False)
            trace.record(self, name, _make(bound), bool(required))
            trace.depth += 1
            try:
                return _original(self, *args, **kwargs)
            finally:
                trace.depth -= 1

        patch(reader, wrapper)

    for reader, marker in _MARKERS.items():
        original = getattr(node_cls, reader)

        def table_wrapper(
            self: Node,
            name: str,
            required: bool = False,
            *,
            _original: Callable[..., Node | list[Node] | None] = original,
            _marker: dict[str, Any] = marker,
        ) -> Node | list[Node] | None:
            if not trace.depth:
                trace.record(self, name, dict(_marker), bool(required))
            trace.depth += 1
            try:
                return _original(self, name, required=required)
            finally:
                trace.depth -= 1

        patch(reader, table_wrapper)

    raw = node_cls.raw

    def traced_raw(self: Node, name: str, required: bool) -> Any:  # a TOML value as it comes
        if trace.depth == 0:
            trace.record(self, name, {"$raw": True}, bool(required))
        return raw(self, name, required)

    patch("raw", traced_raw)
    try:
        yield
    finally:
        for name, original in originals.items():
            setattr(node_cls, name, original)


def _object(trace: _Trace, pattern: str) -> dict[str, Any]:
    keys = trace.keys.get(pattern, {})
    visits = trace.visits.get(pattern, set())
    properties: dict[str, Any] = {
        "notes": {"type": "string", "description": "observações: o que o ato diz e o formato não modela"}
    }
    required: list[str] = []
    for name, entry in keys.items():
        if name == "notes":
            continue
        child = f"{pattern}.{name}" if pattern else name
        schema = entry["schema"] or {}
        if "$table" in schema:
            schema = _object(trace, child) if child in trace.visits else {"type": "object"}
        elif "$tables" in schema:
            schema = {
                "type": "array",
                "items": (_object(trace, child + "[]") if child + "[]" in trace.visits else {"type": "object"}),
            }
        elif "$raw" in schema:  # read as it comes: a list of tables, or a table or a plain value
            if child + "[]" in trace.visits:
                schema = {"type": "array", "items": _object(trace, child + "[]")}
            elif child in trace.visits:
                schema = {"anyOf": [_object(trace, child), {"type": ["boolean", "string", "integer"]}]}
            else:
                schema = {}
        properties[name] = schema
        if visits and entry["required"] >= visits:
            required.append(name)
    result: dict[str, Any] = {"type": "object", "properties": dict(sorted(properties.items()))}
    if required:
        result["required"] = sorted(required)
    result["additionalProperties"] = False
    return result


_SAMPLE_AMENDMENT = """
[regime.amendment]
act = "Lei nº 1/2099"
in_force_from = 2099-01-01
summary = "exemplo"
"""


_SAMPLE_NO_SANCTION = """
[[infractions]]
code = "exemplo-sem-sancao"
label = "exemplo"
article = "art. 1º"
no_sanction = true
"""


def _with_unknown_force(text: str) -> str:
    start = text.index("in_force = {")
    end = text.index("\n", start)
    return text[:start] + 'in_force = { from = 2000-01-01, basis_unknown = true, notes = "exemplo" }' + text[end:]


#: the shipped acts do not use every key of the rule language's tables: one fee using them all, added to a shipped
#: act, shows the loader every one
_SAMPLE_FORMULA = """
[[fees]]
id = "exemplo-formula"
label = "Exemplo de preço por fórmula"
kind = "formula"
per = "month"
formula = "round(taxa * area * fator) + base_adm"
line_label = "Exemplo — {area}"
basis = "art. 3º"

[[fees.says]]
when = "mei"
text = "MEI: {area} m²"
basis = "art. 3º"

[[fees.refusals]]
when = "area > 100 m2"
reason = "Área de {area} m² acima de 100,00 m²"
basis = "art. 3º"
field = "area"

[[fees.terms]]
name = "taxa"
label = "Taxa por m²"
value = "1.00"
unit = "R$/m2"
basis = "art. 3º"

[[fees.tables]]
name = "fator"
label = "Fator"

[[fees.tables.rows]]
when = "mei"
label = "MEI"
value = "0.5"
basis = "art. 3º"

[[fees.tables.rows]]
value = "1"
basis = "art. 3º"

[[fees.exceptions]]
id = "do-municipio"
label = "Do município"
when = "local"
formula = "base * 0.5"
basis = "art. 3º"

[[fees.inputs]]
name = "base_adm"
label = "Base fixada pela Administração"
unit = "R$"
min = "0"
max = "100"
places = 2
set_by = "administration"
basis = "art. 3º"
"""


#: the older ``linear-metre`` kind, still read (a version installed in a database keeps its text,
#: docs/regime-format.md) though no shipped act is written in it since São Bento's occupation price became its
#: formula (issue 29 §6): that price as the file said it before (Dec. 4.794/2026, art. 9º; its notes left out),
#: added to São Bento's act under another id, shows the loader that kind's keys; the tests check the converter with
#: it (tests/formula_acts.py)
SAO_BENTO_OCCUPATION_BY_KIND = """
[[fees]]
id = "occupation"
label = "Preço público de ocupação de via pública"
kind = "linear-metre"
coefficient = "5.50"
unit = "UFESP"
year = 2026
min_metres = "1.00"
min_metres_basis = "art. 9º, § 3º"
hitch_counts = true
hitch_basis = "art. 9º, § 1º"
metre = "front-plus-hitch"
basis = "art. 9º, § 2º"
basis_act = "Lei nº 2.537/2025 e Decreto nº 4.710/2025, art. 2º (Nível de Impacto III)"
due = { date = 2026-03-26, basis = "art. 6º" }

[[fees.discounts]]
id = "mei-local-structure"
label = "MEI do município — trailer, reboque ou barraca com até 3 m de profundidade"
rate = "0.30"
when = { mei = true, local = true, equipment = ["trailer", "reboque", "barraca"], max_depth = "3.00" }
basis = "art. 9º, § 3º, I"
basis_act = "Lei nº 2.537/2025, art. 5º"

[[fees.discounts]]
id = "mei-local-cart"
label = "MEI do município — carrinho de pipoca ou de algodão-doce"
rate = "0.50"
when = { mei = true, local = true, equipment = ["carrinho-pipoca", "carrinho-algodao-doce"] }
basis = "art. 9º, § 3º, I"
basis_act = "Lei nº 2.537/2025, art. 5º"

"""


#: a fine written as a formula that reads another fee of the act (issue 29 §1): its inputs, one asked and one the
#: fee of the offender's permit — no shipped act has one; added to São Bento's, whose occupation price it reads
SAMPLE_FINE_FORMULA = """
[[infractions]]
code = "exemplo-multa-formula"
label = "Exemplo: multa de uma parte do preço de ocupação mais um valor que a autoridade fixa"
article = "art. 2º, § 2º"
basis = "art. 2º, § 2º"

[infractions.fine]
formula = "0.30 * valor_ocupacao + agravante"
basis = "art. 2º, § 2º"

[[infractions.fine.terms]]
name = "agravante"
label = "Valor fixo"
value = "10.00"
unit = "R$"
basis = "art. 2º, § 2º"

[[infractions.fine.inputs]]
name = "valor_ocupacao"
label = "Preço público de ocupação"
unit = "R$"
max = "10000"
set_by = "authority"
fee = "occupation"
basis = "art. 9º, § 2º"
"""

#: the older ``energy``, ``venue-table`` and ``per-area-month`` kinds, still read (a version installed in a database
#: keeps its text), though no shipped act is written in them since São Bento's energy tariff, Olímpia's venue
#: table and São José dos Campos' monthly fee became formula fees (issue 29 §6): each as its file said it before
#: (its notes left out), added to its act under another id, shows the loader that kind's keys; the tests check the
#: converter with them (tests/formula_acts.py)
SAO_BENTO_ENERGY_BY_KIND = """
[[fees]]
id = "energy"
label = "Tarifa de fornecimento de energia elétrica"
kind = "energy"
unit = "UFESP"
year = 2026
basis = "art. 12"
basis_act = "Lei nº 2.537/2025; Decreto nº 4.710/2025, art. 6º, § 2º; Lei Orgânica do Município, art. 120"
due = { date = 2026-03-26, basis = "art. 12, I", notes = "Guia paga até 26/03/2026 nas redes bancárias autorizadas." }

[[fees.tiers]]
id = "low"
label = "Impacto I/IV — Baixo consumo"
factor = "0.82"
equipment = ["carrinho-pipoca", "carrinho-cachorro-quente", "carrinho-algodao-doce", "carrinho-similar"]
max_metres = "2.00"
expected = "31.50"
basis = "art. 12, § 1º"

[[fees.tiers]]
id = "high"
label = "Impacto I/IV — Alto consumo"
factor = "3.25"
equipment = ["barraca", "trailer", "reboque"]
max_depth = "3.00"
expected = "124.87"
basis = "art. 12, § 2º"
"""

OLIMPIA_VENUE_BY_KIND = """
[[fees]]
id = "event-venue"
label = "Taxa de utilização de imóvel público e caução"
kind = "venue-table"
basis = "art. 89"
reading = "A tabela do art. 89 tem \\"taxa por 1 dia\\" e \\"taxa por dia (mínimo de N dias)\\": um dia paga a taxa de 1 dia; dois dias ou mais pagam a taxa por dia, cobrada por no mínimo N dias (3 no Recinto, 5 nos demais imóveis), ainda que o uso seja menor."

[[fees.exemptions]]
id = "assistencial"
label = "Evento assistencial, filantrópico ou educacional público municipal ou estadual"
waives = ["fee", "deposit"]
waives_documents = ["event-fee-receipt", "event-deposit-receipt"]
basis = "art. 90"

[[fees.exemptions]]
id = "em-beneficio-de-entidade"
label = "Evento de terceiros em benefício de entidade assistencial, filantrópica ou educacional pública, com venda de ingressos e participação da entidade de ao menos 10 %"
waives = ["fee", "deposit"]
document = "charity-consent"
waives_documents = ["event-fee-receipt", "event-deposit-receipt"]
basis = "art. 90, §§ 1º e 2º"

[[fees.venues]]
id = "recinto-todas-instalacoes"
label = "Recinto de Exposições — todas as instalações"
one_day = { value = "100", unit = "UFESP" }
per_day = { value = "60", unit = "UFESP" }
min_days = 3
deposit = { value = "150", unit = "UFESP" }
basis = "art. 89, § 1º"

[[fees.venues]]
id = "recinto-exceto-estacionamento"
label = "Recinto de Exposições — exceto estacionamento"
one_day = { value = "80", unit = "UFESP" }
per_day = { value = "48", unit = "UFESP" }
min_days = 3
deposit = { value = "150", unit = "UFESP" }
basis = "art. 89, § 1º"

[[fees.venues]]
id = "recinto-estacionamento"
label = "Recinto de Exposições — estacionamento"
one_day = { value = "60", unit = "UFESP" }
per_day = { value = "36", unit = "UFESP" }
min_days = 3
deposit = { value = "50", unit = "UFESP" }
basis = "art. 89, § 1º"

[[fees.venues]]
id = "recinto-barracas-grandes"
label = "Recinto de Exposições — barracas grandes"
one_day = { value = "60", unit = "UFESP" }
per_day = { value = "36", unit = "UFESP" }
min_days = 3
deposit = { value = "100", unit = "UFESP" }
basis = "art. 89, § 1º"

[[fees.venues]]
id = "recinto-barracas-pequenas"
label = "Recinto de Exposições — barracas pequenas"
one_day = { value = "25", unit = "UFESP" }
per_day = { value = "15", unit = "UFESP" }
min_days = 3
deposit = { value = "50", unit = "UFESP" }
basis = "art. 89, § 1º"

[[fees.venues]]
id = "recinto-arena"
label = "Recinto de Exposições — arena"
one_day = { value = "25", unit = "UFESP" }
per_day = { value = "15", unit = "UFESP" }
min_days = 3
deposit = { value = "50", unit = "UFESP" }
basis = "art. 89, § 1º"

[[fees.venues]]
id = "casa-da-cultura-ginasio"
label = "Casa da Cultura “Álvaro Marreta Cassiano Ayusso” e Ginásio de Esportes"
one_day = { value = "15", unit = "UFESP" }
per_day = { value = "10", unit = "UFESP" }
min_days = 5
deposit = { value = "50", unit = "UFESP" }
basis = "art. 89, § 2º"

[[fees.venues]]
id = "estadio-tereza-breda"
label = "Estádio Municipal “Tereza Breda”"
one_day = { value = "50", unit = "UFESP" }
per_day = { value = "30", unit = "UFESP" }
min_days = 5
deposit = { value = "200", unit = "UFESP" }
basis = "art. 89, § 3º"

[[fees.venues]]
id = "demais-imoveis-publicos"
label = "Demais imóveis públicos (definidos em ato do Poder Executivo)"
one_day = { value = "15", unit = "UFESP" }
per_day = { value = "10", unit = "UFESP" }
min_days = 5
deposit = { value = "50", unit = "UFESP" }
basis = "art. 89, § 4º"
"""  # noqa: E501 - the act's sentences, as the file said them

SJC_LICENCE_BY_KIND = """
[[fees]]
id = "licence-fee"
label = "Taxa de licença — ocupação do solo (mensal)"
kind = "per-area-month"
rate = { value = "2.50", unit = "BRL" }
area = "used"
index = "INPC"
basis = "art. 11, § 5º"
due = { day_of_month = 20, basis = "art. 11, § 5º", notes = "Paga antecipadamente, até o dia 20 de cada mês." }
arrears = { months = 3, consecutive = true, sanction = "revocation", basis = "art. 11, § 6º", notes = "O não recolhimento por três meses consecutivos acarreta a cassação da permissão." }
"""  # noqa: E501 - the act's sentences, as the file said them


#: the ``fixed`` and ``per-day`` kinds (a value the act fixes per day, or leaves to the Administration), as
#: Olímpia's and São José dos Campos' files said them before their formulas (issue 29 §6)
OLIMPIA_FIXED_BY_KIND = """
[[fees]]
id = "event-utilities"
label = "Custo estimado de energia elétrica e água do evento em imóvel público"
kind = "fixed"
admin_defined = true
per = "event"
basis = "art. 93"
notes = "Estimado pela Secretaria Municipal de Obras, Engenharia e Infraestrutura e cobrado antes da autorização; não é coberto pela taxa do art. 89 (art. 92)."

[[fees]]
id = "street-vending-tax"
label = "Taxa do comércio ambulante ou eventual"
kind = "fixed"
admin_defined = true
per = "day"
basis = "art. 138, § 2º; art. 147, I"
basis_act = "Lei Complementar nº 212, de 02 de outubro de 2018"
notes = "Valor definido pelo Código Tributário (LC 212/2018), não transcrito nesta lei. O art. 147, I fala em “comprovante de recolhimento da taxa diária”."

[[fees]]
id = "tpu-public-price"
label = "Preço público anual pela ocupação da área pública (TPU)"
kind = "fixed"
admin_defined = true
per = "year"
basis = "art. 178"
notes = "Definido pelo Executivo e corrigido anualmente pelo índice adotado pelo município; a lei não fixa valor nem índice. O titular que pede cancelamento responde pelos débitos (art. 180)."

[[fees]]
id = "feirante-licence-fee"
label = "Taxa de Licença para Feirante"
kind = "fixed"
admin_defined = true
basis = "art. 203, § 2º"
basis_act = "Lei Complementar nº 212, de 02 de outubro de 2018"
notes = "Valor e periodicidade definidos pelo Código Tributário (LC 212/2018). Não há restituição em caso de suspensão ou encerramento da inscrição (art. 205, § 2º)."

[[fees]]
id = "depot-street-vending"
label = "Diária de depósito de mercadoria apreendida — comércio ambulante ou eventual"
kind = "per-day"
amount = { value = "1", unit = "UFESP" }
basis = "art. 145, § 2º"

[[fees]]
id = "depot-feira"
label = "Diária de depósito de mercadoria apreendida — feira livre"
kind = "per-day"
amount = { value = "1", unit = "UFESP" }
basis = "art. 215, § 4º"
"""  # noqa: E501 - the act's sentences, as the file said them

SJC_SHARED_COSTS_BY_KIND = """
[[fees]]
id = "rateio-energia-banheiros"
label = "Repasse das despesas de energia elétrica e banheiros químicos"
kind = "fixed"
admin_defined = true
basis = "art. 32"
notes = "Pode ser repassado aos permissionários em qualquer época; a lei não fixa valor nem critério de rateio."
"""


#: the fees of a shipped act said in the older kinds before they were formulas: (the ids of the formula fees, the
#: text that said them, the permit kinds' list of fees then and now)
_FORMER: dict[str, tuple[tuple[tuple[str, ...], str, tuple[str, str] | None], ...]] = {
    "sao-bento-2026": ((("occupation", "energy"), SAO_BENTO_OCCUPATION_BY_KIND + SAO_BENTO_ENERGY_BY_KIND, None),),
    "olimpia-2025": (
        (
            ("event-venue", "event-venue-caucao"),
            OLIMPIA_VENUE_BY_KIND,
            (
                'fees = ["event-venue", "event-venue-caucao", "event-utilities"]',
                'fees = ["event-venue", "event-utilities"]',
            ),
        ),
        (
            (
                "event-utilities",
                "street-vending-tax",
                "tpu-public-price",
                "feirante-licence-fee",
                "depot-street-vending",
                "depot-feira",
            ),
            OLIMPIA_FIXED_BY_KIND,
            None,
        ),
    ),
    "sjc-2014": (
        (("licence-fee",), SJC_LICENCE_BY_KIND, None),
        (("rateio-energia-banheiros",), SJC_SHARED_COSTS_BY_KIND, None),
    ),
}


def former_text(regime_id: str, text: str) -> str:
    """A shipped act's ``text`` with the fees it now says as formulas said as its file said them before, in the
    older kinds (``linear-metre``, ``energy``, ``venue-table``, ``per-area-month``, ``fixed``, ``per-day``): the
    reference the converter's tests and the formula benchmark compare with. ``text`` itself for an act that has
    none."""
    for ids, block, kinds in _FORMER.get(regime_id, ()):
        start = text.index(f'[[fees]]\nid = "{ids[0]}"')
        headers = [m.start() for m in re.finditer(r'^(\[\[fees\]\]\nid = "([^"]+)"|# -{10,})', text[start:], re.M)]
        ends = [
            start + at
            for at in headers
            if not text[start + at :].startswith(tuple(f'[[fees]]\nid = "{ident}"' for ident in ids))
        ]
        end = ends[0] if ends else len(text)
        text = text[:start] + block.lstrip("\n") + "\n" + text[end:]
        if kinds:
            text = text.replace(*kinds)
    return text


def _in_cruzeiros_reais(text: str) -> str:
    start = text.index("\nscope = [")
    end = text.index("\n", start + 1)
    conversion = (
        '\ncurrency = "CR$"\nconversion = { to = "R$", divide_by = "2750", from = 1994-07-01, basis = "art. 1º", '
        'basis_act = "Lei federal nº 8.880/1994", notes = "exemplo" }'
    )
    return text[:end] + conversion + text[end:]


def _renewal_by_decree(text: str) -> str:
    start = text.index("renewal = { until_month_day")
    end = text.index("\n", start)
    return text[:start] + 'renewal = { by_decree = true, basis = "art. 12" }' + text[end:]


def build_schema(texts: Iterable[tuple[str, str]] | None = None) -> dict[str, Any]:
    """The JSON Schema of the format, from loading ``texts`` ((file name, TOML text) pairs; default: the
    shipped acts) with the loader's readers watched."""
    if texts is None:
        folder = regimes.default_regimes_folder()
        texts = [(p.name, p.read_text(encoding="utf-8")) for p in sorted(folder.glob("*.toml"))]
        # no shipped act is an amendment: one of them (the worked example of docs/novo-ato.md), amended, shows the
        # loader that table too — chosen by name, so that a new act sorted before it changes nothing
        name, text = next((n, t) for n, t in texts if n == "cabeceira-grande-2012.toml")
        texts.append((name, text + _SAMPLE_AMENDMENT))
        # nor has an in-force article unknown, nor a conduct forbidden without sanction: shown the same way, so
        # that the schema does not require what those leave out (in_force.basis, the infraction's basis)
        texts.append((name, _with_unknown_force(text) + _SAMPLE_NO_SANCTION))
        texts.append((name, text + _SAMPLE_FORMULA))
        carts = next((n, t) for n, t in texts if n == "sao-bento-2026.toml")
        by_kind = SAO_BENTO_OCCUPATION_BY_KIND.replace('id = "occupation"', 'id = "exemplo-metro-linear"', 1)
        texts.append((carts[0], carts[1] + by_kind))
        # nor writes a fine as a formula reading another fee of the act: São Bento's occupation price, read so
        texts.append((carts[0], carts[1] + SAMPLE_FINE_FORMULA))
        # and the energy tiers, the venue table and the price per m² a month, each under ids of its own
        energy = SAO_BENTO_ENERGY_BY_KIND.replace('id = "energy"', 'id = "exemplo-energia"', 1)
        energy = energy.replace('id = "low"', 'id = "exemplo-baixo"').replace('id = "high"', 'id = "exemplo-alto"')
        texts.append((carts[0], carts[1] + energy))
        venues = next((n, t) for n, t in texts if 'id = "event-venue"' in t)
        by_venue = re.sub(r'^id = "', 'id = "exemplo-', OLIMPIA_VENUE_BY_KIND, flags=re.MULTILINE)
        texts.append((venues[0], venues[1] + by_venue))
        monthly = next((n, t) for n, t in texts if 'id = "licence-fee"' in t)
        by_area = SJC_LICENCE_BY_KIND.replace('id = "licence-fee"', 'id = "exemplo-por-area"', 1)
        texts.append((monthly[0], monthly[1] + by_area))
        # and a value fixed per day or left to the Administration, in the older fixed and per-day kinds
        fixed = re.sub(r'^id = "', 'id = "exemplo-', OLIMPIA_FIXED_BY_KIND, flags=re.MULTILINE)
        texts.append((venues[0], venues[1] + fixed))
        # nor is written in an older money with a rule converting it to reais: one, in cruzeiros reais, said so
        texts.append((name, _in_cruzeiros_reais(text)))
        # nor leaves a renewal window to a decree of the Executive: one shipped renewal, said so
        decree = next((n, t) for n, t in texts if "renewal = { until_month_day" in t)
        texts.append((decree[0], _renewal_by_decree(decree[1])))
    trace = _Trace()
    with _LOCK, _watching(trace):
        for name, text in texts:
            regimes.load_regime_text(text, name)
    schema: dict[str, Any] = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        "title": "Regime do Praça: um ato municipal sobre comércio em espaço público",
        "description": "Gerado de models/rules/regimes/ por models/rules/regime_schema.py (praca regimes schema). "
        "O formato está descrito em docs/regime-format.md; praca regimes check ARQUIVO "
        "confere também as referências entre ids.",
    }
    schema.update(_object(trace, ""))
    return schema


def schema_text(schema: dict[str, Any] | None = None) -> str:
    return json.dumps(schema if schema is not None else build_schema(), ensure_ascii=False, indent=1) + "\n"


def published_schema_path() -> Path:
    return Path(models.__file__).resolve().parent.parent / "docs" / "regime.schema.json"


def as_json_data(value: Any) -> Any:
    """A TOML document as JSON data (dates and times as ISO text), as editors hand it to the schema."""
    if isinstance(value, dict):
        return {k: as_json_data(v) for k, v in value.items()}
    if isinstance(value, list):
        return [as_json_data(v) for v in value]
    if isinstance(value, dt.datetime):
        return value.isoformat(timespec="minutes")
    if isinstance(value, (dt.date, dt.time)):
        return value.isoformat() if isinstance(value, dt.date) else value.strftime("%H:%M")
    return value


# --------------------------------------------------------------------------- the key tables of the docs

KEYS_BEGIN = "<!-- keys: generated by `praca regimes schema --doc`; do not edit by hand -->"
KEYS_END = "<!-- keys: end -->"


def _kind(schema: dict[str, Any]) -> str:
    if "anyOf" in schema:
        return " ou ".join(_kind(option) for option in schema["anyOf"])
    if "enum" in schema:
        return "um de: " + ", ".join(f"`{v}`" for v in schema["enum"])
    kind = schema.get("type")
    if isinstance(kind, list):
        return " ou ".join(kind)
    pattern = schema.get("pattern")
    if kind == "string":
        if pattern == regimes.ID_RE.pattern:
            return "id"
        if pattern == regimes.CODE_RE.pattern:
            return "código"
        if pattern == regimes.DECIMAL_RE.pattern:
            return "decimal (texto)"
        if pattern == regimes.TIME_RE.pattern:
            return 'hora "HH:MM"'
        if schema.get("format") == "date":
            return "data"
        if "artigo" in schema.get("description", ""):
            return "artigo"
        return "texto"
    if kind == "integer":
        return f"inteiro ≥ {schema['minimum']}" if "minimum" in schema else "inteiro"
    if kind == "boolean":
        return "booleano"
    if kind == "array":
        items = schema.get("items", {})
        return "lista de tabelas" if items.get("type") == "object" else f"lista ({_kind(items)})"
    if kind == "object":
        return "tabela"
    return "qualquer (o carregador confere)"


def _tables(schema: dict[str, Any], path: str) -> Iterator[tuple[str, dict[str, Any]]]:
    yield path, schema
    for name, child in schema.get("properties", {}).items():
        inner = child.get("items", {}) if child.get("type") == "array" else child
        for option in inner.get("anyOf", [inner]):
            if option.get("type") == "object" and option.get("properties"):
                suffix = "[]" if child.get("type") == "array" else ""
                yield from _tables(option, f"{path}.{name}{suffix}" if path else f"{name}{suffix}")


def key_tables(schema: dict[str, Any] | None = None) -> str:
    """One markdown table per table of the format: key, kind, required — for docs/regime-format.md."""
    schema = schema if schema is not None else build_schema()
    out = [KEYS_BEGIN, ""]
    for path, table in _tables(schema, ""):
        required = set(table.get("required", ()))
        out.append(f"#### `{path or '(raiz)'}`")
        out.append("")
        out.append("| chave | tipo | obrigatória |")
        out.append("|---|---|---|")
        for name, child in table.get("properties", {}).items():
            out.append(f"| `{name}` | {_kind(child)} | {'sim' if name in required else ''} |")
        out.append("")
    out.append(KEYS_END)
    return "\n".join(out) + "\n"


def docs_with_key_tables(doc: str, tables: str) -> str:
    """``doc`` with its generated section replaced by ``tables`` (appended when it has none)."""
    if KEYS_BEGIN in doc and KEYS_END in doc:
        head, rest = doc.split(KEYS_BEGIN, 1)
        _, tail = rest.split(KEYS_END, 1)
        return head + tables.rstrip("\n") + tail
    return doc.rstrip("\n") + "\n\n## Every key (generated)\n\n" + tables
