"""``praca regimes [--show ID] [--json]`` — the regimes, and each one in readable pt-BR.

Without ``--show``: one line per regime (``ID  Município/UF — ato``). With
``--show ID``: the whole act in text — units and values, permit kinds with
their rules and documents, lines and sections, equipment, fees, venues,
infractions, ladders and deadlines — each item with its id (what the other
commands take) and its full citation. ``--json`` gives the same as data
(``models.regimes.regime_to_dict``).

The sentences come from ``models.describe`` (shared with the screens and the
reports); this module only lays them out as text.
"""

from __future__ import annotations

import argparse
import json

from models import describe
from models.errors import UserError
from models.money import format_brl, format_decimal_br
from models.regimes import Regime, load_regimes, regime_to_dict

INDENT = "  "


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--show", metavar="ID",
                        help="mostra um regime por extenso, com os ids que os outros comandos aceitam")
    parser.add_argument("--json", action="store_true", help="saída em JSON")
    parser.epilog = "Exemplos:\n  praca regimes\n  praca regimes --show sao-bento-2026\n  praca regimes --show sjc-2014 --json"


def run(args: argparse.Namespace) -> int:
    regimes = load_regimes()
    if args.show is None:
        ordered = sorted(regimes.values(), key=lambda r: r.id)
        if args.json:
            _print_json([dict(id=r.id, municipality=r.municipality, state=r.state, act=r.act, short=r.short)
                         for r in ordered])
        else:
            print(listing(ordered), end="")
        return 0
    regime = regimes.get(args.show.strip())
    if regime is None:
        raise UserError(f"Regime '{args.show}' não existe. Regimes disponíveis: {', '.join(sorted(regimes))}.",
                        field="regime")
    if args.json:
        _print_json(regime_to_dict(regime))
    else:
        print(regime_text(regime), end="")
    return 0


def _print_json(data) -> None:
    print(json.dumps(data, ensure_ascii=False, indent=2))


def listing(regimes) -> str:
    """``ID  Município/UF — ato``, one line each, the ids aligned."""
    regimes = list(regimes)
    width = max((len(r.id) for r in regimes), default=0)
    return "".join(f"{r.id.ljust(width)}  {r.municipality}/{r.state} — {r.act}\n" for r in regimes)


# --------------------------------------------------------------------------- --show


class _Text:
    """Collects the lines of the text: headings, items and their indented details."""

    def __init__(self) -> None:
        self.lines: list[str] = []

    def heading(self, title: str, option: str | None = None) -> None:
        if self.lines:
            self.lines.append("")
        self.lines.append(title.upper())
        self.lines.append("=" * len(title))
        if option:
            self.lines.append(f"{INDENT}(o id entre colchetes é o que {option} aceita)")

    def sub(self, title: str) -> None:
        self.lines.append("")
        self.lines.append(title)

    def item(self, text: str, level: int = 1) -> None:
        self.lines.append(f"{INDENT * level}{'• ' if level == 1 else '- '}{text}")

    def line(self, text: str, level: int = 1) -> None:
        self.lines.append(f"{INDENT * level}{text}")

    def text(self) -> str:
        return "\n".join(self.lines) + "\n"


def _id(value: str) -> str:
    return f"[{value}]"


def _holders(values) -> str:
    return ", ".join(describe.HOLDERS.get(h, h) for h in values)


def regime_text(regime: Regime) -> str:
    """The whole regime in readable pt-BR, every item with its id and full citation."""
    out = _Text()
    out.lines.append(f"{regime.municipality}/{regime.state} — {regime.act}")
    out.lines.append(f"id: {regime.id} · citado como: {regime.short} · publicado em {regime.published:%d/%m/%Y}")
    out.lines.append("Âmbito: " + ", ".join(describe.SCOPES.get(s, s) for s in regime.scope))
    out.lines.append("")
    out.lines.append(regime.summary)
    _units(out, regime)
    _permits(out, regime)
    _lines_sections(out, regime)
    _equipment(out, regime)
    _fees(out, regime)
    _venues(out, regime)
    _infractions(out, regime)
    _ladders(out, regime)
    _deadlines(out, regime)
    _others(out, regime)
    return out.text()


def _units(out: _Text, regime: Regime) -> None:
    out.heading("Unidades fiscais e valores")
    if not regime.units:
        out.line("Valores em reais (R$).")
    for unit in regime.units:
        out.item(f"{unit.code} — {unit.name} — {regime.cite_item(unit)}")
        if not unit.values:
            out.line("O ato não fixa o valor: cadastre-o em Cadastros → Unidades fiscais antes de calcular.", 2)
        for value in unit.values:
            source = regime.cite(value.basis) if value.basis else (value.source or regime.cite_item(unit))
            out.item(f"{value.year}: {format_brl(value.value)} ({source})", 2)
    if regime.units:
        out.line("Valores do ato; um valor cadastrado no banco (Cadastros → Unidades fiscais) prevalece no cálculo.")
    for index in regime.indexes:
        out.item(f"Índice {index.code} — {index.name}: valores do ato de {index.base_year}, corrigidos "
                 f"— {regime.cite_item(index)}")


def _permits(out: _Text, regime: Regime) -> None:
    out.heading("Tipos de permissão")
    if not regime.permit_kinds:
        out.line("O ato não define tipos de permissão.")
    for kind in regime.permit_kinds:
        out.sub(f"{kind.label} {_id(kind.id)}")
        out.line(f"{kind.instrument[:1].upper()}{kind.instrument[1:]} · titular: {_holders(kind.holder)} "
                 f"— {regime.cite_item(kind)}")
        if kind.validity is not None:
            out.line(f"Validade: {describe.validity(kind.validity)} — {regime.cite_item(kind.validity)}")
        if kind.renewal is not None:
            r = kind.renewal
            if r.until_month_day:
                when = f"até {r.until_month_day[3:]}/{r.until_month_day[:2]}"
            else:
                when = f"entre {r.from_days_before} e {r.to_days_before} dias antes do vencimento"
            out.line(f"Renovação: {when} — {regime.cite_item(r)}")
        if kind.startup is not None:
            s = kind.startup
            extra = ", prorrogável uma vez" if s.extendable_once else ""
            out.line(f"Início da atividade: {describe.period(s.days)}{extra} — {regime.cite_item(s)}")
        if kind.leave is not None:
            lv = kind.leave
            out.line(f"Afastamento: até {lv.max_days_per_year} dias por ano — {regime.cite_item(lv)}")
        if kind.rules:
            out.line("Requisitos:")
            for rule in kind.rules:
                out.item(f"{describe.rule(rule, regime)} — {regime.cite_item(rule)}", 2)
        if kind.documents:
            out.line("Documentos:")
            for doc_id in kind.documents:
                doc = regime.document(doc_id)
                extra = f" (validade de {doc.validity_months} meses)" if doc.validity_months else ""
                who = f" [{_holders(doc.applies_to)}]" if doc.applies_to else ""
                out.item(f"{doc.label}{extra}{who} {_id(doc.id)} — {regime.cite_item(doc)}", 2)
                if doc.condition:
                    out.line(doc.condition, 3)
        if kind.fees:
            out.line("Preços e taxas: " + ", ".join(kind.fees))
        if kind.schedule:
            out.line(f"Calendário: {kind.schedule}")


def _lines_sections(out: _Text, regime: Regime) -> None:
    if not (regime.lines or regime.sections or regime.groups):
        return
    out.heading("Ramos e seções")
    if regime.groups:
        out.sub("Grupos")
        for group in regime.groups:
            out.item(f"Grupo {group.number}: {group.label} {_id(group.id)} — {regime.cite_item(group)}")
    if regime.lines:
        out.sub("Ramos (o id entre colchetes é o que praca quote --line aceita)")
        for line in regime.lines:
            size = (f", {describe.metres(line.front)} × {describe.metres(line.depth)}"
                    if line.front is not None and line.depth is not None else "")
            group = f", grupo {regime.group(line.group).number}" if line.group else ""
            out.item(f"{line.label} {_id(line.id)}{size}{group} — {regime.cite_item(line)}")
    if regime.sections:
        out.sub("Seções")
        for section in regime.sections:
            parts = [f"Seção {section.numeral}: {section.label} {_id(section.id)}"]
            place = []
            if section.side:
                place.append(describe.SIDES.get(section.side, section.side))
            if section.order is not None:
                place.append(f"posição {section.order}")
            if section.colour is not None:
                place.append(f"cor {section.colour.name} ({regime.cite_item(section.colour)})")
            if place:
                parts.append(", ".join(place))
            out.item(" · ".join(parts) + f" — {regime.cite_item(section)}")
            if section.lines:
                out.line("Ramos: " + ", ".join(section.lines), 2)
            if section.fire_rules:
                basis = regime.cite(section.fire_rules_basis) if section.fire_rules_basis else regime.short
                out.line(f"Segue as normas do Corpo de Bombeiros — {basis}", 2)


def _equipment(out: _Text, regime: Regime) -> None:
    out.heading("Equipamentos", "praca quote --equipment")
    if not regime.equipment_kinds:
        out.line("O ato não define tipos de equipamento.")
    for eq in regime.equipment_kinds:
        sizes = []
        if eq.front is not None:
            sizes.append(f"{describe.metres(eq.front)} × {describe.metres(eq.depth)}")
        if eq.handle is not None:
            sizes.append(f"alça {describe.metres(eq.handle)}")
        if eq.max_front is not None:
            sizes.append(f"frente até {describe.metres(eq.max_front)}")
        if eq.max_depth is not None:
            sizes.append(f"profundidade até {describe.metres(eq.max_depth)}")
        if eq.has_hitch:
            sizes.append("com engate")
        extra = f" ({', '.join(sizes)})" if sizes else ""
        out.item(f"{eq.label} {_id(eq.id)}{extra} — {regime.cite_item(eq)}")


def _fees(out: _Text, regime: Regime) -> None:
    out.heading("Preços e taxas")
    if not regime.fees:
        out.line("O ato não fixa preços nem taxas.")
    for fee in regime.fees:
        out.sub(f"{fee.label} {_id(fee.id)}")
        out.line(f"{describe.FEE_KINDS.get(fee.kind, fee.kind)[:1].upper()}"
                 f"{describe.FEE_KINDS.get(fee.kind, fee.kind)[1:]} — {regime.cite_item(fee)}")
        if fee.admin_defined:
            out.line("Valor definido pela Administração: informe-o antes de calcular.")
        if fee.kind == "linear-metre":
            formula = f"V = {format_decimal_br(fee.coefficient, 2)} × {fee.unit} × ML × (1 − D)"
            out.line(formula)
            if fee.min_metres is not None:
                basis = regime.cite(fee.min_metres_basis) if fee.min_metres_basis else regime.cite_item(fee)
                out.item(f"Mínimo de {describe.metres(fee.min_metres)} — {basis}")
            if fee.hitch_counts:
                basis = regime.cite(fee.hitch_basis) if fee.hitch_basis else regime.cite_item(fee)
                out.item(f"O engate conta na metragem — {basis}")
            for discount in fee.discounts:
                out.item(f"D = {describe.percent(discount.rate)}: {discount.label} {_id(discount.id)} "
                         f"— {regime.cite_item(discount)}")
        elif fee.kind == "energy":
            for tier in fee.tiers:
                expected = f" = {format_brl(tier.expected)}" if tier.expected is not None else ""
                out.item(f"{tier.label} (--energy {tier.id}): {format_decimal_br(tier.factor, 2)} × {fee.unit}"
                         f"{expected} — {regime.cite_item(tier)}")
        elif fee.kind == "per-area-month":
            out.line(f"{describe.amount(fee.rate)} por m² ao mês"
                     + (" (área do ramo)" if fee.area == "line" else "")
                     + (f"; corrigido pelo {fee.index}" if fee.index else ""))
            if fee.arrears is not None:
                a = fee.arrears
                sanction = describe.SANCTIONS.get(a.sanction, a.sanction)
                out.item(f"{a.months} meses{' consecutivos' if a.consecutive else ''} sem pagar: {sanction} "
                         f"— {regime.cite_item(a)}")
        elif fee.kind == "venue-table":
            out.line("Valores por imóvel: veja \"Imóveis\" abaixo.")
        elif fee.amount is not None:
            per = f" {describe.PER.get(fee.per, fee.per)}" if fee.per else ""
            out.line(f"{describe.amount(fee.amount)}{per}")
        if fee.due is not None:
            due = fee.due
            if due.date is not None:
                when = f"até {due.date:%d/%m/%Y}"
            elif due.day_of_month is not None:
                when = f"até o dia {due.day_of_month} de cada mês"
            else:
                when = f"em até {due.days_after_issue} dias após a emissão da guia"
            out.line(f"Vencimento: {when} — {regime.cite_item(due)}")


def _venues(out: _Text, regime: Regime) -> None:
    venues = [(fee, venue) for fee in regime.fees for venue in fee.venues]
    if not venues:
        return
    out.heading("Imóveis", "praca quote --venue")
    for fee, venue in venues:
        out.item(f"{venue.label} {_id(venue.id)} — {regime.cite_item(venue)}")
        out.line(f"Menos de {venue.min_days} dias: {describe.amount(venue.one_day)} por dia; "
                 f"a partir de {venue.min_days} dias: {describe.amount(venue.per_day)} por dia", 2)
        if venue.deposit is not None:
            out.line(f"Caução (restituível): {describe.amount(venue.deposit)}", 2)
        out.line(f"Preço: {fee.label} [{fee.id}]", 2)


def _infractions(out: _Text, regime: Regime) -> None:
    out.heading("Infrações")
    if not regime.infractions:
        out.line("O ato não tipifica infrações.")
    for inf in regime.infractions:
        severity = f" ({describe.SEVERITIES.get(inf.severity, inf.severity)})" if inf.severity else ""
        out.item(f"{inf.label}{severity} {_id(inf.code)} — infringe {regime.cite(inf.article)}")
        if inf.fine is not None:
            out.line(f"Multa: {describe.fine(inf.fine)} — {regime.cite_item(inf.fine)}", 2)
        if inf.ladder:
            ladder = regime.ladder(inf.ladder)
            out.line(f"Gradação: {ladder.label} [{ladder.id}]", 2)
        for sanction in inf.sanctions:
            out.line(f"{describe.sanction(sanction)} — {regime.cite_item(sanction)}", 2)
        out.line(f"Penalidade prevista em: {regime.cite_item(inf)}", 2)


def _ladders(out: _Text, regime: Regime) -> None:
    if not regime.ladders:
        return
    out.heading("Gradações de penalidades")
    for ladder in regime.ladders:
        out.sub(f"{ladder.label} {_id(ladder.id)}")
        window = (f" · reincidência em {ladder.recurrence_window_days} dias"
                  if ladder.recurrence_window_days else "")
        out.line(f"{regime.cite_item(ladder)}{window}")
        for n, step in enumerate(ladder.steps):
            last = " e seguintes" if n == len(ladder.steps) - 1 else ""
            out.item(f"{step.offence}ª ocorrência{last}:")
            for sanction in step.sanctions:
                out.item(f"{describe.sanction(sanction)} — {regime.cite_item(sanction)}", 2)


def _deadlines(out: _Text, regime: Regime) -> None:
    out.heading("Prazos")
    if not regime.deadlines:
        out.line("O ato não fixa prazos.")
    for d in regime.deadlines:
        direction = "antes" if d.direction == "before" else "contado"
        out.item(f"{d.label} {_id(d.id)}: {describe.deadline(d)}, {direction} {describe.event(d.from_)} "
                 f"— {regime.cite_item(d)}")


def _others(out: _Text, regime: Regime) -> None:
    if regime.schedules:
        out.heading("Calendários")
        for s in regime.schedules:
            out.item(f"{s.label} {_id(s.id)} — {regime.cite_item(s)}")
    if regime.sites:
        out.heading("Locais")
        for s in regime.sites:
            out.item(f"{s.label} {_id(s.id)} — {regime.cite_item(s)}")
    seizure = regime.seizure
    if seizure is not None:
        out.heading("Apreensão")
        out.line(regime.cite_item(seizure))
        if seizure.depot_fee is not None:
            fee = seizure.depot_fee
            value = ("definida pela Administração" if fee.admin_defined
                     else f"{describe.amount(fee.amount)} {describe.PER.get(fee.per, fee.per or '')}".strip())
            out.item(f"Taxa de depósito: {value} — {regime.cite_item(fee)}")
        for label, period in (("Retirada de perecíveis", seizure.reclaim_perishable),
                              ("Retirada dos demais bens", seizure.reclaim_other)):
            if period is not None:
                value = ("definida pela Administração" if period.admin_defined
                         else describe.period(period.days, period.hours))
                out.item(f"{label}: {value} — {regime.cite_item(period)}")
        for rule in (seizure.donation, seizure.release):
            if rule is not None:
                out.item(f"{rule.text} — {regime.cite_item(rule)}")
    if regime.prohibitions:
        out.heading("Proibições")
        for p in regime.prohibitions:
            out.item(f"{p.label} {_id(p.id)} — {regime.cite_item(p)}")
    if regime.duties:
        out.heading("Obrigações")
        for p in regime.duties:
            out.item(f"{p.label} {_id(p.id)} — {regime.cite_item(p)}")
