"""``praca units`` — the fiscal-unit values and index corrections; ``praca units set …`` records one.

The same tables as Cadastros → Unidades fiscais and Cadastros → Correção
monetária, for a server prepared without a screen:

* ``praca units [--json]`` lists every fiscal unit the regimes declare (UFESP,
  UFIC, UFS…) with its value by year and where each comes from (the act, or
  who entered it, when and from which source), and every index (INPC) with
  its yearly corrections;
* ``praca units set CODE YEAR VALUE --source TEXT`` records a unit's value
  for a year; ``praca units set-index CODE YEAR PERCENT --source TEXT`` a
  yearly index correction. Both are acts of the administrator, kept with who
  entered them (the audit trail records them too); a value entered later
  replaces an earlier one for the same year, which stays in the history.
"""

from __future__ import annotations

import argparse
import json
import re
from typing import Any

from models.base.errors import UserError

_YEAR = re.compile(r"^\s*\d{4}\s*$")

#: Listing the fiscal values needs no login; setting one does (it changes data).
LOGIN = lambda args: getattr(args, "action", None) in ("set", "set-index")  # noqa: E731


def configure(parser: argparse.ArgumentParser) -> None:
    from desktop.cli import ArgumentParser, db_option

    parser.add_argument("--json", action="store_true", help="saída em JSON (na listagem)")
    sub = parser.add_subparsers(dest="action", metavar="AÇÃO", title="ações", parser_class=ArgumentParser)
    one = sub.add_parser(
        "set",
        help="cadastra o valor de uma unidade fiscal num ano",
        description="Cadastra o valor de uma unidade fiscal (UFESP, UFIC, UFS…) num ano.",
        formatter_class=parser.formatter_class,
    )
    one.add_argument("code", metavar="CÓDIGO", help="a unidade fiscal, como UFIC")
    one.add_argument("year", metavar="ANO", help="o ano, como 2026")
    one.add_argument("value", metavar="VALOR", help="o valor em reais, como 3,75")
    one.add_argument("--source", metavar="TEXTO", help="a fonte do valor (decreto, comunicado…) — obrigatória")
    one.add_argument("--regime", metavar="ID", help="o regime que declara a unidade (padrão: o primeiro que a declara)")
    db_option(one, top=False)
    index = sub.add_parser(
        "set-index",
        help="cadastra a correção anual de um índice (INPC…)",
        description="Cadastra a correção anual de um índice de preços (INPC…), em percentual.",
        formatter_class=parser.formatter_class,
    )
    index.add_argument("code", metavar="CÓDIGO", help="o índice, como INPC")
    index.add_argument("year", metavar="ANO", help="o ano em que a correção se aplica, como 2026")
    index.add_argument("value", metavar="PERCENTUAL", help="a correção em percentual, como 4,77")
    index.add_argument("--source", metavar="TEXTO", help="a fonte (IBGE, portaria…) — obrigatória")
    db_option(index, top=False)
    parser.epilog = (
        "Exemplos:\n"
        "  praca units\n"
        "  praca units --json\n"
        '  praca units set UFIC 2026 3,75 --source "Decreto municipal nº 1.234/2025"\n'
        '  praca units set-index INPC 2026 4,77 --source "IBGE, INPC acumulado de 2025"'
    )


def _year(text: str) -> int:
    if not _YEAR.match(text or ""):
        raise UserError(f"Ano inválido: '{text}' (use quatro algarismos, como 2026).", field="year")
    return int(text)


def _source(text: str | None) -> str:
    if text is None or not text.strip():
        raise UserError("Informe a fonte do valor: --source TEXTO (decreto, comunicado, portaria…).", field="reason")
    return text.strip()


def _declared_units() -> dict[str, list]:
    from models.rules.regimes import shipped_regimes

    found: dict[str, list] = {}
    for regime in sorted(shipped_regimes().values(), key=lambda r: r.id):
        for unit in regime.units:
            found.setdefault(unit.code, []).append(regime)
    return found


def _declared_indexes() -> dict[str, list]:
    from models.rules.regimes import shipped_regimes

    found: dict[str, list] = {}
    for regime in sorted(shipped_regimes().values(), key=lambda r: r.id):
        for index in regime.indexes:
            found.setdefault(index.code, []).append((regime, index))
    return found


def run(args: argparse.Namespace) -> int:
    from desktop.paths import resolve_db_url
    from models.store.bootstrap import close_database, open_database

    action = getattr(args, "action", None)
    if action == "set":
        year = _year(args.year)
        source = _source(args.source)
        units = _declared_units()
        code = (args.code or "").strip().upper()
        if code not in units:
            raise UserError(
                f"Unidade fiscal '{args.code}' não é declarada por nenhum regime (declaradas: "
                + ", ".join(sorted(units))
                + ").",
                field="unit",
            )
        regime = _regime_for(args.regime, units[code], code)
    elif action == "set-index":
        year = _year(args.year)
        source = _source(args.source)
        indexes = _declared_indexes()
        code = (args.code or "").strip().upper()
        if code not in indexes:
            raise UserError(
                f"Índice '{args.code}' não é declarado por nenhum regime (declarados: "
                + (", ".join(sorted(indexes)) or "nenhum")
                + ").",
                field="index",
            )
    open_database(resolve_db_url(getattr(args, "db", None)))
    try:
        if action == "set":
            return _set_unit(regime, code, year, args.value, source)
        if action == "set-index":
            return _set_index(code, year, args.value, source)
        return _list(args.json)
    finally:
        close_database()


def _regime_for(regime_id: str | None, declaring: list, code: str):
    from models.rules.regimes import get_regime

    if not regime_id:
        return declaring[0]
    regime = get_regime(regime_id.strip())
    if regime not in declaring:
        raise UserError(
            f"O regime {regime.id} não declara a unidade {code} (declaram: "
            + ", ".join(r.id for r in declaring)
            + ").",
            field="regime",
        )
    return regime


def _set_unit(regime, code: str, year: int, value: str, source: str) -> int:
    from models.access.session import who
    from models.base.money import format_brl
    from models.billing.fiscal import set_unit_value, unit_value_warnings

    warnings = unit_value_warnings(code, year, value)
    row = set_unit_value(regime, code, year, value, entered_by=who(), reason=source)
    for line in warnings:
        print(f"Atenção: {line}")
    print(f"{code} {year} = {format_brl(row.value)} gravado ({who()}, fonte: {source}).")
    return 0


def _set_index(code: str, year: int, value: str, source: str) -> int:
    from models.access.session import who
    from models.billing.fiscal import set_index_correction
    from models.rules import describe

    row = set_index_correction(code, year, value, entered_by=who(), reason=source)
    print(f"{code} {year}: correção de {describe.percent(row.rate)} gravada ({who()}, fonte: {source}).")
    return 0


def _list(as_json: bool) -> int:
    import datetime as dt

    from models.base.money import format_brl
    from models.billing.fiscal import index_corrections, index_factor, unit_value_rows
    from models.rules import describe

    units = _declared_units()
    indexes = _declared_indexes()
    year = dt.date.today().year
    data: dict[str, list[dict[str, Any]]] = {"units": [], "indexes": []}
    for code, regimes in sorted(units.items()):
        rows = unit_value_rows(code)
        data["units"].append(
            {
                "code": code,
                "name": regimes[0].unit(code).name,
                "regimes": [r.id for r in regimes],
                "values": [
                    {
                        "year": r.year,
                        "value": str(r.value),
                        "origin": r.origin,
                        "source": r.source,
                        "file_value": str(r.file_value) if r.file_value is not None else None,
                        "fixed_by": list(r.fixed_by),
                    }
                    for r in rows
                ],
            }
        )
    for code, found in sorted(indexes.items()):
        base = min(index.base_year for _r, index in found)
        corrections = index_corrections(code)
        factor = index_factor(code, base, year)
        data["indexes"].append(
            {
                "code": code,
                "name": found[0][1].name,
                "base_year": base,
                "regimes": [r.id for r, _i in found],
                "corrections": [
                    {
                        "year": y,
                        "percent": str(row.rate * 100),
                        "percent_text": describe.percent(row.rate),
                        "entered_by": row.entered_by,
                        "source": row.reason,
                    }
                    for y, row in corrections.items()
                ],
                "factor": {
                    "year": year,
                    "value": str(factor.factor),
                    "formula": factor.formula,
                    "missing": list(factor.missing),
                },
            }
        )
    if as_json:
        print(json.dumps(data, ensure_ascii=False, indent=2))
        return 0
    for unit in data["units"]:
        print(f"{unit['code']} — {unit['name']} (regimes: {', '.join(unit['regimes'])})")
        if not unit["values"]:
            print(f"   sem valor: cadastre com  praca units set {unit['code']} {year} VALOR --source TEXTO")
        for row in unit["values"]:
            origin = "ato" if row["origin"] == "ato" else "cadastro"
            print(f"   {row['year']}: {format_brl(row['value'])}  [{origin}] {row['source']}")
    for index in data["indexes"]:
        print(
            f"{index['code']} — {index['name']} (valores de {index['base_year']}; regimes: "
            f"{', '.join(index['regimes'])})"
        )
        for row in index["corrections"]:
            print(
                f"   {row['year']}: {row['percent_text']}"
                f"  ({row['entered_by']}{' — fonte: ' + row['source'] if row['source'] else ''})"
            )
        factor = index["factor"]
        if factor["missing"]:
            print(
                f"   faltam as correções de {', '.join(str(y) for y in factor['missing'])}: cadastre com  "
                f"praca units set-index {index['code']} ANO PERCENTUAL --source TEXTO"
            )
        else:
            print(f"   fator acumulado {index['base_year']}→{factor['year']}: {factor['formula']}")
    return 0
