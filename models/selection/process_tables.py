"""The tables of the selection process: list publications, appeals, rotation events, point draws."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from peewee import CharField, DateField, DateTimeField, ForeignKeyField, IntegerField, TextField

from models.base import clock
from models.base.errors import UserError
from models.selection.draws import Draw
from models.store.db import BaseModel

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

    if TYPE_CHECKING:  # for mypy: the key peewee adds beside each foreign key (its stub has none)
        follows_id: int | None

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

    if TYPE_CHECKING:  # for mypy: the key peewee adds beside each foreign key (its stub has none)
        publication_id: int

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

    if TYPE_CHECKING:  # for mypy: the key peewee adds beside each foreign key (its stub has none)
        draw_id: int

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

    if TYPE_CHECKING:  # for mypy: the key peewee adds beside each foreign key (its stub has none)
        event_id: int

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
