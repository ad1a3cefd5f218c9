"""The references between a regime's items: every id, code or unit an item names is declared in the file."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from models.rules.regimes.errors import RegimeError
from models.rules.regimes.fee_formulas import FeeProgram, compile_fee, fee_circles, fee_value_mistakes
from models.rules.regimes.model import Amount, Sanction
from models.rules.regimes.reader import FOUND, Node, meant, show
from models.rules.regimes.regime import Regime
from models.rules.regimes.vocabulary import PROCESS_ROLES


def check_references(regime: Regime, root: Node) -> None:
    file = root.file

    found = FOUND.get()

    def fail(key: str, reason: str) -> None:
        """Checking a whole file: record the mistake and go on to the next reference; else stop at it."""
        if found is None:
            raise RegimeError(reason, file=file, key=key)
        found.append(RegimeError(reason, file=file, key=key))

    units = set(regime.units_by_code) | {"BRL"}
    indexes = {i.code for i in regime.indexes}
    documents = {d.id for d in regime.documents}
    equipment = {e.id for e in regime.equipment_kinds}
    groups = {g.id for g in regime.groups}
    lines = {line.id for line in regime.lines}
    fees = {f.id for f in regime.fees}
    schedules = {s.id for s in regime.schedules}
    ladders = {ladder.id for ladder in regime.ladders}

    def check_amount(amount: Amount | None, key: str) -> None:
        if amount is not None and amount.unit not in units:
            fail(
                f"{key}.unit",
                f'unidade {show(amount.unit)} não declarada em [[units]] (nem "BRL")' + meant(amount.unit, units),
            )

    def check_ids(values: Iterable[str], known: set[str], key: str, what: str) -> None:
        for i, value in enumerate(values):
            if value not in known:
                fail(f"{key}[{i}]", f"{what} {show(value)} não existe neste regime{meant(value, known)}")

    for i, line in enumerate(regime.lines):
        if line.group is not None and line.group not in groups:
            fail(f"lines[{i}].group", f"grupo {show(line.group)} não existe em [[groups]]")
    numbers: dict[int, int] = {}
    for i, group in enumerate(regime.groups):
        if group.number in numbers:
            fail(f"groups[{i}].number", f"número {group.number} repetido (já em groups[{numbers[group.number]}])")
        numbers[group.number] = i
    positions: dict[tuple[str, int], int] = {}
    numerals: dict[str, int] = {}
    for i, section in enumerate(regime.sections):
        check_ids(section.lines, lines, f"sections[{i}].lines", "ramo")
        if section.numeral in numerals:
            fail(
                f"sections[{i}].numeral",
                f"numeral {section.numeral} repetido (já em sections[{numerals[section.numeral]}])",
            )
        numerals[section.numeral] = i
        if section.side and section.order is not None:
            slot = (section.side, section.order)
            if slot in positions:
                fail(
                    f"sections[{i}].order",
                    f"posição {section.order} do lado {section.side} repetida (já em sections[{positions[slot]}])",
                )
            positions[slot] = i
    rule_readings: dict[tuple[str, str | None, str | None, str, str | None], tuple[tuple[bool, bool], str]] = {}
    for i, kind in enumerate(regime.permit_kinds):
        key = f"permit_kinds[{i}]"
        check_ids(kind.documents, documents, f"{key}.documents", "documento")
        check_ids(kind.fees, fees, f"{key}.fees", "preço/taxa")
        if kind.schedule is not None and kind.schedule not in schedules:
            fail(
                f"{key}.schedule",
                f"calendário {show(kind.schedule)} não existe em [[schedules]]{meant(kind.schedule, schedules)}",
            )
        for j, rule in enumerate(kind.rules):
            if rule.kind == "document" and rule.document not in documents:
                fail(f"{key}.rules[{j}].document", f"documento {show(rule.document)} não existe em [[documents]]")
            # one article repeated over several kinds is one rule: its readings must agree
            same = (rule.kind, rule.scope, rule.after, rule.basis, rule.basis_act)
            flags = (rule.more_than, rule.same_site)
            if same in rule_readings and rule_readings[same][0] != flags:
                first_flags, where = rule_readings[same]
                name = "more_than" if first_flags[0] != flags[0] else "same_site"
                fail(
                    f"{key}.rules[{j}].{name}",
                    f"a mesma regra ({show(rule.kind)}, {rule.basis}) está em {where} com outro valor de {name}",
                )
            rule_readings.setdefault(same, (flags, f"{key}.rules[{j}]"))
    venue_ids: dict[str, str] = {}
    # an option of the act's lists (a venue, a tier) is one option in every fee's table that lists it: one name
    options: dict[tuple[str, str], tuple[str, str]] = {}
    for i, fee in enumerate(regime.fees):
        key = f"fees[{i}]"
        for table in fee.tables:
            if table.choice is None:
                continue
            here: set[str] = set()
            for row in table.rows:  # named by its id: a broken row before it is not in the table read
                if row.id in here:  # an id repeated in its table: that is the mistake (reported there)
                    continue
                here.add(row.id or "")
                where, label = f"{key}.tables.{table.name}.rows.{row.id}", row.label or ""
                first = options.setdefault((table.choice, row.id or ""), (label, where))
                if first[0] != label:
                    fail(f"{where}.label", f'a opção {show(row.id)} tem outro nome noutra tabela: "{first[0]}"')
        if fee.year is not None and fee.year < regime.published.year:
            fail(f"{key}.year", f"{fee.year} é anterior à publicação do ato ({regime.published.year})")
        if fee.unit is not None and fee.unit not in units:
            fail(f"{key}.unit", f'unidade {show(fee.unit)} não declarada em [[units]] (nem "BRL")')
        if fee.index is not None and fee.index not in indexes:
            fail(f"{key}.index", f"índice {show(fee.index)} não declarado em [[indexes]]")
        check_amount(fee.rate, f"{key}.rate")
        check_amount(fee.amount, f"{key}.amount")
        for j, discount in enumerate(fee.discounts):
            check_ids(discount.when.equipment, equipment, f"{key}.discounts[{j}].when.equipment", "equipamento")
            check_ids(discount.when.lines, lines, f"{key}.discounts[{j}].when.lines", "ramo")
        for j, tier in enumerate(fee.tiers):
            check_ids(tier.equipment, equipment, f"{key}.tiers[{j}].equipment", "equipamento")
        for j, exemption in enumerate(fee.exemptions):
            if exemption.document is not None and exemption.document not in documents:
                fail(
                    f"{key}.exemptions[{j}].document",
                    f"documento {show(exemption.document)} não existe em [[documents]]",
                )
            check_ids(exemption.waives_documents, documents, f"{key}.exemptions[{j}].waives_documents", "documento")
        for j, venue in enumerate(fee.venues):
            vkey = f"{key}.venues[{j}]"
            if venue.id in venue_ids:
                fail(f"{vkey}.id", f"imóvel {show(venue.id)} repetido (já em {venue_ids[venue.id]})")
            venue_ids[venue.id] = vkey
            check_amount(venue.one_day, f"{vkey}.one_day")
            check_amount(venue.per_day, f"{vkey}.per_day")
            check_amount(venue.deposit, f"{vkey}.deposit")
            # 1 day at one_day; 2 days or more at per_day for at least min_days days: the
            # price must never fall when a day is added (checked when both are in one unit)
            charged = max(venue.min_days, 2)
            if venue.one_day.unit == venue.per_day.unit and venue.one_day.value > charged * venue.per_day.value:
                fail(
                    f"{vkey}.one_day",
                    f"a taxa de 1 dia ({venue.one_day.value} {venue.one_day.unit}) passa do preço de 2 dias "
                    f"({charged} × {venue.per_day.value} {venue.per_day.unit}): 2 dias custariam menos que 1",
                )

    _check_formula_fees(regime, fail)

    deadlines = {d.id: d for d in regime.deadlines}

    def check_sanctions(sanctions: Iterable[Sanction], key: str) -> None:
        for j, sanction in enumerate(sanctions):
            check_amount(sanction.amount, f"{key}[{j}].amount")
            check_amount(sanction.max, f"{key}[{j}].max")
            if sanction.deadline is None:
                continue
            d = deadlines.get(sanction.deadline)
            if d is None:
                fail(
                    f"{key}[{j}].deadline",
                    f"prazo {show(sanction.deadline)} não existe em [[deadlines]]{meant(sanction.deadline, deadlines)}",
                )
                continue
            if d.role != "compliance":
                fail(f"{key}[{j}].deadline", f'o prazo {show(d.id)} não é de regularização (role = "compliance")')
            elif (sanction.comply_days, sanction.comply_hours) != (d.days, d.hours):
                fail(
                    f"{key}[{j}].deadline",
                    f"o prazo {show(d.id)} ({d.days or d.hours} {'horas' if d.hours else 'dias'}) "
                    "difere de comply_days/comply_hours da advertência",
                )

    for i, ladder in enumerate(regime.ladders):
        for j, step in enumerate(ladder.steps):
            check_sanctions(step.sanctions, f"ladders[{i}].steps[{j}].sanctions")
    for i, ladder in enumerate(regime.ladders):
        if ladder.matter is not None and ladder.matter not in regime.scope:
            fail(f"ladders[{i}].matter", f"matéria {show(ladder.matter)} não está no scope do regime")
    for i, deadline in enumerate(regime.deadlines):
        for j, matter in enumerate(deadline.matter):
            if matter not in regime.scope:
                fail(f"deadlines[{i}].matter[{j}]", f"matéria {show(matter)} não está no scope do regime")
    for i, infraction in enumerate(regime.infractions):
        key = f"infractions[{i}]"
        if infraction.matter is not None and infraction.matter not in regime.scope:
            fail(f"{key}.matter", f"matéria {show(infraction.matter)} não está no scope do regime")
        if infraction.ladder is not None and infraction.ladder not in ladders:
            fail(
                f"{key}.ladder",
                f"gradação {show(infraction.ladder)} não existe em [[ladders]]{meant(infraction.ladder, ladders)}",
            )
        if infraction.fine is not None:
            if infraction.fine.amount is not None and infraction.fine.amount.unit not in units:
                fail(
                    f"{key}.fine.unit",
                    f'unidade {show(infraction.fine.amount.unit)} não declarada em [[units]] (nem "BRL")',
                )
            check_amount(infraction.fine.max, f"{key}.fine.max")
        check_sanctions(infraction.sanctions, f"{key}.sanctions")
        if infraction.fine is None and infraction.ladder is not None and infraction.ladder in ladders:
            ladder = regime.ladder(infraction.ladder)
            if any(s.kind == "fine" and s.multiplier is not None for st in ladder.steps for s in st.sanctions):
                fail(
                    f"{key}.fine",
                    f'a gradação {show(ladder.id)} multiplica a multa da infração, mas a infração não tem "fine"',
                )
    for i, deadline in enumerate(regime.deadlines):
        if (
            deadline.role in PROCESS_ROLES
            and deadline.closed_day is None
            and deadline.direction == "after"
            and regime.calendar is None
        ):
            fail(
                f"deadlines[{i}].role",
                f"prazo do processo ({show(deadline.role)}) sem regra para o dia sem expediente: declare "
                "[calendar] closed_day (a do ato, ou a Lei nº 9.784/1999, art. 66, § 1º, subsidiária) ou "
                "closed_day no próprio prazo",
            )
    if regime.penalties and regime.penalties.index and regime.penalties.index.code not in indexes:
        fail("penalties.index.code", f"índice {show(regime.penalties.index.code)} não declarado em [[indexes]]")
    if regime.seizure:
        if regime.seizure.depot_fee:
            check_amount(regime.seizure.depot_fee.amount, "seizure.depot_fee.amount")
        for name in ("donation", "release"):
            rule = getattr(regime.seizure, name)
            if rule is not None:
                check_amount(rule.amount, f"seizure.{name}.amount")


def check_selection_references(regime: Regime, root: Node) -> None:
    """The permit kinds a selection names exist in the regime."""
    selection = regime.selection
    if selection is None:
        return
    kinds = {k.id for k in regime.permit_kinds}
    for i, kind in enumerate(selection.permit_kinds):
        if kind not in kinds:
            raise RegimeError(
                f"tipo de permissão {show(kind)} não existe em [[permit_kinds]]",
                file=root.file,
                key=f"selection.permit_kinds[{i}]",
            )


def check_rule_deadlines(regime: Regime, root: Node) -> None:
    """A rule met later (``due``) names a deadline of the regime."""
    deadlines = {d.id for d in regime.deadlines}
    for i, kind in enumerate(regime.permit_kinds):
        for j, rule in enumerate(kind.rules):
            if rule.due is not None and rule.due not in deadlines:
                raise RegimeError(
                    f"prazo {show(rule.due)} não existe em [[deadlines]]",
                    file=root.file,
                    key=f"permit_kinds[{i}].rules[{j}].due",
                )


def _check_formula_fees(regime: Regime, fail: Callable[[str, str], None]) -> None:
    """Each formula fee against the act (names, units, circles), every mistake at its expression's key."""
    programs: dict[str, FeeProgram] = {}
    positions: dict[str, int] = {}
    for i, fee in enumerate(regime.fees):
        if fee.kind != "formula":
            continue
        program = compile_fee(regime, fee)
        programs[fee.id], positions[fee.id] = program, i
        for key, error in program.errors:
            fail(f"fees[{i}].{key}", f"erro na fórmula, coluna {error.column}: {error.reason}")
        for key, reason in fee_value_mistakes(regime, fee):
            fail(f"fees[{i}].{key}", reason)
    for i, infraction in enumerate(regime.infractions):  # a fine written as a formula: the same language
        fine = infraction.fine
        if fine is None or fine.formula is None:
            continue
        program = compile_fee(regime, fine.as_fee(infraction.code, infraction.label))
        for key, error in program.errors:
            fail(f"infractions[{i}].fine.{key}", f"erro na fórmula, coluna {error.column}: {error.reason}")
        fees = {fee.id for fee in regime.fees}
        for j, item in enumerate(fine.inputs):
            if item.fee_value:
                fail(
                    f"infractions[{i}].fine.inputs[{j}].fee_value",
                    "fee_value só num preço ([[fees]]): a multa que a autoridade fixa é admin_defined = true",
                )
            if item.fee is not None and item.fee not in fees:  # a value that is another fee of the act
                fail(
                    f"infractions[{i}].fine.inputs[{j}].fee",
                    f"preço {show(item.fee)} não existe em [[fees]]{meant(item.fee, fees)}",
                )
    for circle in fee_circles(programs):
        fail(
            f"fees[{positions[circle[0]]}].formula", "preços que somam uns aos outros em círculo: " + " → ".join(circle)
        )
