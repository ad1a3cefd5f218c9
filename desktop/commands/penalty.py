"""``praca penalty --regime ID --infraction CODE … [--prior N | --prior-date DATA …] [--year AAAA] [--json]``.

The sanction an act sets, as ``models.enforcement.sanctions.propose_sanction`` proposes it,
fed with the fiscal-unit values and index corrections kept in the database
(they prevail over the regime files, as in ``praca quote``). Codes are the
regime's infraction codes: ``praca regimes --show ID`` lists them. With
``--prior-date`` (repeatable: the dates of earlier offences of the same
nature) the engine counts the recurrence within the act's window itself — in
calendar years — and says which dates counted and why. Sanctions the act
leaves to the authority, or ties to a fact, are shown as proposed, with what
they wait for; in ``--json`` each sanction has ``discretionary``,
``condition`` and ``decision``.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json

from desktop.commands import readings
from desktop.commands.quote import index_hint, unit_hint
from models.base.errors import UserError
from models.enforcement.penalty_inputs import check_codes, parse_prior, parse_prior_dates
from models.rules.fees.typed import parse_year

LOGIN = False  # computes from the acts only


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--regime", metavar="ID", help="o regime (obrigatório; praca regimes lista os ids)")
    parser.add_argument(
        "--infraction",
        metavar="CÓDIGO",
        action="append",
        dest="infractions",
        help="código da infração (pode repetir: infrações simultâneas); praca regimes --show ID lista os códigos",
    )
    parser.add_argument(
        "--prior",
        metavar="N",
        default=None,
        help="ocorrências anteriores da mesma natureza dentro do prazo de reincidência (padrão: 0)",
    )
    parser.add_argument(
        "--prior-date",
        metavar="[CÓDIGO=]DATA",
        action="append",
        dest="prior_dates",
        help="data de uma infração anterior da mesma natureza (pode repetir); o prazo de "
        "reincidência do ato é contado aqui, em anos civis. Com mais de uma infração, "
        "CÓDIGO=DATA diz de qual",
    )
    parser.add_argument("--year", metavar="AAAA", help="ano dos valores da unidade fiscal (padrão: o da data)")
    parser.add_argument("--date", metavar="DATA", help="data da infração, AAAA-MM-DD ou DD/MM/AAAA (padrão: hoje)")
    parser.add_argument(
        "--input",
        metavar="NOME=VALOR",
        action="append",
        dest="asked",
        help="valor que a fórmula de uma multa pede (o valor da licença de que a multa é uma parte…), dentro dos "
        "limites do ato (pode repetir)",
    )
    parser.add_argument(
        "--permit",
        metavar="NÚMERO",
        help='a permissão do infrator (AAAA/NNNNN): o preço do ato de que a multa é uma parte (fee = "id" no '
        "arquivo) é calculado com os dados dela, em vez de pedido",
    )
    readings.add_arguments(parser)
    parser.add_argument("--json", action="store_true", help="saída em JSON")
    parser.epilog = (
        "Exemplos:\n"
        "  praca penalty --regime olimpia-2025 --infraction ambulante-sem-autorizacao\n"
        "  praca penalty --regime olimpia-2025 --infraction geral-sem-penalidade --prior 2 --json\n"
        "  praca penalty --regime olimpia-2025 --infraction geral-sem-penalidade --date 02/04/2026 "
        "--prior-date 15/05/2024 --prior-date 01/03/2020\n"
        "  praca penalty --regime sapezal-2014 --infraction dever-40-i --infraction proibido-44-i --year 2026\n"
        "  praca penalty --regime sjc-2014 --infraction CODIGO --prior-date 10/01/2019 "
        "--reading reincidencia-prazo=cinco-anos"
    )


def run(args: argparse.Namespace) -> int:
    from desktop.paths import open_for_computing
    from models.billing.charges.month import permit_fee_lines
    from models.billing.fiscal import unit_overrides
    from models.billing.pricing import FACTOR_PLACES, regime_index_factors
    from models.enforcement.sanctions import fine_fees, in_reais, propose_sanction
    from models.permits import find_permit
    from models.rules.deadlines import parse_moment
    from models.rules.fees.typed import parse_asked
    from models.rules.regimes import MissingUnitValue, shipped_regimes
    from models.store.bootstrap import close_database

    if not (args.regime or "").strip():
        raise UserError(
            "Informe o regime: --regime ID (disponíveis: " + ", ".join(sorted(shipped_regimes())) + ").", field="regime"
        )
    on = dt.date.today()
    if args.date is not None:
        moment = parse_moment(args.date, what="Data da infração")
        on = moment.date() if isinstance(moment, dt.datetime) else moment
    from desktop.paths import installed_regime

    regime = installed_regime(getattr(args, "db", None), args.regime.strip(), on)  # in force on the infraction's day
    codes = check_codes(regime, args.infractions)
    if args.prior is not None and args.prior_dates:
        raise UserError("Use --prior (o número) ou --prior-date (as datas), não os dois.", field="prior")
    prior = (
        parse_prior_dates(args.prior_dates, codes, regime)
        if args.prior_dates
        else parse_prior(args.prior if args.prior is not None else "0")
    )
    year = parse_year(args.year) if args.year is not None else on.year
    choices = readings.choices(args)

    open_for_computing(getattr(args, "db", None))
    try:
        factors = regime_index_factors(regime, year)
        permit = find_permit(args.permit) if (getattr(args, "permit", None) or "").strip() else None
        if permit is not None and permit.regime != regime.id:
            raise UserError(f"A permissão nº {permit.number} é do regime {permit.regime}, não do {regime.id}.")
        fees = fine_fees(regime, codes)
        usable = {code: f.factor.quantize(FACTOR_PLACES) for code, f in factors.items() if not f.missing}
        proposal = propose_sanction(
            regime,
            codes,
            on=on,
            prior=prior,
            year=year,
            unit_values=unit_overrides(regime.id),
            index_factors=usable,
            readings=choices,
            asked=parse_asked(getattr(args, "asked", None)),
            permit_fees=permit_fee_lines(regime, permit, fees, on) if permit is not None and fees else None,
            permit=permit.number if permit is not None else None,
        )
        proposal = in_reais(proposal, regime)  # where a rule of the act converts its money, as praca quote
    except MissingUnitValue as exc:
        raise UserError(f"{exc.message} {unit_hint(args, exc.code, exc.year)}", field=exc.field) from None
    except UserError as exc:
        missing = [f for f in factors.values() if f.missing] if exc.field == "index_factor" else []
        if not missing:
            raise
        f = missing[0]
        years = ", ".join(str(y) for y in f.missing)
        raise UserError(
            f"Falta a correção do {f.index} para {years}: a multa é de {f.base_year} e é corrigida anualmente "
            f"({regime.cite_item(regime.penalties.index)}). Cadastre a correção do {f.index}, ou calcule para "
            f"{f.base_year} (--year {f.base_year}). " + index_hint(args, f.index, f.missing),
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


def _sanction_lines(regime, s) -> list[str]:
    from models.enforcement.sanctions import sanction_lines

    out = [("   " * indent) + text if indent else text for indent, text in sanction_lines(s)]
    if s.kind == "suspension" and s.days is not None:
        out.insert(1, f"   Prazo: {s.days} dias")
    for deadline_id in s.deadlines:
        d = regime.deadline(deadline_id)
        out.append(
            f"   Prazo legal: {d.label} [{d.id}] (praca deadline --regime {regime.id} --kind {d.id} --from DATA)"
        )
    return out


def proposal_text(regime, proposal) -> str:
    """The proposal in pt-BR: one block per infraction, its sanctions numbered, then the totals."""
    out = [
        f"Regime: {regime.municipality}/{regime.state} — {regime.act} ({regime.id})",
        f"Data da infração: {proposal.on:%d/%m/%Y} · valores de {proposal.year}",
    ]
    for note in proposal.notes:
        out.append(f"Observação: {note}")
    if proposal.readings:
        from models.rules.silences import lines

        out.append("")
        out.extend(lines(proposal.readings))
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
        out.append(f"Multas impostas: {proposal.money(proposal.total)}")
    if proposal.total_proposed > 0:
        out.append(
            f"Multas propostas, à espera da decisão da autoridade ou do fato: {proposal.money(proposal.total_proposed)}"
        )
    for pending in proposal.pending:
        out.append(f"A decidir: {pending}")
    return "\n".join(out) + "\n"
