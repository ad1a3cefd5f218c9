"""The demo's sites: the SJC night feira with its holders, the São Bento street, the Ilha Comprida beach."""

from __future__ import annotations

from collections.abc import Iterable
from decimal import Decimal

from models.rules.regimes import Regime, get_regime
from models.sites import (
    NamedPoint,
    ObstacleInput,
    PointInput,
    SegmentInput,
    Site,
    SiteInput,
    Stall,
    plan_of,
    requests_from_permits,
    save_layout,
    save_site,
)
from models.sites.layout import StallRequest
from models.store.db import db


def demo_sites(*regime_ids: str) -> dict[str, int]:
    """Demo sites for the given regimes (default: every one the demo knows), holders from live permits.

    * ``sjc-2014``: the Jardim Satélite night feira, all 28 sections laid out
      on the two sides (Lei 9.158/2014, art. 8º, § 2º), Fridays, unloading
      16–17 h and tear-down 22–23 h (art. 10);
    * ``sao-bento-2026``: the event street of Dec. 4.794/2026, art. 1º, with
      the event days of arts. 2º and 5º and its stalls;
    * ``ilha-comprida-2017``: the beach with the 15 points of Dec. 890/2017,
      art. 23, § 2º.

    Returns counts (``sites``, ``stalls``, ``assigned``, ``points``). A regime
    the demo has nothing for is skipped.
    """
    builders = {"sjc-2014": _demo_sjc, "sao-bento-2026": _demo_sao_bento, "ilha-comprida-2017": _demo_ilha}
    counts = {"sites": 0, "stalls": 0, "assigned": 0, "points": 0}
    for regime_id in regime_ids or tuple(builders):
        builder = builders.get(regime_id)
        if builder is None:
            continue
        with db.atomic():
            site = builder(get_regime(regime_id))
            if Stall.select().where(Stall.site == site.id).exists():
                counts["stalls"] += Stall.select().where(Stall.site == site.id).count()
                counts["assigned"] += (
                    Stall.select().where((Stall.site == site.id) & Stall.holder.is_null(False)).count()
                )
            counts["points"] += NamedPoint.select().where(NamedPoint.site == site.id).count()
            counts["sites"] += 1
    return counts


def demo_town_sites(regime_id: str) -> dict[str, int]:
    """A town demo's sites (``praca demo --town``): the shared ones of :func:`demo_sites`, and a street with its
    stalls for the acts that have none there (Sapezal, Olímpia, Cabeceira Grande)."""
    counts = demo_sites(regime_id)
    builder = _TOWN_ONLY.get(regime_id)
    if builder is not None:
        with db.atomic():
            site = builder(get_regime(regime_id))
        counts["sites"] += 1
        counts["stalls"] += Stall.select().where(Stall.site == site.id).count()
        counts["assigned"] += Stall.select().where((Stall.site == site.id) & Stall.holder.is_null(False)).count()
    return counts


def _street(
    regime: Regime, name: str, street: str, between: tuple[str, str], notes: str, stalls: int, equipment: str
) -> Site:
    """A street of ``regime``'s town with its live permits' stalls and ``stalls`` free 3 × 3 m places of the act's
    ``equipment``, laid out."""
    site = save_site(
        SiteInput(
            name=name,
            kind="street",
            regime=regime.id,
            gap="1,00",
            avoid=("hydrant",),
            notes=notes,
            segments=[
                SegmentInput(
                    street=street,
                    from_street=between[0],
                    to_street=between[1],
                    length="90,00",
                    width="10,00",
                    sides="both",
                    obstacles=[ObstacleInput(kind="hydrant", side="a", start="33,00", extent="0,50")],
                )
            ],
        )
    )
    extra = [
        StallRequest(key=f"livre-{i + 1:02d}", equipment=equipment, front=Decimal("3.00"), depth=Decimal("3.00"))
        for i in range(stalls)
    ]
    _lay_out_with_holders(site, extra)
    return site


def _demo_sapezal(regime: Regime) -> Site:
    return _street(
        regime,
        "Feira do Produtor",
        "Avenida Antônio André Maggi",
        ("Rua Curitiba", "Avenida Tucunaré"),
        "Espaço entre bancas e hidrante livre definidos pela Administração — dado de demonstração.",
        12,
        "barraca",
    )


def _demo_olimpia(regime: Regime) -> Site:
    return _street(
        regime,
        "Feira livre da Rua Cajobi",
        "Rua Cajobi",
        ("Rua São João", "Rua Bernardino de Campos"),
        "Espaço entre bancas e hidrante livre definidos pela Administração — dado de demonstração.",
        14,
        "barraca-desmontavel",
    )


def _demo_cabeceira(regime: Regime) -> Site:
    return _street(
        regime,
        "Praça Central",
        "Avenida Juscelino Kubitschek",
        ("Rua Goiás", "Rua Minas Gerais"),
        "Lugar e horário de venda fixados pela Prefeitura (Lei 376/2012, arts. 1º e 3º) — dado de demonstração.",
        10,
        "ambulante",
    )


_TOWN_ONLY = {"sapezal-2014": _demo_sapezal, "olimpia-2025": _demo_olimpia, "cabeceira-grande-2012": _demo_cabeceira}


def _lay_out_with_holders(site: Site, extra: Iterable[StallRequest]) -> None:
    """Auto-layout the live permits of the site plus ``extra`` free stalls, and save it."""
    plan = plan_of(site)
    layout = plan.auto(requests_from_permits(site) + list(extra))
    save_layout(site, layout.stalls)


def _demo_sjc(regime: Regime) -> Site:
    schedule = regime.schedules[0] if regime.schedules else None
    site = save_site(
        SiteInput(
            name="Feira Noturna do Jardim Satélite",
            kind="feira",
            regime=regime.id,
            schedule=schedule.id if schedule else "",
            weekdays=("fri",),
            setup_from=schedule.setup_hours.start if schedule and schedule.setup_hours else None,
            setup_to=schedule.setup_hours.end if schedule and schedule.setup_hours else None,
            opens="18:00",
            closes="22:00",
            gap="0,50",
            avoid=("hydrant",),
            teardown_from=schedule.teardown_hours.start if schedule and schedule.teardown_hours else None,
            teardown_to=schedule.teardown_hours.end if schedule and schedule.teardown_hours else None,
            notes="Dias e horário de venda fixados pelo Executivo (art. 2º); 0,50 m entre bancas e o hidrante livre "
            "por decisão da Administração (a lei não fixa espaçamento) — dado de demonstração.",
            segments=[
                SegmentInput(
                    street="Avenida Andrômeda",
                    from_street="Rua Júpiter",
                    to_street="Rua Saturno",
                    length="420,00",
                    width="12,00",
                    sides="both",
                    obstacles=[
                        ObstacleInput(
                            kind="hydrant",
                            side="a",
                            start="57,00",
                            extent="0,50",
                            label="Hidrante em frente ao nº 1.210",
                        ),
                        ObstacleInput(kind="tree", side="b", start="130,00", extent="1,20", label="Ipê-amarelo"),
                    ],
                )
            ],
        )
    )
    # one stall per section besides the holders' ones, and a second stall in the larger sections
    extra = []
    for section in regime.sections:
        line = regime.line(section.lines[0]) if section.lines else None
        sized = line is not None and line.front is not None
        for k in range(2 if section.order and section.order <= 3 else 1):
            extra.append(
                StallRequest(
                    key=f"{section.id}-{k + 1}",
                    section=section.id,
                    line=line.id if line else None,
                    front=None if sized else Decimal("3.00"),
                    depth=None if sized else Decimal("2.50"),
                    equipment="banca",
                )
            )
    _lay_out_with_holders(site, extra)
    return site


def _demo_sao_bento(regime: Regime) -> Site:
    named = next((s for s in regime.sites if s.kind == "street-segment"), None)
    schedule = regime.schedules[0] if regime.schedules else None
    days = schedule.days if schedule else ()
    site = save_site(
        SiteInput(
            name=named.label if named else "Rua do evento",
            kind="street",
            regime=regime.id,
            regime_site=named.id if named else "",
            schedule=schedule.id if schedule else "",
            first_day=days[0].date if days else None,
            last_day=days[-1].date if days else None,
            gap="1,00",
            numbering="odd-even",
            avoid=("garage", "hydrant"),
            notes="Espaço de segurança entre estruturas definido pela Administração para o evento "
            "(art. 9º, § 10; art. 11, § 4º); garagem e hidrante livres — dado de demonstração.",
            segments=[
                SegmentInput(
                    street=named.label if named else "Rua do evento",
                    from_street=(named.from_ or "") if named else "",
                    to_street=(named.to or "") if named else "",
                    length="80,00",
                    width="8,00",
                    sides="both",
                    obstacles=[
                        ObstacleInput(kind="garage", side="a", start="42,00", extent="3,00", label="Garagem do nº 215"),
                        ObstacleInput(kind="hydrant", side="b", start="30,00", extent="0,50"),
                    ],
                )
            ],
        )
    )
    kinds = (
        ("barraca", "3.00", "3.00", "0"),
        ("trailer", "4.50", "2.20", "1.20"),
        ("carrinho-pipoca", "1.50", "1.00", "0"),
        ("reboque", "3.50", "2.00", "1.00"),
        ("barraca", "3.00", "3.00", "0"),
    )
    extra = [
        StallRequest(
            key=f"posicao-{i + 1:02d}",
            equipment=kinds[i % len(kinds)][0],
            front=Decimal(kinds[i % len(kinds)][1]),
            depth=Decimal(kinds[i % len(kinds)][2]),
            hitch=Decimal(kinds[i % len(kinds)][3]),
        )
        for i in range(24)
    ]
    _lay_out_with_holders(site, extra)
    return site


def _demo_ilha(regime: Regime) -> Site:
    points = [s for s in regime.sites if s.kind == "beach-point"]
    return save_site(
        SiteInput(
            name="Praia — pontos de cadeiras e guarda-sol",
            kind="beach",
            regime=regime.id,
            notes="Locação de cadeiras e guarda-sol só nestes pontos (art. 23, § 2º; Anexo I).",
            points=[
                PointInput(
                    code=p.label.split(" — ")[0],
                    label=p.label,
                    description=p.description or "",
                    regime_site=p.id,
                    basis=p.basis,
                )
                for p in points
            ],
        )
    )
