"""When an application may still be filed, and until when a payment counts: the act's registration window.

Pure functions over a regime and plain values — no database, no Qt. The
front desk (``models.services.front_desk``) gathers the event's dates; the draw
(``models.selection``) reads the same cut-offs through ``DrawRules``.

* **Registration** (``[selection] registration`` of the kinds the selection
  serves): ``opens``/``until`` bound the moment of filing (São Bento, Dec.
  4.794/2026, art. 3º: "no dia 26 de março de 2026, até 12h00min");
  ``proof_until`` bounds the payment whose proof is due (art. 3º; art. 6º:
  "comprovantes … até às 14h00min"). After ``until`` a filing is *late*: where
  the act takes late requests for the places left (``late_fill``; art. 10) the
  desk files it and says so plainly; where it does not, the filing is refused.
* **The event's dates**: the days of the permit kind's schedule, else the
  first and last day the map desk keeps for the site. Once the last day has
  passed there is nothing to apply for: the filing is refused.
"""

from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass

from models.rules import describe
from models.rules.regimes import Regime
from models.rules.regimes.model import Registration

__all__ = ["CLOSED", "LATE", "OPEN", "EventDates", "FilingCheck", "filing_check", "late_text", "registration_of"]

OPEN, LATE, CLOSED = "open", "late", "closed"


@dataclass(frozen=True)
class EventDates:
    """The first and last day of the event an application is for, and where they come from (pt-BR)."""

    first: _dt.date
    last: _dt.date
    source: str  # "Evento Indomit (Dec. 4.794/2026, art. 2º e 5º)" or "datas do local «…» no Praça"


@dataclass(frozen=True)
class FilingCheck:
    status: str  # OPEN | LATE | CLOSED
    text: str  # pt-BR, with the dates and the articles
    basis: str = ""  # the full citation(s) the text rests on
    field: str = "permit_kind"  # the form field it is about ("site" when the site's dates decided)

    @property
    def refused(self) -> bool:
        return self.status == CLOSED

    def to_dict(self) -> dict[str, str]:
        return {"status": self.status, "text": self.text, "basis": self.basis}


def registration_of(regime: Regime, permit_kind: str) -> Registration | None:
    """The registration window of the selection that serves ``permit_kind`` (``None``: the act sets none)."""
    sel = regime.selection
    if sel is None or sel.registration is None:
        return None
    if sel.permit_kinds and permit_kind not in sel.permit_kinds:
        return None
    return sel.registration


def schedule_dates(regime: Regime, permit_kind: str) -> EventDates | None:
    """The event days the act itself fixes for ``permit_kind`` (its schedule), if any."""
    kind = regime.permit_kind(permit_kind)
    if not kind.schedule:
        return None
    schedule = regime.schedule(kind.schedule)
    days = sorted(d.date for d in schedule.days)
    if not days:
        return None
    return EventDates(days[0], days[-1], f"{schedule.label} ({regime.cite_item(schedule)})")


def late_text(regime: Regime) -> str:
    """What the act allows after the registration closes (``late_fill``), in words with its article."""
    sel = regime.selection
    lf = sel.late_fill if sel is not None else None
    if lf is None:
        return ""
    text = f"só para o espaço que sobrar, {describe.ORDER_BY.get(lf.order_by, lf.order_by)}"
    if lf.pay_days_after_issue is not None:
        text += f", com pagamento em até {describe.days(lf.pay_days_after_issue)} após a emissão do boleto"
    return f"{text} ({regime.cite_item(lf)})"


def filing_check(regime: Regime, permit_kind: str, at: _dt.datetime, *, event: EventDates | None = None) -> FilingCheck:
    """May an application for ``permit_kind`` be filed at ``at``? ``event`` gives the event's dates where the act
    does not fix them (the map desk's site); the act's own schedule wins."""
    own = schedule_dates(regime, permit_kind)
    field = "permit_kind" if own is not None or event is None else "site"
    event = own or event
    if event is not None and at.date() > event.last:
        return FilingCheck(
            CLOSED,
            f"O evento terminou em {describe.date(event.last)} — {event.source}: não há o "
            f"que autorizar; o pedido não é protocolado.",
            event.source,
            field,
        )
    reg = registration_of(regime, permit_kind)
    if reg is None:
        return FilingCheck(OPEN, "")
    where = regime.cite_item(reg)
    if reg.opens is not None and at < reg.opens:
        return FilingCheck(
            CLOSED,
            f"As inscrições abrem em {describe.moment(reg.opens)} ({where}): o pedido não é protocolado antes.",
            where,
        )
    if reg.until is not None and at > reg.until:
        closed = f"Inscrições encerradas em {describe.moment(reg.until)} ({where})"
        late = late_text(regime)
        lf = regime.selection.late_fill if regime.selection is not None else None
        if late and lf is not None:  # late_text says something only of a late_fill
            return FilingCheck(
                LATE,
                f"{closed}: pedido fora do prazo — não entra na seleção do prazo; {late}.",
                f"{where}; {regime.cite_item(lf)}",
            )
        return FilingCheck(
            CLOSED, f"{closed}: o ato não admite pedido depois do prazo; o pedido não é protocolado.", where
        )
    text = f"Inscrição no prazo (até {describe.moment(reg.until)}, {where})." if reg.until is not None else ""
    return FilingCheck(OPEN, text, where if text else "")
