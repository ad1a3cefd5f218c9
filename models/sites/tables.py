"""The tables of sites: a site, its segments, their obstacles, its named points, its stalls, the kept breaches.

The database keeps a stall to one holder (one ``holder`` column) and a holder
to one stall per site (a unique index on ``(site, holder)``, where NULLs — free
stalls — do not clash), and stall numbers unique per site.
"""

from __future__ import annotations

from decimal import Decimal
from typing import TYPE_CHECKING

from peewee import (
    BooleanField,
    CharField,
    DateField,
    DateTimeField,
    ForeignKeyField,
    IntegerField,
    TextField,
    TimeField,
)

from models.base import clock
from models.permits import Permit
from models.store.db import BaseModel, DecimalTextField

SITE_KINDS = {
    "street": "rua (trecho)",
    "feira": "feira",
    "event-area": "área de evento",
    "beach": "praia",
}


class Site(BaseModel):
    name = CharField(max_length=200, unique=True)
    kind = CharField(max_length=16)
    regime = CharField(max_length=64, index=True)
    regime_site = CharField(max_length=64, default="")  # id of the regime's [[sites]] entry, if the act names it
    schedule = CharField(max_length=64, default="")  # id of the regime's [[schedules]] entry (event days)
    weekdays = CharField(max_length=40, default="")  # "fri,sat"
    setup_from = TimeField(null=True)
    setup_to = TimeField(null=True)
    opens = TimeField(null=True)
    closes = TimeField(null=True)
    teardown_from = TimeField(null=True)
    teardown_to = TimeField(null=True)
    first_day = DateField(null=True)
    last_day = DateField(null=True)
    max_points = IntegerField(null=True)
    numbering = CharField(max_length=16, default="sequential")
    gap = DecimalTextField(max_length=20, null=True)  # metres, when the Administration sets it
    avoid = CharField(max_length=200, default="")  # obstacle kinds kept free by the Administration
    notes = TextField(default="")
    created_at = DateTimeField(default=clock.now)
    version = IntegerField(default=1)

    class Meta:
        table_name = "site"

    @property
    def kind_label(self) -> str:
        return SITE_KINDS.get(self.kind, self.kind)

    @property
    def weekday_list(self) -> tuple[str, ...]:
        return tuple(d for d in self.weekdays.split(",") if d)

    @property
    def avoid_list(self) -> tuple[str, ...]:
        return tuple(k for k in self.avoid.split(",") if k)


class SiteSegment(BaseModel):
    site = ForeignKeyField(Site, backref="segments", on_delete="CASCADE")
    position = IntegerField(default=0)
    street = CharField(max_length=200)
    from_street = CharField(max_length=200, default="")
    to_street = CharField(max_length=200, default="")
    length = DecimalTextField(max_length=20)
    width = DecimalTextField(max_length=20)
    sides = CharField(max_length=8, default="both")

    if TYPE_CHECKING:  # for mypy: the key peewee adds beside each foreign key (its stub has none)
        site_id: int

    class Meta:
        table_name = "site_segment"
        indexes = ((("site", "position"), True),)

    @property
    def title(self) -> str:
        ends = " e ".join(e for e in (self.from_street, self.to_street) if e)
        return f"{self.street}, entre {ends}" if ends and self.from_street and self.to_street else self.street


class SiteObstacle(BaseModel):
    segment = ForeignKeyField(SiteSegment, backref="obstacles", on_delete="CASCADE")
    side = CharField(max_length=8)  # a | b | both
    start = DecimalTextField(max_length=20)
    extent = DecimalTextField(max_length=20)
    kind = CharField(max_length=32)
    label = CharField(max_length=200, default="")

    if TYPE_CHECKING:  # for mypy: the key peewee adds beside each foreign key (its stub has none)
        segment_id: int

    class Meta:
        table_name = "site_obstacle"


class NamedPoint(BaseModel):
    """A point the act names (Dec. 890/2017, art. 23, § 2º: "Ponto 01 – Balneário Di Franco, …")."""

    site = ForeignKeyField(Site, backref="points", on_delete="CASCADE")
    position = IntegerField(default=0)
    code = CharField(max_length=64)  # "Ponto 01"
    label = CharField(max_length=200, default="")
    description = TextField(default="")
    regime_site = CharField(max_length=64, default="")  # "ponto-01"
    basis = CharField(max_length=200, default="")
    x = DecimalTextField(max_length=20, null=True)  # along the segment, when drawn
    side = CharField(max_length=8, default="")

    if TYPE_CHECKING:  # for mypy: the key peewee adds beside each foreign key (its stub has none)
        site_id: int

    class Meta:
        table_name = "named_point"
        indexes = ((("site", "code"), True),)


class Stall(BaseModel):
    site = ForeignKeyField(Site, backref="stalls", on_delete="CASCADE")
    segment = ForeignKeyField(SiteSegment, backref="stalls", on_delete="CASCADE")
    number = IntegerField()
    section = CharField(max_length=64, default="")
    line = CharField(max_length=64, default="")
    equipment = CharField(max_length=64, default="")
    side = CharField(max_length=8)
    x = DecimalTextField(max_length=20)
    y = DecimalTextField(max_length=20)
    front = DecimalTextField(max_length=20)
    depth = DecimalTextField(max_length=20)
    hitch = DecimalTextField(max_length=20, default=Decimal(0))
    rotation = IntegerField(default=0)
    end_vendor = BooleanField(default=False)
    holder = ForeignKeyField(Permit, null=True, backref="stalls", on_delete="RESTRICT")

    if TYPE_CHECKING:  # for mypy: the key peewee adds beside each foreign key (its stub has none)
        site_id: int
        segment_id: int
        holder_id: int | None

    class Meta:
        table_name = "stall"
        indexes = (
            (("site", "number"), True),
            (("site", "holder"), True),  # a holder holds one stall per site (NULLs: free stalls)
        )


class StallBreach(BaseModel):
    """A breach the clerk kept on purpose, with the written reason."""

    site = ForeignKeyField(Site, backref="kept_breaches", on_delete="CASCADE")
    code = CharField(max_length=32)
    signature = CharField(max_length=400, index=True)
    stalls = CharField(max_length=400, default="")  # the stall keys (numbers), comma separated
    message = TextField()
    basis = CharField(max_length=200, default="")
    reason = TextField()
    kept_by = CharField(max_length=100)
    kept_at = DateTimeField(default=clock.now)

    if TYPE_CHECKING:  # for mypy: the key peewee adds beside each foreign key (its stub has none)
        site_id: int

    class Meta:
        table_name = "stall_breach"


SITE_TABLES = [Site, SiteSegment, SiteObstacle, NamedPoint, Stall, StallBreach]
