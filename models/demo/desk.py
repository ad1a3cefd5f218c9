"""The demo's desk: applications and permits of every regime issued through the real workflow.

One class over ~700 lines, kept whole because it is one cohesive thing: each regime's story (São Bento,
Sapezal, Ilha Comprida, SJC, Olímpia, Cabeceira Grande) is a method sharing the desk's random source,
clerks, calendar and the helpers that apply, pay and issue like a clerk would."""

from __future__ import annotations

import datetime as _dt
import random
from decimal import Decimal

from models.base import clock
from models.base.errors import UserError
from models.base.money import format_factor
from models.demo.people import SEED
from models.registry.applications import Application
from models.registry.people import Company, CompanyPartner, Person
from models.rules.fees.needs import fee_needs


def typed(value) -> str:
    """A value as a clerk types it in a form field (a size "2,50", pt-BR: ``models.base.money.parse_typed``)."""
    if value is None:
        return ""
    return format_factor(value) if isinstance(value, Decimal) else str(value)


CLERKS = ("Ana Souza", "Carlos Lima", "Fernanda Rocha")
SJC_FEIRAS = ("Feira Noturna do Jardim Satélite", "Feira Noturna do Parque Industrial", "Feira Noturna do Centro")
ILHA_BEACHES = ("Balneário Monte Carlo", "Balneário Britânia", "Balneário Icaraí", "Balneário Di Franco")
OLIMPIA_POINTS = (
    "Praça Rui Barbosa",
    "Avenida Aurora Forti Neves, em frente ao Thermas",
    "Praça da Matriz",
    "Rua Bernardino de Campos, 400",
    "Avenida Menina Moça",
    "Praça Altino Arantes",
    "Rua São João, 1200",
    "Avenida Waldemar Lopes Ferraz, 900",
)


class DemoDesk:
    """Applications and permits for the five regimes, through the real workflow (deterministic).

    Each applicant's story is a generator that yields the date of its next
    step; the stories run interleaved in date order, so protocol and permit
    numbers follow the calendar as they would at a real desk.
    """

    def __init__(
        self, rng: random.Random, today: _dt.date, key_dir, *, regimes: tuple[str, ...] = (), years: int = 0
    ) -> None:
        """``regimes``: the acts whose stories run (default: all six, the demo without ``--town``); ``years``: how
        many years the stories' calendar dates move (a town's demo built a year or more after 30/11/2026)."""
        self.rng, self.today, self.key_dir = rng, today, key_dir
        self.regimes, self.years = regimes, years
        self.people = list(Person.select().order_by(Person.id))
        self.companies = list(Company.select().order_by(Company.id))
        owners = {row.company_id: row.person_id for row in CompanyPartner.select().order_by(CompanyPartner.id)}
        self.owner = {c.id: owners.get(c.id) for c in self.companies}
        self.meis = {}  # person id → their MEI company (with a municipal registration)
        for c in self.companies:
            if c.mei and c.municipal_registration and self.owner[c.id] not in self.meis:
                self.meis[self.owner[c.id]] = c
        self.used_people: set[int] = set()
        self.used_companies: set[int] = set()
        self.people_by_id = {p.id: p for p in self.people}
        self.count_apps = 0
        self.count_permits = 0

    # -- choosing applicants (when the story is written, before anything runs) --

    def _resident_for(self, person, years: int, on: _dt.date) -> bool:
        since = person.resident_since
        return since is not None and since <= on.replace(year=on.year - years) - _dt.timedelta(days=2)

    def person(self, *, mei: bool = False, resident_years: int = 0) -> Person:
        pool = [
            p
            for p in self.people
            if p.id not in self.used_people
            and (not mei or p.id in self.meis)
            and (not resident_years or self._resident_for(p, resident_years, self.today))
        ]
        chosen = pool[self.rng.randrange(len(pool))]
        self.used_people.add(chosen.id)
        if chosen.id in self.meis:  # one story per household of documents: the MEI moves with its owner
            self.used_companies.add(self.meis[chosen.id].id)
        return chosen

    def company(self, *, resident_years: int = 0) -> Company:
        def ok(c):
            owner = self.people_by_id.get(self.owner.get(c.id))
            return owner is not None and (not resident_years or self._resident_for(owner, resident_years, self.today))

        pool = [
            c
            for c in self.companies
            if c.id not in self.used_companies and ok(c) and self.owner.get(c.id) not in self.used_people
        ]
        chosen = pool[self.rng.randrange(len(pool))]
        self.used_companies.add(chosen.id)
        if self.owner.get(chosen.id):  # the owner moves to the company's town: not another town's applicant
            self.used_people.add(self.owner[chosen.id])
        return chosen

    def clerk(self) -> str:
        return CLERKS[self.rng.randrange(len(CLERKS))]

    # -- the workflow --------------------------------------------------------

    def apply(
        self,
        regime: str,
        kind: str,
        on: _dt.date,
        *,
        person=None,
        company=None,
        status="approved",
        reason: str = "",
        documents: bool = True,
        clerk: str = "",
        minute: int = 0,
        **fields,
    ):
        from models.billing.charges import await_payment
        from models.registry.applications import ApplicationInput, DocumentInput, change_status
        from models.rules.regimes import get_regime
        from models.services.filing import create_application

        docs = []
        if documents:
            docs = [
                DocumentInput(d, on - _dt.timedelta(days=(minute + len(d)) % 15))
                for d in get_regime(regime).permit_kind(kind).documents
            ]
        clerk = clerk or CLERKS[minute % len(CLERKS)]
        self._move_to_town(get_regime(regime), person, company)
        data = ApplicationInput(
            regime=regime,
            permit_kind=kind,
            person_id=person.id if person else None,
            company_id=company.id if company else None,
            documents=docs,
            **{k: typed(v) for k, v in fields.items()},
        )
        filed = _dt.datetime.combine(on, _dt.time(8 + minute % 9, minute % 60))
        app = create_application(
            data,
            clerk=clerk,
            now=filed,
            quote=self._quote(regime, kind, data, person, company),
        )
        path = {
            "received": [],
            "analysis": ["analysis"],
            "approved": ["analysis", "approved"],
            "awaiting_payment": ["analysis", "approved", "awaiting_payment"],
            "refused": ["analysis", "refused"],
            "appealed": ["analysis", "refused", "appealed"],
            "withdrawn": ["withdrawn"],
        }[status]
        for n, step in enumerate(path, start=1):
            why = (
                reason
                if step in ("refused", "withdrawn")
                else ("Apresentou recurso com novos documentos" if step == "appealed" else "")
            )
            if step == "awaiting_payment":  # the frozen quote becomes the charges to pay first
                with clock.on_day(filed + _dt.timedelta(minutes=20 * n)):
                    await_payment(app, by=clerk, today=on)
                app = Application.get_by_id(app.id)
                continue
            app = change_status(app, step, by=clerk, reason=why, at=filed + _dt.timedelta(minutes=20 * n))
        self.count_apps += 1
        return app

    def _quote(self, regime_id: str, kind: str, data, person, company) -> dict:
        """The price the form would have shown and frozen on the application (none when it needs a value
        the Administration sets)."""
        from models.billing.pricing import quote
        from models.rules.regimes import get_regime
        from models.services.front_desk import local_to

        regime = get_regime(regime_id)
        if not regime.permit_kind(kind).fees:
            return {}
        holder = ("person", person.id) if person else ("company", company.id)
        inputs = {
            "permit_kind": kind,
            "mei": bool((company and company.mei) or (person and person.id in self.meis)),
            "local": local_to(*holder, regime)[0] is True,
        }
        for key in ("equipment", "line", "front", "depth", "hitch"):
            if getattr(data, key):
                inputs[key] = getattr(data, key)
        tiers: list[str] = []  # the tiers the stall's equipment may take, the act's list in its order
        for fee in (regime.fee(f) for f in regime.permit_kind(kind).fees):
            if fee_needs(regime, fee).reads("energy"):
                tiers += [t.id for t in fee.tiers if data.equipment in t.equipment] if fee.tiers else []
                tiers += [t.id for t in fee.choices("energy")]
        for tier in tiers:  # the first the act allows the stall (a tier for other equipment is refused)
            try:
                return quote(regime, year=self.today.year, energy=tier, **inputs).to_dict()
            except UserError as refused:
                if refused.field != "energy":
                    return {}
        try:
            return quote(regime, year=self.today.year, **inputs).to_dict()
        except UserError:
            return {}

    def _move_to_town(self, regime, person, company) -> None:
        """Applicants live in the town whose act they apply under (the demo mixes five towns in one database)."""
        town = {"city": regime.municipality, "state": regime.state}
        people = {person.id} if person else set()
        companies = {company.id} if company else set()
        if person and person.id in self.meis:
            companies.add(self.meis[person.id].id)
        if company and self.owner.get(company.id):
            people.add(self.owner[company.id])
        if people:
            Person.update(**town).where(Person.id.in_(list(people))).execute()
        if companies:
            Company.update(**town).where(Company.id.in_(list(companies))).execute()

    def issue(self, app, on: _dt.date, **kw):
        from models.services.issuing import issue_permit

        permit = issue_permit(app, by=app.created_by, today=on, key_dir=self.key_dir, **kw)
        self.count_permits += 1
        return permit

    def day(self, days_ago: int) -> _dt.date:
        return self.today - _dt.timedelta(days=days_ago)

    def on(self, year: int, month: int, day: int) -> _dt.date:
        """A date of the stories' calendar (a renewal before 30 September, a term to 31 December), moved by whole
        years so that it keeps its place in the act's year."""
        return _dt.date(year + self.years, month, day)

    def story(
        self,
        regime: str,
        kind: str,
        applied: _dt.date,
        issued: _dt.date | None,
        *,
        holder: dict,
        issue: dict | None = None,
        settle: bool = True,
        then=(),
        status: str = "approved",
        reason: str = "",
        **fields,
    ):
        """One applicant: applies, is approved, gets the permit, starts; ``then`` are (date, action) afterwards."""
        from models.permits import record_picked_up, record_started

        minute = self.rng.randrange(600)
        yield applied
        app = self.apply(regime, kind, applied, status=status, reason=reason, minute=minute, **holder, **fields)
        if issued is None:
            return
        yield issued
        if app.status == "awaiting_payment":
            self.pay_application(app, issued)
        permit = self.issue(app, issued, **(issue or {}))
        if settle:
            picked = min(issued + _dt.timedelta(days=2), self.today)
            started = min(issued + _dt.timedelta(days=6), self.today)
            yield picked
            record_picked_up(permit, by="Ana Souza", on=picked)
            yield started
            record_started(permit, by="Marcos Ribeiro", on=started)
        for when, action in then:
            yield when
            result = action(permit)
            if result is not None and getattr(result, "number", None):
                permit = result

    def pay_application(self, app, on: _dt.date) -> None:
        from models.billing.charges import open_charges_of_application, record_payment

        for n, charge in enumerate(open_charges_of_application(app)):
            record_payment(
                charge,
                paid_on=on - _dt.timedelta(days=1),
                amount=charge.amount,
                by="tesouraria",
                reference=f"{on:%y%m%d}{app.id:04d}{n}",
                today=on,
            )

    def billing(self):
        """A year of the month's charges and their payments: most pay by the due date, some late, one twice,
        a few not at all (SJC art. 11, § 6º: three months unpaid puts the permit on the chief's list)."""
        from models.billing.charges import Charge, generate_month, record_payment

        rng = random.Random(SEED + 7)
        first = (self.today.replace(day=1) - _dt.timedelta(days=365)).replace(day=1)
        months = []
        day = first
        while day <= self.today:
            months.append(day)
            day = (day + _dt.timedelta(days=32)).replace(day=1)
        for start in months:
            yield start
            created = generate_month(start.year, start.month, by="tesouraria", today=start)
            monthly = [c for c in created if c.kind == "monthly"]
            if not monthly:
                continue
            pay_day = min(max(c.due_on for c in monthly), self.today)
            yield pay_day
            late = []
            for charge in monthly:
                charge = Charge.get_by_id(charge.id)
                seq = charge.permit.seq
                recent = (self.today.year * 12 + self.today.month) - (start.year * 12 + start.month)
                if seq % 7 == 3 and recent < 3:
                    continue  # three months unpaid: a revocation candidate
                if seq % 11 == 5 and recent == 1:
                    continue  # one month unpaid: overdue, not yet a candidate
                roll = rng.random()
                if roll < 0.12:
                    late.append(charge)
                    continue
                paid_on = max(start, charge.due_on - _dt.timedelta(days=rng.randrange(12)))
                record_payment(
                    charge,
                    paid_on=min(paid_on, pay_day),
                    amount=charge.amount,
                    by="tesouraria",
                    reference=f"{charge.number.replace('/', '')}1",
                    today=pay_day,
                )
                if roll > 0.985:  # paid twice (two slips): flagged as paid too much
                    record_payment(
                        charge,
                        paid_on=min(paid_on + _dt.timedelta(days=1), pay_day),
                        amount=charge.amount,
                        by="tesouraria",
                        reference=f"{charge.number.replace('/', '')}2",
                        today=pay_day,
                    )
            if late:
                later = min(pay_day + _dt.timedelta(days=9), self.today)
                yield later
                for n, charge in enumerate(late):
                    charge = Charge.get_by_id(charge.id)
                    half = (charge.amount / 2).quantize(Decimal("0.01"))
                    amount = half if n % 3 == 0 else charge.amount  # some pay only part
                    record_payment(
                        charge,
                        paid_on=later,
                        amount=amount,
                        by="tesouraria",
                        reference=f"{charge.number.replace('/', '')}L",
                        today=later,
                    )

    def renewal(self, regime_id: str, kind: str, on: _dt.date, by: str):
        from models.registry.applications import DocumentInput
        from models.rules.regimes import get_regime
        from models.services.issuing import renew

        documents = get_regime(regime_id).permit_kind(kind).documents

        def act(permit):
            fresh = [DocumentInput(d, on - _dt.timedelta(days=3)) for d in documents]
            new = renew(permit, by=by, today=on, key_dir=self.key_dir, documents=fresh)
            self.count_permits += 1
            return new

        return act

    # -- the five regimes ----------------------------------------------------

    def fill(self, more=None) -> dict[str, int]:
        """Tell the stories (``more()``: a town's open jobs, told among them) and expire what lapsed by today."""
        from models.permits import expire_due

        makers = {
            "sao-bento-2026": self.sao_bento,
            "sapezal-2014": self.sapezal,
            "ilha-comprida-2017": self.ilha_comprida,
            "sjc-2014": self.sjc,
            "olimpia-2025": self.olimpia,
            "cabeceira-grande-2012": self.cabeceira_grande,
            "sao-lourenco-do-oeste-1997": self.sao_lourenco,
            "chapadao-do-sul-2007": self.chapadao,
            "leopolis-2003": self.leopolis,
            "brumado-2026": self.brumado,
            # caravelas-1994 (Lei 28/94, arts. 1º a 3º as read): the feira's day, hours and rules, no permit to issue;
            # conceicao-2025 (Dec. 41/2025, arts. 1º a 3º as read): the São João's bans, no permit to issue either;
            # altos-2018 (Dec. 042/2018, as summarised): a square where nothing may be sold, no permit to issue
        }
        stories = [
            *(story for regime_id, make in makers.items() if self.runs(regime_id) for story in make()),
            *self.pending_applications(),
            *(more() if more is not None else ()),
            self.billing(),
        ]
        self.run(stories)
        expire_due(self.today, by="sistema")
        return {"applications": self.count_apps, "permits": self.count_permits}

    def runs(self, regime_id: str) -> bool:
        """Whether the stories of ``regime_id`` are told (every act's in the demo without ``--town``)."""
        return not self.regimes or regime_id in self.regimes

    @staticmethod
    def run(stories) -> None:
        """The stories' steps, interleaved in date order (protocol and permit numbers follow the calendar)."""
        import heapq

        queue = []
        for order, story in enumerate(stories):
            first = next(story, None)
            if first is not None:
                heapq.heappush(queue, (first, order, story))
        while queue:
            when, order, story = heapq.heappop(queue)
            with clock.on_day(when):  # what the step writes is stamped with its day, not the build's
                step = next(story, None)
            if step is not None:
                heapq.heappush(queue, (step, order, story))

    def sao_bento(self):
        for i in range(6):
            equipment = ("barraca", "trailer", "barraca", "carrinho-pipoca", "reboque", "barraca")[i]
            yield self.story(
                "sao-bento-2026",
                "event-stall",
                _dt.date(2026, 3, 16 + i % 4),
                _dt.date(2026, 3, 20 + i % 3),
                holder={"company": self.company()},
                status="awaiting_payment",
                settle=False,
                issue={"point": f"Posição {i + 1:02d}"},
                site="rua-cel-ribeiro-da-luz",
                equipment=equipment,
                front="3,00" if equipment == "barraca" else "4,50",
                depth="3,00",
                hitch="1,20" if equipment in ("trailer", "reboque") else None,
            )

    def sapezal(self):
        from models.permits import record_picked_up
        from models.rules.regimes import get_regime

        lines = get_regime("sapezal-2014").lines
        kinds = ("ponto-fixo", "movel", "feira-livre")
        places = ("Praça da Matriz", "Avenida Antônio André Maggi", "Feira do Produtor")
        # days ago of each issue: long settled, due for renewal now, one lapsed, some just issued
        for i, ago in enumerate((3, 20, 45, 95, 150, 210, 280, 318, 328, 340, 356, 372)):
            line = lines[self.rng.randrange(len(lines))]
            on = self.day(ago)
            then = ()
            if ago == 20:  # picked up, never started: the start-up deadline is overdue
                then = (
                    (
                        on + _dt.timedelta(days=3),
                        lambda p: record_picked_up(p, by="Ana Souza", on=p.issued_on + _dt.timedelta(days=3)),
                    ),
                )
            yield self.story(
                "sapezal-2014",
                kinds[i % 3],
                on - _dt.timedelta(days=20),
                on,
                holder={"company": self.company(resident_years=2)},
                settle=ago >= 40,
                then=then,
                issue={"days_hours": "Segunda a sábado, das 7h às 19h"},
                line=line.id,
                group=line.group or "",
                equipment=("barraca", "carrinho", "banca")[i % 3],
                front="2,00",
                depth="1,50",
                site=places[i % 3],
            )
        # renewed in time: a new licence from the day after the old one ends
        on = self.day(385)
        renewed = on + _dt.timedelta(days=320)
        yield self.story(
            "sapezal-2014",
            "ponto-fixo",
            on - _dt.timedelta(days=15),
            on,
            holder={"company": self.company(resident_years=2)},
            issue={"days_hours": "Todos os dias, das 16h às 23h"},
            then=((renewed, self.renewal("sapezal-2014", "ponto-fixo", renewed, "Carlos Lima")),),
            line="alimentos-consumo-imediato",
            group="g01",
            equipment="quiosque",
            front="3,00",
            depth="3,00",
            site="Praça da Matriz",
        )
        # a temporary licence for an event
        yield self.story(
            "sapezal-2014",
            "temporaria",
            self.day(12),
            self.day(5),
            holder={"company": self.company()},
            settle=False,
            issue={
                "event_end": self.day(-13),
                "days_hours": f"{self.day(-12):%d} e {self.day(-13):%d/%m/%Y}, das 16h às 2h",
            },
            line="bebidas",
            group="g03",
            equipment="barraca",
            front="3,00",
            depth="3,00",
            site="Parque de Exposições",
        )

    def ilha_comprida(self):
        from models.permits import cancel

        lines = ("generos-alimenticios", "alimentos-caseiros", "indumentaria", "utilidades", "cadeiras-guarda-sol")
        dates = (
            _dt.date(2026, 1, 12),
            _dt.date(2026, 2, 3),
            _dt.date(2026, 3, 9),
            _dt.date(2026, 4, 22),
            _dt.date(2026, 6, 1),
            _dt.date(2026, 7, 15),
            _dt.date(2026, 8, 20),
            _dt.date(2026, 10, 14),
            _dt.date(2026, 11, 9),
            _dt.date(2026, 11, 24),
        )
        dates = tuple(self.on(d.year, d.month, d.day) for d in dates)
        renewal_day = self.on(2026, 9, 15)
        for i, on in enumerate(dates):
            line = lines[i % len(lines)]
            site = f"ponto-{i + 1:02d}" if line == "cadeiras-guarda-sol" else ILHA_BEACHES[i % len(ILHA_BEACHES)]
            then = ()
            if i < 3:  # renewed before 30 September, for 2027
                then = (
                    (renewal_day, self.renewal("ilha-comprida-2017", "ambulante-praia", renewal_day, "Fernanda Rocha")),
                )
            elif i == 5:
                gave_up = self.on(2026, 10, 2)
                then = (
                    (
                        gave_up,
                        lambda p, gave_up=gave_up: cancel(
                            p,
                            by="Fernanda Rocha",
                            today=gave_up,
                            at_holder_request=True,
                            reason="Pedido do titular: não tem mais interesse (art. 11; art. 12, § 3º)",
                        ),
                    ),
                )
            yield self.story(
                "ilha-comprida-2017",
                "ambulante-praia",
                on - _dt.timedelta(days=10),
                on,
                holder={"person": self.person(mei=True, resident_years=3)},
                settle=on < self.day(20),
                then=then,
                issue={"days_hours": "Das 8h às 18h", "quota": i == 2},
                line=line,
                equipment="carrinho",
                front="1,50",
                depth="0,80",
                hitch="0,20",
                site=site,
            )

    def sjc(self):
        from models.permits import grant_leave, revoke, suspend
        from models.rules.regimes import get_regime

        regime = get_regime("sjc-2014")
        sections = regime.sections
        for i in range(len(sections)):  # one holder per section of the Jardim Satélite night feira
            section = sections[i]
            line = regime.line(section.lines[0])
            on = self.day(390 - 13 * i)
            then = ()
            if i == 0:
                asked = self.day(10)
                then = (
                    (
                        asked,
                        lambda p, asked=asked: grant_leave(
                            p,
                            self.day(-39),
                            self.day(-53),
                            "Joana Aparecida Lopes",
                            "",
                            by="Carlos Lima",
                            today=asked,
                            reason="Descanso anual (1º período)",
                        ),
                    ),
                )
            elif i == 4:
                when = self.day(6)
                then = (
                    (
                        when,
                        lambda p, when=when: suspend(
                            p,
                            by="Marcos Ribeiro",
                            today=when,
                            until=when + _dt.timedelta(days=15),
                            reason="Suspensão por 15 dias: reincidência em infração (art. 25)",
                        ),
                    ),
                )
            elif i == 6:
                when = self.day(45)
                then = (
                    (
                        when,
                        lambda p, when=when: revoke(
                            p,
                            by="Helena Prado",
                            today=when,
                            abandonment=True,
                            reason="Abandono da feira (art. 26, IV)",
                        ),
                    ),
                )
            yield self.story(
                "sjc-2014",
                "produtor-rural" if i in (3, 7) else "feirante",
                on - _dt.timedelta(days=25),
                on,
                holder={"person": self.person()},
                settle=False,
                then=then,
                issue={
                    "valid_until": self.on(2027, 12, 31),
                    "point": f"Banca {i + 1:02d}",
                    "days_hours": "Sextas-feiras, das 18h às 23h",
                },
                line=line.id,
                section=section.id,
                equipment="banca",
                # lines without a size in the act (art. 5º): the Department's standard stall; where the act sets
                # the size it is a maximum, and some stalls use less of it (charged on the area used, art. 11, § 5º)
                front=(line.front - (i % 3)) if line.front else Decimal("3.00"),
                depth=line.depth or Decimal("2.50"),
                site=SJC_FEIRAS[0],
            )

    def olimpia(self):
        from models.permits import extend_startup, revoke, suspend

        categories = (
            ("street-food-tpu-a", "food-truck"),
            ("street-food-tpu-b", "carrinho-tabuleiro"),
            ("street-food-tpu-c", "barraca-desmontavel"),
            ("street-food-tpu-d", "triciclo-bicicleta-moto"),
        )
        for i, ago in enumerate((300, 250, 200, 160, 120, 70, 25, 8)):
            kind, equipment = categories[i % 4]
            on = self.day(ago)
            then = ()
            if i == 5:
                when = self.day(10)
                then = (
                    (
                        when,
                        lambda p, when=when: extend_startup(
                            p, by="Ana Souza", today=when, reason="Aguardando vistoria do veículo no órgão de trânsito"
                        ),
                    ),
                )
            elif i == 1:
                when = self.day(3)
                then = (
                    (
                        when,
                        lambda p, when=when: suspend(
                            p,
                            by="Marcos Ribeiro",
                            today=when,
                            until=when + _dt.timedelta(days=7),
                            reason="Suspensão da atividade (art. 193)",
                        ),
                    ),
                )
            yield self.story(
                "olimpia-2025",
                kind,
                on - _dt.timedelta(days=40),
                on,
                holder={"company": self.company()},
                settle=ago >= 100,
                then=then,
                issue={"days_hours": "Todos os dias, das 17h às 23h"},
                equipment=equipment,
                site=OLIMPIA_POINTS[i],
            )
        for i in range(5):
            on = self.day(30 + 40 * i)
            then = ()
            if i == 3:
                when = self.day(20)
                then = (
                    (
                        when,
                        lambda p, when=when: revoke(
                            p,
                            by="Helena Prado",
                            today=when,
                            reason="Reincidência: venda em local proibido (art. 148)",
                        ),
                    ),
                )
            yield self.story(
                "olimpia-2025",
                "street-vending",
                on - _dt.timedelta(days=7),
                on,
                settle=False,
                then=then,
                holder={"person": self.person()} if i % 2 == 0 else {"company": self.company()},
                issue={"valid_until": self.day(-212)},  # 30/06/2027 in the demo without --town
                equipment="carrocinha",
                site="Itinerante — área central",
            )
        yield self.story(
            "olimpia-2025",
            "event-public",
            self.day(50),
            self.day(15),
            holder={"company": self.company()},
            settle=False,
            issue={"event_end": self.day(-12), "days_hours": f"{self.day(-10):%d} a {self.day(-12):%d/%m/%Y}"},
            site="recinto-exposicoes",
        )

    def cabeceira_grande(self):
        """The sixth act (Lei 376/2012): street vendors' licences, one of them a vendor from another town."""
        for on in (self.day(120), self.day(75), self.day(30)):
            yield self.story(
                "cabeceira-grande-2012",
                "licenca-ambulante",
                on - _dt.timedelta(days=5),
                on,
                holder={"person": self.person()},
                settle=on < self.day(20),
                equipment="ambulante",
                issue={"valid_until": _dt.date(on.year, 12, 31)},
            )  # the act fixes no term: the Administration does

    def sao_lourenco(self):
        """Lei 1.101/1997 (LC 127/2010): a pushcart's alvará for a few days and one for a show, each valid for
        the days or the event paid."""
        yield from self._short_licences(
            "sao-lourenco-do-oeste-1997",
            (60, "alvara-ambulante", 2, {"equipment": "propulsao-humana"}, 3),
            (40, "alvara-evento", 3, {"equipment": "eventual"}, 1),
        )

    def chapadao(self):
        """Tabela III of 21/12/2007: a yearly licence for food (to the 31st of December) and a licence by the day
        for crafts."""
        yield from self._short_licences(
            "chapadao-do-sul-2007",
            (90, "licenca-ano", 4, {"line": "generos-alimenticios"}, None),
            (50, "licenca-dia", 1, {"line": "bijuterias-artesanato"}, 2),
        )

    def leopolis(self):
        """Lei 784/2003: two feirantes registered at the Fiscalização (art. 3º), a fishmonger and a greengrocer; the
        act read gives the registration no fee and no term, so the Administration writes one on it."""
        yield from self._short_licences(
            "leopolis-2003",
            (70, "registro-feirante", 3, {"line": "peixes"}, None),
            (35, "registro-feirante", 3, {"line": "verduras"}, None),
        )

    def brumado(self):
        """Dec. 011/2026: an acarajé stall and a sound unit authorised for the São João, each for the festival's
        days (the decree prices them by the unit, by the event and by the day; the form asks for the counts)."""
        yield from self._short_licences(
            "brumado-2026",
            (165, "autorizacao-evento", 6, {"line": "acaraje"}, 5),
            (164, "autorizacao-som", 4, {"line": "som"}, 3),
        )

    def _short_licences(self, regime: str, *plan):
        """One story per (issued days ago, permit kind, days applied before, the stall, days valid — None: to the
        end of the year); the act fixes the term by what is paid, the Administration writes it on the permit."""
        for ago, kind, before, stall, valid_days in plan:
            on = self.day(ago)
            until = _dt.date(on.year, 12, 31) if valid_days is None else on + _dt.timedelta(days=valid_days)
            yield self.story(
                regime,
                kind,
                on - _dt.timedelta(days=before),
                on,
                holder={"person": self.person()},
                issue={"valid_until": until},
                **stall,
            )

    def pending_applications(self):
        """Applications on the desk's worklist, in every status that is not issued."""
        plan = (
            ("received", "sapezal-2014", "movel", "company", ""),
            ("received", "olimpia-2025", "street-food-tpu-b", "company", ""),
            ("received", "sjc-2014", "feirante", "person", ""),
            ("analysis", "ilha-comprida-2017", "ambulante-praia", "mei", ""),
            ("analysis", "olimpia-2025", "street-vending", "person", ""),
            ("analysis", "sjc-2014", "produtor-rural", "person", ""),
            ("approved", "sapezal-2014", "feira-livre", "company", ""),
            ("approved", "olimpia-2025", "street-food-tpu-c", "company", ""),
            ("awaiting_payment", "sjc-2014", "feirante", "person", ""),
            ("awaiting_payment", "olimpia-2025", "street-vending", "company", ""),
            (
                "refused",
                "ilha-comprida-2017",
                "ambulante-praia",
                "mei",
                "Reside no município há menos de 2 anos (art. 7º, IV)",
            ),
            (
                "refused",
                "sapezal-2014",
                "ponto-fixo",
                "company",
                "Não atingiu a pontuação mínima na análise socioeconômica (art. 10)",
            ),
            (
                "appealed",
                "olimpia-2025",
                "street-food-tpu-d",
                "company",
                "Sem parecer favorável do COMTUR (art. 159, § 1º)",
            ),
            ("withdrawn", "sjc-2014", "feirante", "person", "Desistência do interessado"),
        )
        for i, (status, regime, kind, who, reason) in enumerate(plan):
            if not self.runs(regime):
                continue
            holder = {"company": self.company()} if who == "company" else {"person": self.person(mei=(who == "mei"))}
            extra = {}
            if regime == "sjc-2014":
                extra = {
                    "line": "pastel",
                    "section": "xvi",
                    "equipment": "banca",
                    "front": "10,00",
                    "depth": "3,50",
                    "site": SJC_FEIRAS[i % len(SJC_FEIRAS)],
                }
            yield self.story(
                regime, kind, self.day(2 + 4 * i), None, holder=holder, status=status, reason=reason, **extra
            )
