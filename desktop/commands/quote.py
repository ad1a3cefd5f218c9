"""``praca quote --regime ID …`` — price a stall line by line, with formulas and articles.

The price comes from ``models.billing.pricing.quote`` — the fee engine fed with the
fiscal-unit values and index corrections kept in the database — so the command
line and the screens price exactly alike. Sizes are read as text (``4,00`` or
``4.00``) and handed to the engine as text: never a float.
"""

from __future__ import annotations

import argparse
import json
import re

from desktop.commands import readings
from models.base.errors import UserError
from models.base.money import format_decimal_br
from models.rules.fees.inputs import PERIODS, period_text
from models.rules.fees.needs import engine_values, tier_label
from models.rules.fees.typed import quote_inputs

_PASSWORD = re.compile(r"^([a-z]+://[^:/@]*:)[^@]*@", re.IGNORECASE)

LOGIN = False  # computes from the acts only


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--regime", metavar="ID", help="o regime (obrigatório; praca regimes lista os ids)")
    parser.add_argument("--equipment", metavar="TIPO", help="tipo de equipamento (praca regimes --show ID)")
    parser.add_argument("--line", metavar="ID", help="ramo (linha de produtos)")
    parser.add_argument("--front", metavar="M", help="frente ocupada, em metros (4,00 ou 4.00)")
    parser.add_argument("--depth", metavar="M", help="profundidade, em metros")
    parser.add_argument("--hitch", metavar="M", help="engate, em metros")
    parser.add_argument("--area", metavar="M2", help="área declarada, em m²")
    parser.add_argument("--mei", action="store_true", help="o titular é MEI")
    parser.add_argument("--local", action="store_true", help="o titular é do município")
    parser.add_argument("--energy", metavar="FAIXA", help="faixa de energia: none, low, high… (conforme o regime)")
    parser.add_argument("--days", metavar="N", help="número de dias de uso")
    parser.add_argument("--feira-days", metavar="N", help="número de dias de feira (preço por dia de feira)")
    parser.add_argument("--events", metavar="N", help="número de eventos (preço por evento)")
    parser.add_argument("--months", metavar="N", help="número de meses (preço por mês)")
    parser.add_argument("--fiscal-years", metavar="N", help="número de exercícios (preço por exercício fiscal)")
    parser.add_argument("--venue", metavar="ID", help="imóvel público (tabela por imóvel)")
    parser.add_argument(
        "--exemption",
        metavar="ID",
        help="dispensa prevista no ato (ex.: evento assistencial, LC 324/2025, art. 90); "
        "praca regimes --show ID lista as dispensas",
    )
    parser.add_argument("--year", metavar="AAAA", help="exercício do cálculo (padrão: o do ato, ou o ano corrente)")
    parser.add_argument(
        "--fee",
        metavar="ID",
        action="append",
        dest="fees",
        help="calcula só este preço/taxa (pode repetir); necessário para valores fixos e por dia",
    )
    parser.add_argument("--permit-kind", metavar="ID", help="calcula os preços deste tipo de permissão")
    parser.add_argument(
        "--admin-value",
        metavar="TAXA=VALOR",
        action="append",
        dest="admin_values",
        help="valor em R$ de um preço definido pela Administração (pode repetir)",
    )
    parser.add_argument(
        "--input",
        metavar="NOME=VALOR",
        action="append",
        dest="asked",
        help="valor que uma fórmula do ato pede e o ato deixa em aberto (base fixada pela Administração, nota do "
        "fiscal até um teto…), dentro dos limites do ato (pode repetir); praca regimes --show ID lista os nomes",
    )
    parser.add_argument(
        "--date",
        metavar="DD/MM/AAAA",
        help="data do fato (evento, mês cobrado): vale a redação do ato em vigor nesse dia (padrão: hoje)",
    )
    readings.add_arguments(parser)
    parser.add_argument("--json", action="store_true", help="saída em JSON")
    parser.epilog = (
        "Exemplos:\n"
        "  praca quote --regime sao-bento-2026 --equipment trailer --front 4 --depth 3 --mei --local\n"
        "  praca quote --regime sjc-2014 --line pastel --year 2014 --json\n"
        "  praca quote --regime olimpia-2025 --venue recinto-arena --days 2 --year 2026"
    )


# --------------------------------------------------------------------------- input checks


def engine_inputs(args: argparse.Namespace) -> dict:
    """The keyword arguments of ``models.billing.pricing.quote`` from the command line: sizes read as typed in Brazil
    (``models.base.money.parse_typed``: "2,5"; an ambiguous "2.5" is refused with both readings)."""
    typed = {
        name: getattr(args, name, None)
        for name in (
            "equipment",
            "line",
            "energy",
            "venue",
            "permit_kind",
            "exemption",
            "front",
            "depth",
            "hitch",
            "area",
            "days",
            "feira_days",
            "events",
            "months",
            "fiscal_years",
            "year",
            "fees",
            "admin_values",
            "asked",
        )
    }
    typed.update(mei=args.mei, local=args.local)
    return quote_inputs(typed)


# --------------------------------------------------------------------------- run


def run(args: argparse.Namespace) -> int:
    from desktop.paths import open_for_computing
    from models.billing.pricing import MissingCorrection, quote
    from models.rules.regimes import MissingUnitValue, get_regime, shipped_regimes
    from models.store.bootstrap import close_database

    if not (args.regime or "").strip():
        raise UserError(
            "Informe o regime: --regime ID (disponíveis: " + ", ".join(sorted(shipped_regimes())) + ").", field="regime"
        )
    from models.base.br import parse_br_date

    on = parse_br_date(args.date, what="--date (data do fato)", field="date") if args.date else None
    inputs = engine_inputs(args)
    open_for_computing(getattr(args, "db", None))
    try:
        regime = get_regime(args.regime.strip(), on=on)  # the version in force that day, as the database holds it
        # --admin-value FEE=V and --input NAME=V as the engine takes them, whatever the wording of the fee
        typed = {"by_fee": inputs.pop("admin_values", None), "by_name": inputs.pop("asked", None)}
        inputs.update(engine_values(regime, **typed))
        result = quote(regime, on=on, **inputs)
        points = readings.applied(regime, "quote", args, fees=[line.fee for line in result.lines if line.fee])
        from models.rules.acts import version_of

        version = version_of(regime)
    except MissingCorrection as exc:
        raise UserError(f"{exc.message} {index_hint(args, exc.index, exc.years)}", field=exc.field) from None
    except MissingUnitValue as exc:
        raise UserError(f"{exc.message} {unit_hint(args, exc.code, exc.year)}", field=exc.field) from None
    finally:
        close_database()
    if args.json:
        data = result.to_dict()
        data["act_version"] = (
            {
                "version": version.version,
                "in_force_from": version.effective_from.isoformat(),
                "amending_act": version.amending_act or None,
                "sha256": version.sha256,
            }
            if version is not None
            else {"sha256": regime.sha256}
        )
        data["readings"] = readings.as_json(points)
        print(json.dumps(data, ensure_ascii=False, indent=2))
    else:
        text = quote_text(regime, result)
        if version is not None and version.version > 1:  # an amended act: which text priced it
            head, _, rest = text.partition("\n")
            text = f"{head}\nVersão do ato: {version.label}; SHA-256 {version.sha256[:16]}…\n{rest}"
        head, _, last = text.rstrip("\n").rpartition("\n")  # the total stays the last line
        print(f"{head}\n{readings.as_text(points).lstrip(chr(10))}{last}\n" if points else text, end="")
    return 0


def _command(args: argparse.Namespace) -> str:
    """``praca`` with the ``--db`` given (its password masked), to suggest the next command."""
    given = (getattr(args, "db", None) or "").strip()
    return "praca --db " + _PASSWORD.sub(r"\1***@", given, count=1) if given else "praca"


def unit_hint(args: argparse.Namespace, code: str, year: int) -> str:
    """How to enter a fiscal unit's value: the command line, or the window's screen."""
    return (
        f"Cadastre com: {_command(args)} units set {code} {year} VALOR --source TEXTO "
        "(ou no aplicativo, em Cadastros → Unidades fiscais)."
    )


def index_hint(args: argparse.Namespace, code: str, years) -> str:
    """How to enter an index's yearly corrections: the command line, or the window's screen."""
    first = min(years) if years else "ANO"
    return (
        f"Cadastre com: {_command(args)} units set-index {code} {first} PERCENTUAL --source TEXTO, um por ano "
        "(ou no aplicativo, em Cadastros → Correção monetária)."
    )


# --------------------------------------------------------------------------- text

_INPUT_LABELS = (
    ("equipment", "equipamento"),
    ("line", "ramo"),
    ("front", "frente"),
    ("depth", "profundidade"),
    ("hitch", "engate"),
    ("area", "área"),
    ("energy", "energia"),
    ("venue", "imóvel"),
    ("days", None),
    ("feira_days", None),
    ("events", None),
    ("months", None),
    ("fiscal_years", None),
    ("year", "ano"),
    ("exemption", "dispensa"),
)


def _inputs_text(inputs, regime=None) -> str:
    parts = []
    for key, label in _INPUT_LABELS:
        value = inputs.get(key)
        if value is None or (key == "energy" and value == "none"):
            continue
        if key == "energy" and regime is not None:
            value = tier_label(regime, value)
        if key in ("front", "depth", "hitch"):
            value = f"{format_decimal_br(value, 2)} m"
        elif key == "area":
            value = f"{format_decimal_br(value, 2)} m²"
        elif key == "days":
            parts.append(f"{value} {'dia' if value == 1 else 'dias'}")
            continue
        elif key in PERIODS:
            parts.append(period_text(key, value))
            continue
        parts.append(f"{label} {value}")
    if inputs.get("mei"):
        parts.append("MEI")
    if inputs.get("local"):
        parts.append("do município")
    for name, value in (inputs.get("asked") or {}).items():
        parts.append(f"{name} {str(value).replace('.', ',')}")
    return ", ".join(parts)


def quote_text(regime, result) -> str:
    """The quote in pt-BR: a header, one block per line, then the totals."""
    out = [f"Regime: {regime.municipality}/{regime.state} — {regime.act} ({regime.id})"]
    described = _inputs_text(result.inputs, regime)
    if described:
        out.append(f"Dados: {described}")
    for note in result.notes:
        out.append(f"Observação: {note}")
    for n, line in enumerate(result.lines, start=1):
        out.append("")
        deposit = " (restituível)" if line.kind == "deposit" else ""
        out.append(f"{n}. {line.label}{deposit}: {result.money(line.amount)}")
        out.append(f"   Fórmula: {line.formula} = {result.money(line.amount)}")
        out.append(f"   Base legal: {line.basis}")
        for detail in line.details:
            out.append(f"     · {detail}")
        if line.due:
            out.append(f"   Vencimento: {line.due}")
    out.append("")
    if result.total_deposits:
        out.append(f"Preços e taxas: {result.money(result.total_charges)}")
        out.append(f"Cauções (restituíveis): {result.money(result.total_deposits)}")
    out.append(f"Total: {result.money(result.total)}")
    return "\n".join(out) + "\n"
