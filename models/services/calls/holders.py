"""What a held draw turns into: the holders' permits issued and their stalls assigned."""

from __future__ import annotations

import datetime as _dt
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from models.base.errors import FieldErrors, UserError
from models.permits import LIVE_STATUSES, Permit
from models.registry.applications import STATUSES as APP_STATUSES
from models.registry.applications import Application
from models.rules import describe
from models.rules.regimes import get_regime
from models.selection.draws import (
    Draw,
    draw_entries,
    get_draw,
)
from models.services.calls.options import Option, site_aliases
from models.services.issuing import issue_permit
from models.sites import Site, Stall, find_site, stall_rows

# --------------------------------------------------------------------------- holders: permits and stalls


@dataclass(frozen=True)
class HolderRow:
    entry_id: int
    order: int  # order of choice within the group (1 = chooses first)
    group: str
    participant_id: str
    name: str
    quota: bool
    application_id: int | None
    application_status: str
    application_status_label: str
    permit_id: int | None
    permit_number: str
    permit_status_label: str
    stall_text: str  # the stalls the permit holds ("Banca 3 — Rua …")
    permit_live: bool = False  # the permit is in force (active or suspended)
    section: str = ""  # the permit's section (SJC art. 8º): a stall of another section is not offered first
    #: what the act asks the winner after the list (Sapezal art. 11), checked today: ``RuleResult`` values
    requirements: tuple = ()

    @property
    def requirements_text(self) -> str:
        """ "entregues", "faltam 2 — até 20/10/2026", "prazo encerrado em …" ("" when the act asks nothing later)."""
        return requirements_text(self.requirements)

    @property
    def due_documents(self) -> tuple[str, ...]:
        """The ids of the documents still to deliver (not met yet)."""
        return tuple(r.rule.document for r in self.requirements if r.rule.kind == "document" and r.status != "passed")


def requirements_text(results) -> str:
    """Short state of the requirements an act asks after the list, for a column (the reasons say the rest)."""
    if not results:
        return ""
    unmet = [r for r in results if r.status != "passed"]
    if not unmet:
        return "cumpridos"
    if any(r.status == "failed" for r in unmet):
        return f"{len(unmet)} em falta — prazo encerrado"
    dues = sorted({r.due for r in unmet if r.due is not None})
    return f"{len(unmet)} a apresentar" + (f" até {dues[0]:%d/%m/%Y}" if dues else " após a lista definitiva")


def _permit_of_application(app_id: int | None) -> Permit | None:
    if app_id is None:
        return None
    return Permit.get_or_none(Permit.application == app_id)


def draw_holders(draw: Draw | int, *, today: _dt.date | None = None, requirements: bool = False) -> list[HolderRow]:
    """The holders of a draw in order of choice (by group, then the drawn order), with permit and stall; with
    ``requirements``, what the act asks them after the list (Sapezal art. 11), checked ``today``, while their
    permit is not issued."""
    from models.services.front_desk import later_requirements

    draw = get_draw(draw.id if isinstance(draw, Draw) else draw)
    today = today or _dt.date.today()
    rows = []
    for entry in draw_entries(draw, role="holder"):
        app = Application.get_or_none(Application.id == entry.application_id) if entry.application_id else None
        permit = _permit_of_application(app.id if app else None)
        stalls = []
        if permit is not None:
            for stall in Stall.select(Stall, Site).join(Site).where(Stall.holder == permit.id).order_by(Stall.number):
                stalls.append(f"Banca {stall.number} — {stall.site.name}")
        rows.append(
            HolderRow(
                entry_id=entry.id,
                order=entry.role_order,
                group=entry.group,
                participant_id=entry.participant_id,
                name=entry.name,
                quota=bool(entry.quota),
                application_id=app.id if app else None,
                application_status=app.status if app else "",
                application_status_label=APP_STATUSES.get(app.status, app.status) if app else "sem requerimento",
                permit_id=permit.id if permit else None,
                permit_number=permit.number if permit else "",
                permit_status_label=permit.status_label if permit else "",
                stall_text="; ".join(stalls),
                permit_live=bool(permit and permit.status in LIVE_STATUSES),
                section=(permit.section if permit else (app.section if app else "")) or "",
                requirements=(
                    later_requirements(app, today=today) if requirements and app is not None and permit is None else ()
                ),
            )
        )
    return rows


@dataclass(frozen=True)
class IssueOutcome:
    holder: HolderRow
    ok: bool
    message: str
    permit_number: str = ""
    needs: str = ""  # "valid_until" / "event_end": the act leaves the end open, ask it


def _held(draw: Draw) -> None:
    if draw.status != "held":
        raise UserError(
            f"O sorteio nº {draw.id} foi anulado: os seus titulares não recebem permissão nem banca.", field="draw"
        )


def issue_holder_permits(
    draw: Draw | int, *, by: str, today: _dt.date, key_dir: Path | None, end: _dt.date | None = None
) -> list[IssueOutcome]:
    """Issue the permit of each holder whose application is approved (or awaiting payment and paid), in order.

    Each permit is its own transaction (``models.permits.issue_permit``): one
    refusal does not stop the others, and says why. Where the act leaves the
    end of the term open, ``end`` is used; without it the outcome has
    ``needs`` set (ask the date and call again: issued permits are skipped)."""
    draw = get_draw(draw.id if isinstance(draw, Draw) else draw)
    _held(draw)
    outcomes = []
    for holder in draw_holders(draw):
        who = f"{holder.order}º {holder.name}"
        if holder.permit_id is not None:
            outcomes.append(
                IssueOutcome(
                    holder,
                    True,
                    f"{who}: permissão nº {holder.permit_number} já emitida ({holder.permit_status_label}).",
                    holder.permit_number,
                )
            )
            continue
        if holder.application_id is None:
            outcomes.append(IssueOutcome(holder, False, f"{who}: participante sem requerimento no Praça."))
            continue
        app = Application.get_by_id(holder.application_id)
        if app.status not in ("approved", "awaiting_payment"):
            outcomes.append(
                IssueOutcome(
                    holder,
                    False,
                    f"{who}: requerimento {app.protocol} "
                    f"{APP_STATUSES.get(app.status, app.status)} — aprove-o no Atendimento "
                    "antes de emitir a permissão.",
                )
            )
            continue
        kwargs: dict = {}
        outcome = None
        for _attempt in range(2):
            try:
                permit = issue_permit(app, by=by, today=today, key_dir=key_dir, quota=holder.quota, **kwargs)
            except FieldErrors as exc:
                key, message = next(iter(exc.errors.items()))
                if key in ("valid_until", "event_end") and not kwargs and end is not None:
                    kwargs = {key: end}
                    continue
                outcome = IssueOutcome(
                    holder,
                    False,
                    f"{who}: {message}",
                    needs=key if key in ("valid_until", "event_end") and not kwargs else "",
                )
                break
            except UserError as exc:
                outcome = IssueOutcome(holder, False, f"{who}: {exc.message}")
                break
            outcome = IssueOutcome(
                holder,
                True,
                f"{who}: permissão nº {permit.number} emitida, válida de "
                f"{permit.valid_from:%d/%m/%Y} a {permit.valid_until:%d/%m/%Y}.",
                permit.number,
            )
            break
        assert outcome is not None  # the second try always ends in an outcome
        outcomes.append(outcome)
    return outcomes


def draw_sites(draw: Draw | int) -> list[Option]:
    """The map desk's sites of the draw's regime (value: the site id), the draw's own place first."""
    draw = get_draw(draw.id if isinstance(draw, Draw) else draw)
    regime = get_regime(draw.regime)
    aliases = site_aliases(regime, draw.site) if draw.site else set()
    sites = list(Site.select().where(Site.regime == draw.regime).order_by(Site.name))
    sites.sort(key=lambda s: 0 if s.name.lower() in aliases or (s.regime_site or "").lower() in aliases else 1)
    return [Option(str(s.id), f"{s.name} — {s.kind_label}") for s in sites]


@dataclass(frozen=True)
class StallChoice:
    holder: HolderRow
    free: tuple[Option, ...]  # the free stalls of the site (value: stall id), by number
    default: str  # the stall offered (next free in number order), "" when none
    note: str  # why no stall is offered (already holds one, no permit in force…)


def _stall_label(row) -> str:
    size = f"{describe.number(row.front)} × {describe.number(row.depth)} m"
    extra = ", ".join(x for x in (f"seção {row.section.upper()}" if row.section else "", row.line) if x)
    return f"Banca {row.number} — {size}" + (f" ({extra})" if extra else "")


def stall_choices(draw: Draw | int, site: Site | int | str) -> list[StallChoice]:
    """For each holder in order of choice, the free stalls of ``site`` and the one offered by default:
    holder 1 takes the first free stall by number, holder 2 the next, and so on — of the holder's own
    section when the stalls have sections (SJC, Lei 9.158/2014, art. 8º)."""
    draw = get_draw(draw.id if isinstance(draw, Draw) else draw)
    site = find_site(site)
    rows = stall_rows(site)
    free_rows = [r for r in rows if r.permit_id is None]
    free = tuple(Option(str(r.id), _stall_label(r)) for r in free_rows)
    held_here = {r.permit_id: r.number for r in rows if r.permit_id is not None}
    taken: set[int] = set()

    def offer(section: str) -> Option | None:
        for r in free_rows:
            if r.id in taken or (section and r.section and r.section != section):
                continue
            taken.add(r.id)
            return Option(str(r.id), _stall_label(r))
        return None

    choices = []
    for holder in draw_holders(draw):
        if holder.permit_id is not None and holder.permit_id in held_here:
            choices.append(StallChoice(holder, free, "", f"já ocupa a banca {held_here[holder.permit_id]}"))
        elif not holder.permit_live:
            choices.append(StallChoice(holder, free, "", "sem permissão em vigor: emita a permissão antes"))
        else:
            nxt = offer(holder.section)
            choices.append(
                StallChoice(
                    holder, free, nxt.value if nxt else "", "" if nxt else "não há mais bancas livres neste local"
                )
            )
    return choices


def assign_stalls(draw: Draw | int, picks: Mapping[int, str | int | None]) -> list[tuple[bool, str]]:
    """Put each holder (``entry_id`` → stall id) on the stall picked, in order of choice.

    Each assignment is one transaction (``models.sites.assign_holder``); a
    refusal (stall taken, section of another line…) is reported and the
    others go on. Returns (ok, pt-BR line) per holder with a pick."""
    from models.sites import assign_holder

    draw = get_draw(draw.id if isinstance(draw, Draw) else draw)
    _held(draw)
    results = []
    for holder in draw_holders(draw):
        stall = picks.get(holder.entry_id)
        if stall in (None, ""):
            continue
        who = f"{holder.order}º {holder.name}"
        if not holder.permit_live or holder.permit_id is None:
            results.append((False, f"{who}: sem permissão em vigor — emita a permissão antes."))
            continue
        try:
            row = assign_holder(int(stall), holder.permit_id)
        except UserError as exc:
            results.append((False, f"{who}: {exc.message}"))
            continue
        results.append((True, f"{who}: banca {row.number} (permissão nº {holder.permit_number})."))
    return results
