"""Selection as a process kept in the database: publications, appeals and the final list, and the rotating list.

The draw itself is ``models/selection/draws.py``; this module keeps what comes before
and after it, so that a desk that closes and opens again — or another desk —
sees the same state.

Publications (:class:`ListPublication`)
---------------------------------------

Every list Praça publishes is kept, write-once: the exact text that is hashed,
its SHA-256, the printed document, the date of publication, where it was
published and who recorded it. Three kinds:

* ``list`` — the participants of a draw, published before the seed is
  announced (README, «Sorteios: como conferir»). A draw later compares the list
  it is about to draw with the latest publication of its call (regime, place,
  group), in any session (:func:`publication_check`).
* ``ranking`` — where the act opens an appeal against the ranked list (the
  regime's ``selection.appeal_days``; Sapezal, Lei 1.171/2014, art. 10, § 4º):
  the scores line by line, and the appeal window counted from the publication
  by the regime's ``selection-appeal`` deadline (from ``list-publication``)
  (``models.rules.deadlines.compute_deadline``), frozen in the record.
* ``final`` — the final list (art. 10, § 5º): the ranking with the scores the
  commission corrected on appeal, ranked again with the act's tie-breaks. Only
  a final list goes to the draw of places (art. 12); it is also the draw's
  published list.

Appeals (:class:`SelectionAppeal`)
----------------------------------

Who, when, on what grounds. One filed after the window closes is recorded
and not heard ("não conhecido"), with the article; one in time gets the
decision deadline of the regime's ``selection-decision`` deadline (from ``appeal-filed``)
(art. 10, § 5º: 3 business days) and is decided once — granted or denied, with
the reason, and, when granted, the points the commission corrected, criterion
by criterion (only points the act's table can give). A decision after the
deadline is accepted and flagged: the law binds the commission, and refusing to
record its late decision would stop the process. The final list waits for the
window to close and every appeal in time to be decided.

The rotating list (:class:`RotationEvent`, :class:`PointDraw`)
--------------------------------------------------------------

Where the act's method is ``rotating-draw`` (Ilha Comprida, Dec. 890/2017,
art. 21, § 1º), the drawn order of a held draw is a list applied event after
event (``models.selection.rotation``): each event takes the next vendors and
the list starts again from the beginning when it ends (I). Each event is a
row — date, name, vacancies (at most the points the act allows in the area,
art. 22: 60), where in the list it started and who works it — so the list goes
on from where the last event stopped. The second draw (II) spreads the day's
vendors over the day's points (``models.selection.assign_points``, the same
algorithm with its own seed and list) and is kept in :class:`PointDraw`,
write-once and re-checked from its list and seed.

These are tables of their own, not held :class:`~models.selection.draws.Draw` rows:
a Draw's result is holders, alternates and others, its holders get permits
and stalls on the Seleção desk; an event's result is "who works that day" and
a point draw's is "vendor → point", and neither may offer permits. Keeping
them as draws would need a point column a draw entry does not have and a flag
to hide them from the holders' screen.
"""

from __future__ import annotations

import datetime as _dt
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from peewee import CharField, DateField, DateTimeField, ForeignKeyField, IntegerField, IntegrityError, TextField

from models.access.session import acting, require
from models.base import clock
from models.base.errors import FieldErrors, UserError
from models.rules import describe
from models.rules.deadlines import compute_deadline
from models.rules.regimes import Regime, get_regime
from models.selection import (
    ALGORITHM,
    Participant,
    Score,
    ScoreLine,
    assign_points,
    draw_rules,
    list_sha256,
    max_points_of,
    normalize_text,
    order_from_list,
    published_list,
    rank_scores,
    rotation,
    with_ranks,
)
from models.selection.draws import Draw, draw_entries, get_draw
from models.store.db import BaseModel, db

__all__ = [
    "APPEAL_STATUSES",
    "KINDS",
    "AppealRow",
    "EventRow",
    "ListPublication",
    "ListRow",
    "PointDraw",
    "Process",
    "PublicationCheck",
    "RankingRow",
    "RotationEvent",
    "RotationState",
    "SelectionAppeal",
    "add_event",
    "allowed_points",
    "decide_appeal",
    "event_with_draw",
    "file_appeal",
    "final_basis",
    "final_participants",
    "has_appeals",
    "hold_point_draw",
    "latest_publication",
    "parse_points",
    "point_label",
    "preview_event",
    "process_of",
    "publication_check",
    "publication_kind",
    "publish_final",
    "publish_list",
    "publish_ranking",
    "remove_last_event",
    "rotation_draws",
    "rotation_state",
    "verify_point_draw",
]

KINDS = {"list": "lista do sorteio", "ranking": "classificação", "final": "lista definitiva"}
APPEAL_STATUSES = {
    "pending": "aguardando decisão",
    "granted": "deferido",
    "denied": "indeferido",
    "late": "não conhecido (fora do prazo)",
}


class _Kept(BaseModel):
    """Rows written once: a publication or a draw is a public act, not edited afterwards."""

    def save(self, *args, **kwargs):
        if self.get_id() is not None and not kwargs.get("force_insert"):
            raise UserError("Um ato publicado não se altera: publique outro.")
        return super().save(*args, **kwargs)


class ListPublication(_Kept):
    regime = CharField(max_length=64, index=True)
    site = CharField(max_length=200, default="")
    group = CharField(max_length=64, default="")
    call = TextField(default="")
    kind = CharField(max_length=12)  # list | ranking | final
    list_text = TextField()  # exactly as hashed
    list_sha256 = CharField(max_length=64)
    document = TextField(default="")  # the text posted (pt-BR)
    entries_json = TextField(default="")  # ranking / final: the scores line by line
    published_on = DateField()
    medium = TextField(default="")  # where it was published (mural, jornal, the PDF's name)
    appeal_due = DateField(null=True)  # ranking: the last day of the appeal window
    appeal_formula = TextField(default="")
    appeal_basis = TextField(default="")
    follows = ForeignKeyField("self", null=True, backref="followers", on_delete="RESTRICT")  # final → ranking
    created_by = CharField(max_length=100)
    created_at = DateTimeField(default=clock.now)

    class Meta:
        table_name = "list_publication"
        indexes = ((("regime", "site", "group", "kind"), False),)

    @property
    def kind_label(self) -> str:
        return KINDS.get(self.kind, self.kind)

    @property
    def entries(self) -> list[dict]:
        return json.loads(self.entries_json) if self.entries_json else []


class SelectionAppeal(BaseModel):
    publication = ForeignKeyField(ListPublication, backref="appeals", on_delete="RESTRICT")
    participant_id = CharField(max_length=100)
    name = CharField(max_length=200)
    filed_on = DateField()
    grounds = TextField()
    status = CharField(max_length=12, default="pending", index=True)
    decision_due = DateField(null=True)
    decision_formula = TextField(default="")
    decision = TextField(default="")
    decided_on = DateField(null=True)
    decided_by = CharField(max_length=100, default="")
    corrections_json = TextField(default="")  # {criterion id: points}
    filed_by = CharField(max_length=100)
    created_at = DateTimeField(default=clock.now)

    class Meta:
        table_name = "selection_appeal"

    @property
    def corrections(self) -> dict[str, int]:
        return json.loads(self.corrections_json) if self.corrections_json else {}


class RotationEvent(BaseModel):
    draw = ForeignKeyField(Draw, backref="rotation_events", on_delete="RESTRICT")
    number = IntegerField()  # 1 = the first event served by the list
    event_date = DateField()
    label = CharField(max_length=200, default="")
    vacancies = IntegerField()
    start = IntegerField()  # 0-based place in the list where this event began
    vendors_json = TextField()  # the ids, in the list's order
    created_by = CharField(max_length=100)
    created_at = DateTimeField(default=clock.now)

    class Meta:
        table_name = "rotation_event"
        indexes = ((("draw", "number"), True),)

    def save(self, *args, **kwargs):
        if self.get_id() is not None and not kwargs.get("force_insert"):
            raise UserError("Um evento registrado na lista corrida não se altera.")
        return super().save(*args, **kwargs)

    @property
    def vendors(self) -> list[str]:
        return json.loads(self.vendors_json)


class PointDraw(_Kept):
    event = ForeignKeyField(RotationEvent, unique=True, backref="point_draws", on_delete="RESTRICT")
    held_at = DateTimeField()
    place = CharField(max_length=200)
    officials = TextField()
    seed = TextField()
    points_json = TextField()  # the point labels, in the order given
    list_text = TextField()
    list_sha256 = CharField(max_length=64)
    assignments_json = TextField()  # [[vendor id, point], …] in drawn order
    algorithm = CharField(max_length=40)
    basis = TextField(default="")
    created_by = CharField(max_length=100)
    created_at = DateTimeField(default=clock.now)

    class Meta:
        table_name = "point_draw"

    @property
    def points(self) -> list[str]:
        return json.loads(self.points_json)

    @property
    def assignments(self) -> list[tuple[str, str]]:
        return [(pid, point) for pid, point in json.loads(self.assignments_json)]

    @property
    def official_list(self) -> list[str]:
        return [line for line in self.officials.splitlines() if line.strip()]


# --------------------------------------------------------------------------- helpers


def _regime(regime: Regime | str) -> Regime:
    return get_regime(regime) if isinstance(regime, str) else regime


def _clerk(by: str) -> str:
    """The session's user (issue 16 §4): a ``by`` naming anyone else is refused (models.access.session.acting)."""
    return acting(normalize_text(by or ""))


def _day(value: _dt.date) -> str:
    return f"{value:%d/%m/%Y} ({describe.DAY_NAMES[value.weekday()]})"


def _check_date(value: _dt.date | None, what: str, field: str, today: _dt.date) -> _dt.date:
    if value is None:
        raise UserError(f"Informe a data {what}.", field=field)
    if isinstance(value, _dt.datetime):
        value = value.date()
    if value > today:
        raise UserError(f"A data {what} ({value:%d/%m/%Y}) é posterior a hoje ({today:%d/%m/%Y}).", field=field)
    return value


def _deadline_from(regime: Regime, event: str):
    """The selection's deadline that runs from ``event``: the appeal against the list (``selection-appeal``,
    from its publication) or its decision (``selection-decision``, from the appeal's filing)."""
    role = {"list-publication": "selection-appeal", "appeal-filed": "selection-decision"}[event]
    return next((d for d in regime.deadlines if d.role == role and d.from_ == event), None)


def has_appeals(regime: Regime | str) -> bool:
    """Whether the act opens an appeal against the ranked list before the draw (``selection.appeal_days``)."""
    sel = _regime(regime).selection
    return sel is not None and sel.appeal_days is not None


def _key(current) -> dict[str, str]:
    return {"regime": current.regime_id, "site": normalize_text(current.site), "group": normalize_text(current.group)}


def latest_publication(
    regime: str, site: str = "", group: str = "", kinds: Sequence[str] = ("list", "final")
) -> ListPublication | None:
    """The newest publication of a call of one of ``kinds``."""
    return (
        ListPublication.select()
        .where(
            (ListPublication.regime == regime)
            & (ListPublication.site == normalize_text(site))
            & (ListPublication.group == normalize_text(group))
            & ListPublication.kind.in_(list(kinds))
        )
        .order_by(ListPublication.created_at.desc(), ListPublication.id.desc())
        .first()
    )


def final_list_of(regime: str, participant_id: str) -> ListPublication | None:
    """The newest final list (art. 10, § 5º) of ``regime`` that has ``participant_id`` (a protocol) among its
    participants — from its publication run the deadlines of the winners (Sapezal art. 11)."""
    for pub in (
        ListPublication.select()
        .where((ListPublication.regime == regime) & (ListPublication.kind == "final"))
        .order_by(ListPublication.published_on.desc(), ListPublication.id.desc())
    ):
        if any(e.get("id") == participant_id for e in pub.entries):
            return pub
    return None


@dataclass(frozen=True)
class PublicationCheck:
    """The list about to be drawn against the latest one published for the call."""

    publication: ListPublication | None
    matches: bool
    text: str  # pt-BR, one line

    @property
    def published(self) -> bool:
        return self.publication is not None


def publication_kind(current) -> str:
    """What publishing ``current`` is: the ranking, where the act opens an appeal and the final list is not out
    yet; else the draw's list."""
    if has_appeals(current.regime_id) and not getattr(current, "final_id", None):
        return "ranking"
    return "list"


def publication_check(current, kinds: Sequence[str] | None = None) -> PublicationCheck:
    """Compare the list of ``current`` (a ``models.services.calls.CallList``) with the latest publication of its call:
    of ``kinds``, by default what :func:`publication_kind` says the list is (the draw checks ``list``/``final``)."""
    if current is None or current.published is None:
        return PublicationCheck(None, False, "sem lista")
    key = _key(current)
    if kinds is None:
        kinds = ("ranking",) if publication_kind(current) == "ranking" else ("list", "final")
    pub = latest_publication(key["regime"], key["site"], key["group"], kinds)
    if pub is None:
        return PublicationCheck(None, False, "ainda não publicada")
    when = f"{pub.published_on:%d/%m/%Y}"
    if pub.list_sha256 == current.published.sha256:
        return PublicationCheck(
            pub, True, f"publicada em {when} ({pub.kind_label}; {pub.medium or 'registrada'}) por {pub.created_by}"
        )
    return PublicationCheck(
        pub, False, f"a lista mudou desde a publicação de {when} (SHA-256 publicado {pub.list_sha256[:16]}…)"
    )


def _create_publication(
    key: Mapping[str, str],
    kind: str,
    *,
    list_text: str,
    document: str,
    published_on: _dt.date,
    by: str,
    call: str,
    medium: str,
    entries: list[dict] | None = None,
    follows: ListPublication | None = None,
    appeal=None,
) -> ListPublication:
    return ListPublication.create(
        **key,
        call=normalize_text(call),
        kind=kind,
        list_text=list_text,
        list_sha256=list_sha256(list_text),
        document=document,
        entries_json=json.dumps(entries, ensure_ascii=False) if entries is not None else "",
        published_on=published_on,
        medium=normalize_text(medium),
        follows=follows,
        appeal_due=appeal.due_date if appeal is not None else None,
        appeal_formula=appeal.formula if appeal is not None else "",
        appeal_basis=appeal.basis if appeal is not None else "",
        created_by=_clerk(by),
    )


def publish_list(
    current, *, by: str, published_on: _dt.date, today: _dt.date, call: str = "", medium: str = ""
) -> ListPublication:
    """Keep the publication of a draw's participant list (``current``: a ``models.services.calls.CallList``).

    Where the act opens an appeal against the ranking, the draw's list comes
    only from the final list (:func:`publish_final`), so this is refused until
    the final list exists."""
    require("draws.hold")
    if current is None or current.published is None:
        raise UserError(getattr(current, "problem", "") or "Não há lista para publicar.", field="list")
    published_on = _check_date(published_on, "da publicação", "published_on", today)
    if has_appeals(current.regime_id) and not getattr(current, "final_id", None):
        raise UserError(
            "A lista do sorteio sai da lista definitiva: publique a classificação, decida os recursos e "
            f"publique a lista definitiva antes ({_appeal_basis(_regime(current.regime_id))}).",
            field="list",
        )
    return _create_publication(
        _key(current),
        "list",
        list_text=current.published.text,
        document=current.text(call),
        published_on=published_on,
        by=by,
        call=call,
        medium=medium,
    )


# --------------------------------------------------------------------------- ranking, appeals, final list


def final_basis(regime: Regime | str) -> str:
    """The article of the final list (the decision on the appeals, Sapezal art. 10, § 5º)."""
    regime = _regime(regime)
    deadline = _deadline_from(regime, "appeal-filed")
    return regime.cite_item(deadline) if deadline is not None else regime.cite(regime.selection.basis)


def _appeal_basis(regime: Regime) -> str:
    deadline = _deadline_from(regime, "list-publication")
    return regime.cite_item(deadline) if deadline is not None else regime.cite(regime.selection.basis)


def _entry(c) -> dict:
    p, s = c.participant, c.score
    return {
        "id": p.id,
        "name": p.name,
        "group": p.group,
        "rank": c.rank,
        "total": s.total,
        "tie_break": c.tie_break,
        "tie_unresolved": c.tie_unresolved,
        "disabled": p.disabled,
        "birth_date": p.birth_date.isoformat() if p.birth_date else None,
        "registered_at": p.registered_at.isoformat() if p.registered_at else None,
        "person_id": p.person_id,
        "application_id": p.application_id,
        "on": s.on.isoformat() if s.on else None,
        "lines": [
            {
                "criterion": line.criterion_id,
                "label": line.label,
                "field": line.field,
                "value_text": line.value_text,
                "points": line.points,
                "basis": line.basis,
                "status": line.status,
                "note": line.note,
            }
            for line in s.lines
        ],
    }


def publish_ranking(
    current, *, by: str, published_on: _dt.date, today: _dt.date, call: str = "", medium: str = ""
) -> ListPublication:
    """Publish the ranked list of ``current`` (art. 10, § 4º): kept with every score line and the appeal
    window counted from ``published_on``. A new ranking of the same call starts a new window."""
    require("draws.hold")
    regime = _regime(current.regime_id) if current is not None else None
    if regime is None or not has_appeals(regime):
        raise UserError("O ato deste regime não prevê recurso contra a classificação.", field="regime")
    if current.published is None or not current.scored:
        raise UserError(current.problem or "Não há classificação para publicar.", field="list")
    published_on = _check_date(published_on, "da publicação", "published_on", today)
    same = latest_publication(current.regime_id, current.site, current.group, ("ranking",))
    if getattr(current, "final_id", None):
        raise UserError(
            "A lista definitiva deste chamamento já foi publicada: o sorteio corre sobre ela.", field="list"
        )
    if same is not None and same.list_sha256 == current.published.sha256:
        raise UserError(
            f"Esta classificação já foi publicada em {same.published_on:%d/%m/%Y}; o prazo de recurso "
            f"termina em {same.appeal_due:%d/%m/%Y} ({same.appeal_basis}).",
            field="list",
        )
    deadline = _deadline_from(regime, "list-publication")
    if deadline is None:
        raise UserError(
            f"O regime {regime.id} prevê recurso, mas não traz o prazo contado da publicação da lista.", field="regime"
        )
    window = compute_deadline(regime, deadline.id, published_on)
    entries = [_entry(c) for c in current.candidates if not c.excluded and c.score is not None]
    with db.atomic():
        return _create_publication(
            _key(current),
            "ranking",
            list_text=current.published.text,
            document=current.text(call),
            published_on=published_on,
            by=by,
            call=call,
            medium=medium,
            entries=entries,
            appeal=window,
        )


def _final_of(ranking: ListPublication) -> ListPublication | None:
    return (
        ListPublication.select()
        .where((ListPublication.follows == ranking.id) & (ListPublication.kind == "final"))
        .order_by(ListPublication.id.desc())
        .first()
    )


def allowed_points(regime: Regime | str, criterion_id: str) -> tuple[int, ...]:
    """The points the act's table can give for a criterion, in increasing order."""
    regime = _regime(regime)
    criterion = next((c for c in regime.selection.criteria if c.id == criterion_id), None)
    if criterion is None:
        raise UserError(f"Critério desconhecido: '{criterion_id}'.", field="criterion")
    return tuple(sorted({b.points for b in criterion.brackets} | {v.points for v in criterion.values}))


def file_appeal(
    ranking: ListPublication | int, *, participant_id: str, filed_on: _dt.date, grounds: str, by: str, today: _dt.date
) -> SelectionAppeal:
    """Record an appeal against the ranking. Filed after the window, it is recorded as not heard, with the
    article (its ``status`` is ``late``); in time, it gets the decision deadline."""
    require("applications.create")
    ranking = _publication(ranking, "ranking")
    regime = get_regime(ranking.regime)
    errors = {}
    entry = next((e for e in ranking.entries if e["id"] == normalize_text(participant_id)), None)
    if entry is None:
        errors["participant"] = "Escolha um participante da classificação publicada."
    text = (grounds or "").strip()
    if not text:
        errors["grounds"] = "Informe os fundamentos do recurso."
    if errors:
        raise FieldErrors(errors)
    filed_on = _check_date(filed_on, "do recurso", "filed_on", today)
    if filed_on < ranking.published_on:
        raise UserError(
            f"O recurso ({filed_on:%d/%m/%Y}) não pode ser anterior à publicação da classificação "
            f"({ranking.published_on:%d/%m/%Y}).",
            field="filed_on",
        )
    final = _final_of(ranking)
    if final is not None:
        raise UserError(
            f"A lista definitiva já foi publicada em {final.published_on:%d/%m/%Y}: não cabe mais recurso "
            f"contra esta classificação ({ranking.appeal_basis}).",
            field="filed_on",
        )
    fields: dict[str, Any] = {}
    if filed_on > ranking.appeal_due:
        fields = {
            "status": "late",
            "decided_on": filed_on,
            "decision": (
                f"Recurso não conhecido: interposto em {filed_on:%d/%m/%Y}, depois do fim do prazo em "
                f"{ranking.appeal_due:%d/%m/%Y} ({ranking.appeal_formula}) — {ranking.appeal_basis}."
            ),
        }
    else:
        deadline = _deadline_from(regime, "appeal-filed")
        if deadline is not None:
            due = compute_deadline(regime, deadline.id, filed_on)
            fields = {"decision_due": due.due_date, "decision_formula": f"{due.formula} — {due.basis}"}
    return SelectionAppeal.create(
        publication=ranking.id,
        participant_id=entry["id"],
        name=entry["name"],
        filed_on=filed_on,
        grounds=text,
        filed_by=_clerk(by),
        **fields,
    )


def decide_appeal(
    appeal: SelectionAppeal | int,
    *,
    granted: bool,
    reason: str,
    decided_on: _dt.date,
    by: str,
    today: _dt.date,
    corrections: Mapping[str, int] | None = None,
) -> SelectionAppeal:
    """The commission's decision on an appeal in time (art. 10, § 5º): granted or denied, with the reason;
    a granted appeal may correct the points of criteria (only points the act's table gives)."""
    require("applications.decide")
    appeal_id = appeal.id if isinstance(appeal, SelectionAppeal) else appeal
    current = SelectionAppeal.get_or_none(SelectionAppeal.id == appeal_id)
    if current is None:
        raise UserError(f"O recurso nº {appeal_id} não existe.", field="appeal")
    if current.status != "pending":
        raise UserError(f"O recurso nº {appeal_id} já está {APPEAL_STATUSES[current.status]}.", field="appeal")
    text = (reason or "").strip()
    if not text:
        raise FieldErrors({"reason": "Informe o motivo da decisão."})
    decided_on = _check_date(decided_on, "da decisão", "decided_on", today)
    if decided_on < current.filed_on:
        raise UserError("A decisão não pode ser anterior ao recurso.", field="decided_on")
    ranking = current.publication
    regime = get_regime(ranking.regime)
    fixes = {k: v for k, v in (corrections or {}).items()}
    if fixes and not granted:
        raise UserError("Só um recurso deferido corrige a pontuação.", field="corrections")
    entry = next(e for e in ranking.entries if e["id"] == current.participant_id)
    published = {line["criterion"]: line["points"] for line in entry["lines"]}
    for criterion, points in fixes.items():
        allowed = allowed_points(regime, criterion)
        if isinstance(points, bool) or not isinstance(points, int) or points not in allowed:
            raise UserError(
                f"Pontos inválidos para o critério '{criterion}': {points} (a tabela do ato dá "
                f"{', '.join(map(str, allowed))}).",
                field="corrections",
            )
        if criterion not in published:
            raise UserError(f"O critério '{criterion}' não consta da pontuação publicada.", field="corrections")
    with db.atomic():
        changed = (
            SelectionAppeal.update(
                status="granted" if granted else "denied",
                decision=text,
                decided_on=decided_on,
                decided_by=_clerk(by),
                corrections_json=json.dumps(fixes, sort_keys=True) if fixes else "",
            )
            .where(SelectionAppeal.id == appeal_id, SelectionAppeal.status == "pending")
            .execute()
        )
        if changed != 1:
            raise UserError(f"O recurso nº {appeal_id} já foi decidido.", field="appeal")
    return SelectionAppeal.get_by_id(appeal_id)


def _publication(value: ListPublication | int, kind: str) -> ListPublication:
    pub_id = value.id if isinstance(value, ListPublication) else value
    found = ListPublication.get_or_none(ListPublication.id == pub_id)
    if found is None or found.kind != kind:
        raise UserError(f"A publicação nº {pub_id} não é uma {KINDS[kind]}.", field="publication")
    return found


@dataclass(frozen=True)
class AppealRow:
    id: int
    participant_id: str
    name: str
    filed_on: _dt.date
    grounds: str
    status: str
    status_label: str
    decision_due: _dt.date | None
    decision_formula: str
    decision: str
    decided_on: _dt.date | None
    corrections_text: str

    @property
    def decided_late(self) -> bool:
        return bool(
            self.decided_on
            and self.decision_due
            and self.status in ("granted", "denied")
            and self.decided_on > self.decision_due
        )


@dataclass(frozen=True)
class RankingRow:
    rank: int  # after the decisions (the final list's)
    published_rank: int
    id: str
    name: str
    group: str
    published_total: int
    total: int
    tie_break: str
    score: Score
    participant: Participant
    tie_unresolved: bool = False  # equal on the total and every tie-break of the act: the draw decides
    tie_missing: str = ""  # a fact the act's tie-break needs is not known

    @property
    def changed(self) -> bool:
        return self.rank != self.published_rank or self.total != self.published_total

    @property
    def change_text(self) -> str:
        if self.rank < self.published_rank:
            return f"subiu do {self.published_rank}º"
        if self.rank > self.published_rank:
            return f"desceu do {self.published_rank}º"
        return "pontos corrigidos" if self.total != self.published_total else ""


@dataclass(frozen=True)
class Process:
    """A ranking published for a call, its appeals and, when published, its final list."""

    ranking: ListPublication
    appeals: tuple[AppealRow, ...]
    rows: tuple[RankingRow, ...]  # the ranking with the decisions applied, by group and rank
    final: ListPublication | None
    stage: str  # appeals-open | deciding | ready | final
    stage_text: str
    final_problem: str  # why the final list cannot be published yet ("" when it can)

    @property
    def window_due(self) -> _dt.date:
        return self.ranking.appeal_due


def _participant_of(entry: dict) -> Participant:
    def date(value):
        return _dt.date.fromisoformat(value) if value else None

    return Participant(
        id=entry["id"],
        name=entry["name"],
        group=entry.get("group", ""),
        disabled=entry.get("disabled"),
        birth_date=date(entry.get("birth_date")),
        registered_at=_dt.datetime.fromisoformat(entry["registered_at"]) if entry.get("registered_at") else None,
        person_id=entry.get("person_id"),
        application_id=entry.get("application_id"),
    )


def _score_of(entry: dict, fixes: Mapping[str, tuple[int, str]]) -> Score:
    lines = []
    for line in entry["lines"]:
        points, status, note, value_text = line["points"], line["status"], line["note"], line["value_text"]
        if line["criterion"] in fixes:
            new, why = fixes[line["criterion"]]
            note = f"pontuação corrigida em recurso: de {points} para {new} pontos ({why})"
            points, status = new, "ok"
        lines.append(
            ScoreLine(
                criterion_id=line["criterion"],
                label=line["label"],
                field=line["field"],
                value=None,
                value_text=value_text,
                points=points,
                basis=line["basis"],
                status=status,
                note=note,
            )
        )
    on = _dt.date.fromisoformat(entry["on"]) if entry.get("on") else None
    return Score(participant=_participant_of(entry), lines=tuple(lines), total=sum(x.points for x in lines), on=on)


def _rows(regime: Regime, entries: list[dict], appeals: Iterable[SelectionAppeal]) -> tuple[RankingRow, ...]:
    fixes: dict[str, dict[str, tuple[int, str]]] = {}
    for a in sorted(appeals, key=lambda a: (a.decided_on or _dt.date.min, a.id)):
        if a.status == "granted":
            for criterion, points in a.corrections.items():
                fixes.setdefault(a.participant_id, {})[criterion] = (
                    points,
                    f"recurso nº {a.id}, {a.decided_on:%d/%m/%Y}",
                )
    by_group: dict[str, list[dict]] = {}
    for e in entries:
        by_group.setdefault(e.get("group", ""), []).append(e)
    rows = []
    for group in sorted(by_group):
        members = {e["id"]: e for e in by_group[group]}
        ranked = rank_scores(regime, [_score_of(e, fixes.get(e["id"], {})) for e in members.values()])
        for r, p in zip(ranked, with_ranks(ranked), strict=True):
            e = members[p.id]
            rows.append(
                RankingRow(
                    rank=r.rank,
                    published_rank=e["rank"],
                    id=p.id,
                    name=p.name,
                    group=group,
                    published_total=e["total"],
                    total=r.score.total,
                    tie_break=r.tie_break,
                    score=r.score,
                    participant=p,
                    tie_unresolved=r.tie_unresolved,
                    tie_missing=r.tie_missing,
                )
            )
    return tuple(rows)


def _appeal_row(a: SelectionAppeal) -> AppealRow:
    fixes = a.corrections
    text = ""
    if fixes:
        entry = next((e for e in a.publication.entries if e["id"] == a.participant_id), {"lines": []})
        labels = {line["criterion"]: (line["label"], line["points"]) for line in entry["lines"]}
        text = "; ".join(f"{labels.get(c, (c, '?'))[0]}: {labels.get(c, (c, '?'))[1]} → {p}" for c, p in fixes.items())
    return AppealRow(
        id=a.id,
        participant_id=a.participant_id,
        name=a.name,
        filed_on=a.filed_on,
        grounds=a.grounds,
        status=a.status,
        status_label=APPEAL_STATUSES.get(a.status, a.status),
        decision_due=a.decision_due,
        decision_formula=a.decision_formula,
        decision=a.decision,
        decided_on=a.decided_on,
        corrections_text=text,
    )


def process_of(regime: Regime | str, site: str = "", group: str = "", *, today: _dt.date) -> Process | None:
    """The latest ranking published for the call, with its appeals and final list (``None``: none published)."""
    regime = _regime(regime)
    ranking = latest_publication(regime.id, site, group, ("ranking",))
    if ranking is None:
        return None
    appeals = list(
        SelectionAppeal.select()
        .where(SelectionAppeal.publication == ranking.id)
        .order_by(SelectionAppeal.filed_on, SelectionAppeal.id)
    )
    final = _final_of(ranking)
    if final is not None:
        rows = _rows(regime, final.entries, [])
    else:
        rows = _rows(regime, ranking.entries, appeals)
    pending = [a for a in appeals if a.status == "pending"]
    basis = ranking.appeal_basis
    if final is not None:
        stage, text = (
            "final",
            (f"Lista definitiva publicada em {final.published_on:%d/%m/%Y}: o sorteio dos locais corre sobre ela."),
        )
        problem = "A lista definitiva desta classificação já foi publicada."
    elif today <= ranking.appeal_due:
        stage = "appeals-open"
        text = f"Prazo de recurso aberto até {_day(ranking.appeal_due)} ({basis})."
        problem = (
            f"O prazo de recurso termina em {ranking.appeal_due:%d/%m/%Y} ({basis}): a lista definitiva só depois dele."
        )
    elif pending:
        stage = "deciding"
        dues = ", ".join(
            f"nº {a.id} até {a.decision_due:%d/%m/%Y}" if a.decision_due else f"nº {a.id}" for a in pending
        )
        text = f"Prazo de recurso encerrado em {ranking.appeal_due:%d/%m/%Y}; recursos a decidir: {dues}."
        problem = f"Decida os recursos pendentes antes da lista definitiva ({dues})."
    else:
        stage = "ready"
        text = (
            f"Prazo de recurso encerrado em {ranking.appeal_due:%d/%m/%Y}, recursos decididos: publique a lista "
            "definitiva."
        )
        problem = ""
    return Process(
        ranking=ranking,
        appeals=tuple(_appeal_row(a) for a in appeals),
        rows=rows,
        final=final,
        stage=stage,
        stage_text=text,
        final_problem=problem,
    )


def final_participants(process: Process) -> tuple[Participant, ...]:
    """The participants of the final list (or of the ranking with the decisions so far), with rank and score."""
    return tuple(row.participant for row in process.rows)


def publish_final(
    ranking: ListPublication | int,
    *,
    by: str,
    published_on: _dt.date,
    today: _dt.date,
    call: str = "",
    medium: str = "",
) -> ListPublication:
    """Publish the final list (art. 10, § 5º): the ranking with the decisions applied, after the appeal window
    and once every appeal in time is decided. Its list is the one the draw of places (art. 12) takes."""
    require("draws.hold")
    ranking = _publication(ranking, "ranking")
    regime = get_regime(ranking.regime)
    published_on = _check_date(published_on, "da publicação", "published_on", today)
    process = process_of(regime, ranking.site, ranking.group, today=published_on)
    if process is None or process.ranking.id != ranking.id:
        raise UserError(
            "Há uma classificação mais nova publicada para este chamamento: publique a lista definitiva dela.",
            field="publication",
        )
    if process.final is not None or process.stage != "ready":
        raise UserError(
            process.final_problem or "A lista definitiva não pode ser publicada agora.", field="published_on"
        )
    late = [a for a in process.appeals if a.decided_on and a.status != "late" and a.decided_on > published_on]
    if late:
        raise UserError(
            f"O recurso nº {late[0].id} foi decidido em {late[0].decided_on:%d/%m/%Y}, depois da data "
            "desta publicação.",
            field="published_on",
        )
    missing = next((row.tie_missing for row in process.rows if row.tie_missing), "")
    if missing:
        raise UserError(f"A lista definitiva não pode ser publicada: {missing}.", field="list")
    participants = final_participants(process)
    made = published_list(participants, draw_rules(regime))
    entries = []
    for row in process.rows:
        entry = next(e for e in ranking.entries if e["id"] == row.id)
        entries.append(
            {
                **entry,
                "rank": row.rank,
                "total": row.total,
                "tie_break": row.tie_break,
                "published_rank": row.published_rank,
                "published_total": row.published_total,
                "lines": [
                    {
                        "criterion": line.criterion_id,
                        "label": line.label,
                        "field": line.field,
                        "value_text": line.value_text,
                        "points": line.points,
                        "basis": line.basis,
                        "status": line.status,
                        "note": line.note,
                    }
                    for line in row.score.lines
                ],
            }
        )
    document = _final_document(regime, ranking, process, published_on, made.sha256, made.text, call)
    with db.atomic():
        return _create_publication(
            {"regime": ranking.regime, "site": ranking.site, "group": ranking.group},
            "final",
            list_text=made.text,
            document=document,
            published_on=published_on,
            by=by,
            call=call or ranking.call,
            medium=medium,
            entries=entries,
            follows=ranking,
        )


def _final_document(
    regime: Regime, ranking: ListPublication, process: Process, on: _dt.date, digest: str, text: str, call: str
) -> str:
    out = [f"Lista definitiva — {regime.title}"]
    if call or ranking.call:
        out.append(f"Chamamento: {call or ranking.call}")
    out += [
        f"Classificação publicada em {ranking.published_on:%d/%m/%Y}; prazo de recurso até "
        f"{ranking.appeal_due:%d/%m/%Y} ({ranking.appeal_basis}).",
        f"Publicada em {on:%d/%m/%Y}.",
        f"SHA-256 da lista: {digest}",
        "",
    ]
    out.append("Classificação final:")
    for row in process.rows:
        group = f" [{row.group}]" if row.group else ""
        moved = f" (publicado: {row.published_rank}º, {row.published_total} pontos)" if row.changed else ""
        out.append(f"  {row.rank}º{group} {row.id} {row.name} — {row.total} pontos{moved}")
    if process.appeals:
        out += ["", "Recursos:"]
        for a in process.appeals:
            out.append(
                f"  nº {a.id} — {a.name}, {a.filed_on:%d/%m/%Y}: {a.status_label}. {a.decision}"
                + (f" Correção: {a.corrections_text}." if a.corrections_text else "")
            )
    out += ["", "Lista, exatamente como entra no hash (id;nome;…):", text.rstrip("\n")]
    return "\n".join(out) + "\n"


# --------------------------------------------------------------------------- the rotating list


def _rotating(regime: Regime) -> bool:
    return regime.selection is not None and regime.selection.method == "rotating-draw"


def rotation_draws() -> list[tuple[int, str]]:
    """Held draws of regimes whose draw forms a rotating list, newest first: (id, label)."""
    out = []
    for d in Draw.select().where(Draw.status == "held").order_by(Draw.held_at.desc(), Draw.id.desc()):
        try:
            regime = get_regime(d.regime)
        except UserError:
            continue
        if _rotating(regime):
            out.append((d.id, f"Sorteio nº {d.id} — {d.held_at:%d/%m/%Y} — {d.call}"))
    return out


@dataclass(frozen=True)
class ListRow:
    position: int  # 1-based
    id: str
    name: str
    events: tuple[int, ...]  # the events (numbers) this vendor worked


@dataclass(frozen=True)
class EventRow:
    id: int
    number: int
    event_date: _dt.date
    label: str
    vacancies: int
    start: int  # 1-based position in the list where the event began
    vendors: tuple[tuple[str, str], ...]  # (id, name) in the list's order
    wrapped: bool  # the list ended during this event and started again from the beginning
    point_draw: PointDraw | None
    assignments: tuple[tuple[str, str, str], ...]  # (id, name, point) in drawn order
    problems: tuple[str, ...]
    size: int = 0  # of the whole list

    @property
    def span_text(self) -> str:
        """Where in the list the event's vendors are: "4º ao 5º e 1º ao 1º (a lista recomeçou do início)"."""
        if not self.vendors:
            return ""
        last = (self.start - 1 + len(self.vendors) - 1) % self.size + 1
        if not self.wrapped:
            return f"{self.start}º" if last == self.start else f"{self.start}º ao {last}º"
        again = "1º" if last == 1 else f"1º ao {last}º"
        return f"{self.start}º ao {self.size}º e {again} (a lista recomeçou do início)"


@dataclass(frozen=True)
class RotationState:
    draw_id: int
    draw_status: str
    regime_id: str
    site: str
    call: str
    seed: str
    list_sha256: str
    rows: tuple[ListRow, ...]
    events: tuple[EventRow, ...]
    next_start: int  # 1-based position where the next event begins
    max_points: int | None
    max_basis: str
    basis: str  # the rotating list's article
    problems: tuple[str, ...]

    @property
    def size(self) -> int:
        return len(self.rows)

    def event(self, number: int) -> EventRow:
        for e in self.events:
            if e.number == number:
                return e
        raise UserError(f"O evento {number} não está registrado.", field="event")


def _rotation_draw(draw: Draw | int) -> tuple[Draw, Regime, list]:
    draw = get_draw(draw.id if isinstance(draw, Draw) else draw)
    regime = get_regime(draw.regime)
    if not _rotating(regime):
        raise UserError(
            f"O sorteio nº {draw.id} não forma lista corrida: o ato do regime {regime.short} não a prevê.", field="draw"
        )
    drawn = sorted((e for e in draw_entries(draw) if e.position is not None), key=lambda e: e.position)
    return draw, regime, drawn


def _max_points(regime: Regime, site: str) -> tuple[int | None, str]:
    return max_points_of(regime, site if site in regime.ids("site") else None)


def _events(draw: Draw) -> list[RotationEvent]:
    return list(RotationEvent.select().where(RotationEvent.draw == draw.id).order_by(RotationEvent.number))


def rotation_state(draw: Draw | int) -> RotationState:
    """The rotating list of a held draw, the events registered on it and their point draws, checked again."""
    draw, regime, drawn = _rotation_draw(draw)
    order = [e.participant_id for e in drawn]
    names = {e.participant_id: e.name for e in drawn}
    events = _events(draw)
    expected = rotation(order, [e.vacancies for e in events]) if events else ()
    problems, rows, worked = [], [], {}
    cursor = 0
    for i, event in enumerate(events):
        vendors = event.vendors
        event_problems = []
        if tuple(vendors) != expected[i] or event.start != cursor:
            event_problems.append(
                f"Evento {event.number}: os ambulantes registrados não são os que a lista corrida dá."
            )
        for pid in vendors:
            worked.setdefault(pid, []).append(event.number)
        wrapped = cursor + len(vendors) > len(order)
        cursor = (cursor + len(vendors)) % len(order)
        point = PointDraw.get_or_none(PointDraw.event == event.id)
        assignments = ()
        if point is not None:
            assignments = tuple((pid, names.get(pid, pid), p) for pid, p in point.assignments)
            event_problems += [f"Evento {event.number}: {p}" for p in verify_point_draw(point)]
        problems += event_problems
        rows.append(
            EventRow(
                id=event.id,
                number=event.number,
                event_date=event.event_date,
                label=event.label,
                vacancies=event.vacancies,
                start=event.start + 1,
                vendors=tuple((pid, names.get(pid, pid)) for pid in vendors),
                wrapped=wrapped,
                point_draw=point,
                assignments=assignments,
                problems=tuple(event_problems),
                size=len(order),
            )
        )
    max_points, max_basis = _max_points(regime, draw.site)
    return RotationState(
        draw_id=draw.id,
        draw_status=draw.status,
        regime_id=regime.id,
        site=draw.site,
        call=draw.call,
        seed=draw.seed,
        list_sha256=draw.list_sha256,
        rows=tuple(
            ListRow(i, e.participant_id, e.name, tuple(worked.get(e.participant_id, ())))
            for i, e in enumerate(drawn, start=1)
        ),
        events=tuple(rows),
        next_start=cursor + 1,
        max_points=max_points,
        max_basis=max_basis,
        basis=regime.cite(regime.selection.basis),
        problems=tuple(problems),
    )


def _check_vacancies(vacancies: int, max_points: int | None, max_basis: str) -> None:
    if isinstance(vacancies, bool) or not isinstance(vacancies, int) or vacancies <= 0:
        raise UserError(f"O número de vagas do evento deve ser maior que zero (veio {vacancies}).", field="vacancies")
    if max_points is not None and vacancies > max_points:
        raise UserError(
            f"São {vacancies} vagas; o ato permite no máximo {max_points} pontos na área ({max_basis}).",
            field="vacancies",
        )


def preview_event(draw: Draw | int, vacancies: int) -> tuple[tuple[tuple[str, str], ...], bool]:
    """Who would work the next event with ``vacancies`` places, and whether the list starts again in it."""
    draw, regime, drawn = _rotation_draw(draw)
    _check_vacancies(vacancies, *_max_points(regime, draw.site))
    order = [e.participant_id for e in drawn]
    names = {e.participant_id: e.name for e in drawn}
    previous = [e.vacancies for e in _events(draw)]
    cursor = sum(min(n, len(order)) for n in previous) % len(order)
    vendors = rotation(order, [*previous, vacancies])[-1]
    return tuple((pid, names[pid]) for pid in vendors), cursor + len(vendors) > len(order)


def add_event(draw: Draw | int, *, event_date: _dt.date, vacancies: int, by: str, label: str = "") -> RotationEvent:
    """Register the next event of the rotating list: it takes the next ``vacancies`` vendors from where the
    last event stopped, starting again from the beginning when the list ends (art. 21, § 1º, I)."""
    require("draws.hold")
    draw, regime, drawn = _rotation_draw(draw)
    if draw.status != "held":
        raise UserError(
            f"O sorteio nº {draw.id} foi anulado: a lista corrida passa a ser a do sorteio que o substituir.",
            field="draw",
        )
    if event_date is None:
        raise UserError("Informe a data do evento.", field="event_date")
    max_points, max_basis = _max_points(regime, draw.site)
    _check_vacancies(vacancies, max_points, max_basis)
    clerk = _clerk(by)
    order = [e.participant_id for e in drawn]
    with db.atomic():
        events = _events(draw)
        if events and event_date < events[-1].event_date:
            raise UserError(
                f"A lista corrida segue os eventos em ordem: o evento {events[-1].number} foi em "
                f"{events[-1].event_date:%d/%m/%Y}; este não pode ser antes.",
                field="event_date",
            )
        previous = [e.vacancies for e in events]
        cursor = sum(min(n, len(order)) for n in previous) % len(order)
        vendors = rotation(order, [*previous, vacancies])[-1]
        try:
            with db.atomic():
                return RotationEvent.create(
                    draw=draw.id,
                    number=len(events) + 1,
                    event_date=event_date,
                    label=normalize_text(label),
                    vacancies=vacancies,
                    start=cursor,
                    vendors_json=json.dumps(list(vendors)),
                    created_by=clerk,
                )
        except IntegrityError:
            raise UserError(
                "Outro evento acaba de ser registrado nesta lista: atualize e confira antes de registrar.",
                field="event",
            ) from None


def remove_last_event(draw: Draw | int, *, by: str) -> int:
    """Remove the last event registered (a typing mistake), while its points were not drawn; returns its number."""
    require("draws.hold")
    draw, _regime_obj, _drawn = _rotation_draw(draw)
    _clerk(by)
    with db.atomic():
        events = _events(draw)
        if not events:
            raise UserError("Não há evento registrado nesta lista.", field="event")
        last = events[-1]
        if PointDraw.select().where(PointDraw.event == last.id).exists():
            raise UserError(
                f"Os pontos do evento {last.number} já foram sorteados: o evento fica registrado.", field="event"
            )
        RotationEvent.delete().where(RotationEvent.id == last.id).execute()
    return last.number


_RANGE = re.compile(r"^(\d+)\s*-\s*(\d+)$")


def parse_points(text: str) -> tuple[str, ...]:
    """Point labels: ``"1-20"`` (a range), ``"A1, A2; B1"`` or one per line, mixed."""
    out: list[str] = []
    for part in re.split(r"[,;\n]", text or ""):
        item = normalize_text(part)
        if not item:
            continue
        match = _RANGE.match(item)
        if match:
            first, last = int(match.group(1)), int(match.group(2))
            if first > last or last - first >= 1000:
                raise UserError(f"Intervalo de pontos inválido: '{item}'.", field="points")
            out.extend(str(n) for n in range(first, last + 1))
        else:
            out.append(item)
    if not out:
        raise UserError("Informe os pontos do evento (por exemplo 1-20).", field="points")
    return tuple(out)


def point_label(point: str) -> str:
    return f"Ponto {point}" if point.isdigit() else point


def hold_point_draw(
    event: RotationEvent | int,
    *,
    points: Sequence[str] | str,
    seed: str,
    place: str,
    officials: Sequence[str] | str,
    by: str,
    held_at: _dt.datetime | None = None,
) -> PointDraw:
    """The second draw of an event (art. 21, § 1º, II): the day's vendors over the day's points, at most the
    points the act allows in the area (art. 22). Kept once, with its list, hash and seed."""
    require("draws.hold")
    event_id = event.id if isinstance(event, RotationEvent) else event
    row = RotationEvent.get_or_none(RotationEvent.id == event_id)
    if row is None:
        raise UserError(f"O evento nº {event_id} não existe.", field="event")
    draw, regime, drawn = _rotation_draw(row.draw_id)
    if draw.status != "held":
        raise UserError(f"O sorteio nº {draw.id} foi anulado: não se sorteiam pontos com a sua lista.", field="draw")
    errors = {}
    place_text = normalize_text(place)
    items = officials.splitlines() if isinstance(officials, str) else list(officials)
    officials_text = "\n".join(normalize_text(o) for o in items if normalize_text(o))
    if not place_text:
        errors["place"] = "Informe o local do sorteio dos pontos."
    if not officials_text:
        errors["officials"] = "Informe quem conduziu e testemunhou o sorteio."
    if errors:
        raise FieldErrors(errors)
    labels = parse_points(points) if isinstance(points, str) else tuple(normalize_text(p) for p in points)
    names = {e.participant_id: e.name for e in drawn}
    vendors = [Participant(id=pid, name=names[pid]) for pid in row.vendors]
    max_points, max_basis = _max_points(regime, draw.site)
    result = assign_points(vendors, labels, seed, max_points=max_points, max_basis=max_basis)
    clerk = _clerk(by)
    try:
        with db.atomic():
            return PointDraw.create(
                event=row.id,
                held_at=(held_at or clock.now()).replace(microsecond=0),
                place=place_text,
                officials=officials_text,
                seed=result.seed,
                points_json=json.dumps(list(labels), ensure_ascii=False),
                list_text=result.list_text,
                list_sha256=result.list_sha256,
                assignments_json=json.dumps([list(a) for a in result.assignments], ensure_ascii=False),
                algorithm=ALGORITHM,
                basis=regime.cite(regime.selection.basis),
                created_by=clerk,
            )
    except IntegrityError:
        raise UserError(f"Os pontos do evento {row.number} já foram sorteados.", field="event") from None


def verify_point_draw(point: PointDraw) -> list[str]:
    """Recompute a point draw from its stored list and seed: ``[]`` when everything matches."""
    problems = []
    if list_sha256(point.list_text) != point.list_sha256:
        problems.append("o hash da lista dos pontos não confere.")
    order = order_from_list(point.list_text, point.seed)
    points = json.loads(point.points_json)
    if list(zip(order, points, strict=False)) != point.assignments:
        problems.append("a distribuição registrada não é a que a lista e a semente produzem.")
    return problems


def event_with_draw(event_id: int) -> tuple[RotationEvent, Draw]:
    row = RotationEvent.get_or_none(RotationEvent.id == event_id)
    if row is None:
        raise UserError(f"O evento nº {event_id} não existe.", field="event")
    return row, get_draw(row.draw_id)
