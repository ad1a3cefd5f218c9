"""Draws that were held: kept as public acts, never edited, only annulled with a reason.

:func:`hold_draw` runs the draw (``models.selection.run_draw``) and stores, in
one transaction, the :class:`Draw` — regime, call, place, officials, date and
time, the seed, the published list and its SHA-256, the algorithm — and one
:class:`DrawEntry` per participant with its position in the drawn order and
its role (holder, alternate, other, excluded). A held draw is never updated:
:func:`annul_draw` marks it annulled with a mandatory reason (and the clerk
and time), after which a new draw may be held that replaces it
(``replaces=``). :func:`verify_draw` recomputes the order from the stored
list and seed and compares it with what was recorded.

:func:`participant_from_person` and :func:`participant_from_application`
turn the front desk's records into ``models.selection.Participant`` values
for scoring and drawing.
"""

from __future__ import annotations

import datetime as _dt
import json
from collections.abc import Iterable, Mapping, Sequence
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from peewee import BooleanField, CharField, DateTimeField, ForeignKeyField, IntegerField, TextField

from models.access.session import acting, require
from models.base import clock
from models.base.errors import FieldErrors, UserError
from models.registry.applications import Application
from models.registry.people import Person
from models.rules.regimes import Regime, get_regime
from models.rules.silences import Choice, resolve
from models.selection import (
    DrawResult,
    Participant,
    draw_rules,
    list_sha256,
    normalize_text,
    order_from_list,
    run_draw,
)
from models.store.db import BaseModel, DecimalTextField, db

__all__ = [
    "ROLES",
    "STATUSES",
    "Draw",
    "DrawEntry",
    "annul_draw",
    "dependants_under_16",
    "draw_entries",
    "get_draw",
    "hold_draw",
    "list_draws",
    "participant_from_application",
    "participant_from_person",
    "replacement_of",
    "verify_draw",
]

STATUSES = {"held": "realizado", "annulled": "anulado"}
ROLES = {"holder": "titular", "alternate": "suplente", "other": "demais", "excluded": "excluído"}

_FROZEN = "Um sorteio realizado não se altera: só pode ser anulado, com o motivo, e outro sorteio realizado."


class _WriteOnce(BaseModel):
    """Rows inserted once; ``save()`` on an existing row is refused (public acts are not edited)."""

    def save(self, *args, **kwargs):
        if self.get_id() is not None and not kwargs.get("force_insert"):
            raise UserError(_FROZEN)
        return super().save(*args, **kwargs)


class Draw(_WriteOnce):
    regime = CharField(max_length=64, index=True)
    call = TextField()  # the call (edital / chamamento) or event it serves
    site = CharField(max_length=200, default="")  # site/event id or the place as typed
    place = CharField(max_length=200)  # where the draw was held
    officials = TextField()  # one per line: who conducted and witnessed it
    held_at = DateTimeField(index=True)
    seed = TextField()
    list_sha256 = CharField(max_length=64)
    list_text = TextField()  # the published list, exactly as hashed
    algorithm = CharField(max_length=40)
    vacancies = TextField()  # JSON: a number, or {group: number}
    alternates = IntegerField(default=0)
    basis = TextField(default="")  # full citation of the draw
    result_json = TextField()  # DrawResult.to_dict()
    status = CharField(max_length=12, default="held", index=True)
    annul_reason = TextField(default="")
    annulled_at = DateTimeField(null=True)
    annulled_by = CharField(max_length=100, default="")
    replaced_by = ForeignKeyField("self", null=True, backref="replaces", on_delete="RESTRICT")
    created_by = CharField(max_length=100)
    created_at = DateTimeField(default=clock.now)

    if TYPE_CHECKING:  # for mypy: the key peewee adds beside each foreign key (its stub has none)
        replaced_by_id: int | None

    class Meta:
        table_name = "draw"

    @property
    def status_label(self) -> str:
        return STATUSES.get(self.status, self.status)

    @property
    def official_list(self) -> list[str]:
        return [line for line in self.officials.splitlines() if line.strip()]

    @property
    def result(self) -> dict[str, Any]:
        return json.loads(self.result_json)

    @property
    def vacancies_value(self) -> int | dict[str, int]:
        return json.loads(self.vacancies)

    @property
    def regime_obj(self) -> Regime:
        return get_regime(self.regime)


class DrawEntry(_WriteOnce):
    draw = ForeignKeyField(Draw, backref="entries", on_delete="RESTRICT")
    participant_id = CharField(max_length=100)
    name = CharField(max_length=200)
    group = CharField(max_length=64, default="")
    position = IntegerField(null=True)  # 1-based place in the drawn order; None when excluded
    role = CharField(max_length=12)  # holder | alternate | other | excluded
    role_order = IntegerField(default=0)  # order within the role and group: order of choice, of call…
    quota = BooleanField(default=False)
    preference = CharField(max_length=64, default="")
    rank = IntegerField(null=True)
    score = DecimalTextField(max_length=20, null=True)
    paid_at = DateTimeField(null=True)
    reason = TextField(default="")  # why excluded
    reason_basis = TextField(default="")
    person = ForeignKeyField(Person, null=True, backref="draw_entries", on_delete="SET NULL")
    application = ForeignKeyField(Application, null=True, backref="draw_entries", on_delete="SET NULL")

    if TYPE_CHECKING:  # for mypy: the key peewee adds beside each foreign key (its stub has none)
        draw_id: int
        person_id: int | None
        application_id: int | None

    class Meta:
        table_name = "draw_entry"
        indexes = ((("draw", "participant_id"), True),)

    @property
    def role_label(self) -> str:
        return ROLES.get(self.role, self.role)


# --------------------------------------------------------------------------- holding and annulling


def _officials_text(officials: Sequence[str] | str) -> str:
    items = officials.splitlines() if isinstance(officials, str) else list(officials)
    return "\n".join(normalize_text(o) for o in items if normalize_text(o))


def hold_draw(
    regime: Regime | str,
    participants: Iterable[Participant],
    seed: str,
    vacancies: int | Mapping[str, int],
    *,
    call: str,
    place: str,
    officials: Sequence[str] | str,
    created_by: str,
    alternates: int | None = None,
    held_at: _dt.datetime | None = None,
    site: str = "",
    replaces: Draw | int | None = None,
    readings: Mapping[str, Choice] | None = None,
) -> Draw:
    """Run the draw and keep it, with every entry, in one transaction; returns the :class:`Draw`.

    ``alternates`` defaults to the regime's (Sapezal: 10). ``officials`` are the
    people who conducted and witnessed it (one per item or per line).
    ``replaces`` names an annulled draw this one takes the place of. Missing
    call, place, officials or clerk is a ``FieldErrors``; the draw's own
    refusals (empty list, repeated id, no vacancies…) a ``UserError``. ``readings``: the authority's reading of
    each point where the act is silent at a draw (``[[silences]]``, Sapezal art. 12, § 3º), with its reason; the
    draw keeps every point with the reading applied, and its ata states them."""
    require("draws.hold")
    regime = get_regime(regime) if isinstance(regime, str) else regime
    errors: dict[str, str] = {}
    call_text = (call or "").strip()
    place_text = normalize_text(place)
    officials_text = _officials_text(officials)
    clerk = acting(normalize_text(created_by or ""))  # the session's user (issue 16 §4)
    if not call_text:
        errors["call"] = "Informe o edital, chamamento ou evento do sorteio."
    if not place_text:
        errors["place"] = "Informe o local do sorteio."
    if not officials_text:
        errors["officials"] = "Informe quem conduziu e testemunhou o sorteio."
    if not clerk:
        errors["created_by"] = "Informe o servidor que registra o sorteio."
    for point, choice in (readings or {}).items():
        if not (choice.reason or "").strip():
            errors["readings"] = f"Diga o motivo da leitura escolhida no ponto '{point}'."
    if errors:
        raise FieldErrors(errors)
    chosen = {p: Choice(c.reading, c.reason.strip(), c.by or clerk) for p, c in (readings or {}).items()}
    applied = resolve(regime, "draw", chosen)
    result = run_draw(participants, seed, vacancies, draw_rules(regime, alternates=alternates))
    kept = {**result.to_dict(), "readings": [a.to_dict() for a in applied]}
    when = (held_at or clock.now()).replace(microsecond=0)
    with db.atomic():
        old = None
        if replaces is not None:
            old = Draw.get_or_none(Draw.id == (replaces.id if isinstance(replaces, Draw) else replaces))
            if old is None:
                raise UserError("O sorteio a substituir não existe.", field="replaces")
            if old.status != "annulled":
                raise UserError(
                    f"O sorteio nº {old.id} não foi anulado: anule-o, com o motivo, antes de "
                    "realizar outro em seu lugar.",
                    field="replaces",
                )
            if old.replaced_by_id is not None:
                raise UserError(
                    f"O sorteio nº {old.id} já foi substituído pelo sorteio nº {old.replaced_by_id}.", field="replaces"
                )
        draw = Draw.create(
            regime=regime.id,
            call=call_text,
            site=normalize_text(site),
            place=place_text,
            officials=officials_text,
            held_at=when,
            seed=result.seed,
            list_sha256=result.list_sha256,
            list_text=result.list_text,
            algorithm=result.algorithm,
            vacancies=json.dumps(vacancies if isinstance(vacancies, int) else dict(vacancies), sort_keys=True),
            alternates=result.rules.alternates,
            basis=result.rules.basis,
            result_json=json.dumps(kept, ensure_ascii=False),
            created_by=clerk,
        )
        DrawEntry.insert_many(_entry_rows(draw, result)).execute()
        if old is not None:
            changed = (
                Draw.update(replaced_by=draw.id)
                .where(Draw.id == old.id, Draw.status == "annulled", Draw.replaced_by.is_null())
                .execute()
            )
            if changed != 1:
                raise UserError(f"O sorteio nº {old.id} já foi substituído por outro.", field="replaces")
    return draw


def _entry_rows(draw: Draw, result: DrawResult) -> list[dict[str, Any]]:
    rows = []

    def row(p: Participant, role: str, order: int, position: int | None, reason: str = "", basis: str = ""):
        rows.append(
            {
                "draw": draw.id,
                "participant_id": p.id,
                "name": p.name,
                "group": p.group,
                "position": position,
                "role": role,
                "role_order": order,
                "quota": bool(p.quota),
                "preference": p.preference or "",
                "rank": p.rank,
                "score": p.score,
                "paid_at": p.paid_at,
                "reason": reason,
                "reason_basis": basis,
                "person": p.person_id,
                "application": p.application_id,
            }
        )

    for g in result.groups:
        for role, ids in (("holder", g.holders), ("alternate", g.alternates), ("other", g.others)):
            for i, pid in enumerate(ids, start=1):
                row(result.participant(pid), role, i, result.position(pid))
    for i, e in enumerate(result.excluded, start=1):
        row(e.participant, "excluded", i, None, e.reason, e.basis)
    return rows


def annul_draw(draw: Draw | int, reason: str, *, by: str, at: _dt.datetime | None = None) -> Draw:
    """Annul a held draw; ``reason`` is mandatory. Annulling twice is refused.

    The draw and its entries stay as they were; a new draw may then be held
    with ``hold_draw(..., replaces=draw)``."""
    require("draws.hold")
    draw_id = draw.id if isinstance(draw, Draw) else draw
    text = (reason or "").strip()
    clerk = acting(normalize_text(by or ""))  # the session's user (issue 16 §4)
    if not text:
        raise UserError("Informe o motivo da anulação do sorteio.", field="reason")
    if not clerk:
        raise UserError("Informe o servidor que anula o sorteio.", field="by")
    with db.atomic():
        current = get_draw(draw_id)
        if current.status == "annulled":
            raise UserError(
                f"O sorteio nº {draw_id} já foi anulado em "
                f"{current.annulled_at:%d/%m/%Y %H:%M}: {current.annul_reason}",
                field="status",
            )
        changed = (
            Draw.update(
                status="annulled",
                annul_reason=text,
                annulled_by=clerk,
                annulled_at=(at or clock.now()).replace(microsecond=0),
            )
            .where(Draw.id == draw_id, Draw.status == "held")
            .execute()
        )
        if changed != 1:
            raise UserError(f"O sorteio nº {draw_id} já foi anulado.", field="status")
    return get_draw(draw_id)


# --------------------------------------------------------------------------- reading


def get_draw(draw_id: int) -> Draw:
    """A kept draw by number (``UserError`` when there is none)."""
    found = Draw.get_or_none(Draw.id == draw_id)
    if found is None:
        raise UserError(f"O sorteio nº {draw_id} não existe.", field="draw")
    return found


def list_draws(*, regime: str | None = None, status: str | None = None, limit: int | None = None) -> list[Draw]:
    """Kept draws, newest first; optionally of one regime and/or status (``held``/``annulled``)."""
    query = Draw.select()
    if regime:
        query = query.where(Draw.regime == regime)
    if status:
        if status not in STATUSES:
            raise UserError(f"Situação desconhecida: '{status}' (use {', '.join(STATUSES)}).", field="status")
        query = query.where(Draw.status == status)
    query = query.order_by(Draw.held_at.desc(), Draw.id.desc())
    if limit:
        query = query.limit(limit)
    return list(query)


_ROLE_ORDER = {"holder": 0, "alternate": 1, "other": 2, "excluded": 3}


def draw_entries(draw: Draw | int, *, role: str | None = None) -> list[DrawEntry]:
    """The entries of a draw: by group, then holders (order of choice), alternates (order of call),
    the others and the excluded; ``role`` keeps one role only."""
    draw_id = draw.id if isinstance(draw, Draw) else draw
    query = DrawEntry.select().where(DrawEntry.draw == draw_id)
    if role:
        if role not in ROLES:
            raise UserError(f"Papel desconhecido: '{role}'.", field="role")
        query = query.where(DrawEntry.role == role)
    return sorted(query, key=lambda e: (e.group, _ROLE_ORDER.get(e.role, 9), e.role_order, e.participant_id))


def replacement_of(draw: Draw | int) -> Draw | None:
    """The draw that replaced an annulled one, if any."""
    current = get_draw(draw.id if isinstance(draw, Draw) else draw)  # read again: it may have changed
    return Draw.get_or_none(Draw.id == current.replaced_by_id) if current.replaced_by_id else None


def verify_draw(draw: Draw | int) -> list[str]:
    """Recompute a kept draw from its stored list and seed: ``[]`` when everything matches,
    else one pt-BR line per difference (hash, order)."""
    current = draw if isinstance(draw, Draw) else get_draw(draw)
    problems = []
    if list_sha256(current.list_text) != current.list_sha256:
        problems.append("O hash da lista guardada não confere com o hash publicado.")
    order = order_from_list(current.list_text, current.seed)
    recorded = [
        e.participant_id
        for e in sorted(
            (e for e in DrawEntry.select().where(DrawEntry.draw == current.id) if e.position is not None),
            key=lambda e: e.position or 0,
        )
    ]
    if list(order) != recorded:
        problems.append("A ordem registrada não é a que a lista e a semente produzem.")
    return problems


# --------------------------------------------------------------------------- from the front desk's records


def dependants_under_16(person: Person, on: _dt.date) -> int | None:
    """Children and dependants under 16 on ``on`` (Sapezal art. 10, V); ``None`` when one of them
    has no birth date (the count cannot be known)."""
    from models.rules.eligibility import age_on

    count = 0
    for member in person.household:
        if member.relation not in ("child", "dependant"):
            continue
        if member.birth_date is None:
            return None
        if age_on(member.birth_date, on) < 16:
            count += 1
    return count


def participant_from_person(
    person: Person,
    *,
    id: str | None = None,
    group: str = "",
    registered_at: _dt.datetime | None = None,
    paid_at: _dt.datetime | None = None,
    on: _dt.date | None = None,
    quota: bool = False,
    debtor: bool | None = None,
    preference: str | None = None,
    application_id: int | None = None,
) -> Participant:
    """A :class:`Participant` from a registered person (socio-economic facts included).

    ``id`` defaults to the person's number; the reference date of the
    dependants' ages is ``registered_at``, else ``on``, else today."""
    when = registered_at.date() if registered_at else (on or _dt.date.today())
    income = person.family_income_mw
    return Participant(
        id=id if id is not None else str(person.id),
        name=person.name,
        group=group,
        birth_date=person.birth_date,
        disabled=bool(person.disabled),
        housing=person.housing or None,
        family_income_mw=Decimal(income) if income is not None else None,
        resident_since=person.resident_since,
        dependants_under_16=dependants_under_16(person, when),
        experience_years=person.experience_years,
        registered_at=registered_at,
        paid_at=paid_at,
        quota=quota,
        debtor=debtor,
        preference=preference,
        person_id=person.id,
        application_id=application_id,
    )


def participant_from_application(
    app: Application,
    *,
    paid_at: _dt.datetime | None = None,
    quota: bool = False,
    debtor: bool | None = None,
    preference: str | None = None,
) -> Participant:
    """A :class:`Participant` from an application: id = protocol, group = the
    application's group (else its line), registered at its creation."""
    group = app.group or app.line or ""
    if app.person is not None:  # no query when the key is empty
        return participant_from_person(
            app.person,
            id=app.protocol,
            group=group,
            registered_at=app.created_at,
            paid_at=paid_at,
            quota=quota,
            debtor=debtor,
            preference=preference,
            application_id=app.id,
        )
    return Participant(
        id=app.protocol,
        name=app.applicant_name,
        group=group,
        registered_at=app.created_at,
        paid_at=paid_at,
        quota=quota,
        debtor=debtor,
        preference=preference,
        application_id=app.id,
    )
