"""A call's candidates: who takes part, in what order, with which score or rank."""

from __future__ import annotations

import datetime as _dt
from collections.abc import Mapping
from dataclasses import dataclass, replace

from models.base.errors import UserError
from models.base.money import format_brl
from models.billing.charges import debts_of
from models.registry.applications import STATUSES as APP_STATUSES
from models.registry.applications import Application
from models.rules.eligibility import DebtFacts
from models.rules.regimes import Regime, get_regime
from models.selection import (
    ALGORITHM,
    DrawRules,
    Participant,
    PublishedList,
    Score,
    draw_rules,
    normalize_text,
    published_list,
    rank_by_score,
    with_ranks,
)
from models.selection.appeals import final_basis, process_of
from models.selection.draws import (
    participant_from_application,
)
from models.selection.publications import has_appeals
from models.services.calls.options import ELIGIBLE_STATUSES, group_text, payment_time, place_label, site_aliases

# --------------------------------------------------------------------------- candidates


@dataclass(frozen=True)
class Candidate:
    application_id: int
    protocol: str
    applicant: str
    status: str
    status_label: str
    group: str
    group_label: str  # as the act names it
    participant: Participant  # as it enters the list (rank and score where the act scores)
    debts: tuple[DebtFacts, ...] = ()
    paid_at_text: str = ""
    score: Score | None = None
    tie_break: str = ""
    tie_unresolved: bool = False  # equal on every criterion of the act (Sapezal art. 10, § 3º): the draw decides
    tie_missing: str = ""  # a fact the act's tie-break needs is not known: no list until it is given
    excluded: str = ""  # why left out of the list, with the article ("" when listed)
    in_draw: bool = True  # False: outside the final list (art. 10, § 5º): not even in the draw's exclusions

    @property
    def id(self) -> str:
        return self.participant.id

    @property
    def group_short(self) -> str:
        """ "Grupo 3" for a product group; a line's own (short) label otherwise."""
        return self.group_label.split(" — ")[0] if self.group_label else self.group

    @property
    def rank(self) -> int | None:
        return self.participant.rank

    @property
    def debt_text(self) -> str:
        if not self.debts:
            return ""
        return "; ".join(f"{d.description}: {format_brl(d.amount)}" for d in self.debts)


@dataclass(frozen=True)
class CallList:
    regime_id: str
    site: str
    group: str
    rules: DrawRules
    candidates: tuple[Candidate, ...]
    published: PublishedList | None  # None when no list can be made (see ``problem``)
    problem: str = ""
    scored: bool = False
    #: where the act opens an appeal against the ranking (Sapezal art. 10, §§ 4º–5º): the stage, the final list
    #: the participants come from, and why the draw cannot be held yet ("" when it can)
    appeals: bool = False
    process_note: str = ""
    final_id: int | None = None
    draw_blocked: str = ""

    @property
    def participants(self) -> tuple[Participant, ...]:
        """Everybody in the call, the excluded included: the draw leaves them out again, with the reason, in its
        ata — but not those outside the final list, who are not in the call's draw at all."""
        return tuple(c.participant for c in self.candidates if c.in_draw)

    @property
    def sha256(self) -> str:
        return self.published.sha256 if self.published is not None else ""

    @property
    def groups(self) -> tuple[str, ...]:
        return tuple(sorted({c.group for c in self.candidates if not c.excluded}))

    def text(self, call: str = "") -> str:
        """The list to publish and print before the draw, with its SHA-256 (pt-BR, plain text)."""
        regime = get_regime(self.regime_id)
        out = [f"Lista de participantes do sorteio — {regime.title}"]
        if call:
            out.append(f"Chamamento: {call}")
        if self.site:
            out.append(f"Local ou evento: {place_label(regime, self.site)}")
        if self.group:
            out.append(f"Grupo/ramo: {_group_label(regime, self.group)}")
        out.append(f"Base legal: {self.rules.basis}")
        if self.process_note:
            out.append(self.process_note)
        if self.published is None:
            out.append(f"Sem lista: {self.problem}")
            return "\n".join(out) + "\n"
        out += [
            f"Participantes: {len(self.published.participants)}",
            f"SHA-256 da lista: {self.published.sha256}",
            f"Algoritmo: {ALGORITHM} (README do Praça, seção «Sorteios: como conferir»)",
            "",
            "Lista, exatamente como entra no hash (id;nome;…):",
            self.published.text.rstrip("\n"),
        ]
        if self.scored:
            heading = "Lista definitiva" if self.final_id else "Classificação"
            out += ["", f"{heading} (pontuação socioeconômica):"]
            for c in self.candidates:
                if not c.excluded and c.score is not None:
                    group = f" [{c.group}]" if c.group else ""
                    out.append(
                        f"  {c.rank}º{group} {c.protocol} {c.applicant} — {c.score.total} pontos"
                        + (f" ({c.tie_break})" if c.tie_break else "")
                    )
        if self.published.excluded:
            out += ["", "Excluídos antes do sorteio:"]
            out += [
                f"  [{e.participant.id}] {e.participant.name} — {e.reason} ({e.basis})" for e in self.published.excluded
            ]
        return "\n".join(out) + "\n"


def _group_label(regime: Regime, group: str) -> str:
    if not group:
        return ""
    if group in regime.ids("group"):
        return group_text(regime.group(group))
    if group in regime.ids("line"):
        return regime.line(group).label
    return group


def _applications(regime: Regime, site: str, group: str) -> list[Application]:
    query = (
        Application.select()
        .where((Application.regime == regime.id) & Application.status.in_(list(ELIGIBLE_STATUSES)))
        .order_by(Application.created_at, Application.id)
    )
    kinds = regime.selection.permit_kinds if regime.selection is not None else ()
    if kinds:  # the kinds whose places the act's selection gives (Ilha Comprida art. 21: the event credential)
        query = query.where(Application.permit_kind.in_(list(kinds)))
    apps = list(query)
    if site:
        aliases = site_aliases(regime, site)
        apps = [a for a in apps if normalize_text(a.site).lower() in aliases]
    if group:
        apps = [a for a in apps if group in (a.group, a.line)]
    return apps


def call_list(
    regime: Regime | str,
    *,
    site: str = "",
    group: str = "",
    today: _dt.date | None = None,
    marks: Mapping[str, Mapping] | None = None,
) -> CallList:
    """The eligible participants of a call, with debts, scores or payment time, and the list to publish.

    ``marks`` are what the commission decides for a participant (by protocol):
    ``{"preference": "fundadores"}`` (SJC art. 11, § 3º) or ``{"quota": True}``
    (Ilha Comprida art. 11, § 2º); they enter the list and its hash."""
    regime = get_regime(regime) if isinstance(regime, str) else regime
    today = today or _dt.date.today()
    rules = draw_rules(regime)
    marks = marks or {}
    site, group = normalize_text(site), normalize_text(group)
    base: list[tuple[Application, Participant, tuple[DebtFacts, ...], str]] = []
    for app in _applications(regime, site, group):
        kind, holder = ("person", app.person_id) if app.person_id else ("company", app.company_id)
        assert holder is not None  # an application names a person or a company
        debts = debts_of(kind, holder, today=today)
        paid_at, paid_text = payment_time(app) if rules.mode == "payment-time" else (None, "")
        mark = marks.get(app.protocol, {})
        participant = participant_from_application(
            app,
            paid_at=paid_at,
            debtor=bool(debts),
            quota=bool(mark.get("quota")) and rules.quota_percent is not None,
            preference=mark.get("preference") or None,
        )
        base.append((app, participant, debts, paid_text))

    selection = regime.selection
    scored = bool(selection is not None and selection.criteria) and rules.mode != "payment-time"
    ranked: dict[str, tuple[Score, str, bool, str]] = {}  # id → (score, tie-break text, unresolved, missing)
    participants = {p.id: p for _a, p, _d, _t in base}
    outside: dict[str, str] = {}
    appeals = scored and has_appeals(regime)
    process = process_of(regime, site, group, today=today) if appeals else None
    final = process.final if process is not None else None
    if process is not None and final is not None:  # the draw of places runs on the final list (art. 10, § 5º; art. 12)
        rows = {row.id: row for row in process.rows}
        for _app, p, _d, _t in base:
            row = rows.get(p.id)
            if row is None:
                if not (rules.exclude_debtors and p.debtor):  # a debtor stays, for the draw to leave out (art. 12, I)
                    outside[p.id] = (
                        f"não consta da lista definitiva publicada em {final.published_on:%d/%m/%Y} "
                        f"({final_basis(regime)})"
                    )
                continue
            participants[p.id] = replace(
                row.participant, debtor=p.debtor, person_id=p.person_id, application_id=p.application_id
            )
            ranked[p.id] = (row.score, row.tie_break, row.tie_unresolved, row.tie_missing)
    elif scored:
        by_group: dict[str, list[Participant]] = {}
        for _app, p, _d, _t in base:
            if not (rules.exclude_debtors and p.debtor):
                by_group.setdefault(p.group, []).append(p)
        for members in by_group.values():
            ranks = rank_by_score(regime, members, on=today)
            for r, p in zip(ranks, with_ranks(ranks), strict=True):
                ranked[p.id] = (r.score, r.tie_break, r.tie_unresolved, r.tie_missing)
                participants[p.id] = p
    note, blocked = "", ""
    if appeals:
        basis = final_basis(regime)
        if process is None:
            blocked = (
                "O sorteio dos locais corre sobre a lista definitiva: publique a classificação, aguarde o prazo "
                f"de recurso, decida os recursos e publique a lista definitiva ({basis})."
            )
        else:
            note = process.stage_text
            if final is None:
                blocked = f"{process.stage_text} O sorteio dos locais só depois da lista definitiva ({basis})."

    published, problem = None, ""
    missing = next((m for _s, _t, _u, m in ranked.values() if m), "")
    try:
        published = published_list((p for pid, p in participants.items() if pid not in outside), rules)
    except UserError as exc:
        problem = exc.message
    if missing and published is not None:  # the act's criteria decide this tie, not the lot: complete the record
        published, problem = None, f"{missing[:1].upper()}{missing[1:]} no cadastro da pessoa."
    excluded = {e.participant.id: f"{e.reason} ({e.basis})" for e in (published.excluded if published else ())}
    excluded.update(outside)
    candidates = []
    for app, p, debts, paid_text in base:
        score, tie_break, unresolved, lacking = ranked.get(p.id, (None, "", False, ""))
        candidates.append(
            Candidate(
                application_id=app.id,
                protocol=app.protocol,
                applicant=app.applicant_name,
                status=app.status,
                status_label=APP_STATUSES.get(app.status, app.status),
                group=p.group,
                group_label=_group_label(regime, p.group),
                participant=participants[p.id],
                debts=debts,
                paid_at_text=paid_text,
                score=score,
                tie_break=tie_break,
                tie_unresolved=unresolved,
                tie_missing=lacking,
                excluded=excluded.get(p.id, ""),
                in_draw=p.id not in outside,
            )
        )
    candidates.sort(key=lambda c: _display_key(c, rules, scored))
    return CallList(
        regime_id=regime.id,
        site=site,
        group=group,
        rules=rules,
        candidates=tuple(candidates),
        published=published,
        problem=problem,
        scored=scored,
        appeals=appeals,
        process_note=note,
        final_id=final.id if final is not None else None,
        draw_blocked=blocked,
    )


def _display_key(c: Candidate, rules: DrawRules, scored: bool) -> tuple:
    out = 1 if c.excluded else 0
    if scored:
        return (c.group, out, c.rank or 0, c.protocol)
    if rules.mode == "payment-time":
        p = c.participant.paid_at
        return (out, p is None, p or _dt.datetime.min, c.protocol)
    if rules.mode == "preference":
        ranks = {pref.id: pref.rank for pref in rules.preferences}
        return (c.group, out, ranks.get(c.participant.preference or "", len(ranks) + 1), c.protocol)
    return (c.group, out, c.protocol)
