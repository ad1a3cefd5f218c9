"""The draw's rules as the regime sets them (:class:`DrawRules`): groups, quotas, alternates."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal

from models.base.errors import UserError
from models.rules.regimes import Regime
from models.rules.regimes.model import Preference
from models.selection.participants import (
    decimal_text,
)
from models.selection.scores import tie_basis


@dataclass(frozen=True)
class DrawRules:
    """What the act says about one draw, read from the regime (or given by hand in tests).

    ``mode`` is ``"draw"`` (plain, also Ilha Comprida's rotating list),
    ``"payment-time"`` (São Bento art. 3º, § 2º) or ``"preference"`` (SJC);
    a ranking (``rank``/``score`` in the participants) applies in any mode
    except payment time."""

    regime_id: str = ""
    method: str = "draw"
    mode: str = "draw"
    alternates: int = 0
    alternates_basis: str = ""
    exclude_debtors: bool = False
    debt_basis: str = ""
    quota_percent: Decimal | None = None
    quota_basis: str = ""
    quota_note: str = ""  # a quota of the regime that is not this draw's (Ilha Comprida art. 11, § 2º vs art. 21)
    when_more_than: int | None = None
    preferences: tuple[Preference, ...] = ()
    tie_break: tuple[str, ...] = ()  # between equal scores, in the act's order (Sapezal art. 10, § 3º)
    tie_basis: str = ""
    # the act's cut-offs (São Bento, Dec. 4.794/2026, art. 3º; art. 6º): registered or paid after them → left out
    registration_until: dt.datetime | None = None
    registration_basis: str = ""
    late_note: str = ""  # what the act allows a late request (art. 10), in words with its article
    proof_until: dt.datetime | None = None
    proof_basis: str = ""
    basis: str = ""  # full citation of the draw
    payment_basis: str = ""
    group_labels: Mapping[str, str] = field(default_factory=dict)
    title: str = ""  # "Sapezal/MT — Lei nº 1.171/2014"
    # the most points the act allows in the area the draw gives places in (Ilha Comprida art. 22: 60 in the arena)
    max_points: int | None = None
    max_points_basis: str = ""


def _selected_kinds(regime: Regime):
    """The permit kinds whose places the selection gives (the regime's ``selection.permit_kinds``; all by default)."""
    named = regime.selection.permit_kinds if regime.selection is not None else ()
    return [k for k in regime.permit_kinds if not named or k.id in named]


def _first_rule(regime: Regime, kind: str, kinds=None):
    for permit_kind in regime.permit_kinds if kinds is None else kinds:
        for rule in permit_kind.rules:
            if rule.kind == kind:
                return rule
    return None


def _quota_elsewhere(regime: Regime, kinds) -> str:
    """Why a quota of the regime is not one of its draws: it belongs to other permit kinds (pt-BR)."""
    others = [k for k in regime.permit_kinds if k not in kinds and any(r.kind == "quota" for r in k.rules)]
    if not others:
        return ""
    rule = _first_rule(regime, "quota", others)
    pct = "" if rule.percent is None else f" de {decimal_text(rule.percent * 100)} %"
    sel = regime.selection
    spec = (sel.draw or sel.positions) if sel is not None else None
    where = regime.cite_item(spec) if spec is not None else regime.cite(sel.basis if sel is not None else None)
    return (
        f"a cota{pct} ({regime.cite_item(rule)}) é das vagas de {'; '.join(k.label for k in others)} — "
        f"não deste sorteio ({where})"
    )


def max_points_of(regime: Regime, site_id: str | None = None) -> tuple[int | None, str]:
    """The most points an event area may have, and its citation (Ilha Comprida art. 22: 60)."""
    if site_id:
        site = regime.site(site_id)
        if getattr(site, "max_points", None):
            return site.max_points, regime.cite_item(site)
    layout = regime.layout
    if layout is not None and layout.max_points is not None and layout.max_points.value is not None:
        return layout.max_points.value, regime.cite_item(layout.max_points)
    return None, ""


def draw_rules(regime: Regime, *, alternates: int | None = None) -> DrawRules:
    """The :class:`DrawRules` of ``regime``; ``alternates`` overrides the act's number.

    A ``UserError`` when the act foresees no draw (Olímpia's LC 324/2025 has none)."""
    sel = regime.selection
    has_draw = sel is not None and (
        sel.method in ("draw", "rotating-draw", "preference-then-draw")
        or sel.draw is not None
        or sel.positions is not None
    )
    if not has_draw:
        where = f" ({regime.cite(sel.basis)})" if sel is not None else ""
        raise UserError(f"O regime {regime.id} ({regime.short}) não prevê sorteio{where}.", field="regime")
    assert sel is not None
    spec = sel.draw or sel.positions
    mode = "draw"
    if sel.order_by == "payment-time":
        mode = "payment-time"
    elif sel.method == "preference-then-draw":
        mode = "preference"
    if alternates is not None and alternates < 0:
        raise UserError(f"O número de suplentes não pode ser negativo (veio {alternates}).", field="alternates")
    from models.rules.filing import late_text

    kinds = _selected_kinds(regime)
    reg = sel.registration
    debt_rule = _first_rule(regime, "no-debts", kinds)
    quota_rule = _first_rule(regime, "quota", kinds)
    labels = {g.id: g.label for g in regime.groups}
    labels.update({line.id: line.label for line in regime.lines if line.id not in labels})
    max_points, max_points_basis = max_points_of(regime)
    return DrawRules(
        regime_id=regime.id,
        method=sel.method,
        mode=mode,
        alternates=alternates if alternates is not None else (sel.alternates or 0),
        alternates_basis=regime.cite(sel.basis) if sel.alternates else "",
        exclude_debtors="debtors" in sel.exclude,
        debt_basis=regime.cite_item(debt_rule) if debt_rule is not None else regime.cite(sel.basis),
        quota_percent=quota_rule.percent if quota_rule is not None else None,
        quota_basis=regime.cite_item(quota_rule) if quota_rule is not None else "",
        quota_note=_quota_elsewhere(regime, kinds) if quota_rule is None else "",
        when_more_than=spec.when_more_than if spec is not None else None,
        preferences=sel.preferences,
        tie_break=sel.tie_break,
        tie_basis=tie_basis(regime),
        registration_until=reg.until if reg is not None else None,
        registration_basis=regime.cite_item(reg) if reg is not None else "",
        late_note=late_text(regime) if reg is not None and reg.until is not None else "",
        proof_until=reg.proof_until if reg is not None else None,
        proof_basis=(
            regime.cite(reg.proof_basis or reg.basis) if reg is not None and reg.proof_until is not None else ""
        ),
        basis=regime.cite_item(spec) if spec is not None else regime.cite(sel.basis),
        payment_basis=regime.cite(sel.basis) if mode == "payment-time" else "",
        group_labels=labels,
        title=regime.title,
        max_points=max_points,
        max_points_basis=max_points_basis,
    )
