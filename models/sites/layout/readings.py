"""What the regime says about a plan: the legal gap, blocking obstacles, the maximum of points."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import Decimal

from models.base.errors import UserError
from models.rules.regimes import Regime
from models.rules.regimes.model import LayoutRules, Section
from models.sites.layout.plan_data import Note
from models.sites.layout.units import OBSTACLE_KINDS, format_metres, from_mm, to_mm


@dataclass
class PlanRules:
    regime: Regime
    layout: LayoutRules
    sections: dict[str, Section]
    section_rank: dict[str, int]
    lines: dict
    equipment: dict
    line_sections: dict[str, list[Section]]
    gap: int
    gap_basis: str | None
    gap_notes: list[Note] = field(default_factory=list)

    def cite(self, basis: str | None) -> str | None:
        return self.regime.cite(basis) if basis else None


def resolve_gap(regime: Regime, gap: Decimal | None, *, strict: bool = True) -> tuple[Decimal, str | None, str]:
    """The minimum gap between stalls: ``(metres, citation or None, how it was set, in pt-BR)``.

    A legal minimum (``min_gap.value``) wins over a smaller ``gap`` — refused
    with a ``UserError`` when ``strict``; an Administration-defined gap
    (``min_gap.admin_defined``) is the caller's ``gap`` (0 when none is given).
    """
    mm, basis, how = legal_gap(regime, gap, strict=strict)
    return from_mm(mm), basis, how


def legal_gap(regime: Regime, gap: Decimal | None, *, strict: bool) -> tuple[int, str | None, str]:
    rule = regime.layout.min_gap if regime.layout else None
    given = None if gap is None else to_mm(gap)
    if given is not None and given < 0:
        raise UserError("O espaço entre bancas não pode ser negativo.", field="gap")
    if rule is not None and rule.value is not None:
        legal = to_mm(rule.value)
        cite = regime.cite(rule.basis)
        if given is not None and given < legal:
            if strict:
                raise UserError(
                    f"O espaço entre bancas informado ({format_metres(given, mm=True)}) é menor que o "
                    f"mínimo legal de {format_metres(legal, mm=True)} ({cite}).",
                    field="gap",
                )
            given = legal
        if given is not None and given > legal:
            return (
                given,
                cite,
                (
                    f"Espaço entre bancas: {format_metres(given, mm=True)}, definido para o local "
                    f"(mínimo legal {format_metres(legal, mm=True)})."
                ),
            )
        return legal, cite, f"Espaço mínimo entre bancas: {format_metres(legal, mm=True)}."
    if rule is not None and rule.admin_defined:
        cite = regime.cite(rule.basis)
        if given is None:
            return (
                0,
                cite,
                (
                    "O ato deixa o espaço mínimo entre as estruturas à Administração e nenhum foi "
                    "informado para o local: bancas sem espaço entre si."
                ),
            )
        return given, cite, f"Espaço entre bancas definido pela Administração: {format_metres(given, mm=True)}."
    if given:
        return (
            given,
            None,
            (
                f"Espaço entre bancas definido para o local: {format_metres(given, mm=True)} "
                "(o ato não fixa espaçamento)."
            ),
        )
    return 0, None, "O ato não fixa espaçamento entre bancas."


def plan_rules(regime: Regime, gap: Decimal | None, *, strict: bool) -> PlanRules:
    line_sections: dict[str, list[Section]] = {}
    for section in regime.sections:
        for line_id in section.lines:
            line_sections.setdefault(line_id, []).append(section)
    gap_mm, gap_basis, how = legal_gap(regime, gap, strict=strict)
    return PlanRules(
        regime=regime,
        layout=regime.layout or LayoutRules(),
        sections={s.id: s for s in regime.sections},
        section_rank={s.id: i for i, s in enumerate(regime.sections)},
        lines={line.id: line for line in regime.lines},
        equipment={e.id: e for e in regime.equipment_kinds},
        line_sections=line_sections,
        gap=gap_mm,
        gap_basis=gap_basis,
        gap_notes=[Note(how, gap_basis)],
    )


def blocking_kinds(rules: PlanRules, avoid: Iterable[str]) -> dict[str, tuple[str, str | None]]:
    """Obstacle kinds a stall may not stand on → (breach code, citation)."""
    kinds: dict[str, tuple[str, str | None]] = {}
    for kind in avoid:
        if kind not in OBSTACLE_KINDS:
            raise UserError(
                f"Tipo de obstáculo desconhecido: {kind!r}. Opções: {', '.join(OBSTACLE_KINDS)}.", field="avoid"
            )
        kinds[kind] = ("obstacle", None)
    if rules.layout.no_crossings is not None:
        kinds["crossing"] = ("crossing", rules.cite(rules.layout.no_crossings.basis))
    if rules.layout.keep_garages_free is not None:
        kinds["garage"] = ("garage", rules.cite(rules.layout.keep_garages_free.basis))
    return kinds


def max_points_of(rules: PlanRules, max_points: int | None) -> tuple[int | None, str | None]:
    if max_points is not None:
        if max_points < 0:
            raise UserError("O número máximo de pontos não pode ser negativo.", field="max_points")
        rule = rules.layout.max_points
        return max_points, rules.cite(rule.basis) if rule is not None else None
    rule = rules.layout.max_points
    if rule is not None and rule.value is not None:
        return rule.value, rules.cite(rule.basis)
    return None, None


def section_numeral(rules: PlanRules, section_id: str | None) -> str:
    section = rules.sections.get(section_id or "")
    return f"Seção {section.numeral}" if section is not None else (f"seção {section_id}" if section_id else "")
