"""A year of enforcement across the regimes, for ``praca demo``.

Over 600 lines and kept whole: it is one function — the year's stories (notices, records, seizures,
contests, decisions) run interleaved in date order from one queue, so that record numbers follow the calendar,
and they share its clock, inspectors and counters.
"""

from __future__ import annotations

import dataclasses
import datetime as _dt
from collections.abc import Iterator
from decimal import Decimal
from typing import Any

from models.base import clock
from models.enforcement import (
    AdjustInput,
    ItemInput,
    Record,
    RecordDraft,
    Witness,
    charge_depot_fee,
    charges_of,
    correct_record,
    current_proposal,
    decide_contest,
    decide_sanctions,
    donate_items,
    file_contest,
    identify_offender,
    issue_record,
    release_items,
)
from models.enforcement.seizures import reclaim_due_of
from models.permits import Permit
from models.registry.people import Company, Person
from models.rules.regimes import get_regime


def demo_enforcement(today: _dt.date | None = None, regimes: tuple[str, ...] = ()) -> dict[str, int]:
    """A year of enforcement across the regimes, for ``praca demo`` (after the demo's people and permits).

    Through the real flow: notices followed by infraction records, recurrences
    (doubled fines, the street-food suspension), a seizure of perishables
    released after the fine and the depot were paid, a seizure of goods nobody
    claimed and that were donated, an offender identified later, a correction,
    a defence partly upheld, an appeal pending, and fines unpaid past their
    deadline for the dívida ativa. Each scenario is a story whose steps run
    interleaved in date order, so record numbers follow the calendar.
    Deterministic; a scenario whose dates fall before its act is skipped. ``regimes``: the acts whose stories
    are told (default: every one but Cabeceira Grande's, the demo without ``--town``; a town's demo names its act).
    """
    import heapq

    from models.billing.charges import record_payment
    from models.billing.fiscal import set_unit_value, unit_overrides

    today = today or _dt.date(2026, 11, 30)
    counts = {"records": 0, "seizures": 0, "contests": 0, "decisions": 0}
    inspectors = (("Marcos Vinícius Prado", "4521"), ("Sueli Aparecida Costa", "3877"), ("Rogério Tanaka", "5102"))
    chief = "Chefe do Setor de Fiscalização"

    def when(regime_id: str, days_ago: int, hour: int, minute: int = 0) -> _dt.datetime | None:
        moment = _dt.datetime.combine(today - _dt.timedelta(days=days_ago), _dt.time(hour, minute))
        return moment if moment.date() >= get_regime(regime_id).published else None

    def noon(day: _dt.date) -> _dt.datetime:
        return _dt.datetime.combine(day, _dt.time(12, 0))

    def put(d: RecordDraft, *, n: int = 0) -> Record:
        inspector, ident = inspectors[n % len(inspectors)]
        d = dataclasses.replace(d, inspector=inspector, inspector_id=ident)
        assert d.at is not None  # every story dates its acts
        record = issue_record(d, by=inspector, today=d.at.date())
        counts["records"] += 1
        counts["seizures"] += record.kind == "seizure"
        return record

    def pay_all(record: Record, on: _dt.date, role: str = "fine") -> None:
        for charge in charges_of(record, role):
            if charge.status == "open":
                record_payment(
                    charge,
                    paid_on=on,
                    amount=charge.open_amount,
                    reference=f"DEMO-{charge.number}",
                    by="tesouraria",
                    today=on,
                )

    def unit(regime_id: str, code: str, value: Decimal) -> None:
        regime = get_regime(regime_id)
        if (code, today.year) not in unit_overrides(regime.id) and regime.unit(code).value_for(today.year) is None:
            set_unit_value(
                regime,
                code,
                today.year,
                value,
                entered_by="demonstração",
                reason=f"{code} {today.year} — dado de demonstração: confira o valor oficial",
            )

    people = list(
        Person.select()
        .where(Person.id.not_in(Permit.select(Permit.person).where(Permit.person.is_null(False))))
        .order_by(Person.id)
    )
    companies = list(Company.select().order_by(Company.id))
    if len(people) < 2 or not companies:
        return counts

    def permit(regime_id: str, prefix: str = "", offset: int = 0) -> Permit | None:
        query = Permit.select().where((Permit.regime == regime_id) & (Permit.status == "active"))
        if prefix:
            query = query.where(Permit.permit_kind.startswith(prefix))
        return query.order_by(Permit.id).offset(offset).first()

    olimpia, sjc, sapezal, ilha, sao_bento, cabeceira = (
        "olimpia-2025",
        "sjc-2014",
        "sapezal-2014",
        "ilha-comprida-2017",
        "sao-bento-2026",
        "cabeceira-grande-2012",
    )
    tpu_permit = permit(olimpia, "street-food-tpu")

    def street_food():
        """A fine at once, then the recurrence doubled with 180 days' suspension (LC 324/2025, art. 192, § 1º;
        art. 193, § 2º); the defence partly upheld (one of the two infractions falls), the rest paid."""
        first_at, second_at = when(olimpia, 240, 19, 40), when(olimpia, 130, 20, 15)
        if tpu_permit is None or not first_at or not second_at:
            return
        site = tpu_permit.site or "Praça Rui Barbosa"
        yield first_at
        first = put(
            RecordDraft(
                kind="infraction",
                regime=olimpia,
                at=first_at,
                place=site,
                facts="Entorno do equipamento com copos e guardanapos no chão; sem recipiente para o "
                "lixo dos clientes.",
                infractions=["tpu-area-suja"],
                permit_id=tpu_permit.id,
                scope="street-food",
                witnesses=[Witness("Gilberto Moura", "RG 23.456.789-0")],
            )
        )
        yield noon(first_at.date() + _dt.timedelta(days=20))
        pay_all(first, first_at.date() + _dt.timedelta(days=20))
        yield second_at
        second = put(
            RecordDraft(
                kind="infraction",
                regime=olimpia,
                at=second_at,
                place=site,
                facts="Lixo espalhado de novo e um cão preso ao equipamento durante a venda.",
                infractions=["tpu-area-suja", "tpu-animais"],
                permit_id=tpu_permit.id,
                scope="street-food",
            ),
            n=1,
        )
        filed = second_at.date() + _dt.timedelta(days=6)
        yield noon(filed)
        defence = file_contest(
            second,
            kind="defence",
            filed_on=filed,
            by="protocolo",
            grounds="O cão era de um cliente e foi retirado na hora.",
            suspensive=True,
            suspensive_note="LC 324/2025, art. 198",
        )
        counts["contests"] += 1
        decided = second_at.date() + _dt.timedelta(days=18)
        yield noon(decided)
        kept = Decimal(second.proposal_data["infractions"][0]["sanctions"][0]["amount"])
        decide_contest(
            defence,
            outcome="partly",
            decided_on=decided,
            by=chief,
            new_amount=kept,
            reason="O animal não pertencia ao permissionário (depoimento e foto); mantida a multa pelo "
            "lixo, em dobro pela reincidência.",
        )
        yield noon(decided + _dt.timedelta(days=25))
        pay_all(second, decided + _dt.timedelta(days=25))

    def street_vending():
        """The one-hour notice not complied with, the record and the seizure of perishables, given back the next
        day once the fine and one day of depot were paid (LC 324/2025, art. 145; art. 149; art. 23)."""
        vendor = people[0]
        notice_at = when(olimpia, 200, 15, 0)
        if not notice_at:
            return
        yield notice_at
        notice = put(
            RecordDraft(
                kind="notice",
                regime=olimpia,
                at=notice_at,
                place="Avenida Menina Moça, 1200",
                facts="Venda de picolés em carrinho térmico sem autorização nem recolhimento da taxa diária.",
                infractions=["ambulante-sem-autorizacao"],
                person_id=vendor.id,
                scope="street-vending",
            ),
            n=2,
        )
        yield notice_at + _dt.timedelta(minutes=75)
        record = put(
            RecordDraft(
                kind="infraction",
                regime=olimpia,
                at=notice_at + _dt.timedelta(minutes=75),
                place=notice.place,
                facts="Passada uma hora da notificação, continuava vendendo.",
                infractions=["ambulante-sem-autorizacao"],
                person_id=vendor.id,
                scope="street-vending",
                refers_to_id=notice.id,
                relation="follows-notice",
            ),
            n=2,
        )
        yield notice_at + _dt.timedelta(minutes=85)
        seizure = put(
            RecordDraft(
                kind="seizure",
                regime=olimpia,
                at=notice_at + _dt.timedelta(minutes=85),
                place=notice.place,
                facts="Apreensão da mercadoria (art. 145, III; art. 147).",
                infractions=["ambulante-sem-autorizacao"],
                person_id=vendor.id,
                scope="street-vending",
                refers_to_id=record.id,
                relation="accompanies",
                items=[
                    ItemInput("picolés de frutas", "48", "un", True),
                    ItemInput("carrinho térmico de isopor", "1", "un", False),
                ],
                depot="Depósito municipal, Rua Síria, 300",
            ),
            n=2,
        )
        next_day = notice_at.date() + _dt.timedelta(days=1)
        yield noon(next_day)
        pay_all(record, next_day)
        depot = charge_depot_fee(seizure, on=next_day, by="Depósito municipal", today=next_day)
        record_payment(
            depot,
            paid_on=next_day,
            amount=depot.amount,
            reference=f"DEMO-{depot.number}",
            by="tesouraria",
            today=next_day,
        )
        release_items(seizure, on=next_day, by="Depósito municipal")

    def feira_goods():
        """Goods of someone not identified, not claimed within 72 hours and donated (LC 324/2025, art. 215)."""
        feira_at = when(olimpia, 90, 7, 20)
        if not feira_at:
            return
        yield feira_at
        feira = put(
            RecordDraft(
                kind="seizure",
                regime=olimpia,
                at=feira_at,
                place="Feira livre da Rua Cajobi",
                facts="Comercializava redes e tapetes na feira sem autorização; saiu sem se identificar.",
                infractions=["feira-sem-autorizacao"],
                scope="feira",
                unknown_name="Vendedor de redes",
                signature="absent",
                unknown_description="homem de uns 40 anos, boné azul, camiseta listrada",
                items=[
                    ItemInput("redes de descanso", "6", "un", False),
                    ItemInput("tapetes de barbante", "4", "un", False),
                ],
                depot="Galpão da feira, Rua Cajobi, 15",
                witnesses=[Witness("Cleide Feirante", "banca 12")],
            )
        )
        # the day after the withdrawal term the act gives (72 hours, which a weekend or holiday carries on)
        due = reclaim_due_of(feira, perishable=False)
        assert due is not None  # the act gives the term (LC 324/2025, art. 215, § 2º)
        donated = _dt.date.fromisoformat(due["due_date"]) + _dt.timedelta(days=1)
        yield noon(donated)
        donate_items(feira, on=donated, by="Depósito municipal", to="Associação Beneficente Lar São Vicente de Paulo")

    def event_organiser():
        """An event without authorisation (LC 324/2025, art. 97) by someone identified later by a new record."""
        event_at = when(olimpia, 70, 22, 30)
        if not event_at:
            return
        yield event_at
        unknown = put(
            RecordDraft(
                kind="infraction",
                regime=olimpia,
                at=event_at,
                place="Praça da Matriz",
                facts="Evento com palco e venda de bebidas sem a prévia autorização do município.",
                infractions=["evento-sem-autorizacao"],
                unknown_name="Organizador do evento",
                unknown_description="responsável pelo palco, apresentou-se como 'Beto do Som'",
                signature="absent",
            ),
            n=1,
        )
        found = event_at + _dt.timedelta(days=9, hours=-8)
        yield found
        identify_offender(
            unknown,
            company_id=companies[0].id,
            by=chief,
            today=found.date(),
            notified_at=found,
            reason="Identificado pelo contrato de locação do palco",
        )
        counts["records"] += 1

    def sidewalk():
        """The sidewalk obstructed: a fine at once (LC 324/2025, art. 263, II), never paid — for the dívida ativa."""
        sidewalk_at = when(olimpia, 150, 11, 0)
        if not sidewalk_at:
            return
        yield sidewalk_at
        put(
            RecordDraft(
                kind="infraction",
                regime=olimpia,
                at=sidewalk_at,
                place="Rua São João, 1200",
                facts="Bancas e mostruário ocupando todo o passeio; pedestres andando pela rua.",
                infractions=["passeio-obstrucao-bancas"],
                person_id=people[1].id,
                scope="street-vending",
                signature="refused",
                witnesses=[Witness("Edna Comerciante", "RG 31.222.333-4")],
            )
        )

    def corrected():
        """A record corrected by a new one: the place was written wrong; the deadlines start again (art. 32, § 4º)."""
        corrected_at = when(olimpia, 40, 10, 10)
        if not corrected_at or tpu_permit is None:
            return
        yield corrected_at
        wrong = put(
            RecordDraft(
                kind="infraction",
                regime=olimpia,
                at=corrected_at,
                place="Praça Rui Barbos",
                facts="Mesas e caixas na área ajardinada ao lado do equipamento.",
                infractions=["tpu-caixas-area-particular-ajardinada"],
                permit_id=tpu_permit.id,
                scope="street-food",
            ),
            n=1,
        )
        fixed = corrected_at + _dt.timedelta(days=3)
        yield fixed
        correct_record(
            wrong,
            reason="nome da praça escrito errado",
            by=chief,
            today=fixed.date(),
            notified_at=fixed,
            place="Praça Rui Barbosa",
        )
        counts["records"] += 1

    def sjc_feira():
        """The 24-hour notice, then the fine graded by the authority (Lei 9.158/2014, art. 23–24); the appeal is
        still pending."""
        feira_permit = permit(sjc)
        notice_at = when(sjc, 21, 21, 0)
        if feira_permit is None or not notice_at:
            return
        yield notice_at
        notice = put(
            RecordDraft(
                kind="notice",
                regime=sjc,
                at=notice_at,
                place=feira_permit.site or "Feira noturna",
                facts="Resíduos de óleo e papéis sob a banca durante a feira.",
                infractions=["sujeira"],
                permit_id=feira_permit.id,
            ),
            n=1,
        )
        record_at = notice_at + _dt.timedelta(days=7)
        yield record_at
        record = put(
            RecordDraft(
                kind="infraction",
                regime=sjc,
                at=record_at,
                place=notice.place,
                facts="Na feira seguinte, a área da banca continuava suja.",
                infractions=["sujeira"],
                permit_id=feira_permit.id,
                refers_to_id=notice.id,
                relation="follows-notice",
                payment_due=record_at.date() + _dt.timedelta(days=45),
                adjustments=[
                    AdjustInput(
                        reason="resíduos espalhados por toda a frente da banca",
                        amounts={2: "300,00"},
                        by="Chefe da fiscalização",
                    )
                ],
            ),
            n=1,
        )
        filed = record_at + _dt.timedelta(days=2)
        yield filed
        file_contest(
            record,
            kind="appeal",
            filed_on=filed.date(),
            by="protocolo",
            grounds="A sujeira era da banca vizinha.",
            instance="Recurso protocolado no Paço Municipal",
        )
        counts["contests"] += 1

    def sjc_aggression():
        """Aggression: R$ 1.000,00 corrected by the INPC and 15 days' suspension (art. 25, parágrafo único), paid."""
        other = permit(sjc, offset=1)
        aggression_at = when(sjc, 160, 22, 40)
        if other is None or not aggression_at:
            return
        yield aggression_at
        record = put(
            RecordDraft(
                kind="infraction",
                regime=sjc,
                at=aggression_at,
                place=other.site or "Feira noturna",
                facts="Ofendeu e empurrou o feirante vizinho durante a montagem.",
                infractions=["agressao"],
                permit_id=other.id,
                payment_due=aggression_at.date() + _dt.timedelta(days=30),
                witnesses=[Witness("Osvaldo Feirante", "banca 7"), Witness("Lúcia Freguesa", "")],
            ),
            n=2,
        )
        yield noon(aggression_at.date() + _dt.timedelta(days=25))
        pay_all(record, aggression_at.date() + _dt.timedelta(days=25))

    def sapezal_duty():
        """A duty, then the same duty doubled (Lei 1.171/2014, art. 50); the defence rejected, the appeal running."""
        licence = permit(sapezal)
        first_at, second_at = when(sapezal, 210, 18, 30), when(sapezal, 45, 18, 45)
        if licence is None or not first_at or not second_at:
            return
        unit(sapezal, "UFS", Decimal("52.30"))
        yield first_at
        first = put(
            RecordDraft(
                kind="infraction",
                regime=sapezal,
                at=first_at,
                place=licence.site or "Praça da Matriz",
                facts="Não varreu nem recolheu os detritos após o funcionamento.",
                infractions=["dever-41"],
                permit_id=licence.id,
                payment_due=first_at.date() + _dt.timedelta(days=30),
            ),
            n=1,
        )
        yield noon(first_at.date() + _dt.timedelta(days=12))
        pay_all(first, first_at.date() + _dt.timedelta(days=12))
        yield second_at
        second = put(
            RecordDraft(
                kind="infraction",
                regime=sapezal,
                at=second_at,
                place=first.place,
                facts="De novo, detritos deixados no local após o encerramento.",
                infractions=["dever-41"],
                permit_id=licence.id,
                payment_due=second_at.date() + _dt.timedelta(days=30),
            ),
            n=1,
        )
        filed = second_at.date() + _dt.timedelta(days=5)
        yield noon(filed)
        defence = file_contest(
            second,
            kind="defence",
            filed_on=filed,
            by="protocolo",
            grounds="A limpeza é feita pela manhã.",
            suspensive=True,
            suspensive_note="Lei 1.171/2014, art. 53, § 3º",
            instance="Responsável pelo órgão que aplicou a sanção",
        )
        counts["contests"] += 1
        decided = second_at.date() + _dt.timedelta(days=12)
        yield noon(decided)
        decide_contest(
            defence,
            outcome="upheld",
            decided_on=decided,
            by="Secretaria de Desenvolvimento Econômico",
            reason="A lei exige a limpeza após o funcionamento diário (art. 41).",
        )

    def beach():
        """A serious infraction on the beach, the suspension graded at 30 days (Dec. 890/2017, art. 27, § 1º)."""
        licence = permit(ilha)
        beach_at = when(ilha, 300, 16, 0)
        if licence is None or not beach_at:
            return
        yield beach_at
        put(
            RecordDraft(
                kind="infraction",
                regime=ilha,
                at=beach_at,
                place=licence.site or "Balneário Monte Carlo",
                facts="Discutiu aos gritos com banhistas e com o agente, recusando-se a mudar o carrinho.",
                infractions=["grave-indisciplina"],
                permit_id=licence.id,
                signature="refused",
                witnesses=[Witness("Sgto. Almeida", "Polícia Militar")],
                adjustments=[
                    AdjustInput(
                        reason="primeira ocorrência; acalmou-se ao final",
                        days={1: 30},
                        by="Diretor do Departamento de Planejamento",
                    )
                ],
            ),
            n=2,
        )

    def roadside():
        """Selling without the licence (Lei 376/2012, art. 1º): the goods seized; the donation to a charity waits
        for the decision to be final (art. 5º, parágrafo único)."""
        at = when(cabeceira, 40, 10, 30)
        if not at:
            return
        yield at
        put(
            RecordDraft(
                kind="seizure",
                regime=cabeceira,
                at=at,
                place="Avenida Juscelino Kubitschek, em frente ao mercado municipal",
                facts="Vendia panos de prato e redes na calçada, sem a licença da Prefeitura.",
                infractions=["sem-licenca"],
                person_id=people[1].id,
                items=[ItemInput("panos de prato", "30", "un", False), ItemInput("redes", "5", "un", False)],
                depot="Almoxarifado da Prefeitura, Rua Goiás, 120",
                witnesses=[Witness("Cb. Ferreira", "Polícia Militar")],
            ),
            n=1,
        )

    def beach_card():
        """A vendor without the ID card on the beach, a month ago (Dec. 890/2017): the record proposes what the act
        sets; and a second one, days ago, for selling in front of a shop."""
        licence = permit(ilha, offset=1)
        first_at, second_at = when(ilha, 32, 11, 10), when(ilha, 5, 15, 40)
        if licence is None or not first_at or not second_at:
            return
        yield first_at
        put(
            RecordDraft(
                kind="infraction",
                regime=ilha,
                at=first_at,
                place=licence.site or "Balneário Icaraí",
                facts="Abordado na areia, não apresentou o Cartão de Identificação de ambulante.",
                infractions=["nao-portar-cartao"],
                permit_id=licence.id,
            ),
            n=0,
        )
        other = permit(ilha, offset=2)
        if other is None:
            return
        yield second_at
        put(
            RecordDraft(
                kind="infraction",
                regime=ilha,
                at=second_at,
                place="Avenida Beira-Mar, em frente a uma sorveteria",
                facts="Carrinho parado em frente ao estabelecimento comercial, vendendo sorvetes.",
                infractions=["frente-comercio"],
                permit_id=other.id,
            ),
            n=1,
        )

    def off_hours():
        """A licensed vendor selling after the hours the Prefeitura set (Lei 376/2012, art. 3º), a fortnight ago."""
        licence = permit(cabeceira)
        at = when(cabeceira, 14, 22, 40)
        if licence is None or not at:
            return
        yield at
        put(
            RecordDraft(
                kind="infraction",
                regime=cabeceira,
                at=at,
                place="Praça Central",
                facts="Vendia espetinhos às 22h40, fora do horário fixado pela Prefeitura para a praça.",
                infractions=["fora-do-horario"],
                permit_id=licence.id,
            ),
            n=2,
        )

    def event_stall():
        """The stall not torn down by 12h00 of 30/03/2026: R$ 150,00 (Dec. 4.794/2026, art. 2º, § 2º), paid."""
        teardown = _dt.datetime(2026, 3, 30, 13, 30)
        if teardown.date() > today - _dt.timedelta(days=30):
            return
        yield teardown
        record = put(
            RecordDraft(
                kind="infraction",
                regime=sao_bento,
                at=teardown,
                place="Rua Cel. Ribeiro da Luz, barraca 17",
                facts="Barraca ainda montada às 13h30 de 30/03/2026, depois do prazo de desmontagem.",
                infractions=["nao-desmontar"],
                company_id=companies[-1].id,
                payment_due=_dt.date(2026, 4, 30),
            )
        )
        yield noon(_dt.date(2026, 4, 20))
        pay_all(record, _dt.date(2026, 4, 20))

    def event_placard():
        """No placard (Dec. 4.794/2026, art. 4º, parágrafo único): art. 14 lets the authority impose the fine of 20
        UFESP and the seizure "cumulativamente ou não" — the record proposes both; the chief imposes the fine and
        omits the seizure the next day, with the reason."""
        at = _dt.datetime(2026, 3, 28, 20, 15)
        if at.date() > today - _dt.timedelta(days=30):
            return
        yield at
        record = put(
            RecordDraft(
                kind="infraction",
                regime=sao_bento,
                at=at,
                place="Rua Cel. Ribeiro da Luz, barraca 9",
                facts="Barraca funcionando sem a placa indicativa com nome da empresa, CNPJ e Cadastro Municipal.",
                infractions=["sem-placa"],
                company_id=companies[0].id,
            )
        )
        proposal = current_proposal(record)
        fine = next(s.number for s in proposal.sanctions if s.kind == "fine")
        seizure = next(s.number for s in proposal.sanctions if s.kind == "seizure")
        decided = _dt.datetime(2026, 3, 29, 10, 0)
        yield decided
        decide_sanctions(
            record,
            AdjustInput(
                reason="sem placa durante toda a noite de sexta; orientado, não regularizou",
                apply=(fine,),
                omit=(seizure,),
                by="Chefe da fiscalização",
            ),
            by="Chefe da fiscalização",
            today=decided.date(),
            payment_due=_dt.date(2026, 4, 30),
        )
        counts["decisions"] += 1

    queue: list[tuple[Any, int, Iterator[Any]]] = []
    told = {
        street_food: olimpia,
        street_vending: olimpia,
        feira_goods: olimpia,
        event_organiser: olimpia,
        sidewalk: olimpia,
        corrected: olimpia,
        sjc_feira: sjc,
        sjc_aggression: sjc,
        sapezal_duty: sapezal,
        beach: ilha,
        event_stall: sao_bento,
        event_placard: sao_bento,
        roadside: cabeceira,
        beach_card: ilha,
        off_hours: cabeceira,
    }
    town_only = (roadside, beach_card, off_hours)  # not in the demo without --town: its records stay as they were
    stories = [make for make, regime_id in told.items() if (regime_id in regimes if regimes else make not in town_only)]
    for order, make in enumerate(stories):
        story = make()
        first = next(story, None)
        if first is not None:
            heapq.heappush(queue, (first, order, story))
    while queue:
        step_day, order, story = heapq.heappop(queue)
        with clock.on_day(step_day):  # what the step writes is stamped with its day, not the build's
            step = next(story, None)
        if step is not None:
            heapq.heappush(queue, (step, order, story))
    return counts
