"""Permits (alvarás, licenças, credenciais, TPU): issue, lifecycle and what is due today.

A permit is issued from an approved application and never edited afterwards:
every change is a :class:`PermitEvent` (append-only), and a change of content
— a renewal, a transfer to an heir, an exchange of sites — is a **new** permit
that refers to the old one (``previous``); the old one becomes ``superseded``
with the reason. The permit row itself only moves its ``status`` (with
``version`` for optimistic locking); its ``qr_text`` is written once, in the
transaction that issues it.

Numbers are ``AAAA/NNNNN`` per year from the gapless counter
``permit-AAAA`` (:func:`models.registry.applications.next_number`) taken inside the
transaction that creates the permit.

Readings of the acts (each computed date carries its article):

* **Validity** (``[[permit_kinds]].validity``). A term of N days, months or
  years is counted with the first day in force included: N months from
  01/12/2026 run to 30/11/2027 (:func:`models.rules.eligibility.add_months`, minus
  one day), so "prazo não superior a um ano" (Lei 1.171/2014, art. 38) is
  never exceeded, and the TPU's "validade por 5 (cinco) anos" (LC 324/2025,
  art. 158; art. 177) runs 01/12/2026–30/11/2031. A term of N days on a kind
  with a calendar of event days runs from the first event day (Dec.
  4.794/2026, art. 2º: 27, 28 e 29/03/2026). ``until = "event-end"`` runs to
  the last day of the kind's calendar; when the regime has no dates for it
  (Sapezal's temporária, Olímpia's events, Ilha Comprida's Ilha Verão) the
  clerk gives the event's last day. Where the act fixes no term (SJC, Lei
  9.158/2014, art. 4º; Olímpia, art. 138) the clerk gives the last day — Praça
  never invents one.
* **Yearly licences by exercise.** A kind whose renewal is due by a fixed day
  of the year (``renewal.until_month_day``) runs by exercise (calendar year):
  "validade de 01 (um) ano, podendo ser renovada por igual período, até o dia
  30 de setembro" with "para o exercício de 2018, especificamente, ... até
  31/01/2018" (Dec. 890/2017, art. 12 and § 1º) — a licence issued in 2026 is
  valid to 31/12/2026, its renewal asked until 30/09/2026 and valid for 2027.
  A licence issued after that year's date may be renewed while it is in force.
* **Renewal window** (``renewal``): ``from_days_before``/``to_days_before``
  count back from the last day of validity ("antecedência máxima de 240 e
  mínima de 60 dias, contados da data final", LC 324/2025, art. 166); an act
  that sets only the latest day ("solicitada 30 dias antes do encerramento",
  Lei 1.171/2014, art. 23, § 1º; art. 5º, § 3º) opens the window at issue.
  The renewed permit starts the day after the old one ends, for the same
  term; the old one is superseded at once (LC 324/2025, art. 166, parágrafo
  único: "fica revogado automaticamente o TPU vigente em caso de obtenção de
  novo Termo").
* **Start-up deadlines** come from the kind's ``startup`` and from the
  regime's ``[[deadlines]]`` counted from the issue (``from`` = ``issue``,
  ``permit-grant`` or ``approval-notice``): start the activity (closed by a
  ``started`` event), use the licence (``non-use``), pick it up
  (``permit-pickup``, ``licence-collection``; closed by ``picked-up``). A
  TPU's 90 days count from its publication (LC 324/2025, art. 176), taken as
  the issue date. Business days skip weekends and the national and state
  holidays (municipal ones when the deadline desk records them).
* **History for waiting periods**: a revocation (``revocation``; with
  ``abandonment`` when the ground is abandoning the feira, Lei 9.158/2014,
  art. 26, IV and parágrafo único), an expiry (``expiry``, dated the first day
  without licence — Dec. 890/2017, art. 12, § 2º: "contados da data em que
  perdeu o direito à licença") and a cancellation (``cancellation``) — not a
  cancellation the holder asked for (Dec. 890/2017, art. 12, § 3º; LC
  324/2025, art. 180), nor a permit superseded by its renewal, transfer or
  exchange.
* **Transfer to an heir** only where the kind's ``transfer`` says the act
  allows it (e.g. Lei 9.158/2014, art. 17), for the remaining term.
* **Leave** (``leave``): at most ``max_days_per_year`` days per calendar year
  in at most ``max_periods`` periods, asked ``notice_days`` ahead (Lei
  9.158/2014, art. 16 and § 1º).
"""

from __future__ import annotations

import dataclasses
import datetime as _dt
import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from peewee import (
    JOIN,
    BooleanField,
    CharField,
    DateField,
    DateTimeField,
    ForeignKeyField,
    IntegerField,
    TextField,
)

from models.access.session import acting, require
from models.access.signing_keys import qr_content
from models.base import clock
from models.base.errors import FieldErrors, UserError
from models.registry.applications import Application, ApplicationDocument, change_status, next_number
from models.registry.people import Company, CompanyPartner, HouseholdMember, Person
from models.rules.acts import act_sha
from models.rules.deadlines import compute_deadline
from models.rules.eligibility import HistoryFacts, PermitFacts, add_months
from models.store.db import BaseModel, DecimalTextField, db, update_versioned
from models.store.files import keep_file

__all__ = [
    "STATUSES",
    "LIVE_STATUSES",
    "EVENT_KINDS",
    "ORIGINS",
    "Permit",
    "PermitEvent",
    "PermitDocument",
    "documents_on_file",
    "Term",
    "RenewalWindow",
    "StartupDeadline",
    "RenewalDue",
    "TodayItem",
    "permit_term",
    "issue_permit",
    "suspend",
    "reactivate",
    "revoke",
    "cancel",
    "expire_due",
    "renewal_window",
    "renew",
    "due_for_renewal",
    "startup_deadlines",
    "record_started",
    "record_picked_up",
    "extend_startup",
    "grant_leave",
    "transfer_to_heir",
    "exchange_sites",
    "today_items",
    "permit_document",
    "find_permit",
    "permit_facts_for",
    "history_facts_for",
    "active_count",
    "quota_count",
    "related_holders",
    "permit_standing",
    "withdrawn_permits",
    "PermitRow",
    "PermitHistoryItem",
    "permit_rows",
    "permit_history",
]

STATUSES = {
    "active": "ativa",
    "suspended": "suspensa",
    "revoked": "cassada",
    "cancelled": "cancelada",
    "expired": "vencida",
    "superseded": "substituída",
}
#: Statuses of a permit its holder still holds (counted by one-per rules, caps and quotas).
LIVE_STATUSES = ("active", "suspended")

EVENT_KINDS = {
    "issued": "emissão",
    "suspended": "suspensão",
    "reactivated": "reativação",
    "revoked": "cassação",
    "cancelled": "cancelamento",
    "expired": "vencimento",
    "renewed": "renovação",
    "leave": "descanso/afastamento",
    "transfer": "transferência",
    "exchange": "permuta de locais",
    "started": "início das atividades",
    "picked-up": "retirada do alvará",
    "startup-extended": "prorrogação do prazo de início",
}
ORIGINS = {
    "application": "requerimento",
    "renewal": "renovação",
    "transfer": "transferência",
    "exchange": "permuta",
    "import": "importação",  # an existing permit brought from the town's list (models/registry/importer.py)
}
# revocation grounds that the eligibility history tells apart
GROUND_ABANDONMENT = "abandonment"
GROUND_HOLDER_REQUEST = "holder-request"
# deadlines of [[deadlines]] that count from the issue of a permit
_ISSUE_EVENTS = ("issue", "permit-grant", "approval-notice")


def _date(day: _dt.date) -> str:
    return day.strftime("%d/%m/%Y")


def _plural(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


# --------------------------------------------------------------------------- tables


class Permit(BaseModel):
    number = CharField(max_length=16, unique=True)  # AAAA/NNNNN
    year = IntegerField()
    seq = IntegerField()
    application = ForeignKeyField(Application, null=True, unique=True, backref="permits", on_delete="RESTRICT")
    previous = ForeignKeyField("self", null=True, backref="successors", on_delete="RESTRICT")
    origin = CharField(max_length=16, default="application")
    regime = CharField(max_length=64, index=True)
    permit_kind = CharField(max_length=64)
    person = ForeignKeyField(Person, null=True, backref="permits", on_delete="RESTRICT")
    company = ForeignKeyField(Company, null=True, backref="permits", on_delete="RESTRICT")
    site = CharField(max_length=200, default="")
    point = CharField(max_length=64, default="")  # stall / point within the site
    line = CharField(max_length=64, default="")
    group = CharField(max_length=64, default="")
    section = CharField(max_length=64, default="")
    equipment = CharField(max_length=64, default="")
    front = DecimalTextField(max_length=20, null=True)
    depth = DecimalTextField(max_length=20, null=True)
    hitch = DecimalTextField(max_length=20, null=True)
    days_hours = TextField(default="")
    quota = BooleanField(default=False)  # holds a place reserved by a quota rule
    valid_from = DateField()
    valid_until = DateField(index=True)
    status = CharField(max_length=16, default="active", index=True)
    status_at = DateTimeField(default=clock.now)
    issued_on = DateField()
    issued_at = DateTimeField(default=clock.now)
    issued_by = CharField(max_length=100)
    qr_text = TextField(default="")
    notes = TextField(default="")
    #: SHA-256 of the act's text it was computed from (models.rules.acts): shown and recomputed with that version
    act_sha256 = CharField(max_length=64, default="")
    version = IntegerField(default=1)

    class Meta:
        table_name = "permit"

    @property
    def status_label(self) -> str:
        return STATUSES.get(self.status, self.status)

    @property
    def holder_name(self) -> str:
        return self.person.name if self.person_id else self.company.legal_name

    @property
    def origin_label(self) -> str:
        return ORIGINS.get(self.origin, self.origin)


class PermitEvent(BaseModel):
    """One fact of a permit's life: who, when, what, why — never edited nor deleted."""

    permit = ForeignKeyField(Permit, backref="events", on_delete="RESTRICT")
    at = DateTimeField(default=clock.now)  # when it was recorded
    on = DateField()  # the date that counts (deadlines, waiting periods)
    by = CharField(max_length=100)
    kind = CharField(max_length=20, index=True)
    status_from = CharField(max_length=16, default="")
    status_to = CharField(max_length=16, default="")
    reason = TextField(default="")
    ground = CharField(max_length=32, default="")
    start = DateField(null=True)
    end = DateField(null=True)
    other = ForeignKeyField(Permit, null=True, backref="mentions", on_delete="RESTRICT")
    data = TextField(default="")  # JSON: substitute, basis…

    class Meta:
        table_name = "permit_event"

    @property
    def kind_label(self) -> str:
        return EVENT_KINDS.get(self.kind, self.kind)

    @property
    def details(self) -> dict:
        return json.loads(self.data) if self.data else {}


class PermitDocument(BaseModel):
    """A document delivered after the application — with a renewal (a new health certificate…) — never edited."""

    permit = ForeignKeyField(Permit, backref="documents", on_delete="RESTRICT")
    document = CharField(max_length=64)  # id from the regime's [[documents]]
    delivered_on = DateField()
    valid_until = DateField(null=True)
    file_path = CharField(max_length=300, default="")
    sha256 = CharField(max_length=64, default="")
    original_name = CharField(max_length=300, default="")
    recorded_at = DateTimeField(default=clock.now)
    recorded_by = CharField(max_length=100)

    class Meta:
        table_name = "permit_document"


# --------------------------------------------------------------------------- regime helpers


def _regime(permit_or_id):
    from models.rules.regimes import get_regime

    if isinstance(permit_or_id, Permit):  # the act's text in force on the day the permit was issued
        return get_regime(permit_or_id.regime, on=permit_or_id.issued_on)
    return get_regime(permit_or_id)


def _by(by: str) -> str:
    """The session's user (issue 16 §4): a ``by`` naming anyone else is refused (models.access.session.acting)."""
    return acting(by)


def _reason(reason: str, what: str) -> str:
    reason = (reason or "").strip()
    if not reason:
        raise FieldErrors({"reason": f"Informe o motivo ({what})."})
    return reason


def _exercise_cycle(kind) -> bool:
    """A yearly licence whose renewal is due on a fixed day of the year runs by exercise (Dec. 890/2017, art. 12)."""
    validity, renewal = kind.validity, kind.renewal
    if validity is None:
        return False
    if getattr(validity, "exercise", False):
        return True
    return bool(validity.years and renewal is not None and renewal.until_month_day)


@dataclass(frozen=True)
class Term:
    """A permit's term: first and last day in force, with the article and how it was counted."""

    valid_from: _dt.date
    valid_until: _dt.date
    article: str
    text: str


def permit_term(
    regime,
    kind_id: str,
    start: _dt.date,
    *,
    event_end: _dt.date | None = None,
    valid_until: _dt.date | None = None,
    renewal: bool = False,
) -> Term:
    """The term of a permit of ``kind_id`` starting on ``start`` (the issue day, or the day after the renewed one).

    ``event_end`` is the event's last day when the regime has no dates for it;
    ``valid_until`` the last day the Administration fixes when the act fixes no
    term. Either given where the act already decides is refused.
    """
    if isinstance(regime, str):
        regime = _regime(regime)
    kind = regime.permit_kind(kind_id)
    validity = kind.validity
    if validity is None:
        if valid_until is None:
            raise FieldErrors(
                {
                    "valid_until": f"O ato ({regime.short}) não fixa prazo de validade para "
                    f"{kind.label}: informe a data final fixada pela Administração."
                }
            )
        if valid_until < start:
            raise FieldErrors(
                {"valid_until": f"A validade termina em {_date(valid_until)}, antes de começar em {_date(start)}."}
            )
        return Term(start, valid_until, "", f"prazo fixado pela Administração ({regime.short} não fixa validade)")
    if valid_until is not None:
        raise FieldErrors(
            {"valid_until": f"O ato fixa a validade ({regime.cite_item(validity)}); não informe outra data final."}
        )
    article = regime.cite_item(validity)
    schedule = regime.schedule(kind.schedule) if kind.schedule else None
    event_days = sorted(d.date for d in schedule.days) if schedule is not None else []
    if validity.until == "event-end":
        if event_days and not renewal:
            if event_end is not None and event_end != event_days[-1]:
                raise FieldErrors(
                    {
                        "event_end": f"O ato fixa o fim do evento em {_date(event_days[-1])} "
                        f"({regime.cite_item(schedule)}); não informe outra data."
                    }
                )
            end, how = event_days[-1], f"até o fim do evento ({schedule.label})"
        else:
            if event_end is None:
                raise FieldErrors(
                    {"event_end": f"Informe o último dia do evento: a permissão vale até o fim do evento ({article})."}
                )
            end, how = event_end, "até o fim do evento"
        if end < start:
            raise UserError(f"O evento terminou em {_date(end)}; não há o que autorizar em {_date(start)}.")
        return Term(start, end, article, how)
    if event_end is not None:
        raise FieldErrors({"event_end": f"A validade de {kind.label} não depende do fim de um evento ({article})."})
    if validity.days:
        first = start
        if event_days and not renewal:
            first = event_days[0]
            last = first + _dt.timedelta(days=validity.days - 1)
            if start > last:
                raise UserError(f"Os {validity.days} dias da permissão terminaram em {_date(last)} ({article}).")
            return Term(
                max(start, first), last, article, f"{_plural(validity.days, 'dia', 'dias')} a partir de {_date(first)}"
            )
        return Term(
            first, first + _dt.timedelta(days=validity.days - 1), article, _plural(validity.days, "dia", "dias")
        )
    months = validity.months or 12 * (validity.years or 0)
    if _exercise_cycle(kind):
        years = validity.years or 1
        end = _dt.date(start.year + years - 1, 12, 31)
        return Term(
            start,
            end,
            article,
            f"exercício de {start.year}" if years == 1 else f"exercícios de {start.year} a {end.year}",
        )
    end = add_months(start, months) - _dt.timedelta(days=1)
    text = _plural(validity.years, "ano", "anos") if validity.years else _plural(months, "mês", "meses")
    return Term(start, end, article, text)


def _schedule_text(regime, kind) -> str:
    """Days and hours from the kind's calendar, for the permit when the clerk gives none."""
    from models.rules import describe

    if not kind.schedule:
        return ""
    schedule = regime.schedule(kind.schedule)
    if schedule.days:
        return "; ".join(describe.schedule_day(d) for d in schedule.days)
    hours = schedule.opening_hours
    if hours is not None and not hours.admin_defined and hours.opens and hours.closes:
        names = [describe.WEEKDAYS.get(w, w) for w in hours.weekdays]
        days = ", ".join(names[:-1]) + " e " + names[-1] if len(names) > 1 else "".join(names)
        clock = f"das {describe.clock(hours.opens)} às {describe.clock(hours.closes)}"
        return f"{days[:1].upper()}{days[1:]}, {clock}" if days else clock
    return ""


# --------------------------------------------------------------------------- issue


def _next_permit_number(today: _dt.date) -> tuple[int, int, str]:
    seq = next_number(f"permit-{today.year}")
    return today.year, seq, f"{today.year}/{seq:05d}"


def _sign(permit: Permit, key_dir: Path | None) -> None:
    if key_dir is None:
        return
    try:
        doc = permit_document(permit).signed(Path(key_dir) if isinstance(key_dir, (str, Path)) else key_dir)
    except OSError as exc:  # a key folder that cannot be created or read: nothing is issued
        raise UserError(
            f"Não foi possível usar a pasta de chaves {key_dir}: {exc.strerror or exc}; nada foi emitido.", field="key"
        ) from exc
    Permit.update(qr_text=doc.qr_text).where(Permit.id == permit.id).execute()
    permit.qr_text = doc.qr_text


def _event(
    permit: Permit,
    kind: str,
    *,
    by: str,
    on: _dt.date,
    status_to: str = "",
    status_from: str = "",
    reason: str = "",
    ground: str = "",
    start: _dt.date | None = None,
    end: _dt.date | None = None,
    other: Permit | None = None,
    data: dict | None = None,
) -> PermitEvent:
    return PermitEvent.create(
        permit=permit.id,
        on=on,
        by=by,
        kind=kind,
        status_from=status_from,
        status_to=status_to,
        reason=reason,
        ground=ground,
        start=start,
        end=end,
        other=other.id if other is not None else None,
        data=json.dumps(data, ensure_ascii=False, sort_keys=True) if data else "",
    )


def _check_cap(regime, kind, today: _dt.date) -> None:
    """The act's limit of permits (e.g. Ilha Comprida's 280) counted again at issue, not only at approval."""
    for rule in kind.rules:
        if rule.kind == "cap" and rule.count and not rule.admin_defined:
            in_force = active_count(regime.id, kind.id, today=today)
            if in_force >= rule.count:
                raise UserError(
                    f"Limite de {rule.count} permissões de {kind.label} atingido ({in_force} em vigor; "
                    f"{regime.cite_item(rule)}): a permissão não foi emitida."
                )


def issue_permit(
    app: Application,
    *,
    by: str,
    today: _dt.date,
    key_dir: Path | None,
    days_hours: str = "",
    point: str = "",
    event_end: _dt.date | None = None,
    valid_until: _dt.date | None = None,
    quota: bool = False,
) -> Permit:
    """Issue the permit of an approved application (or one awaiting payment) — one transaction.

    The application moves to ``issued``; the permit gets the next number of
    the year, the term its kind sets (:func:`permit_term`) and the QR text
    signed with the key in ``key_dir`` (``None``: unsigned, for demo data only).
    """
    require("permits.issue")
    by = _by(by)
    if app.status not in ("approved", "awaiting_payment"):
        from models.registry.applications import STATUSES as APP_STATUSES

        raise UserError(
            f"O requerimento {app.protocol} está {APP_STATUSES.get(app.status, app.status)}: "
            "só se emite a permissão de um requerimento aprovado ou aguardando pagamento."
        )
    if app.status == "awaiting_payment":
        from models.base.money import format_brl
        from models.billing.charges import open_charges_of_application

        unpaid = open_charges_of_application(app)
        if unpaid:
            listed = "; ".join(f"nº {c.number} {c.label} ({format_brl(c.open_amount)})" for c in unpaid)
            raise UserError(
                f"O requerimento {app.protocol} aguarda pagamento: {listed}. O ato exige o pagamento "
                "antes da permissão; registre-o em Cobrança."
            )
    regime = _regime(app.regime)
    kind = regime.permit_kind(app.permit_kind)
    term = permit_term(regime, kind.id, today, event_end=event_end, valid_until=valid_until)
    _check_due_later(app, today)
    with db.atomic():
        year, seq, number = _next_permit_number(today)  # issues queue here, so the count below is current
        _check_cap(regime, kind, today)
        change_status(app, "issued", by=by, reason=f"permissão nº {number}")
        permit = Permit.create(
            number=number,
            year=year,
            seq=seq,
            application=app.id,
            origin="application",
            regime=app.regime,
            permit_kind=app.permit_kind,
            person=app.person_id,
            company=app.company_id,
            site=app.site,
            point=point.strip(),
            line=app.line,
            group=app.group,
            section=app.section,
            equipment=app.equipment,
            front=app.front,
            depth=app.depth,
            hitch=app.hitch,
            days_hours=(days_hours or "").strip() or _schedule_text(regime, kind),
            quota=bool(quota),
            valid_from=term.valid_from,
            valid_until=term.valid_until,
            status="active",
            issued_on=today,
            issued_by=by,
            act_sha256=act_sha(app.regime, today),
        )
        _event(
            permit,
            "issued",
            by=by,
            on=today,
            status_to="active",
            reason=f"requerimento {app.protocol}",
            data={"term": term.text, "article": term.article},
        )
        _sign(permit, key_dir)
    return permit


def _check_due_later(app: Application, today: _dt.date) -> None:
    """What the act asks after the application (``Rule.due``: Sapezal art. 11 — CNPJ, health and clearance
    certificates within 10 business days of the final list) must be met before the permit: refused otherwise,
    listing each requirement with its deadline."""
    from models.registry.front_desk import later_requirements
    from models.rules.eligibility import PASSED

    unmet = [result for result in later_requirements(app, today=today) if result.status != PASSED]
    if unmet:
        listing = "; ".join(f"{r.label}: {r.reason} ({r.article})" for r in unmet)
        raise UserError(
            f"O requerimento {app.protocol} ainda não cumpre o que o ato pede antes da permissão — {listing}"
        )


def successor_of(permit: Permit) -> Permit | None:
    """The permit that replaced ``permit`` (renewal, transfer or exchange), if any — the newest."""
    return Permit.select().where(Permit.previous == permit.id).order_by(Permit.id.desc()).first()


def find_permit(number: str) -> Permit:
    """The permit with ``number`` (``AAAA/NNNNN``); one pt-BR line when there is none."""
    text = (number or "").strip()
    permit = Permit.get_or_none(Permit.number == text)
    if permit is None and "/" in text:
        year, _, seq = text.partition("/")
        if year.isdecimal() and seq.isdecimal() and len(year) <= 4 and len(seq) <= 9:  # beyond: no such permit
            permit = Permit.get_or_none((Permit.year == int(year)) & (Permit.seq == int(seq)))
    if permit is None:
        raise UserError(f"Permissão nº {text or '(vazio)'} não encontrada.", field="number")
    return permit


# --------------------------------------------------------------------------- status changes


def _move(permit: Permit, to: str, *, allowed_from: Sequence[str], what: str) -> Permit:
    """Change the status (optimistic lock); call inside the transaction that records the event."""
    if permit.status not in allowed_from:
        raise UserError(f"A permissão nº {permit.number} está {permit.status_label}; não pode ser {what}.")
    stale = f"A permissão nº {permit.number} foi alterada em outra mesa; reabra-a para ver a situação atual."
    update_versioned(permit, stale, status=to, status_at=clock.now())
    return Permit.get_by_id(permit.id)


def suspend(permit: Permit, *, by: str, reason: str, today: _dt.date, until: _dt.date | None = None) -> Permit:
    """Suspend an active permit (until a date, or until lifted by :func:`reactivate`)."""
    require("permits.sanction")
    by, reason = _by(by), _reason(reason, "suspensão")
    if until is not None and until < today:
        raise FieldErrors({"until": f"A suspensão terminaria em {_date(until)}, antes de hoje ({_date(today)})."})
    with db.atomic():
        updated = _move(permit, "suspended", allowed_from=("active",), what="suspensa")
        _event(
            updated,
            "suspended",
            by=by,
            on=today,
            status_from=permit.status,
            status_to="suspended",
            reason=reason,
            start=today,
            end=until,
        )
    return updated


def reactivate(permit: Permit, *, by: str, today: _dt.date, reason: str = "") -> Permit:
    """Lift a suspension; a permit whose term has ended cannot come back."""
    require("permits.sanction")
    by = _by(by)
    if permit.status == "suspended" and permit.valid_until < today:
        raise UserError(
            f"A permissão nº {permit.number} venceu em {_date(permit.valid_until)}; não pode ser reativada."
        )
    with db.atomic():
        updated = _move(permit, "active", allowed_from=("suspended",), what="reativada")
        _event(
            updated,
            "reactivated",
            by=by,
            on=today,
            status_from="suspended",
            status_to="active",
            reason=(reason or "").strip() or "fim da suspensão",
        )
    return updated


def revoke(permit: Permit, *, by: str, reason: str, today: _dt.date, abandonment: bool = False) -> Permit:
    """Revoke (cassar) a permit; the event is the history waiting periods count from.

    ``abandonment``: the ground is abandoning the feira (Lei 9.158/2014, art.
    26, IV), which some acts make wait longer (its parágrafo único: 36 meses).
    """
    require("permits.sanction")
    by, reason = _by(by), _reason(reason, "cassação")
    with db.atomic():
        updated = _move(permit, "revoked", allowed_from=LIVE_STATUSES, what="cassada")
        _event(
            updated,
            "revoked",
            by=by,
            on=today,
            status_from=permit.status,
            status_to="revoked",
            reason=reason,
            ground=GROUND_ABANDONMENT if abandonment else "",
        )
    return updated


def cancel(permit: Permit, *, by: str, reason: str, today: _dt.date, at_holder_request: bool = False) -> Permit:
    """Cancel a permit — at the holder's request (Dec. 890/2017, art. 12, § 3º; LC 324/2025, art. 180) or by act.

    Only a cancellation by act counts as history for waiting periods.
    """
    require("permits.sanction")
    by, reason = _by(by), _reason(reason, "cancelamento")
    with db.atomic():
        updated = _move(permit, "cancelled", allowed_from=LIVE_STATUSES, what="cancelada")
        _event(
            updated,
            "cancelled",
            by=by,
            on=today,
            status_from=permit.status,
            status_to="cancelled",
            reason=reason,
            ground=GROUND_HOLDER_REQUEST if at_holder_request else "",
        )
    return updated


def expire_due(today: _dt.date, *, by: str = "sistema") -> list[Permit]:
    """Mark as expired every permit in force whose last day is before ``today`` — one transaction.

    The event is dated the first day without licence (``valid_until`` + 1).
    """
    require("permits.lifecycle")
    expired: list[Permit] = []
    with db.atomic():
        due = Permit.select().where(Permit.status.in_(LIVE_STATUSES) & (Permit.valid_until < today)).order_by(Permit.id)
        for permit in due:
            try:
                updated = _move(permit, "expired", allowed_from=LIVE_STATUSES, what="dada como vencida")
            except UserError:  # changed by another desk meanwhile: its next run will see it
                continue
            _event(
                updated,
                "expired",
                by=by,
                on=permit.valid_until + _dt.timedelta(days=1),
                status_from=permit.status,
                status_to="expired",
                reason=f"fim da validade em {_date(permit.valid_until)}",
            )
            expired.append(updated)
    return expired


# --------------------------------------------------------------------------- renewal


@dataclass(frozen=True)
class RenewalWindow:
    """When a renewal may be asked: ``opens`` to ``closes``, both days included; unpacks as ``(opens, closes)``."""

    opens: _dt.date
    closes: _dt.date
    article: str
    text: str
    opens_fixed: bool  # the act fixes the first day (else the window opens at issue)

    def __iter__(self):
        yield self.opens
        yield self.closes

    def contains(self, day: _dt.date) -> bool:
        return self.opens <= day <= self.closes


def renewal_window(permit: Permit) -> RenewalWindow | None:
    """The renewal window of ``permit`` from its kind's ``renewal``; ``None`` when the act has no renewal."""
    regime = _regime(permit)
    kind = regime.permit_kind(permit.permit_kind)
    renewal = kind.renewal
    if renewal is None:
        return None
    article = regime.cite_item(renewal)
    end = permit.valid_until
    if renewal.until_month_day:
        month, day = (int(x) for x in renewal.until_month_day.split("-"))
        closes = _dt.date(end.year, month, day)
        if closes > end:  # the last such day while in force
            closes = _dt.date(end.year - 1, month, day)
        text = f"renovação até {day:02d}/{month:02d}"
        if closes < permit.valid_from:  # issued after that year's date: while in force
            closes = end
            text = (
                f"renovação até {day:02d}/{month:02d}; emitida depois de {day:02d}/{month:02d} de "
                f"{permit.valid_from.year}, pode ser renovada enquanto vigente (leitura do Praça)"
            )
        opens = max(permit.valid_from, _dt.date(closes.year, 1, 1))
        return RenewalWindow(opens, closes, article, text, False)
    if renewal.from_days_before is not None:
        opens = end - _dt.timedelta(days=renewal.from_days_before)
        fixed = True
    else:
        opens, fixed = permit.valid_from, False
    closes = end - _dt.timedelta(days=renewal.to_days_before or 0)
    if renewal.from_days_before is not None and renewal.to_days_before is not None:
        text = f"entre {renewal.from_days_before} e {renewal.to_days_before} dias antes do fim da validade"
    elif renewal.to_days_before:
        text = f"até {renewal.to_days_before} dias antes do fim da validade"
    else:
        text = f"a partir de {renewal.from_days_before} dias antes do fim da validade"
    return RenewalWindow(max(opens, permit.valid_from), closes, article, text, fixed)


def _root_application(permit: Permit) -> Application | None:
    seen = 0
    while permit is not None and seen < 1000:
        if permit.application_id:
            return Application.get_by_id(permit.application_id)
        permit = Permit.get_or_none(Permit.id == permit.previous_id) if permit.previous_id else None
        seen += 1
    return None


def _chain(permit: Permit) -> list[Permit]:
    """``permit`` and the permits it succeeded (renewals, transfers, exchanges), newest first."""
    chain, seen = [], set()
    while permit is not None and permit.id not in seen and len(chain) < 1000:
        chain.append(permit)
        seen.add(permit.id)
        permit = Permit.get_or_none(Permit.id == permit.previous_id) if permit.previous_id else None
    return chain


def _documents_of(permit: Permit, extra) -> list:
    """The documents on file for ``permit``: its first application's, replaced by those delivered later with a
    renewal (:class:`PermitDocument`, oldest first), then by any ``extra`` ones being delivered now."""
    from models.registry.applications import DocumentInput

    docs: dict[str, DocumentInput] = {}
    app = _root_application(permit)
    if app is not None:
        for row in ApplicationDocument.select().where(ApplicationDocument.application == app.id):
            docs[row.document] = DocumentInput(row.document, row.delivered_on, row.valid_until)
    later = (
        PermitDocument.select()
        .where(PermitDocument.permit.in_([p.id for p in _chain(permit)]))
        .order_by(PermitDocument.delivered_on, PermitDocument.id)
    )
    for row in later:
        docs[row.document] = DocumentInput(row.document, row.delivered_on, row.valid_until)
    for doc in extra or ():
        docs[doc.document] = doc
    return list(docs.values())


@dataclass(frozen=True)
class DocumentOnFile:
    """A document the permit's kind requires, as on file: from the application or delivered with a renewal."""

    document: str
    label: str
    basis: str
    validity_months: int | None
    delivered_on: _dt.date | None
    valid_until: _dt.date | None
    expired: bool  # no longer valid on the given day (or never delivered)


def documents_on_file(permit: Permit, *, today: _dt.date) -> list[DocumentOnFile]:
    """The kind's documents and what is on file for each — what a renewal must bring anew."""
    regime = _regime(permit)
    kind = regime.permit_kind(permit.permit_kind)
    on_file = {d.document: d for d in _documents_of(permit, ())}
    rows = []
    for doc_id in kind.documents:
        doc = regime.document(doc_id)
        have = on_file.get(doc_id)
        valid_until = have.valid_until if have else None
        if have is not None and valid_until is None and doc.validity_months and have.delivered_on:
            valid_until = add_months(have.delivered_on, doc.validity_months) - _dt.timedelta(days=1)
        rows.append(
            DocumentOnFile(
                doc_id,
                doc.label,
                regime.cite_item(doc),
                doc.validity_months,
                have.delivered_on if have else None,
                valid_until,
                have is None or (valid_until is not None and valid_until < today),
            )
        )
    return rows


def _delivered(regime, kind, documents, *, today: _dt.date) -> list:
    """Documents delivered now, checked: a document of the kind, a delivery date not in the future, a validity
    after it; ``(DocumentInput, None)`` pairs (the file is kept once the renewal is decided)."""
    errors: dict[str, str] = {}
    found = []
    for doc in documents or ():
        if doc.document not in kind.documents:
            errors[f"doc:{doc.document}"] = f"{doc.document}: documento não exigido para {kind.label}."
            continue
        label = regime.document(doc.document).label
        delivered_on = doc.delivered_on or today
        if delivered_on > today:
            errors[f"doc:{doc.document}"] = f"{label}: entregue em {_date(delivered_on)}, no futuro."
        elif doc.valid_until is not None and doc.valid_until < delivered_on:
            errors[f"doc:{doc.document}"] = f"{label}: validade ({_date(doc.valid_until)}) antes da entrega."
        found.append((dataclasses.replace(doc, delivered_on=delivered_on), None))
    if errors:
        raise FieldErrors(errors)
    return found


def _check_eligibility(
    holder_kind: str,
    holder_id: int,
    permit: Permit,
    *,
    today: _dt.date,
    site: str,
    documents,
    exclude: Iterable[int],
    what: str,
):
    """Eligibility of ``holder`` for ``permit``'s kind now; refuses listing every failed rule."""
    from models.registry.front_desk import applicant_facts, load_applicant
    from models.rules.eligibility import FAILED, evaluate_eligibility

    applicant = load_applicant(holder_kind, holder_id)
    facts = applicant_facts(
        applicant,
        documents=documents,
        site=site,
        today=today,
        regime=permit.regime,
        permit_kind=permit.permit_kind,
        exclude_permits=tuple(exclude),
        issuing=True,
    )
    result = evaluate_eligibility(permit.regime, permit.permit_kind, facts)
    failed = result.by_status(FAILED)
    if failed:
        listing = "; ".join(f"{r.label}: {r.reason} ({r.article})" for r in failed)
        count = _plural(len(failed), "requisito não atendido", "requisitos não atendidos")
        raise UserError(f"{what} recusada — {count}: {listing}")
    return result


def _successor_values(permit: Permit) -> dict:
    return dict(
        regime=permit.regime,
        permit_kind=permit.permit_kind,
        person=permit.person_id,
        company=permit.company_id,
        site=permit.site,
        point=permit.point,
        line=permit.line,
        group=permit.group,
        section=permit.section,
        equipment=permit.equipment,
        front=permit.front,
        depth=permit.depth,
        hitch=permit.hitch,
        days_hours=permit.days_hours,
        quota=permit.quota,
    )


def _supersede(
    permit: Permit, new: Permit, *, kind: str, by: str, today: _dt.date, reason: str, data: dict | None = None
) -> None:
    old = _move(permit, "superseded", allowed_from=("active",), what="substituída")
    _event(
        old, kind, by=by, on=today, status_from="active", status_to="superseded", reason=reason, other=new, data=data
    )


def _claim(permit: Permit, statuses: Sequence[str] = ("active",)) -> None:
    """Inside a transaction: take the permit as this desk saw it (version and status), or refuse.

    The guarded UPDATE also queues two desks acting on one permit at once.
    """
    stale = f"A permissão nº {permit.number} foi alterada em outra mesa; reabra-a para ver a situação atual."
    update_versioned(permit, stale, where=Permit.status.in_(list(statuses)))
    permit.version += 1


def renew(
    permit: Permit,
    *,
    by: str,
    today: _dt.date,
    key_dir: Path | None = None,
    documents: Sequence | None = None,
    valid_until: _dt.date | None = None,
) -> Permit:
    """Renew ``permit`` inside its renewal window: a new permit for the next term; the old one runs to its end.

    Eligibility is checked again through the front desk (the permit being
    renewed left out of the counts); any failed rule refuses the renewal and
    the message lists each with its article. ``documents`` (``DocumentInput``)
    replace those on file of the same kind (e.g. a new health certificate).
    """
    require("permits.lifecycle")
    by = _by(by)
    regime = _regime(permit)
    kind = regime.permit_kind(permit.permit_kind)
    if permit.status != "active":
        raise UserError(
            f"A permissão nº {permit.number} está {permit.status_label}; só uma permissão ativa pode ser renovada."
        )
    successor = Permit.get_or_none((Permit.previous == permit.id) & (Permit.origin == "renewal"))
    if successor is not None:
        raise UserError(
            f"A permissão nº {permit.number} já foi renovada pela nº {successor.number} "
            f"(válida de {_date(successor.valid_from)} a {_date(successor.valid_until)})."
        )
    window = renewal_window(permit)
    if window is None:
        raise UserError(f"O ato ({regime.short}) não prevê renovação de {kind.label}; faça um novo requerimento.")
    if not window.contains(today):
        raise UserError(
            f"Fora do prazo de renovação da permissão nº {permit.number}: pedido de {_date(window.opens)} a "
            f"{_date(window.closes)} ({window.text}; {window.article}); hoje é {_date(today)}."
        )
    holder_kind, holder_id = ("person", permit.person_id) if permit.person_id else ("company", permit.company_id)
    delivered = _delivered(regime, kind, documents, today=today)
    _check_eligibility(
        holder_kind,
        holder_id,
        permit,
        today=today,
        site=permit.site,
        documents=_documents_of(permit, [d for d, _f in delivered]),
        exclude=(permit.id,),
        what="Renovação",
    )
    start = permit.valid_until + _dt.timedelta(days=1)
    term = permit_term(regime, kind.id, start, valid_until=valid_until, renewal=True)
    kept = [(doc, keep_file(doc.file) if doc.file else None) for doc, _f in delivered]  # copied before the txn
    with db.atomic():
        _claim(permit)  # another desk renewing or revoking it meanwhile loses here
        if Permit.select().where((Permit.previous == permit.id) & (Permit.origin == "renewal")).exists():
            raise UserError(f"A permissão nº {permit.number} acabou de ser renovada em outra mesa.")
        year, seq, number = _next_permit_number(today)
        new = Permit.create(
            number=number,
            year=year,
            seq=seq,
            previous=permit.id,
            origin="renewal",
            valid_from=term.valid_from,
            valid_until=term.valid_until,
            status="active",
            issued_on=today,
            issued_by=by,
            notes=f"Renovação da permissão nº {permit.number}.",
            **_successor_values(permit),
        )
        _event(
            new,
            "issued",
            by=by,
            on=today,
            status_to="active",
            reason=f"renovação da nº {permit.number}",
            other=permit,
            data={"term": term.text, "article": term.article},
        )
        for doc, stored in kept:
            PermitDocument.create(
                permit=new.id,
                document=doc.document,
                delivered_on=doc.delivered_on,
                valid_until=doc.valid_until,
                file_path=stored.path if stored else "",
                sha256=stored.sha256 if stored else "",
                original_name=stored.original_name if stored else "",
                recorded_by=by,
            )
        # The renewed permit stays in force until its last day; the new one starts the day after.
        _event(
            permit,
            "renewed",
            by=by,
            on=today,
            status_from="active",
            status_to="active",
            other=new,
            reason=f"renovada pela permissão nº {number}, válida a partir de {_date(term.valid_from)} "
            f"({window.article})",
        )
        _sign(new, key_dir)
    return new


@dataclass(frozen=True)
class RenewalDue:
    permit_id: int
    number: str
    holder: str
    regime: str
    permit_kind: str
    valid_until: _dt.date
    opens: _dt.date
    closes: _dt.date
    article: str
    text: str


def _live(today: _dt.date):
    return (
        Permit.select(Permit, Person, Company)
        .join(Person, JOIN.LEFT_OUTER, on=(Permit.person == Person.id))
        .switch(Permit)
        .join(Company, JOIN.LEFT_OUTER, on=(Permit.company == Company.id))
        .where(Permit.status.in_(LIVE_STATUSES) & (Permit.valid_until >= today))
        .order_by(Permit.valid_until, Permit.id)
    )


def due_for_renewal(today: _dt.date, within_days: int = 30) -> list[RenewalDue]:
    """Permits in force whose renewal window is open today or opens within ``within_days`` days."""
    horizon = today + _dt.timedelta(days=within_days)
    renewed = {row.previous_id for row in Permit.select(Permit.previous).where(Permit.origin == "renewal")}
    items = []
    for permit in _live(today).where(Permit.status == "active"):
        if permit.id in renewed:
            continue
        window = renewal_window(permit)
        if window is None or window.closes < today or window.opens > horizon:
            continue
        if window.opens <= today and window.closes > horizon and not window.opens_fixed:
            continue  # the act sets only the last day: listed when that day nears
        if window.opens <= today:
            text = (
                f"Renovação da permissão nº {permit.number} ({permit.holder_name}): pedido até "
                f"{_date(window.closes)} — validade até {_date(permit.valid_until)}."
            )
        else:
            text = (
                f"Renovação da permissão nº {permit.number} ({permit.holder_name}): pedido de "
                f"{_date(window.opens)} a {_date(window.closes)}."
            )
        items.append(
            RenewalDue(
                permit.id,
                permit.number,
                permit.holder_name,
                permit.regime,
                permit.permit_kind,
                permit.valid_until,
                window.opens,
                window.closes,
                window.article,
                text,
            )
        )
    items.sort(key=lambda r: (r.closes, r.number))
    return items


# --------------------------------------------------------------------------- start-up deadlines


@dataclass(frozen=True)
class StartupDeadline:
    permit_id: int
    number: str
    holder: str
    kind: str  # "startup" | "use" | "pickup"
    label: str
    due: _dt.date
    article: str
    overdue: bool
    extendable: bool
    text: str


#: the permit deadlines the desk follows, by their declared role: (the fact that closes them, the row's kind)
_PERMIT_ROLES = {"startup": ("started", "startup"), "use": ("started", "use"), "pickup": ("picked-up", "pickup")}


def _events_by_permit(ids: Sequence[int], kinds: Sequence[str]) -> dict[int, list[PermitEvent]]:
    found: dict[int, list[PermitEvent]] = {}
    for start in range(0, len(ids), 500):
        chunk = list(ids[start : start + 500])
        rows = (
            PermitEvent.select()
            .where(PermitEvent.permit.in_(chunk) & PermitEvent.kind.in_(list(kinds)))
            .order_by(PermitEvent.id)
        )
        for event in rows:
            found.setdefault(event.permit_id, []).append(event)
    return found


def _permit_deadlines(permit: Permit, events: list[PermitEvent], today: _dt.date) -> list[StartupDeadline]:
    regime = _regime(permit)
    kind = regime.permit_kind(permit.permit_kind)
    done = {e.kind for e in events}
    out: list[StartupDeadline] = []
    start = permit.issued_on

    def add(key: str, label: str, due: _dt.date, article: str, extendable: bool) -> None:
        overdue = due < today
        verb = "venceu em" if overdue else "vence em"
        out.append(
            StartupDeadline(
                permit.id,
                permit.number,
                permit.holder_name,
                key,
                label,
                due,
                article,
                overdue,
                extendable,
                f"Permissão nº {permit.number} ({permit.holder_name}): {label} — prazo {verb} {_date(due)}.",
            )
        )

    startup = kind.startup
    if startup is not None and "started" not in done:
        extended = [e for e in events if e.kind == "startup-extended"]
        due = start + _dt.timedelta(days=startup.days)
        if extended and extended[-1].end:
            due = extended[-1].end
        add(
            "startup",
            "início das atividades",
            due,
            regime.cite_item(startup),
            bool(startup.extendable_once and not extended),
        )
    for deadline in regime.deadlines:
        if (
            deadline.role not in _PERMIT_ROLES
            or deadline.from_ not in _ISSUE_EVENTS
            or deadline.direction != "after"
            or not deadline.days
        ):
            continue
        if startup is not None and deadline.days == startup.days and deadline.basis == startup.basis:
            continue  # the same deadline as the kind's start-up
        closing, key = _PERMIT_ROLES[deadline.role]
        if closing in done:
            continue
        counted = compute_deadline(regime, deadline.id, start)  # the legal calendar included
        label = deadline.label[:1].lower() + deadline.label[1:]
        add(key, label, counted.due_date, counted.basis, False)
    return out


def startup_deadlines(today: _dt.date) -> list[StartupDeadline]:
    """Open start-up, use and pick-up deadlines of the permits issued from an application, soonest first."""
    permits = list(_live(today).where(Permit.origin == "application"))
    events = _events_by_permit([p.id for p in permits], ("started", "picked-up", "startup-extended"))
    items = [d for p in permits for d in _permit_deadlines(p, events.get(p.id, []), today)]
    items.sort(key=lambda d: (d.due, d.number, d.kind))
    return items


def record_started(permit: Permit, *, by: str, on: _dt.date, reason: str = "") -> PermitEvent:
    """The holder started the activity (closes the start-up and use deadlines)."""
    require("permits.lifecycle")
    return _record_fact(permit, "started", by=by, on=on, reason=reason or "início das atividades verificado")


def record_picked_up(permit: Permit, *, by: str, on: _dt.date, reason: str = "") -> PermitEvent:
    """The holder picked up the permit (closes the pick-up deadlines)."""
    require("permits.lifecycle")
    return _record_fact(permit, "picked-up", by=by, on=on, reason=reason or "alvará retirado pelo titular")


def _record_fact(permit: Permit, kind: str, *, by: str, on: _dt.date, reason: str) -> PermitEvent:
    by = _by(by)
    if permit.status not in LIVE_STATUSES:
        raise UserError(f"A permissão nº {permit.number} está {permit.status_label}.")
    if on < permit.issued_on:
        raise FieldErrors({"on": f"Data anterior à emissão ({_date(permit.issued_on)})."})
    if PermitEvent.select().where((PermitEvent.permit == permit.id) & (PermitEvent.kind == kind)).exists():
        raise UserError(f"Já registrado para a permissão nº {permit.number}: {EVENT_KINDS[kind]}.")
    with db.atomic():
        _claim(permit, LIVE_STATUSES)
        if PermitEvent.select().where((PermitEvent.permit == permit.id) & (PermitEvent.kind == kind)).exists():
            raise UserError(f"Já registrado para a permissão nº {permit.number}: {EVENT_KINDS[kind]}.")
        return _event(permit, kind, by=by, on=on, reason=reason)


def extend_startup(permit: Permit, *, by: str, reason: str, today: _dt.date) -> _dt.date:
    """Extend the start-up deadline once by the same period, where the act allows it (LC 324/2025, art. 176)."""
    require("permits.lifecycle")
    by, reason = _by(by), _reason(reason, "prorrogação justificada")
    regime = _regime(permit)
    startup = regime.permit_kind(permit.permit_kind).startup
    if startup is None or not startup.extendable_once:
        raise UserError(f"O ato ({regime.short}) não prevê prorrogação do prazo de início para esta permissão.")
    events = _events_by_permit([permit.id], ("started", "startup-extended")).get(permit.id, [])
    if any(e.kind == "startup-extended" for e in events):
        raise UserError(
            f"O prazo de início da permissão nº {permit.number} já foi prorrogado uma vez "
            f"({regime.cite_item(startup)}: uma única vez)."
        )
    if any(e.kind == "started" for e in events):
        raise UserError(f"A permissão nº {permit.number} já iniciou as atividades.")
    due = permit.issued_on + _dt.timedelta(days=startup.days)
    if today > due:
        raise UserError(f"O prazo de início venceu em {_date(due)}; não pode mais ser prorrogado.")
    new_due = due + _dt.timedelta(days=startup.days)
    with db.atomic():
        _claim(permit, LIVE_STATUSES)  # a second desk extending at the same time loses here
        _event(
            permit,
            "startup-extended",
            by=by,
            on=today,
            reason=reason,
            start=due,
            end=new_due,
            data={"article": regime.cite_item(startup)},
        )
    return new_due


# --------------------------------------------------------------------------- leave


def _leave_days_by_year(start: _dt.date, end: _dt.date) -> dict[int, int]:
    days: dict[int, int] = {}
    day = start
    while day <= end:
        days[day.year] = days.get(day.year, 0) + 1
        day += _dt.timedelta(days=1)
    return days


def grant_leave(
    permit: Permit,
    start: _dt.date,
    end: _dt.date,
    substitute_name: str = "",
    substitute_cpf: str = "",
    *,
    by: str,
    today: _dt.date | None = None,
    reason: str = "",
) -> PermitEvent:
    """Grant the yearly rest the kind's ``leave`` allows (Lei 9.158/2014, art. 16: 30 days in up to two periods).

    Counts the leaves of this permit and of the permits it continues (renewals)
    in each calendar year the new period touches; the request must come
    ``notice_days`` before the start (art. 16, § 1º).
    """
    require("permits.lifecycle")
    from models.base.br import clean_cpf

    by = _by(by)
    today = today or _dt.date.today()
    regime = _regime(permit)
    kind = regime.permit_kind(permit.permit_kind)
    leave = kind.leave
    if leave is None:
        raise UserError(f"O ato ({regime.short}) não prevê descanso ou afastamento para {kind.label}.")
    article = regime.cite_item(leave)
    errors: dict[str, str] = {}
    if end < start:
        errors["end"] = f"O fim ({_date(end)}) é anterior ao início ({_date(start)})."
    if start < permit.valid_from or end > permit.valid_until:
        errors.setdefault(
            "start",
            f"O período deve estar dentro da validade ({_date(permit.valid_from)} a {_date(permit.valid_until)}).",
        )
    if leave.notice_days and (start - today).days < leave.notice_days:
        errors.setdefault(
            "start",
            f"O pedido deve ser feito com {leave.notice_days} dias de antecedência "
            f"({article}): para {_date(today)}, início a partir de "
            f"{_date(today + _dt.timedelta(days=leave.notice_days))}.",
        )
    name = " ".join((substitute_name or "").split())
    cpf = ""
    if (substitute_cpf or "").strip():
        try:
            cpf = clean_cpf(substitute_cpf)
        except UserError as exc:
            errors["substitute_cpf"] = exc.message
        if not name:
            errors["substitute_name"] = "Informe o nome do substituto."
    if errors:
        raise FieldErrors(errors)
    chain = [permit.id]
    cursor = permit
    while cursor.previous_id and cursor.origin == "renewal":
        cursor = Permit.get_by_id(cursor.previous_id)
        chain.append(cursor.id)
    taken = list(PermitEvent.select().where(PermitEvent.permit.in_(chain) & (PermitEvent.kind == "leave")))
    for other in taken:
        if other.start <= end and start <= other.end:
            raise UserError(f"O período coincide com o descanso de {_date(other.start)} a {_date(other.end)}.")
    wanted = _leave_days_by_year(start, end)
    for year, days in wanted.items():
        used_days = 0
        periods = 0
        for other in taken:
            in_year = _leave_days_by_year(other.start, other.end).get(year, 0)
            if in_year:
                used_days += in_year
                periods += 1
        if used_days + days > leave.max_days_per_year:
            raise UserError(
                f"Descanso de {_plural(days, 'dia', 'dias')} em {year}: já há {used_days} no ano e o "
                f"ato permite no máximo {leave.max_days_per_year} ({article})."
            )
        if leave.max_periods is not None and periods + 1 > leave.max_periods:
            raise UserError(
                f"Em {year} já há {_plural(periods, 'período', 'períodos')} de descanso; o ato permite "
                f"no máximo {leave.max_periods} ({article})."
            )
    with db.atomic():
        if permit.status != "active":
            raise UserError(
                f"A permissão nº {permit.number} está {permit.status_label}; o descanso é da permissão ativa."
            )
        _claim(permit)  # the days counted above are this desk's view: a second desk granting at once loses
        return _event(
            permit,
            "leave",
            by=by,
            on=today,
            start=start,
            end=end,
            reason=(reason or "").strip() or "descanso anual",
            data={"substitute_name": name, "substitute_cpf": cpf, "article": article, "days": (end - start).days + 1},
        )


# --------------------------------------------------------------------------- transfer and exchange


def _transfer_rule(kind):
    """The kind's ``transfer`` (who may receive the permit and the article), if the regime gives one."""
    return getattr(kind, "transfer", None)


def transfer_to_heir(
    permit: Permit,
    heir_person: Person,
    *,
    by: str,
    reason: str,
    today: _dt.date,
    key_dir: Path | None = None,
    documents: Sequence | None = None,
) -> Permit:
    """Transfer ``permit`` to an heir where the act allows it (e.g. Lei 9.158/2014, art. 17), for the remaining term.

    The heir must meet the kind's rules now (the permit transferred left out of
    the counts); a new permit is issued in the heir's name, valid until the old
    one's last day, and the old one is superseded.
    """
    require("permits.sanction")
    by, reason = _by(by), _reason(reason, "falecimento do titular e indicação dos sucessores")
    regime = _regime(permit)
    kind = regime.permit_kind(permit.permit_kind)
    rule = _transfer_rule(kind)
    if rule is None:
        raise UserError(
            f"O ato ({regime.short}) não prevê a transferência de {kind.label} a herdeiro: a "
            "permissão é pessoal e intransferível."
        )
    article = regime.cite_item(rule)
    if permit.status != "active":
        raise UserError(
            f"A permissão nº {permit.number} está {permit.status_label}; só uma permissão ativa pode ser transferida."
        )
    if permit.person_id is None or "person" not in kind.holder:
        raise UserError(
            f"A permissão nº {permit.number} é de pessoa jurídica: a sucessão se faz pela alteração "
            f"do quadro societário da titular, não pela transferência da permissão ({article})."
        )
    if permit.person_id == heir_person.id:
        raise FieldErrors({"heir": "O herdeiro indicado é o próprio titular."})
    _check_eligibility(
        "person",
        heir_person.id,
        permit,
        today=today,
        site=permit.site,
        documents=list(documents or ()),
        exclude=(permit.id,),
        what="Transferência",
    )
    with db.atomic():
        year, seq, number = _next_permit_number(today)
        values = _successor_values(permit)
        values.update(person=heir_person.id, company=None)
        new = Permit.create(
            number=number,
            year=year,
            seq=seq,
            previous=permit.id,
            origin="transfer",
            valid_from=today,
            valid_until=permit.valid_until,
            status="active",
            issued_on=today,
            issued_by=by,
            notes=f"Transferida da permissão nº {permit.number} ({article}).",
            **values,
        )
        _event(
            new,
            "issued",
            by=by,
            on=today,
            status_to="active",
            other=permit,
            reason=f"transferência da nº {permit.number}: {reason}",
            data={"article": article},
        )
        _supersede(
            permit,
            new,
            kind="transfer",
            by=by,
            today=today,
            reason=f"transferida a {heir_person.name} pela permissão nº {number}: {reason} ({article})",
            data={"heir": heir_person.id, "article": article},
        )
        _sign(new, key_dir)
    return new


def exchange_sites(
    permit_a: Permit, permit_b: Permit, *, by: str, reason: str, today: _dt.date, key_dir: Path | None = None
) -> tuple[Permit, Permit]:
    """Two holders exchange their places with the Administration's consent: two new permits, the old superseded.

    ``reason`` records the consent (decision, process number). Both permits must
    be active, of the same kind in the same regime and in different places; a
    rule that bars relatives or partners in the same feira (Lei 9.158/2014, art.
    12) is checked at the new place of each holder.
    """
    require("permits.sanction")
    by, reason = _by(by), _reason(reason, "anuência da Administração")
    for p in (permit_a, permit_b):
        if p.status != "active":
            raise UserError(
                f"A permissão nº {p.number} está {p.status_label}; só permissões ativas podem ser permutadas."
            )
    if permit_a.id == permit_b.id:
        raise UserError("Escolha duas permissões diferentes.")
    if (permit_a.regime, permit_a.permit_kind) != (permit_b.regime, permit_b.permit_kind):
        raise UserError("A permuta é entre permissões do mesmo tipo no mesmo regime.")
    if (permit_a.site, permit_a.point) == (permit_b.site, permit_b.point):
        raise UserError("As duas permissões já estão no mesmo local.")
    _check_site_rules(permit_a, permit_b.site, today=today, exclude=(permit_a.id, permit_b.id))
    _check_site_rules(permit_b, permit_a.site, today=today, exclude=(permit_a.id, permit_b.id))
    created = []
    with db.atomic():
        for old, other in ((permit_a, permit_b), (permit_b, permit_a)):
            year, seq, number = _next_permit_number(today)
            values = _successor_values(old)
            values.update(site=other.site, point=other.point)
            new = Permit.create(
                number=number,
                year=year,
                seq=seq,
                previous=old.id,
                origin="exchange",
                valid_from=today,
                valid_until=old.valid_until,
                status="active",
                issued_on=today,
                issued_by=by,
                notes=f"Permuta de local com a permissão nº {other.number}; substitui a nº {old.number}.",
                **values,
            )
            _event(
                new,
                "issued",
                by=by,
                on=today,
                status_to="active",
                other=old,
                reason=f"permuta com a nº {other.number}: {reason}",
            )
            created.append((old, new, other))
        for old, new, other in created:
            _supersede(
                old,
                new,
                kind="exchange",
                by=by,
                today=today,
                reason=f"permuta de local com a nº {other.number}, substituída pela nº {new.number}: {reason}",
                data={"with": other.id},
            )
        for _old, new, _other in created:
            _sign(new, key_dir)
    return created[0][1], created[1][1]


def _check_site_rules(permit: Permit, site: str, *, today: _dt.date, exclude: Iterable[int]) -> None:
    """Refuse a move that breaks a one-per rule bound to the same feira/site."""
    from models.registry.front_desk import applicant_facts, load_applicant
    from models.rules.eligibility import FAILED, evaluate_rule

    regime = _regime(permit)
    kind = regime.permit_kind(permit.permit_kind)
    rules = [(i, r) for i, r in enumerate(kind.rules) if r.kind == "one-per" and r.same_site]
    if not rules:
        return
    holder = ("person", permit.person_id) if permit.person_id else ("company", permit.company_id)
    facts = applicant_facts(
        load_applicant(*holder),
        documents=[],
        site=site,
        today=today,
        regime=permit.regime,
        permit_kind=permit.permit_kind,
        exclude_permits=tuple(exclude),
    )
    failed = [evaluate_rule(regime, kind, r, facts, position=i) for i, r in rules]
    failed = [r for r in failed if r.status == FAILED]
    if failed:
        listing = "; ".join(f"{r.reason} ({r.article})" for r in failed)
        raise UserError(f"Permuta recusada para a permissão nº {permit.number}: {listing}")


# --------------------------------------------------------------------------- what the Painel shows today


@dataclass(frozen=True)
class TodayItem:
    date: _dt.date
    kind: str  # renewal-opens | renewal-closes | startup | use | pickup | expiring | expired | suspension-ends
    text: str
    article: str
    permit_id: int
    number: str
    overdue: bool = False


def _due_horizon(kind, soon_days: int, expiring_days: int) -> int:
    """How many days ahead a permit's last day may be and still give the Painel something today.

    Its end within ``expiring_days``; a renewal window by days closes ``to_days_before`` before the end and opens
    ``from_days_before`` before it; a window that closes on a day of the year closes within the year before the
    end (:func:`renewal_window`)."""
    horizon = expiring_days
    renewal = kind.renewal
    if renewal is not None:
        if renewal.until_month_day:
            horizon = expiring_days + 366
        else:
            if renewal.from_days_before is not None:
                horizon = max(horizon, soon_days + renewal.from_days_before)
            horizon = max(horizon, expiring_days + (renewal.to_days_before or 0))
    return horizon


def _maybe_due(today: _dt.date, soon_days: int, expiring_days: int):
    """The permits :func:`today_items` may list: suspended ones, those issued from an application (start-up
    deadlines) and, for each regime and kind, those whose last day falls within its horizon."""
    condition = (Permit.status == "suspended") | (Permit.origin == "application")
    pairs = Permit.select(Permit.regime, Permit.permit_kind).where(Permit.status.in_(LIVE_STATUSES)).distinct().tuples()
    for regime_id, kind_id in pairs:
        kind = _regime(regime_id).permit_kind(kind_id)
        until = today + _dt.timedelta(days=_due_horizon(kind, soon_days, expiring_days))
        condition |= (Permit.regime == regime_id) & (Permit.permit_kind == kind_id) & (Permit.valid_until <= until)
    return condition


def today_items(today: _dt.date, *, soon_days: int = 7, expiring_days: int = 30) -> list[TodayItem]:
    """What the Painel should show today, each with a pt-BR sentence and the article.

    Renewal windows opening (within ``soon_days``) or closing (within
    ``expiring_days``), start-up, use and pick-up deadlines due within
    ``soon_days`` or past, permits ending within ``expiring_days``, permits past
    their last day not yet marked expired, and suspensions whose term has come.
    """
    items: list[TodayItem] = []
    soon = today + _dt.timedelta(days=soon_days)
    later = today + _dt.timedelta(days=expiring_days)
    # permits in force (and those past their end but not yet marked) — only those that can have something due:
    # a town has tens of thousands, the Painel lists a few
    rows = (
        Permit.select(Permit, Person, Company)
        .join(Person, JOIN.LEFT_OUTER, on=(Permit.person == Person.id))
        .switch(Permit)
        .join(Company, JOIN.LEFT_OUTER, on=(Permit.company == Company.id))
        .where(Permit.status.in_(LIVE_STATUSES) & _maybe_due(today, soon_days, expiring_days))
        .order_by(Permit.valid_until, Permit.id)
    )
    live = []
    for permit in rows:
        who = f"Permissão nº {permit.number} ({permit.holder_name})"
        regime = _regime(permit)
        kind = regime.permit_kind(permit.permit_kind)
        validity_article = regime.cite_item(kind.validity) if kind.validity else ""
        if permit.valid_until < today:
            items.append(
                TodayItem(
                    permit.valid_until,
                    "expired",
                    f"{who}: validade terminou em {_date(permit.valid_until)}; dar baixa como vencida.",
                    validity_article,
                    permit.id,
                    permit.number,
                    True,
                )
            )
            continue
        live.append(permit)
        if permit.status == "active":
            window = renewal_window(permit)
            if window is not None and window.closes >= today:
                if window.opens_fixed and today <= window.opens <= soon:
                    when = "hoje" if window.opens == today else f"em {_date(window.opens)}"
                    items.append(
                        TodayItem(
                            window.opens,
                            "renewal-opens",
                            f"{who}: abre {when} o prazo de renovação (até {_date(window.closes)}).",
                            window.article,
                            permit.id,
                            permit.number,
                        )
                    )
                if window.opens <= today and window.closes <= later:
                    when = "hoje" if window.closes == today else f"em {_date(window.closes)}"
                    items.append(
                        TodayItem(
                            window.closes,
                            "renewal-closes",
                            f"{who}: o prazo para pedir a renovação termina {when} "
                            f"(validade até {_date(permit.valid_until)}).",
                            window.article,
                            permit.id,
                            permit.number,
                        )
                    )
        if permit.valid_until <= later:
            when = "hoje" if permit.valid_until == today else f"em {_date(permit.valid_until)}"
            items.append(
                TodayItem(
                    permit.valid_until,
                    "expiring",
                    f"{who}: validade termina {when}.",
                    validity_article,
                    permit.id,
                    permit.number,
                )
            )
    # suspensions whose term has come
    suspended = [p for p in live if p.status == "suspended"]
    if suspended:
        events = _events_by_permit([p.id for p in suspended], ("suspended",))
        for permit in suspended:
            last = (events.get(permit.id) or [None])[-1]
            if last is not None and last.end is not None and last.end <= soon:
                if last.end < today:
                    what = f"suspensão terminou em {_date(last.end)}; reativar"
                else:
                    what = f"suspensão termina {'hoje' if last.end == today else 'em ' + _date(last.end)}"
                items.append(
                    TodayItem(
                        last.end,
                        "suspension-ends",
                        f"Permissão nº {permit.number} ({permit.holder_name}): {what}.",
                        "",
                        permit.id,
                        permit.number,
                        last.end < today,
                    )
                )
    # start-up, use and pick-up deadlines
    applied = [p for p in live if p.origin == "application"]
    events = _events_by_permit([p.id for p in applied], ("started", "picked-up", "startup-extended"))
    for permit in applied:
        for deadline in _permit_deadlines(permit, events.get(permit.id, []), today):
            if deadline.due <= soon:
                items.append(
                    TodayItem(
                        deadline.due,
                        deadline.kind,
                        deadline.text,
                        deadline.article,
                        permit.id,
                        permit.number,
                        deadline.overdue,
                    )
                )
    order = {
        "expired": 0,
        "suspension-ends": 1,
        "startup": 2,
        "use": 3,
        "pickup": 4,
        "renewal-closes": 5,
        "renewal-opens": 6,
        "expiring": 7,
    }
    items.sort(key=lambda i: (i.date, order.get(i.kind, 9), i.number))
    return items


# --------------------------------------------------------------------------- the printed permit


def _address(row) -> str:
    street = " ".join(p for p in (row.street, row.number) if p).strip()
    if row.street and row.number:
        street = f"{row.street}, {row.number}"
    city = "/".join(p for p in (row.city, row.state) if p)
    return " — ".join(p for p in (street, row.district, city) if p)


def _size_text(front, depth, hitch) -> str:
    from models.base.money import format_decimal_br

    if front is None and depth is None:
        return ""
    parts = [format_decimal_br(v, 2) for v in (front, depth) if v is not None]
    text = " × ".join(parts) + " m"
    if hitch:
        text += f" (+ {format_decimal_br(hitch, 2)} m de engate)"
    return text


def _label_of(finder, ident: str, fmt=None) -> str:
    if not ident:
        return ""
    try:
        item = finder(ident)
    except UserError:
        return ident
    return fmt(item) if fmt else item.label


def _photo(person: Person | None) -> Path | None:
    if person is None or not person.photo_path:
        return None
    from models.store.files import resolve

    try:
        path = resolve(person.photo_path)
    except UserError:
        return None
    return path if path.is_file() else None


def permit_standing(number: str) -> tuple[str, _dt.date | None] | None:
    """The status of permit ``number`` and the day it took it (its last event to that status), or None."""
    permit = Permit.get_or_none(Permit.number == number)
    if permit is None:
        return None
    event = (
        PermitEvent.select(PermitEvent.on)
        .where((PermitEvent.permit == permit.id) & (PermitEvent.status_to == permit.status))
        .order_by(PermitEvent.on.desc(), PermitEvent.id.desc())
        .first()
    )
    return permit.status, event.on if event is not None else None


def withdrawn_permits(statuses: tuple[str, ...]) -> list[tuple[str, str, _dt.date | None]]:
    """(number, status, since) of every permit in one of ``statuses``, by number."""
    out = []
    for permit in (
        Permit.select(Permit.id, Permit.number, Permit.status)
        .where(Permit.status.in_(statuses))
        .order_by(Permit.number)
    ):
        event = (
            PermitEvent.select(PermitEvent.on)
            .where((PermitEvent.permit == permit.id) & (PermitEvent.status_to == permit.status))
            .order_by(PermitEvent.on.desc(), PermitEvent.id.desc())
            .first()
        )
        out.append((permit.number, permit.status, event.on if event is not None else None))
    return out


def permit_document(permit: Permit):
    """The :class:`models.permits.permit_doc.PermitDocument` of ``permit``: holder, place, activity, term, warning, QR."""
    from models.base.br import format_cpf
    from models.permits.permit_doc import from_regime
    from models.registry.front_desk import _mei_company, _responsible_person
    from models.store.settings import AGENCY, MUNICIPALITY, get_setting

    regime = _regime(permit)
    values: dict = {}
    person = Person.get_by_id(permit.person_id) if permit.person_id else None
    if person is not None:
        mei = _mei_company(person)
        values.update(
            holder_name=person.name,
            cpf=person.cpf,
            rg=person.rg,
            address=_address(person),
            holder_id_number=format_cpf(person.cpf),
            photo_path=_photo(person),
        )
        if mei is not None:
            values.update(
                cnpj=mei.cnpj,
                company_name=mei.legal_name,
                trade_name=mei.trade_name,
                municipal_registration=mei.municipal_registration,
            )
    else:
        company = Company.get_by_id(permit.company_id)
        owner = _responsible_person(company)
        values.update(
            holder_name=company.legal_name,
            cnpj=company.cnpj,
            trade_name=company.trade_name,
            municipal_registration=company.municipal_registration,
            address=_address(company),
            photo_path=_photo(owner),
        )
        if owner is not None:
            values.update(holder_id_number=format_cpf(owner.cpf), rg=owner.rg)
    site = permit.site
    if site:
        try:
            site = regime.site(site).label
        except UserError:
            pass
    app = _root_application(permit)
    # the agency kept in the settings is this municipality's; a regime of another town prints none
    from models.registry.front_desk import serves

    agency = get_setting(AGENCY) if serves(regime) else ""
    values.update(
        number=permit.number,
        valid_from=permit.valid_from,
        valid_until=permit.valid_until,
        agency=agency,
        process_number=app.protocol if app is not None else "",
        product_line=_label_of(regime.line, permit.line),
        product_group=_label_of(
            regime.group,
            permit.group,
            lambda g: g.label if g.label.lower().startswith("grupo") else f"Grupo {g.number} — {g.label}",
        ),
        section=_label_of(regime.section, permit.section, lambda s: f"Seção {s.numeral} — {s.label}"),
        equipment=_label_of(regime.equipment, permit.equipment),
        equipment_size=_size_text(permit.front, permit.depth, permit.hitch),
        site=site,
        point=permit.point,
        days=permit.days_hours,
        issued_at=permit.issued_on,
        issued_by=permit.issued_by,
        observations=permit.notes,
        qr_text=qr_content(permit.qr_text),
    )
    return from_regime(regime, permit.permit_kind, **values)


# --------------------------------------------------------------------------- facts for the eligibility engine


def related_holders(applicant_kind: str, applicant_id: int) -> tuple[dict[int, str], dict[int, str]]:
    """People and companies whose permits count for an applicant, each with its relation.

    ``self``: the applicant, and for a person the MEIs they answer for (an MEI
    is the person), for an MEI company its owner; ``spouse``/``partner`` from
    the household (both directions) and from a partner's registered spouse;
    ``dependant`` for children and dependants; ``family`` for the parent who
    lists the applicant as child; ``business-partner`` for the other partners
    of the applicant's companies and those companies (and, for a company
    applicant that is not an MEI, its own partners). The companies of a
    relative carry the relative's relation. First relation found wins, in
    that order.
    """
    persons: dict[int, str] = {}
    companies: dict[int, str] = {}

    def mei_of(person_ids: Iterable[int], cpfs: Iterable[str]):
        ids, cpfs = list(person_ids), [c for c in cpfs if c]
        if not ids and not cpfs:
            return []
        cond = CompanyPartner.person.in_(ids) if ids else None
        if cpfs:
            by_cpf = CompanyPartner.cpf.in_(cpfs)
            cond = by_cpf if cond is None else (cond | by_cpf)
        return list(
            CompanyPartner.select(CompanyPartner.company, CompanyPartner.person, CompanyPartner.cpf)
            .join(Company)
            .where(cond & (Company.mei == True))
        )  # noqa: E712

    def people_by_cpf(cpfs: Iterable[str]) -> dict[str, Person]:
        cpfs = [c for c in set(cpfs) if c]
        if not cpfs:
            return {}
        return {p.cpf: p for p in Person.select(Person.id, Person.cpf).where(Person.cpf.in_(cpfs))}

    naturals: list[Person] = []
    if applicant_kind == "person":
        me = Person.get_by_id(applicant_id)
        persons[me.id] = "self"
        naturals.append(me)
        for row in mei_of([me.id], [me.cpf]):
            companies.setdefault(row.company_id, "self")
    else:
        company = Company.get_by_id(applicant_id)
        companies[company.id] = "self"
        partners = list(CompanyPartner.select().where(CompanyPartner.company == company.id))
        found = people_by_cpf(p.cpf for p in partners)
        owners = [
            found.get(p.cpf) or (Person.get_or_none(Person.id == p.person_id) if p.person_id else None)
            for p in partners
        ]
        owners = [o for o in owners if o is not None]
        relation = "self" if company.mei else "business-partner"
        for owner in owners:
            persons.setdefault(owner.id, relation)
            naturals.append(owner)
        if company.mei:
            for row in mei_of([o.id for o in owners], [o.cpf for o in owners]):
                companies.setdefault(row.company_id, "self")
        spouses = people_by_cpf(p.spouse_cpf for p in partners)
        for spouse in spouses.values():
            persons.setdefault(spouse.id, "spouse")
    ids = [p.id for p in naturals]
    cpfs = [p.cpf for p in naturals]
    if ids:
        # household of the natural persons, both directions
        members = list(HouseholdMember.select().where(HouseholdMember.person.in_(ids)))
        found = people_by_cpf(m.cpf for m in members)
        for member in members:
            other = found.get(member.cpf)
            if other is None:
                continue
            relation = {"spouse": "spouse", "partner": "partner"}.get(member.relation, "dependant")
            persons.setdefault(other.id, relation)
        for member in HouseholdMember.select().where(HouseholdMember.cpf.in_(cpfs)):
            relation = {"spouse": "spouse", "partner": "partner"}.get(member.relation, "family")
            persons.setdefault(member.person_id, relation)
        # spouses registered with a company's partners, both directions
        spouse_cpfs = [
            p.spouse_cpf for p in CompanyPartner.select(CompanyPartner.spouse_cpf).where(CompanyPartner.cpf.in_(cpfs))
        ]
        spouse_cpfs += [
            p.cpf for p in CompanyPartner.select(CompanyPartner.cpf).where(CompanyPartner.spouse_cpf.in_(cpfs))
        ]
        for spouse in people_by_cpf(spouse_cpfs).values():
            persons.setdefault(spouse.id, "spouse")
        # business partners: companies the natural persons are partners of, and their other partners
        links = list(
            CompanyPartner.select(CompanyPartner.company)
            .join(Company)
            .where((CompanyPartner.person.in_(ids) | CompanyPartner.cpf.in_(cpfs)) & (Company.mei == False))
        )  # noqa: E712
        company_ids = {link.company_id for link in links}
        for cid in company_ids:
            companies.setdefault(cid, "business-partner")
        if company_ids:
            co_partners = list(CompanyPartner.select().where(CompanyPartner.company.in_(list(company_ids))))
            found = people_by_cpf(p.cpf for p in co_partners)
            for partner in co_partners:
                other = found.get(partner.cpf)
                if other is not None:
                    persons.setdefault(other.id, "business-partner")
    # a relative's companies answer for the relative (an MEI is the relative; a spouse's company is the
    # spouse's: LC 324/2025, art. 162, § 2º bars the spouse of a partner of a permissionária)
    relatives = {pid: rel for pid, rel in persons.items() if rel not in ("self", "business-partner")}
    if relatives:
        rel_people = {p.id: p for p in Person.select(Person.id, Person.cpf).where(Person.id.in_(list(relatives)))}
        by_cpf = {p.cpf: p.id for p in rel_people.values()}
        links = CompanyPartner.select(CompanyPartner.company, CompanyPartner.person, CompanyPartner.cpf).where(
            CompanyPartner.person.in_(list(relatives)) | CompanyPartner.cpf.in_(list(by_cpf))
        )
        for row in links:
            pid = row.person_id if row.person_id in relatives else by_cpf.get(row.cpf)
            if pid in relatives:
                companies.setdefault(row.company_id, relatives[pid])
    return persons, companies


def _holder_query(persons: dict[int, str], companies: dict[int, str]):
    cond = None
    if persons:
        cond = Permit.person.in_(list(persons))
    if companies:
        by_company = Permit.company.in_(list(companies))
        cond = by_company if cond is None else (cond | by_company)
    return cond


def _site_label(regime_id: str, site: str) -> str | None:
    if not site:
        return None
    try:
        return _regime(regime_id).site(site).label
    except UserError:
        return site


def permit_facts_for(
    applicant_kind: str, applicant_id: int, *, today: _dt.date, exclude: Iterable[int] = ()
) -> tuple[PermitFacts, ...]:
    """Permits in force of the applicant and of related people (spouse, partners, family), for one-per rules."""
    persons, companies = related_holders(applicant_kind, applicant_id)
    cond = _holder_query(persons, companies)
    if cond is None:
        return ()
    exclude = list(exclude)
    query = (
        Permit.select(Permit, Person, Company)
        .join(Person, JOIN.LEFT_OUTER, on=(Permit.person == Person.id))
        .switch(Permit)
        .join(Company, JOIN.LEFT_OUTER, on=(Permit.company == Company.id))
        .where(cond & Permit.status.in_(LIVE_STATUSES) & (Permit.valid_until >= today))
    )
    if exclude:
        query = query.where(Permit.id.not_in(exclude))
    facts = []
    for permit in query.order_by(Permit.id):
        relation = persons.get(permit.person_id) if permit.person_id else companies.get(permit.company_id)
        facts.append(
            PermitFacts(
                regime_id=permit.regime,
                permit_kind_id=permit.permit_kind,
                site_id=permit.site or None,
                status=permit.status,
                relation=relation or "self",
                number=permit.number,
                site_label=_site_label(permit.regime, permit.site),
                holder_name=permit.holder_name,
            )
        )
    return tuple(facts)


def history_facts_for(applicant_kind: str, applicant_id: int, *, today: _dt.date) -> tuple[HistoryFacts, ...]:
    """Revocations, abandonments, expiries and cancellations of the applicant's own permits (waiting periods)."""
    persons, companies = related_holders(applicant_kind, applicant_id)
    persons = {k: v for k, v in persons.items() if v == "self"}
    companies = {k: v for k, v in companies.items() if v == "self"}
    cond = _holder_query(persons, companies)
    if cond is None:
        return ()
    history: list[HistoryFacts] = []
    events = (
        PermitEvent.select(PermitEvent, Permit)
        .join(Permit)
        .where(cond & PermitEvent.kind.in_(["revoked", "expired", "cancelled"]))
        .order_by(PermitEvent.on, PermitEvent.id)
    )
    seen_expired: set[int] = set()
    for event in events:
        permit = event.permit
        base = dict(date=event.on, permit_kind_id=permit.permit_kind, regime_id=permit.regime, number=permit.number)
        if event.kind == "revoked":
            history.append(HistoryFacts(kind="revocation", **base))
            if event.ground == GROUND_ABANDONMENT:
                history.append(HistoryFacts(kind="abandonment", **base))
        elif event.kind == "expired":
            seen_expired.add(permit.id)
            history.append(HistoryFacts(kind="expiry", **base))
        elif event.ground != GROUND_HOLDER_REQUEST:
            history.append(HistoryFacts(kind="cancellation", **base))
    # ended but not yet marked expired: the right was lost the day after the last day
    lapsed = Permit.select().where(cond & Permit.status.in_(LIVE_STATUSES) & (Permit.valid_until < today))
    for permit in lapsed:
        if permit.id not in seen_expired:
            history.append(
                HistoryFacts(
                    kind="expiry",
                    date=permit.valid_until + _dt.timedelta(days=1),
                    permit_kind_id=permit.permit_kind,
                    regime_id=permit.regime,
                    number=permit.number,
                )
            )
    return tuple(history)


def active_count(regime_id: str, permit_kind: str, *, today: _dt.date, exclude: Iterable[int] = ()) -> int:
    """Permits of one kind in force in the regime (caps and quotas)."""
    query = Permit.select().where(
        (Permit.regime == regime_id)
        & (Permit.permit_kind == permit_kind)
        & Permit.status.in_(LIVE_STATUSES)
        & (Permit.valid_until >= today)
        & (Permit.valid_from <= today)
    )
    exclude = list(exclude)
    if exclude:
        query = query.where(Permit.id.not_in(exclude))
    return query.count()


def quota_count(regime_id: str, permit_kind: str, *, today: _dt.date, exclude: Iterable[int] = ()) -> int:
    """Of those, the places held under a quota."""
    query = Permit.select().where(
        (Permit.regime == regime_id)
        & (Permit.permit_kind == permit_kind)
        & Permit.status.in_(LIVE_STATUSES)
        & (Permit.valid_until >= today)
        & (Permit.valid_from <= today)
        & (Permit.quota == True)
    )  # noqa: E712
    exclude = list(exclude)
    if exclude:
        query = query.where(Permit.id.not_in(exclude))
    return query.count()


# --------------------------------------------------------------------------- the list the Permissões screen shows

#: At most this many permits in the list (narrow it with the filters or the search).
ROWS_LIMIT = 500


@dataclass(frozen=True)
class PermitRow:
    """One permit as the list shows it: holder, act, kind, place, term and status, already in pt-BR."""

    id: int
    number: str
    holder_kind: str  # "person" | "company"
    holder_id: int
    holder_name: str
    holder_document: str  # CPF or CNPJ, formatted
    regime: str
    regime_short: str
    regime_title: str
    permit_kind: str
    kind_label: str
    site: str  # the site's label
    point: str
    valid_from: _dt.date
    valid_until: _dt.date
    status: str
    status_label: str
    lapsed: bool  # in force on paper (active/suspended) but past its last day: not yet marked expired
    origin: str

    @property
    def place(self) -> str:
        return " — ".join(p for p in (self.site, self.point) if p)


def _status_filter(status: str | None, today: _dt.date):
    """``active``/``suspended`` are those still within their term; ``expired`` adds the lapsed not yet marked."""
    if status is None:
        return None
    if status not in STATUSES:
        raise UserError(f"Situação desconhecida: {status}.", field="status")
    if status in LIVE_STATUSES:
        return (Permit.status == status) & (Permit.valid_until >= today)
    if status == "expired":
        return (Permit.status == "expired") | (Permit.status.in_(LIVE_STATUSES) & (Permit.valid_until < today))
    return Permit.status == status


def _text_filter(text: str):
    """Number (``2026/00012``, ``2026/12`` or digits of it), CPF/CNPJ prefix, or words of the holder's name."""
    from models.registry.people import search_key
    from models.registry.search import _document_fragment

    text = (text or "").strip()
    if not text:
        return None
    if re.fullmatch(r"\d{4}/\d*", text):
        year, _, seq = text.partition("/")
        cond = Permit.number.startswith(text)
        if year.strip().isdecimal() and seq.strip().isdecimal() and len(seq.strip()) <= 9:
            cond |= (Permit.year == int(year)) & (Permit.seq == int(seq))
        return cond
    fragment = _document_fragment(text)
    if fragment and sum(c.isdigit() for c in fragment) >= max(3, len(fragment) - 2):
        return Person.cpf.startswith(fragment) | Company.cnpj.startswith(fragment) | Permit.number.contains(fragment)
    cond = None
    for word in search_key(text).split():
        match = Person.search_name.contains(word) | Company.search_name.contains(word)
        cond = match if cond is None else (cond & match)
    return cond


def _kind_label(regime, kind_id: str) -> str:
    try:
        return regime.permit_kind(kind_id).label
    except UserError:
        return kind_id


def permit_rows(
    *,
    status: str | None = None,
    regime: str | Sequence[str] | None = None,
    text: str = "",
    today: _dt.date,
    limit: int = ROWS_LIMIT,
) -> list[PermitRow]:
    """Permits for the list, newest first (at most ``limit``).

    ``status`` is a key of :data:`STATUSES` or ``None`` for all: ``active`` and
    ``suspended`` only while within their term, ``expired`` also the permits
    past their last day that :func:`expire_due` has not marked yet. ``text``
    matches the number (``2026/00012``, ``2026/12`` or its digits), the start
    of the holder's CPF/CNPJ, or the words of the holder's name (or trade name)
    in any order, without accents — as :func:`models.registry.search.find_applicants`.
    """
    from models.base.br import format_cnpj, format_cpf

    query = (
        Permit.select(Permit, Person, Company)
        .join(Person, JOIN.LEFT_OUTER, on=(Permit.person == Person.id))
        .switch(Permit)
        .join(Company, JOIN.LEFT_OUTER, on=(Permit.company == Company.id))
    )
    for cond in (
        _status_filter(status, today),
        _text_filter(text),
        Permit.regime.in_([regime] if isinstance(regime, str) else list(regime)) if regime else None,
    ):
        if cond is not None:
            query = query.where(cond)
    rows = []
    for permit in query.order_by(Permit.issued_on.desc(), Permit.id.desc()).limit(limit):
        try:
            reg = _regime(permit)
        except UserError:  # a regime file no longer shipped: show the ids
            reg = None
        lapsed = permit.status in LIVE_STATUSES and permit.valid_until < today
        label = permit.status_label
        if lapsed:
            label = f"vencida em {_date(permit.valid_until)} (baixa pendente)"
        if permit.person_id:
            person = permit.person
            holder = ("person", person.id, person.name, format_cpf(person.cpf))
        else:
            company = permit.company
            holder = ("company", company.id, company.legal_name, format_cnpj(company.cnpj))
        rows.append(
            PermitRow(
                id=permit.id,
                number=permit.number,
                holder_kind=holder[0],
                holder_id=holder[1],
                holder_name=holder[2],
                holder_document=holder[3],
                regime=permit.regime,
                regime_short=reg.short if reg else permit.regime,
                regime_title=reg.title if reg else permit.regime,
                permit_kind=permit.permit_kind,
                kind_label=_kind_label(reg, permit.permit_kind) if reg else permit.permit_kind,
                site=(_site_label(permit.regime, permit.site) or "") if reg else permit.site,
                point=permit.point,
                valid_from=permit.valid_from,
                valid_until=permit.valid_until,
                status=permit.status,
                status_label=label,
                lapsed=lapsed,
                origin=permit.origin,
            )
        )
    return rows


@dataclass(frozen=True)
class PermitHistoryItem:
    """One :class:`PermitEvent` for the screen: the other permit named by its number, labels in pt-BR."""

    id: int
    on: _dt.date
    at: _dt.datetime
    kind: str
    kind_label: str
    by: str
    reason: str
    ground: str
    status_from: str  # labels ("ativa"), empty when the event does not move the status
    status_to: str
    start: _dt.date | None
    end: _dt.date | None
    other_number: str
    details: dict


def permit_history(permit_id: int) -> list[PermitHistoryItem]:
    """The events of one permit, oldest first."""
    Other = Permit.alias()
    events = (
        PermitEvent.select(PermitEvent, Other.number)
        .join(Other, JOIN.LEFT_OUTER, on=(PermitEvent.other == Other.id), attr="other_permit")
        .where(PermitEvent.permit == permit_id)
        .order_by(PermitEvent.id)
    )
    items = []
    for event in events:
        other = getattr(event, "other_permit", None)
        items.append(
            PermitHistoryItem(
                id=event.id,
                on=event.on,
                at=event.at,
                kind=event.kind,
                kind_label=event.kind_label,
                by=event.by,
                reason=event.reason,
                ground=event.ground,
                status_from=STATUSES.get(event.status_from, event.status_from),
                status_to=STATUSES.get(event.status_to, event.status_to),
                start=event.start,
                end=event.end,
                other_number=other.number if other is not None and other.number else "",
                details=event.details,
            )
        )
    return items
