"""What is open on a town demo's day: the work each desk has in front of it, dated from today (issue 31 §2).

The history of a town (``models.demo.desk``) is behind the clerk; these are the jobs ahead:

* **São Bento do Sapucaí** — Dec. 4.794/2026 fixes its event (Indomit, 27 to 29/03/2026, arts. 2º and 5º), long
  over. The demo installs a *demonstration* edition of the same act, marked as such in its amendment's citation,
  with every date of the event moved by whole weeks to a Friday at least three weeks ahead (the weekdays of art. 5º
  kept): its registration open (art. 3º), some applicants paid (the order of art. 3º, § 2º), the street laid out.
* **Sapezal** — an open call: applications for the Feira do Produtor in analysis, ranked by score (Lei
  1.171/2014, art. 10).
* **Ilha Comprida** — the coming Ilha Verão (Dec. 890/2017, art. 22: from 31 December to the Sunday after
  carnival), its Arena de Shows with dates on the map desk and regular vendors asking for a credential; more
  applicants than places go to the public draw (art. 21, § 1º).
* **Cabeceira Grande** — licences asked at the desk (Lei 376/2012, art. 3º), one from a vendor of another town.

Where the act leaves a fee's value to the Administration (``fee_needs(…).administration``: Sapezal's licence fees, Lei
1.171/2014, art. 8º; Ilha Comprida's yearly dues, Dec. 890/2017, art. 12; Cabeceira Grande's licence fee), the
treasury enters it by hand, as a clerk would, with a value marked as the demo's: the fee desk has this month's
charges to collect in every town.

SJC and Olímpia have their open work in the shared stories (``DemoDesk.pending_applications``).
"""

from __future__ import annotations

import datetime as _dt
import re
from collections.abc import Iterator

from models.demo.desk import DemoDesk

__all__ = ["EVENT_LEAD_DAYS", "ilha_verao", "next_edition_text", "open_stories", "sao_bento_next_edition"]

#: the demonstration edition of São Bento's event starts on the first Friday at least this many days ahead
EVENT_LEAD_DAYS = 21
_INDOMIT_FIRST = _dt.date(2026, 3, 27)  # a Friday (art. 5º, I)
_FIRST_SHIFTED = _dt.date(2026, 3, 26)  # from the registration day on (art. 3º); the act's own dates before stay
SAO_BENTO_SITE = "rua-cel-ribeiro-da-luz"
ARENA = "arena-de-shows"


def next_edition_text(today: _dt.date) -> tuple[str, _dt.date]:
    """The text of São Bento's act with its event moved to the first Friday at least :data:`EVENT_LEAD_DAYS` days
    after ``today`` (a whole number of weeks, so Friday stays Friday), declared as a demonstration amendment in
    force a fortnight before ``today``; and the event's first day."""
    from models.rules.regimes import default_regimes_folder

    text = (default_regimes_folder() / "sao-bento-2026.toml").read_text(encoding="utf-8")
    start = today + _dt.timedelta(days=EVENT_LEAD_DAYS)
    start += _dt.timedelta(days=(4 - start.weekday()) % 7)  # Friday
    delta = start - _INDOMIT_FIRST

    def iso(match: re.Match) -> str:
        day = _dt.date.fromisoformat(match.group(0))
        return (day + delta).isoformat() if day >= _FIRST_SHIFTED else match.group(0)

    def br(match: re.Match) -> str:
        day = _dt.date(int(match.group(3)), int(match.group(2)), int(match.group(1)))
        return f"{day + delta:%d/%m/%Y}" if day >= _FIRST_SHIFTED else match.group(0)

    def short(match: re.Match) -> str:
        day = _dt.date(2026, int(match.group(2)), int(match.group(1)))
        return f"{day + delta:%d/%m}" if day >= _FIRST_SHIFTED else match.group(0)

    days = f"{start:%d/%m} a {start + _dt.timedelta(days=2):%d/%m/%Y}"
    for said in ("27 a 29 de março de 2026", "27, 28 e 29 de março de 2026", "27 a 29/03/2026"):
        text = text.replace(said, "\x00")  # the event's days in words, written once the dates are moved
    text = re.sub(r"\d{4}-\d{2}-\d{2}", iso, text)
    text = re.sub(r"\b(\d{2})/(\d{2})/(\d{4})\b", br, text)
    text = re.sub(r"\b(\d{2})/(03)\b(?!/)", short, text)  # "até 01h00 de 28/03": March of the act's year
    text = text.replace("\x00", days)
    in_force = max(today - _dt.timedelta(days=14), _dt.date(2026, 3, 24))  # the amendment's story waits for it
    text += (
        "\n[regime.amendment]\n"
        f'act = "Demonstração do Praça: nova edição do evento Indomit de {days} (datas fictícias; não é ato oficial)"\n'
        f"in_force_from = {in_force.isoformat()}\n"
        'summary = "as datas do evento, da inscrição, do sorteio e da desmontagem movidas para a edição de '
        'demonstração; o resto do decreto como publicado"\n'
    )
    return text, start


def sao_bento_next_edition(today: _dt.date) -> Iterator[_dt.date]:
    """Install the demonstration edition of São Bento's event (an amendment of the act) on the day it comes into
    force, as a story: what was done before it — the March 2026 edition's permits, their terms — under the decree
    as published."""
    from models.rules import acts

    text, _start = next_edition_text(today)
    yield max(today - _dt.timedelta(days=14), _dt.date(2026, 3, 24))
    acts.amend(text.encode("utf-8"), "sao-bento-2026.toml")


def carnival(year: int) -> _dt.date:
    """Carnival Tuesday of ``year``: 47 days before Easter."""
    from models.rules.holidays import easter

    return easter(year) - _dt.timedelta(days=47)


def ilha_verao(today: _dt.date) -> tuple[_dt.date, _dt.date]:
    """The next Ilha Verão not begun by ``today`` (Dec. 890/2017, art. 22, parágrafo único: from 31 December to the
    Sunday after carnival)."""
    first = _dt.date(today.year + (1 if today >= _dt.date(today.year, 12, 31) else 0), 12, 31)
    last = carnival(first.year + 1) + _dt.timedelta(days=5)  # Tuesday → Sunday
    return first, last


def ilha_arena(today: _dt.date) -> None:
    """The Arena de Shows of the coming Ilha Verão on the map desk: its dates (which the act leaves to each
    edition), its 60 points at most (art. 22) and a row of marked points."""
    from decimal import Decimal

    from models.rules.regimes import get_regime
    from models.sites import SegmentInput, SiteInput, plan_of, save_layout, save_site
    from models.sites.layout import StallRequest

    regime = get_regime("ilha-comprida-2017")
    first, last = ilha_verao(today)
    named = next(s for s in regime.sites if s.id == ARENA)
    site = save_site(
        SiteInput(
            name=f"Arena de Shows — Ilha Verão {first.year}/{last.year}",
            kind="event-area",
            regime=regime.id,
            regime_site=named.id,
            first_day=first,
            last_day=last,
            max_points="60",
            gap="1,00",
            notes="Pontos demarcados pela Divisão de Uso e Ocupação do Solo e Licenças com a Fiscalização (art. 22); "
            "datas da edição cadastradas pelo servidor — dado de demonstração.",
            segments=[SegmentInput(street="Arena de Shows — calçadão", length="120,00", width="10,00", sides="both")],
        )
    )
    points = [
        StallRequest(key=f"ponto-{i + 1:02d}", equipment="carrinho", front=Decimal("1.50"), depth=Decimal("0.80"))
        for i in range(24)
    ]
    save_layout(site, plan_of(site).auto(points).stalls)


def open_stories(desk: DemoDesk, regime_id: str) -> list[Iterator]:
    """The stories of the jobs open on ``desk.today`` for the town of ``regime_id`` (see the module's text)."""
    makers = {
        "sao-bento-2026": lambda: _sao_bento(desk),
        "sapezal-2014": lambda: [*_sapezal(desk), _fees_this_month(desk, "sapezal-2014", "licenca")],
        "ilha-comprida-2017": lambda: [*_ilha(desk), _fees_this_month(desk, "ilha-comprida-2017", "tributos-devidos")],
        "cabeceira-grande-2012": lambda: _cabeceira(desk),
    }
    make = makers.get(regime_id)
    return list(make()) if make is not None else []


def _sao_bento(desk: DemoDesk) -> Iterator[Iterator]:
    """The demonstration edition comes into force, then companies register for it: two paid (their order is the
    payment's, art. 3º, § 2º), one of them already with its permit; one approved, one in analysis, one just
    received."""
    yield sao_bento_next_edition(desk.today)
    plan = (
        ("awaiting_payment", 12, True, "barraca", "3,00", "3,00", None),
        ("awaiting_payment", 9, False, "trailer", "4,50", "2,20", "1,20"),
        ("approved", 6, False, "carrinho-pipoca", "1,50", "1,00", None),
        ("analysis", 3, False, "barraca", "3,00", "3,00", None),
        ("received", 1, False, "reboque", "3,50", "2,00", "1,00"),
    )
    for status, ago, issued, equipment, front, depth, hitch in plan:
        yield desk.story(
            "sao-bento-2026",
            "event-stall",
            desk.day(ago),
            desk.day(ago - 2) if issued else None,
            holder={"company": desk.company()},
            status=status,
            settle=False,
            site=SAO_BENTO_SITE,
            equipment=equipment,
            front=front,
            depth=depth,
            hitch=hitch,
        )
    yield _paid(desk, desk.day(8))  # paid, its permit not yet issued: the desk's next job


def _paid(desk: DemoDesk, on: _dt.date) -> Iterator[_dt.date]:
    yield on
    app = desk.apply(
        "sao-bento-2026",
        "event-stall",
        on,
        company=desk.company(),
        status="awaiting_payment",
        minute=desk.rng.randrange(600),
        site=SAO_BENTO_SITE,
        equipment="barraca",
        front="3,00",
        depth="3,00",
    )
    yield on + _dt.timedelta(days=1)
    desk.pay_application(app, on + _dt.timedelta(days=2))


def _sapezal(desk: DemoDesk) -> Iterator[Iterator]:
    """The call for the Feira do Produtor: seven companies in analysis, one line's group (art. 10)."""
    from models.rules.regimes import get_regime

    line = next(ln for ln in get_regime("sapezal-2014").lines if ln.group)
    for i in range(7):
        yield desk.story(
            "sapezal-2014",
            "feira-livre",
            desk.day(2 + 3 * i),
            None,
            holder={"company": desk.company(resident_years=2)},
            status="analysis",
            line=line.id,
            group=line.group,
            equipment="banca",
            front="2,00",
            depth="1,50",
            site="Feira do Produtor",
        )


def _ilha(desk: DemoDesk) -> Iterator[Iterator]:
    """Regular vendors asking for a credential at the Arena de Shows of the coming Ilha Verão (art. 21: only the
    holders of a vendor's authorisation in force)."""
    first, last = ilha_verao(desk.today)
    arena = f"Arena de Shows — Ilha Verão {first.year}/{last.year}"
    for i in range(6):
        yield _credential(desk, desk.day(1 + i), "analysis" if i < 5 else "received", arena)


def _credential(desk: DemoDesk, on: _dt.date, status: str, arena: str) -> Iterator[_dt.date]:
    """One beach vendor with an authorisation in force (chosen on the day: the beach permits are issued by then)
    who has not asked yet."""
    from models.permits import Permit
    from models.registry.applications import Application
    from models.registry.people import Person

    yield on
    asked = Application.select(Application.person).where(
        (Application.permit_kind == "credencial-evento") & Application.person.is_null(False)
    )
    holder = (
        Person.select()
        .join(Permit, on=(Permit.person == Person.id))
        .where(
            (Permit.regime == "ilha-comprida-2017")
            & (Permit.permit_kind == "ambulante-praia")
            & (Permit.status == "active")
            & Person.id.not_in(asked)
        )
        .order_by(Person.id)
        .first()
    )
    if holder is None:
        return
    desk.apply(
        "ilha-comprida-2017",
        "credencial-evento",
        on,
        person=holder,
        status=status,
        minute=desk.rng.randrange(600),
        equipment="carrinho",
        front="1,50",
        depth="0,80",  # the cart's maximum (art. 14)
        site=arena,
    )


def _cabeceira(desk: DemoDesk) -> Iterator[Iterator]:
    """A year of licences (Lei 376/2012, art. 3º: on request and with the licence's fee paid) and the ones asked at
    the desk now. The law leaves the fee's value to the municipal tax code and the term to the Administration:
    the demo enters both as the clerk would, marked as demonstration values."""
    for ago in (330, 270, 210, 150, 95, 50, 16):
        issued = desk.day(ago)
        yield desk.story(
            "cabeceira-grande-2012",
            "licenca-ambulante",
            issued - _dt.timedelta(days=5),
            issued,
            holder={"person": desk.person()},
            settle=ago > 20,
            equipment="ambulante",
            site="Praça Central",
            issue={"valid_until": _dt.date(issued.year, 12, 31)},
            then=((issued, _licence_fee(desk, issued, paid=ago > 20)),),
        )
    for i, status in enumerate(("received", "analysis", "approved")):
        yield desk.story(
            "cabeceira-grande-2012",
            "licenca-ambulante",
            desk.day(1 + 4 * i),
            None,
            holder={"person": desk.person()},
            status=status,
            equipment="ambulante",
            site="Praça Central",
        )


#: the licence's fee the demo enters by hand (Lei 376/2012, art. 3º, leaves it to the municipal tax code)
CABECEIRA_FEE = "96,50"

#: the values the demo enters by hand for the fees an act leaves to the Administration (regime, fee id → value)
ADMIN_FEES = {
    ("sapezal-2014", "licenca"): "120,00",
    ("ilha-comprida-2017", "tributos-devidos"): "85,00",
}


def _fees_this_month(desk: DemoDesk, regime_id: str, fee_id: str, count: int = 4) -> Iterator[_dt.date]:
    """The year's fee of the licences in force, charged by the treasury with the demo's value (the act leaves the
    value to the Administration: ``fee_needs(…).administration``), due this month: the first paid, the others open."""
    from models.billing.charges import create_charge, record_payment
    from models.permits import Permit
    from models.rules.regimes import get_regime

    on = desk.day(1)
    yield on
    regime = get_regime(regime_id)
    fee = next(f for f in regime.fees if f.id == fee_id)
    month_start = desk.today.replace(day=1)
    permits = (
        Permit.select()
        .where((Permit.regime == regime_id) & (Permit.status == "active"))
        .order_by(Permit.id)
        .limit(count)
    )
    for i, permit in enumerate(permits):
        charge = create_charge(
            kind="yearly",
            regime=regime_id,
            label=fee.label,
            amount=ADMIN_FEES[(regime_id, fee_id)],
            due_on=month_start if i == 0 else desk.today,
            basis=f"{regime.short}, {fee.basis}; valor informado pela Administração (dado de demonstração)",
            by="tesouraria",
            permit=permit,
            today=on,
        )
        if i == 0:
            record_payment(
                charge, paid_on=on, amount=charge.amount, reference=f"DEMO-{charge.number}", by="tesouraria", today=on
            )


def _licence_fee(desk: DemoDesk, on: _dt.date, *, paid: bool):
    """The licence's fee charged by hand on the day of issue, paid within the week (or not yet)."""

    month_start = desk.today.replace(day=1)  # the one still open is due this month: the fee desk's job

    def act(permit) -> None:
        from models.billing.charges import create_charge, record_payment

        charge = create_charge(
            kind="yearly",
            regime="cabeceira-grande-2012",
            label="Taxa da licença de vendedor ambulante",
            amount=CABECEIRA_FEE,
            due_on=on + _dt.timedelta(days=10) if paid else max(on + _dt.timedelta(days=10), month_start),
            basis="Lei 376/2012, art. 3º; valor da legislação tributária municipal (dado de demonstração)",
            by="tesouraria",
            permit=permit,
            today=on,
        )
        if paid:
            record_payment(
                charge,
                paid_on=on + _dt.timedelta(days=3),
                amount=charge.amount,
                reference=f"DEMO-{charge.number}",
                by="tesouraria",
                today=on + _dt.timedelta(days=3),
            )

    return act
