"""Breaches of the layout kept on purpose, each with its written reason (stored and shown)."""

from __future__ import annotations

import datetime as _dt
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from models.access.session import acting, require
from models.base.errors import FieldErrors, UserError
from models.sites.layout import (
    Breach,
)
from models.sites.queries import find_site
from models.sites.tables import Site, StallBreach
from models.store.db import db


@dataclass(frozen=True)
class KeptBreach:
    id: int
    code: str
    signature: str
    stalls: tuple[str, ...]
    message: str
    basis: str
    reason: str
    kept_by: str
    kept_at: _dt.datetime


class OpenBreaches(UserError):  # noqa: N818 - a refusal the map editor tells apart (it opens the checks' list)
    """A layout with a breach of the act neither fixed nor kept with its written reason is not saved."""

    def __init__(self, breaches: list[Breach]):
        first = breaches[0].message.rstrip(".")
        super().__init__(
            f"O mapa não foi salvo: {len(breaches)} irregularidade(s) em aberto (a primeira: {first}). "
            "Corrija cada uma ou mantenha-a com justificativa escrita.",
            field="breaches",
        )
        self.breaches = breaches


def open_breaches(breaches: Iterable[Breach], kept: Mapping[str, object]) -> list[Breach]:
    """The breaches not kept with a written reason (``kept`` by signature, as :func:`kept_breaches` gives)."""
    return [b for b in breaches if b.signature not in kept]


def keep_breach(site: Site | int | str, breach: Breach, reason: str, *, by: str) -> KeptBreach:
    """Keep a breach on purpose: only with a written reason, which is stored and shown."""
    require("sites.edit")
    site = find_site(site)
    errors = {}
    if len((reason or "").strip()) < 10:
        errors["reason"] = "Escreva o motivo para manter a irregularidade (ao menos algumas palavras)."
    by = acting(by)  # the session's user (issue 16 §4)
    if errors:
        raise FieldErrors(errors)
    with db.atomic():
        StallBreach.delete().where(
            (StallBreach.site == site.id) & (StallBreach.signature == breach.signature)
        ).execute()
        row = StallBreach.create(
            site=site.id,
            code=breach.code,
            signature=breach.signature,
            stalls=",".join(breach.keys),
            message=breach.message,
            basis=breach.basis or "",
            reason=reason.strip(),
            kept_by=acting(by),
        )
    return _kept(row)


def _kept(row: StallBreach) -> KeptBreach:
    return KeptBreach(
        id=row.id,
        code=row.code,
        signature=row.signature,
        stalls=tuple(k for k in row.stalls.split(",") if k),
        message=row.message,
        basis=row.basis,
        reason=row.reason,
        kept_by=row.kept_by,
        kept_at=row.kept_at,
    )


def kept_breaches(site: Site | int | str) -> dict[str, KeptBreach]:
    """The kept breaches of a site by signature (match them with ``Breach.signature``)."""
    site = find_site(site)
    return {
        row.signature: _kept(row)
        for row in StallBreach.select().where(StallBreach.site == site.id).order_by(StallBreach.kept_at, StallBreach.id)
    }


def drop_kept_breach(kept_id: int) -> None:
    require("sites.edit")
    StallBreach.delete().where(StallBreach.id == kept_id).execute()
