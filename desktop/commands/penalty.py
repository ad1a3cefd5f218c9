"""``praca penalty --regime ID --infraction CODE … [--prior N] [--year AAAA] [--json]`` — the sanction an act sets.

The proposal comes from ``models.sanctions.propose_sanction`` fed with the
fiscal-unit values and index corrections kept in the database (they prevail
over the regime files, as in ``praca quote``). Codes are the regime's
infraction codes: ``praca regimes --show ID`` lists them.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import re

from desktop.commands.quote import _where, parse_year
from models.errors import UserError
from models.money import format_brl

_WHOLE = re.compile(r"^\s*\d+\s*$")


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--regime", metavar="ID", help="o regime (obrigatório; praca regimes lista os ids)")
    parser.add_argument("--infraction", metavar="CÓDIGO", action="append", dest="infractions",
                        help="código da infração (pode repetir: infrações simultâneas); "
                        "praca regimes --show ID lista os códigos")
    parser.add_argument("--prior", metavar="N", default="0",
                        help="ocorrências anteriores da mesma natureza dentro do prazo de reincidência (padrão: 0)")
    parser.add_argument("--year", metavar="AAAA", help="ano dos valores da unidade fiscal (padrão: o da data)")
    parser.add_argument("--date", metavar="DATA", help="data da infração, AAAA-MM-DD ou DD/MM/AAAA (padrão: hoje)")
    parser.add_argument("--json", action="store_true", help="saída em JSON")
    parser.epilog = (
        "Exemplos:\n"
        "  praca penalty --regime olimpia-2025 --infraction ambulante-sem-autorizacao\n"
        "  praca penalty --regime olimpia-2025 --infraction geral-sem-penalidade --prior 2 --json\n"
        "  praca penalty --regime sapezal-2014 --infraction dever-40-i --infraction proibido-44-i --year 2026"
    )


def parse_prior(text: str) -> int:
    if not _WHOLE.match(text or ""):
        raise UserError(f"Número de ocorrências anteriores inválido: '{text}' (use um número inteiro, 0 ou mais).",
                        field="prior")
    return int(text)


def check_codes(regime, codes: list[str] | None) -> list[str]:
    """The codes as given, each known to the regime; else one line saying where to find them."""
    if not codes:
        raise UserError(f"Informe a infração: --infraction CÓDIGO (os códigos estão em praca regimes --show {regime.id}).",
                        field="infraction")
    known = set(regime.ids("infraction"))
    cleaned = [c.strip() for c in codes]
    repeated = sorted({c for c in cleaned if cleaned.count(c) > 1})
    if repeated:
        raise UserError(f"Infração repetida na mesma autuação: {', '.join(repeated)}.", field="infraction")
    for code in cleaned:
        if code not in known:
            raise UserError(f"Infração '{code}' não existe no regime {regime.id} ({regime.short}): "
                            f"veja os códigos em praca regimes --show {regime.id}.", field="infraction")
    return cleaned


def run(args: argparse.Namespace) -> int:
    from desktop.paths import resolve_db_url
    from models.db import close_database, open_database
    from models.deadlines import parse_moment
    from models.fiscal import unit_overrides
    from models.pricing import FACTOR_PLACES, regime_index_factors
    from models.regimes import MissingUnitValue, get_regime, shipped_regimes
    from models.sanctions import propose_sanction

    if not (args.regime or "").strip():
        raise UserError("Informe o regime: --regime ID (disponíveis: " + ", ".join(sorted(shipped_regimes())) + ").",
                        field="regime")
    regime = get_regime(args.regime.strip())  # an unknown id is refused before any database is touched
    codes = check_codes(regime, args.infractions)
    prior = parse_prior(args.prior)
    on = dt.date.today()
    if args.date is not None:
        moment = parse_moment(args.date, what="Data da infração")
        on = moment.date() if isinstance(moment, dt.datetime) else moment
    year = parse_year(args.year) if args.year is not None else on.year

    open_database(resolve_db_url(getattr(args, "db", None)))
    try:
        factors = regime_index_factors(regime, year)
        usable = {code: f.factor.quantize(FACTOR_PLACES) for code, f in factors.items() if not f.missing}
        proposal = propose_sanction(regime, codes, on=on, prior=prior, year=year,
                                    unit_values=unit_overrides(regime.id), index_factors=usable)
    except MissingUnitValue as exc:
        raise UserError(f"{exc.message} {_where(args, 'Cadastros → Unidades fiscais', f'o valor de {exc.code}')}",
                        field=exc.field) from None
    except UserError as exc:
        missing = [f for f in factors.values() if f.missing] if exc.field == "index_factor" else []
        if not missing:
            raise
        f = missing[0]
        years = ", ".join(str(y) for y in f.missing)
        raise UserError(
            f"Falta a correção do {f.index} para {years}: a multa é de {f.base_year} e é corrigida anualmente "
            f"({regime.cite_item(regime.penalties.index)}). Cadastre a correção do {f.index}, ou calcule para "
            f"{f.base_year} (--year {f.base_year}). "
            + _where(args, "Cadastros → Correção monetária", f"a correção anual do {f.index}"),
            field="index_factor",
        ) from None
    finally:
        close_database()
    if args.json:
        print(json.dumps(proposal.to_dict(), ensure_ascii=False, indent=2))
    else:
        print(proposal_text(regime, proposal), end="")
    return 0


# --------------------------------------------------------------------------- text

_CONDITIONS = {"if-not-complied": "só se a advertência não for atendida no prazo"}


def _sanction_lines(regime, s) -> list[str]:
    head = f"{s.number}. {s.label}"
    if s.kind == "fine" and s.amount is not None:
        head += f": {format_brl(s.amount)}"
    if s.condition:
        head += f" — {_CONDITIONS.get(s.condition, s.condition)}"
    if not s.applied:
        head += " [não aplicada: a critério da autoridade]"
    out = [head]
    if s.formula:
        out.append(f"   Fórmula: {s.formula}")
    out.append(f"   Base legal: {s.basis}")
    if s.kind == "suspension" and s.days is not None:
        out.append(f"   Prazo: {s.days} dias")
    if s.pending:
        out.append(f"   A definir: {s.pending}")
    for detail in s.details:
        out.append(f"     · {detail}")
    for deadline_id in s.deadlines:
        d = regime.deadline(deadline_id)
        out.append(f"   Prazo legal: {d.label} [{d.id}] (praca deadline --regime {regime.id} --kind {d.id} --from DATA)")
    return out


def proposal_text(regime, proposal) -> str:
    """The proposal in pt-BR: one block per infraction, its sanctions numbered, then the totals."""
    out = [f"Regime: {regime.municipality}/{regime.state} — {regime.act} ({regime.id})",
           f"Data da infração: {proposal.on:%d/%m/%Y} · valores de {proposal.year}"]
    for note in proposal.notes:
        out.append(f"Observação: {note}")
    for item in proposal.items:
        out.append("")
        out.append(f"Infração: {item.label} [{item.code}]")
        out.append(f"   Dispositivo infringido: {item.article}")
        out.append(f"   Penalidade: {item.basis}")
        if item.ladder:
            out.append(f"   Gradação: {item.ladder_label} [{item.ladder}] — degrau {item.step}")
        for detail in item.details:
            out.append(f"     · {detail}")
        for s in item.sanctions:
            out.extend(_sanction_lines(regime, s))
    out.append("")
    if any(s.kind == "fine" for s in proposal.sanctions):
        out.append(f"Multas: {format_brl(proposal.total)}")
    if proposal.total_if_not_complied != proposal.total:
        out.append(f"Multas se a advertência não for atendida: {format_brl(proposal.total_if_not_complied)}")
    for pending in proposal.pending:
        out.append(f"A definir pela autoridade: {pending}")
    return "\n".join(out) + "\n"
