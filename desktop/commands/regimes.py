"""``praca regimes [--show ID] [--json]`` — the regimes, and each one in readable pt-BR.

Without ``--show``: one line per regime (``ID  Município/UF — ato``). With
``--show ID``: the whole act in text — units and values, permit kinds with
their rules and documents, lines and sections, equipment, fees, venues,
calendars, sites, layout rules, selection, placard, penalties, infractions,
ladders, deadlines, seizure, prohibitions and duties — each item with its id
(what the other commands take), its full citation and the regime file's notes
("Obs.:"). It says as much as the Regimes screen, in the same words. ``--json`` gives the same as data
(``models.rules.regimes.regime_to_dict``).

The sentences come from ``models.rules.describe`` (shared with the screens and the
reports); this module only lays them out as text.
"""

from __future__ import annotations

import argparse
import json

from models.base.errors import UserError
from models.base.money import format_brl
from models.rules import describe
from models.rules.regimes import Regime, regime_to_dict, shipped_regimes

INDENT = "  "

#: listing, showing and checking compute from the acts only; installing, amending, retiring change them
LOGIN = lambda args: getattr(args, "action", None) in ("install", "amend", "retire")  # noqa: E731


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--show", metavar="ID", help="mostra um regime por extenso, com os ids que os outros comandos aceitam"
    )
    parser.add_argument("--json", action="store_true", help="saída em JSON")
    from desktop.commands import acts

    acts.configure(parser)
    parser.epilog = (
        "Exemplos:\n  praca regimes\n  praca regimes --show sao-bento-2026\n"
        "  praca regimes --show sjc-2014 --json\n" + acts.EXAMPLES
    )


def run(args: argparse.Namespace) -> int:
    if getattr(args, "action", None):
        from desktop.commands import acts

        return acts.run(args)
    from desktop.paths import open_for_computing
    from models.store.bootstrap import close_database

    open_for_computing(getattr(args, "db", None))  # the acts installed in the database every desk shares
    try:
        regimes = shipped_regimes()
        if args.show is not None and args.show.strip() not in regimes:  # a retired act is still shown by its id
            from models.rules.regimes import RegimeError, get_regime

            try:
                regimes[args.show.strip()] = get_regime(args.show.strip())
            except RegimeError:
                pass
    finally:
        close_database()
    if args.show is None:
        ordered = sorted(regimes.values(), key=lambda r: r.id)
        if args.json:
            _print_json(
                [dict(id=r.id, municipality=r.municipality, state=r.state, act=r.act, short=r.short) for r in ordered]
            )
        else:
            print(listing(ordered), end="")
        return 0
    regime = regimes.get(args.show.strip())
    if regime is None:
        raise UserError(
            f"Regime '{args.show}' não existe. Regimes disponíveis: {', '.join(sorted(regimes))}.", field="regime"
        )
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

    def notes(self, text: str, level: int = 1) -> None:
        """The regime file's notes on an item: what the act says that is not modelled."""
        for n, row in enumerate(text.splitlines() if text else []):
            if row.strip():
                self.line(("Obs.: " if n == 0 else "      ") + row.strip(), level)

    def facts(self, facts, level: int = 1) -> None:
        for fact in facts:
            if fact.option:
                ref = f" ({fact.option} {fact.ident})"
            else:
                ref = f" {_id(fact.ident)}" if fact.ident else ""
            self.item(f"{fact.text}{ref}" + (f" — {fact.cite}" if fact.cite else ""), level)
            self.notes(fact.notes, level + 1)
            self.facts(fact.details, level + 1)

    def text(self) -> str:
        return "\n".join(self.lines) + "\n"


def _id(value: str) -> str:
    return f"[{value}]"


def regime_text(regime: Regime) -> str:
    """The whole regime in readable pt-BR, every item with its id, full citation and notes."""
    out = _Text()
    out.lines.append(f"{regime.municipality}/{regime.state} — {regime.act}")
    out.lines.append(f"id: {regime.id} · citado como: {regime.short} · publicado em {regime.published:%d/%m/%Y}")
    if regime.in_force is not None:  # as the regime sheet says it: the article, or that it is unknown
        out.lines.append(f"Em vigor desde {regime.in_force.from_:%d/%m/%Y} ({regime.cite_item(regime.in_force)})")
    out.lines.append("Âmbito: " + ", ".join(describe.SCOPES.get(s, s) for s in regime.scope))
    out.lines.append("")
    out.lines.append(regime.summary)
    out.facts(describe.purpose_facts(regime), 0)
    out.notes(describe.notes(regime), 0)
    _units(out, regime)
    _permits(out, regime)
    _lines_sections(out, regime)
    _equipment(out, regime)
    _fees(out, regime)
    _venues(out, regime)
    _calendars_sites_layout(out, regime)
    _selection(out, regime)
    _placard(out, regime)
    _penalties(out, regime)
    _infractions(out, regime)
    _ladders(out, regime)
    _deadlines(out, regime)
    _others(out, regime)
    _cases(out, regime)
    return describe.with_reais(out.text(), regime.currency, regime.conversion)  # by the act's rule, if it has one


def _units(out: _Text, regime: Regime) -> None:
    out.heading("Unidades fiscais e valores")
    if not regime.units or regime.currency != "R$":
        out.line(describe.currency_text(regime.currency, regime.conversion))
    for unit in regime.units:
        out.item(f"{unit.code} — {unit.name} — {regime.cite_item(unit)}")
        if not unit.values:
            out.line("O ato não fixa o valor: cadastre-o em Cadastros → Unidades fiscais antes de calcular.", 2)
        for value in unit.values:
            source = regime.cite(value.basis) if value.basis else (value.source or regime.cite_item(unit))
            out.item(f"{value.year}: {format_brl(value.value, currency=regime.currency)} ({source})", 2)
        out.notes(describe.notes(unit), 2)
    if regime.units:
        out.line("Valores do ato; um valor cadastrado no banco (Cadastros → Unidades fiscais) prevalece no cálculo.")
    for index in regime.indexes:
        out.item(f"{describe.index_text(index)} — {regime.cite_item(index)}")
        out.notes(describe.notes(index), 2)


def _permits(out: _Text, regime: Regime) -> None:
    out.heading("Tipos de permissão")
    if not regime.permit_kinds:
        out.line("O ato não define tipos de permissão.")
    for kind in regime.permit_kinds:
        out.sub(f"{kind.label} {_id(kind.id)}")
        out.facts(describe.permit_facts(regime, kind))
        if kind.rules:
            out.line("Requisitos:")
            for rule in kind.rules:
                out.item(
                    f"{describe.rule(rule, regime)}{describe.rule_due(rule, regime)} — {regime.cite_item(rule)}", 2
                )
                out.notes(describe.notes(rule), 3)
        if kind.documents:
            out.line("Documentos:")
            for doc_id in kind.documents:
                doc = regime.document(doc_id)
                out.item(f"{describe.document(doc)} {_id(doc.id)} — {regime.cite_item(doc)}", 2)
                out.notes(describe.notes(doc), 3)


def _lines_sections(out: _Text, regime: Regime) -> None:
    if not (regime.lines or regime.sections or regime.groups):
        return
    out.heading("Ramos e seções")
    if regime.groups:
        out.sub("Grupos")
        for group in regime.groups:
            out.item(f"Grupo {group.number}: {group.label} {_id(group.id)} — {regime.cite_item(group)}")
            out.notes(describe.notes(group), 2)
    if regime.lines:
        out.sub("Ramos (o id entre colchetes é o que praca quote --line aceita)")
        for line in regime.lines:
            size = (
                f", {describe.metres(line.front)} × {describe.metres(line.depth)}"
                if line.front is not None and line.depth is not None
                else ", banca sem medida fixada no ato"
            )
            in_group = f", grupo {regime.group(line.group).number}" if line.group else ""
            out.item(f"{line.label} {_id(line.id)}{size}{in_group} — {regime.cite_item(line)}")
            out.notes(describe.notes(line), 2)
    if regime.sections:
        out.sub("Seções")
        for section in regime.sections:
            parts = [f"{describe.section_title(section)} {_id(section.id)}"]
            place = [describe.section_place(section)] if describe.section_place(section) else []
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
            out.notes(describe.notes(section), 2)


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
        out.notes(describe.notes(eq), 2)


def _fees(out: _Text, regime: Regime) -> None:
    out.heading("Preços e taxas")
    if not regime.fees:
        out.line("O ato não fixa preços nem taxas.")
    for fee in regime.fees:
        out.sub(f"{fee.label} {_id(fee.id)}")
        facts = describe.fee_facts(regime, fee)
        if fee.venue_choices():  # the venues have a part of their own, below
            facts = [f for f in facts if f.option != "--venue"]
            facts.append(describe.Fact('Valores por imóvel: veja "Imóveis" abaixo.'))
        out.facts(facts)


def _venues(out: _Text, regime: Regime) -> None:
    venues = [(fee, venue) for fee in regime.fees for venue in fee.venues]
    # a formula fee's table of venues: each venue once, with each fee's values for it
    listed = {choice.id: choice for fee in regime.fees for choice in reversed(fee.choices("venue"))}
    if not venues and not listed:
        return
    out.heading("Imóveis", "praca quote --venue")
    for fee, venue in venues:
        out.item(f"{venue.label} {_id(venue.id)} — {regime.cite_item(venue)}")
        out.line(describe.venue(venue), 2)
        out.line(f"Preço: {fee.label} [{fee.id}]", 2)
        out.notes(describe.notes(venue), 2)
    for choice in dict.fromkeys(c.id for fee in regime.fees for c in fee.choices("venue")):
        option = listed[choice]
        out.item(f"{option.label} {_id(option.id)} — {regime.cite_item(option)}")
        for fee in regime.fees:
            for table in fee.tables:
                if table.choice == "venue" and any(row.id == choice for row in table.rows):
                    out.line(f"{fee.label} [{fee.id}]: {describe.choice_values(table, choice)}", 2)
        out.notes(describe.notes(option), 2)


def _calendars_sites_layout(out: _Text, regime: Regime) -> None:
    if regime.schedules:
        out.heading("Calendários")
        for schedule in regime.schedules:
            out.sub(f"{schedule.label} {_id(schedule.id)} — {regime.cite_item(schedule)}")
            out.facts(describe.schedule_facts(regime, schedule))
            out.notes(describe.notes(schedule))
    if regime.sites:
        out.heading("Locais nomeados pelo ato")
        for site in regime.sites:
            out.item(f"{describe.site(site)} {_id(site.id)} — {regime.cite_item(site)}")
            out.notes(describe.notes(site), 2)
    if regime.layout is not None:
        out.heading("Disposição das bancas")
        out.facts(describe.layout_facts(regime, regime.layout))
        out.notes(describe.notes(regime.layout))


def _selection(out: _Text, regime: Regime) -> None:
    if regime.selection is None:
        return
    out.heading("Seleção dos permissionários")
    out.facts(describe.selection_facts(regime, regime.selection))


def _placard(out: _Text, regime: Regime) -> None:
    if regime.placard is None:
        return
    out.heading("Placa de identificação")
    out.facts(describe.placard_facts(regime, regime.placard))


def _penalties(out: _Text, regime: Regime) -> None:
    if regime.penalties is None:
        return
    out.heading("Penalidades: regras gerais")
    out.facts(describe.penalty_facts(regime, regime.penalties))
    out.notes(describe.notes(regime.penalties))


def _infractions(out: _Text, regime: Regime) -> None:
    out.heading("Infrações", "praca penalty --infraction")
    if not regime.infractions:
        out.line("O ato não tipifica infrações.")
    for inf in regime.infractions:
        severity = f" ({describe.SEVERITIES.get(inf.severity, inf.severity)})" if inf.severity else ""
        out.item(f"{inf.label}{severity} {_id(inf.code)} — infringe {regime.cite(inf.article)}")
        for fact in describe.infraction_facts(regime, inf):
            ref = f" {_id(fact.ident)}" if fact.ident else ""
            out.line(f"{fact.text}{ref}" + (f" — {fact.cite}" if fact.cite else ""), 2)
            out.notes(fact.notes, 3)
            for detail in fact.details:  # what each value of a fine written as a formula is
                out.line(detail.text + (f" — {detail.cite}" if detail.cite else ""), 3)


def _ladders(out: _Text, regime: Regime) -> None:
    if not regime.ladders:
        return
    out.heading("Gradações de penalidades")
    for ladder in regime.ladders:
        out.sub(f"{ladder.label} {_id(ladder.id)}")
        out.facts(describe.ladder_facts(regime, ladder))


def _deadlines(out: _Text, regime: Regime) -> None:
    out.heading("Prazos", "praca deadline --kind")
    if not regime.deadlines:
        out.line("O ato não fixa prazos.")
    for d in regime.deadlines:
        out.item(f"{d.label} {_id(d.id)}: {describe.deadline_text(d, regime)} — {regime.cite_item(d)}")
        out.notes(describe.notes(d), 2)


def _cases(out: _Text, regime: Regime) -> None:
    if not regime.cases:
        return
    out.heading("Casos do ato (conferidos por praca regimes check)")
    for case in regime.cases:
        out.item(f"{describe.case_line(case, regime.currency)} — {regime.cite(case.basis)}")


def _others(out: _Text, regime: Regime) -> None:
    if regime.seizure is not None:
        out.heading("Apreensão")
        out.facts(describe.seizure_facts(regime, regime.seizure))
    if regime.prohibitions:
        out.heading("Proibições")
        for p in regime.prohibitions:
            out.item(f"{p.label} {_id(p.id)} — {regime.cite_item(p)}")
            out.notes(describe.notes(p), 2)
    if regime.duties:
        out.heading("Obrigações")
        for duty in regime.duties:
            out.item(f"{duty.label} {_id(duty.id)} — {regime.cite_item(duty)}")
            out.notes(describe.notes(duty), 2)
