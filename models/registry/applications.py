"""Applications (requerimentos): protocol numbers, documents delivered, statuses and their history.

Protocol numbers are ``AAAA/NNNNN`` per year, taken from a counter row inside
the same transaction as the application: a save that fails gives its number
back, two desks saving at once queue on the counter, so numbers are never
reused and never skipped.
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import TYPE_CHECKING, Any, cast

from peewee import JOIN, BooleanField, CharField, DateField, DateTimeField, ForeignKeyField, IntegerField, TextField

if TYPE_CHECKING:
    from peewee import ModelSelect

from models.access.session import acting, require
from models.base import clock
from models.base.errors import FieldErrors, UserError
from models.base.money import parse_typed
from models.base.text import control_errors
from models.registry.people import Company, Person
from models.store.db import BaseModel, DecimalTextField, db, update_versioned

# status → pt-BR label
STATUSES = {
    "received": "recebido",
    "analysis": "em análise",
    "approved": "aprovado",
    "refused": "indeferido",
    "appealed": "em recurso",
    "awaiting_payment": "aguardando pagamento",
    "issued": "permissão emitida",
    "withdrawn": "desistência",
}
# Which status may follow which (the desk's workflow).
TRANSITIONS = {
    "received": {"analysis", "withdrawn"},
    "analysis": {"approved", "refused", "withdrawn"},
    "approved": {"awaiting_payment", "issued", "withdrawn"},
    "awaiting_payment": {"issued", "withdrawn"},
    "refused": {"appealed"},
    "appealed": {"analysis", "refused", "withdrawn"},
    "issued": set(),
    "withdrawn": set(),
}
OPEN_STATUSES = ("received", "analysis", "approved", "awaiting_payment", "appealed")


class Counter(BaseModel):
    """Gapless sequences (protocols per year, permits per year…)."""

    name = CharField(primary_key=True, max_length=64)
    value = IntegerField(default=0)

    class Meta:
        table_name = "counter"


def next_number(name: str) -> int:
    """The next value of counter ``name``; call inside the transaction that uses it.

    The row is created if missing (without failing when another desk creates it
    at the same moment), then incremented: the UPDATE holds the row lock on
    PostgreSQL (and SQLite transactions hold the write lock from BEGIN) until
    the caller commits or rolls back.
    """
    return next_numbers(name, 1)[0]


def next_numbers(name: str, count: int) -> range:
    """The next ``count`` values of counter ``name`` in one update (a month's charges take thousands at once);
    gapless and held like :func:`next_number`'s."""
    if db.transaction_depth() == 0:
        raise RuntimeError("next_number must run inside db.atomic()")
    if count < 1:
        raise ValueError(f"count must be at least 1, not {count}")
    Counter.insert(name=name, value=0).on_conflict_ignore().execute()
    Counter.update(value=Counter.value + count).where(Counter.name == name).execute()
    last = Counter.get(Counter.name == name).value
    return range(last - count + 1, last + 1)


class Application(BaseModel):
    protocol = CharField(max_length=16, unique=True)
    year = IntegerField()
    seq = IntegerField()
    regime = CharField(max_length=64, index=True)
    permit_kind = CharField(max_length=64)
    person = ForeignKeyField(Person, null=True, backref="applications", on_delete="RESTRICT")
    company = ForeignKeyField(Company, null=True, backref="applications", on_delete="RESTRICT")
    status = CharField(max_length=20, default="received", index=True)
    line = CharField(max_length=64, default="")
    group = CharField(max_length=64, default="")
    section = CharField(max_length=64, default="")
    site = CharField(max_length=200, default="")
    equipment = CharField(max_length=64, default="")
    front = DecimalTextField(max_length=20, null=True)
    depth = DecimalTextField(max_length=20, null=True)
    hitch = DecimalTextField(max_length=20, null=True)
    electric = BooleanField(default=False)
    power_kw = DecimalTextField(max_length=20, null=True)
    gas = BooleanField(default=False)
    sound = BooleanField(default=False)
    venue = CharField(max_length=64, default="")  # a public venue of the act's table (Olímpia art. 89)
    days = IntegerField(null=True)  # the days of use the venue is asked for
    exemption = CharField(max_length=64, default="")  # a case the act exempts from the fee (Olímpia art. 90)
    notes = TextField(default="")
    quote_json = TextField(default="")
    eligibility_json = TextField(default="")
    created_at = DateTimeField(default=clock.now)
    created_by = CharField(max_length=100)
    status_at = DateTimeField(default=clock.now)
    #: SHA-256 of the act's text it was computed from (models.rules.acts): shown and recomputed with that version
    act_sha256 = CharField(max_length=64, default="")
    version = IntegerField(default=1)

    if TYPE_CHECKING:  # for mypy: the key peewee adds beside each foreign key (its stub has none)
        person_id: int | None
        company_id: int | None
        # the back-references of its documents and events
        documents: ModelSelect[ApplicationDocument]
        events: ModelSelect[ApplicationEvent]

    class Meta:
        table_name = "application"

    @property
    def applicant_ref(self) -> tuple[str, int]:
        """``("person", id)`` or ``("company", id)``: who applies."""
        if self.person_id:
            return "person", self.person_id
        assert self.company_id is not None  # an application names a person or a company
        return "company", self.company_id

    @property
    def applicant_name(self) -> str:
        applicant = self.person if self.person_id else self.company
        assert applicant is not None  # an application names a person or a company
        return applicant.name if isinstance(applicant, Person) else applicant.legal_name

    @property
    def status_label(self) -> str:
        return STATUSES.get(self.status, self.status)


class ApplicationDocument(BaseModel):
    application = ForeignKeyField(Application, backref="documents", on_delete="CASCADE")
    document = CharField(max_length=64)  # id from the regime's [[documents]]
    delivered_on = DateField(null=True)
    valid_until = DateField(null=True)
    file_path = CharField(max_length=300, default="")
    sha256 = CharField(max_length=64, default="")
    original_name = CharField(max_length=300, default="")

    if TYPE_CHECKING:  # for mypy: the key peewee adds beside each foreign key (its stub has none)
        application_id: int

    class Meta:
        table_name = "application_document"


class ApplicationEvent(BaseModel):
    """Every status change: who, when, from, to, why — never edited."""

    application = ForeignKeyField(Application, backref="events", on_delete="CASCADE")
    at = DateTimeField(default=clock.now)
    by = CharField(max_length=100)
    status_from = CharField(max_length=20, default="")
    status_to = CharField(max_length=20)
    reason = TextField(default="")

    if TYPE_CHECKING:  # for mypy: the key peewee adds beside each foreign key (its stub has none)
        application_id: int

    class Meta:
        table_name = "application_event"


# --------------------------------------------------------------------------- input


@dataclass
class DocumentInput:
    document: str
    delivered_on: _dt.date | None = None
    valid_until: _dt.date | None = None
    file: str | None = None  # a scanned file to keep


@dataclass
class ApplicationInput:
    regime: str = ""
    permit_kind: str = ""
    person_id: int | None = None
    company_id: int | None = None
    line: str = ""
    group: str = ""
    section: str = ""
    site: str = ""
    equipment: str = ""
    front: str = ""
    depth: str = ""
    hitch: str = ""
    electric: bool = False
    power_kw: str = ""
    gas: bool = False
    sound: bool = False
    venue: str = ""
    days: str = ""
    exemption: str = ""
    notes: str = ""
    documents: list[DocumentInput] = field(default_factory=list)
    #: values a formula of the act leaves open (``[[fees.inputs]]``: the base the Administration fixes, the
    #: inspector's grade), as typed, by name — priced within the act's bounds and kept with who set them
    asked: dict[str, str] = field(default_factory=dict)


def _size(errors: dict, key: str, label: str, text: str, *, allow_zero: bool = False) -> Decimal | None:
    if not (text or "").strip():
        return None
    try:
        value = parse_typed(text, what=label)
    except UserError as exc:
        errors[key] = exc.message
        return None
    if value < 0 or (value == 0 and not allow_zero):
        errors[key] = f"{label}: informe um valor maior que zero."
        return None
    return value


def validate_application(data: ApplicationInput, *, today: _dt.date) -> dict:
    """Clean values, or ``FieldErrors`` naming each wrong field."""
    from models.rules.regimes import get_regime

    errors = control_errors(data, multiline=frozenset({"notes"}))  # as typed, before any cleaning
    if errors:
        raise FieldErrors(errors)
    regime = None
    try:
        regime = get_regime(data.regime)
    except UserError as exc:
        errors["regime"] = exc.message
    if regime is not None:
        for key, finder, value in (
            ("permit_kind", regime.permit_kind, data.permit_kind),
            ("line", regime.line, data.line),
            ("group", regime.group, data.group),
            ("section", regime.section, data.section),
            ("equipment", regime.equipment, data.equipment),
        ):
            if value or key == "permit_kind":
                try:
                    finder(value)
                except UserError as exc:
                    errors[key] = exc.message
        for i, doc in enumerate(data.documents):
            try:
                regime.document(doc.document)
            except UserError as exc:
                errors[f"documents[{i}]"] = exc.message
            if doc.delivered_on and doc.delivered_on > today:
                errors[f"documents[{i}].delivered_on"] = "A data de entrega não pode estar no futuro."
            if doc.valid_until and doc.delivered_on and doc.valid_until < doc.delivered_on:
                errors[f"documents[{i}].valid_until"] = "A validade termina antes da entrega."
    if bool(data.person_id) == bool(data.company_id):
        errors["applicant"] = "Escolha o requerente: uma pessoa ou uma empresa."
    elif (
        not (Person if data.person_id else Company)
        .select()
        .where((Person.id if data.person_id else Company.id) == (data.person_id or data.company_id))
        .exists()
    ):
        errors["applicant"] = "O requerente escolhido não está mais cadastrado; busque-o de novo."
    days = None
    if regime is not None and not errors.get("permit_kind"):
        days = _venue_inputs(regime, data, errors)
    front = _size(errors, "front", "Frente", data.front)
    depth = _size(errors, "depth", "Profundidade", data.depth)
    hitch = _size(errors, "hitch", "Engate", data.hitch, allow_zero=True)
    power = _size(errors, "power_kw", "Potência", data.power_kw)
    if errors:
        raise FieldErrors(errors)
    return {
        "regime": data.regime,
        "permit_kind": data.permit_kind,
        "person": data.person_id,
        "company": data.company_id,
        "line": data.line,
        "group": data.group,
        "section": data.section,
        "site": data.site.strip(),
        "equipment": data.equipment,
        "front": front,
        "depth": depth,
        "hitch": hitch,
        "electric": data.electric,
        "power_kw": power,
        "gas": data.gas,
        "sound": data.sound,
        "venue": data.venue,
        "days": days,
        "exemption": data.exemption,
        "notes": data.notes.strip(),
    }


def _venue_inputs(regime, data: ApplicationInput, errors: dict) -> int | None:
    """The venue, its days of use and the exemption asked for, each one of the kind's fees (Olímpia arts. 89–90)."""
    fees = [regime.fee(f) for f in regime.permit_kind(data.permit_kind).fees]
    if data.venue and data.venue not in {v.id for f in fees for v in f.venue_choices()}:
        errors["venue"] = "O imóvel escolhido não está na tabela de preços desta permissão."
    if data.exemption and data.exemption not in {e.id for f in fees for e in f.exemptions}:
        errors["exemption"] = "O ato não prevê essa dispensa para os preços desta permissão."
    text = (data.days or "").strip()
    if not text:
        return None
    if not text.isdigit() or not 1 <= int(text) <= 366:
        errors["days"] = f"Dias de uso: {text} — informe um número inteiro de 1 a 366."
        return None
    return int(text)


def record_documents(
    app: Application, documents: list[DocumentInput], *, by: str, today: _dt.date | None = None
) -> list[ApplicationDocument]:
    """Record documents delivered after the application was filed — the winners' documents of Sapezal art. 11,
    within 10 business days of the final list — in one transaction, with a line in its history. What was
    delivered before stays; the latest delivery of a document is the one that counts."""
    require("applications.move")
    from models.rules.regimes import get_regime
    from models.store.files import keep_file

    today = today or _dt.date.today()
    regime = get_regime(app.regime)
    wanted = set(regime.permit_kind(app.permit_kind).documents)
    errors: dict[str, str] = {}
    if not documents:
        errors["documents"] = "Marque os documentos entregues."
    by = acting(by)  # the session's user (issue 16 §4)
    for i, doc in enumerate(documents):
        if doc.document not in wanted:
            errors[f"documents[{i}]"] = f"O documento '{doc.document}' não é pedido para {app.permit_kind}."
        elif doc.delivered_on is None:
            errors[f"documents[{i}].delivered_on"] = (
                f"{regime.document(doc.document).label}: informe a data da entrega."
            )
        elif doc.delivered_on > today:
            errors[f"documents[{i}].delivered_on"] = "A data de entrega não pode estar no futuro."
        elif doc.valid_until and doc.valid_until < doc.delivered_on:
            errors[f"documents[{i}].valid_until"] = "A validade termina antes da entrega."
    if errors:
        raise FieldErrors(errors)
    kept = [keep_file(d.file) if d.file else None for d in documents]  # copied before the transaction
    with db.atomic():
        rows = [
            ApplicationDocument.create(
                application=app,
                document=d.document,
                delivered_on=d.delivered_on,
                valid_until=d.valid_until,
                file_path=k.path if k else "",
                sha256=k.sha256 if k else "",
                original_name=k.original_name if k else "",
            )
            for d, k in zip(documents, kept, strict=True)
        ]
        labels = "; ".join(regime.document(d.document).label for d in documents)
        ApplicationEvent.create(
            application=app,
            by=acting(by),
            status_from=app.status,
            status_to=app.status,
            reason=f"documentos entregues: {labels}",
        )
    return rows


def get_application(application_id: int) -> Application:
    """An application by id (a ``UserError`` if it does not exist)."""
    found = Application.get_or_none(Application.id == application_id)
    if found is None:
        raise UserError(f"Requerimento nº {application_id} não encontrado.")
    return found


def change_status(
    app: Application, to: str, *, by: str, reason: str = "", at: _dt.datetime | None = None
) -> Application:
    """Move an application along the workflow; a refusal needs its reason. Stale copies are refused. ``at``: the
    moment of the step (default: now) — a desk working on another day, the demo's stories."""
    require("applications.decide" if to in ("approved", "refused") else "applications.move")
    if to not in STATUSES:
        raise UserError(f"Situação desconhecida: {to}")
    if to not in TRANSITIONS.get(app.status, set()):
        raise UserError(f"Um requerimento {STATUSES[app.status]} não pode passar a {STATUSES[to]}.")
    if to in ("refused", "appealed", "withdrawn") and not (reason or "").strip():
        raise FieldErrors({"reason": f"Informe o motivo ({STATUSES[to]})."})
    with db.atomic():
        stale = "Este requerimento foi alterado em outra mesa; reabra-o para ver a situação atual."
        moment = (at or clock.now()).replace(microsecond=0)
        update_versioned(app, stale, status=to, status_at=moment)
        ApplicationEvent.create(
            application=app.id,
            by=acting(by),
            status_from=app.status,
            status_to=to,
            reason=(reason or "").strip(),
            at=moment,
        )
    return Application.get_by_id(app.id)


@dataclass(frozen=True)
class WorkItem:
    id: int
    protocol: str
    applicant: str
    regime: str
    permit_kind: str
    status: str
    status_label: str
    age_days: int
    regime_label: str = ""  # "Sapezal/MT — Lei 1.171/2014"
    kind_label: str = ""


def _labels(regime_id: str, kind_id: str) -> tuple[str, str]:
    from models.rules.regimes import get_regime

    try:
        regime = get_regime(regime_id)
        return f"{regime.municipality}/{regime.state} — {regime.short}", regime.permit_kind(kind_id).label
    except UserError:  # a regime file removed since: show the ids
        return regime_id, kind_id


def worklist(
    *,
    statuses=OPEN_STATUSES,
    regime: str | Sequence[str] | None = None,
    today: _dt.date | None = None,
    limit: int = 500,
) -> list[WorkItem]:
    """Applications by status, oldest first, with their age in days; ``regime`` one act's id or several."""
    today = today or _dt.date.today()
    query = (
        Application.select(
            Application.id,
            Application.protocol,
            Application.regime,
            Application.permit_kind,
            Application.status,
            Application.created_at,
            Person.name,
            Company.legal_name,
        )
        .join(Person, JOIN.LEFT_OUTER, on=(Application.person == Person.id))
        .switch(Application)
        .join(Company, JOIN.LEFT_OUTER, on=(Application.company == Company.id))
        .where(Application.status.in_(list(statuses)))
    )
    if regime:
        query = query.where(Application.regime.in_([regime] if isinstance(regime, str) else list(regime)))
    items = []
    rows = cast(Any, query.order_by(Application.created_at, Application.id).limit(limit).tuples())
    for app_id, protocol, regime_id, kind, status, created, person_name, company_name in rows:
        items.append(
            WorkItem(
                app_id,
                protocol,
                person_name or company_name or "",
                regime_id,
                kind,
                status,
                STATUSES[status],
                (today - created.date()).days,
                *_labels(regime_id, kind),
            )
        )
    return items
