"""Publishing a list write-once, and finding a call's latest publication and its check before a draw."""

from __future__ import annotations

import datetime as _dt
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from models.access.session import acting, require
from models.base.br import weekday_name
from models.base.errors import UserError
from models.rules.regimes import Regime, get_regime
from models.selection import (
    list_sha256,
    normalize_text,
)
from models.selection.process_tables import ListPublication


def regime_of(regime: Regime | str) -> Regime:
    return get_regime(regime) if isinstance(regime, str) else regime


def clerk_name(by: str) -> str:
    """The session's user (issue 16 §4): a ``by`` naming anyone else is refused (models.access.session.acting)."""
    return acting(normalize_text(by or ""))


def day_text(value: _dt.date) -> str:
    return f"{value:%d/%m/%Y} ({weekday_name(value.weekday())})"


def check_date(value: _dt.date | None, what: str, field: str, today: _dt.date) -> _dt.date:
    if value is None:
        raise UserError(f"Informe a data {what}.", field=field)
    if isinstance(value, _dt.datetime):
        value = value.date()
    if value > today:
        raise UserError(f"A data {what} ({value:%d/%m/%Y}) é posterior a hoje ({today:%d/%m/%Y}).", field=field)
    return value


def deadline_from(regime: Regime, event: str):
    """The selection's deadline that runs from ``event``: the appeal against the list (``selection-appeal``,
    from its publication) or its decision (``selection-decision``, from the appeal's filing)."""
    role = {"list-publication": "selection-appeal", "appeal-filed": "selection-decision"}[event]
    return next((d for d in regime.deadlines if d.role == role and d.from_ == event), None)


def has_appeals(regime: Regime | str) -> bool:
    """Whether the act opens an appeal against the ranked list before the draw (``selection.appeal_days``)."""
    sel = regime_of(regime).selection
    return sel is not None and sel.appeal_days is not None


def call_key(current) -> dict[str, str]:
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
    key = call_key(current)
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


def create_publication(
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
        created_by=clerk_name(by),
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
    published_on = check_date(published_on, "da publicação", "published_on", today)
    if has_appeals(current.regime_id) and not getattr(current, "final_id", None):
        raise UserError(
            "A lista do sorteio sai da lista definitiva: publique a classificação, decida os recursos e "
            f"publique a lista definitiva antes ({_appeal_basis(regime_of(current.regime_id))}).",
            field="list",
        )
    return create_publication(
        call_key(current),
        "list",
        list_text=current.published.text,
        document=current.text(call),
        published_on=published_on,
        by=by,
        call=call,
        medium=medium,
    )


def _appeal_basis(regime: Regime) -> str:
    deadline = deadline_from(regime, "list-publication")
    if deadline is not None:
        return regime.cite_item(deadline)
    return regime.cite(regime.selection.basis if regime.selection is not None else None)
