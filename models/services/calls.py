"""Calls (chamamentos): who takes part in a selection, and what a held draw turns into.

The Seleção page asks this module, never the tables:

* **The call** — a regime, a place (one of the act's ``[[sites]]``, a site of
  ``models/sites/__init__.py`` or a place typed by hand) and a group or line — gathers
  the applications of that regime in analysis, approved or awaiting payment
  (:data:`ELIGIBLE_STATUSES`) as :class:`Candidate` records: the
  ``models.selection.Participant`` that enters the draw, the applicant's debts
  with the municipality (``models.billing.charges.debts_of``: ``debtor`` is set from
  them, and where the regime's ``selection.exclude`` holds ``"debtors"`` —
  Sapezal, Lei 1.171/2014, art. 12, I — the candidate is left out with the
  article), the socio-economic score line by line and the rank within the
  group (Sapezal art. 10, §§ 2º–3º), and the time of payment (São Bento,
  Dec. 4.794/2026, art. 3º, § 2º).
* **Payment time** (:func:`payment_time`): the application's charges (not
  cancelled) must all be paid; the moment is the last payment's. Praça keeps
  the day of a payment (``Payment.paid_on``) and the moment it was recorded
  (``recorded_at``): a payment recorded on the day it was made takes the time
  it was recorded; one recorded on a later day has no known time of day and
  takes the end of that day (23:59:59), so it never passes ahead of a payment
  of the same day whose time is known. The text says which reading was used.
* **After the draw** — the holders in order of choice (:func:`draw_holders`),
  their permits (:func:`issue_holder_permits`, through
  ``models.permits.issue_permit``) and their stalls (:func:`stall_choices`,
  :func:`assign_stalls`, through ``models.sites.assign_holder``): holder 1
  chooses first (Sapezal art. 12, § 1º; São Bento art. 3º, I).
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path

from peewee import fn

from models.base.errors import FieldErrors, UserError
from models.base.money import format_brl
from models.billing.charges import Charge, Payment, debts_of
from models.permits import LIVE_STATUSES, Permit
from models.registry.applications import STATUSES as APP_STATUSES
from models.registry.applications import Application
from models.rules import describe
from models.rules.eligibility import DebtFacts
from models.rules.regimes import Regime, get_regime, shipped_regimes
from models.selection import (
    ALGORITHM,
    TIE_BREAKS,
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
from models.selection.draws import (
    Draw,
    DrawEntry,
    draw_entries,
    get_draw,
    list_draws,
    participant_from_application,
    verify_draw,
)
from models.selection.process import final_basis, has_appeals, process_of
from models.services.issuing import issue_permit
from models.sites import Site, Stall, find_site, stall_rows

__all__ = [
    "ELIGIBLE_STATUSES",
    "CallList",
    "Candidate",
    "DrawRow",
    "HolderRow",
    "IssueOutcome",
    "Option",
    "StallChoice",
    "assign_stalls",
    "call_list",
    "default_call_text",
    "draw_holders",
    "draw_row",
    "draw_rows",
    "draw_sites",
    "group_options",
    "issue_holder_permits",
    "method_text",
    "payment_time",
    "selection_regimes",
    "site_options",
    "stall_choices",
]

#: applications that take part in a call (received ones are not yet analysed; refused, withdrawn or issued ones are out)
ELIGIBLE_STATUSES = ("analysis", "approved", "awaiting_payment")
_END_OF_DAY = _dt.time(23, 59, 59)


@dataclass(frozen=True)
class Option:
    value: str
    label: str


# --------------------------------------------------------------------------- the call


def selection_regimes() -> list[Regime]:
    """The regimes whose act foresees a draw (Olímpia's LC 324/2025 has none), by municipality."""
    found = []
    for regime in shipped_regimes().values():
        try:
            draw_rules(regime)
        except UserError:
            continue
        found.append(regime)
    return sorted(found, key=lambda r: (r.municipality, r.id))


def method_text(regime: Regime | str) -> str:
    """How the act selects, in one pt-BR paragraph with its articles."""
    regime = get_regime(regime) if isinstance(regime, str) else regime
    rules = draw_rules(regime)
    sel = regime.selection
    parts = []
    if sel is not None and sel.criteria:
        ties = ", depois ".join(TIE_BREAKS.get(t, t) for t in sel.tie_break)
        parts.append(
            f"Pontuação socioeconômica ({regime.cite(sel.criteria[0].basis.split(',')[0])})"
            + (f"; empate: {ties} ({rules.tie_basis}); o que restar empatado, pela ordem sorteada" if ties else "")
            + "; os de maior pontuação ficam com as vagas, na ordem sorteada"
        )
    if rules.mode == "payment-time":
        parts.append(
            f"ordem de inscrição confirmada pela data e hora do pagamento ({rules.payment_basis}); posições por sorteio"
        )
    elif rules.mode == "preference":
        prefs = "; ".join(f"{p.rank}º {p.label}" for p in sorted(rules.preferences, key=lambda p: p.rank))
        parts.append(f"preferência ({prefs}), depois sorteio")
    elif rules.method == "rotating-draw":
        parts.append("sorteio que forma a lista corrida dos eventos")
    parts.append(f"sorteio: {rules.basis}")
    if rules.when_more_than is not None:
        parts.append(f"só é exigido com mais de {rules.when_more_than} interessados")
    if rules.alternates:
        parts.append(f"{rules.alternates} suplentes por grupo ({rules.alternates_basis})")
    if rules.exclude_debtors:
        parts.append(f"excluídos os devedores do Município ({rules.debt_basis})")
    if rules.quota_percent is not None:
        parts.append(f"cota de {describe.percent(rules.quota_percent)} das vagas ({rules.quota_basis})")
    elif rules.quota_note:
        parts.append(f"sem cota: {rules.quota_note}")
    text = "; ".join(parts)
    return text[:1].upper() + text[1:] + "."


def site_options(regime: Regime | str) -> list[Option]:
    """The places a call of ``regime`` may be for: the act's named sites, then the sites of the map desk."""
    regime = get_regime(regime) if isinstance(regime, str) else regime
    options = [Option(s.id, f"{s.label} ({regime.cite_item(s)})") for s in regime.sites]
    named = {o.value for o in options}
    for site in Site.select().where(Site.regime == regime.id).order_by(Site.name):
        if site.name not in named:
            options.append(Option(site.name, f"{site.name} — {site.kind_label}"))
    return options


def group_options(regime: Regime | str) -> list[Option]:
    """Product groups (Sapezal art. 34) where the act has them, else its lines (SJC's ramos)."""
    regime = get_regime(regime) if isinstance(regime, str) else regime
    if regime.groups:
        return [Option(g.id, _group_text(g)) for g in regime.groups]
    return [Option(line.id, line.label) for line in regime.lines]


def _group_text(g) -> str:
    """A product group as the act names it ("Grupo 3 — …"; the label may already start so)."""
    return g.label if g.label.lower().startswith("grupo") else f"Grupo {g.number} — {g.label}"


def _place_label(regime: Regime, site: str) -> str:
    if site and site in regime.ids("site"):
        return regime.site(site).label
    return site


def default_call_text(regime: Regime | str, site: str = "", group: str = "", *, year: int | None = None) -> str:
    """A name for the call, to be corrected by the clerk with the edital's number."""
    regime = get_regime(regime) if isinstance(regime, str) else regime
    parts = [f"Chamamento {year or _dt.date.today().year} — {regime.municipality}"]
    if site:
        parts.append(_place_label(regime, site))
    if group:
        label = next((o.label for o in group_options(regime) if o.value == group), group)
        parts.append(label.split(" — ")[0] if group in regime.ids("group") else label)
    return " — ".join(parts)


def _site_aliases(regime: Regime, site: str) -> set[str]:
    """Every way an application may name ``site``: the act's id, a map site's name and its act id."""
    text = normalize_text(site)
    aliases = {text.lower()}
    for named in regime.sites:  # the act's id, its label, or the label up to its explanation in brackets
        if text.lower() in (named.id.lower(), named.label.lower(), named.label.split(" (")[0].lower()):
            aliases.update((named.id.lower(), named.label.lower()))
    row = Site.get_or_none((Site.regime == regime.id) & ((Site.name == text) | (Site.regime_site == text)))
    if row is not None:
        aliases.add(row.name.lower())
        if row.regime_site:
            aliases.add(row.regime_site.lower())
            if row.regime_site in regime.ids("site"):
                aliases.add(regime.site(row.regime_site).label.lower())
    return aliases


# --------------------------------------------------------------------------- payment time


def _moment(payment: Payment) -> tuple[_dt.datetime, bool]:
    """(the moment of a payment, whether its time of day is known)."""
    recorded = payment.recorded_at
    if recorded is not None and recorded.date() == payment.paid_on:
        return recorded.replace(microsecond=0), True
    return _dt.datetime.combine(payment.paid_on, _END_OF_DAY), False


def payment_time(app: Application | int) -> tuple[_dt.datetime | None, str]:
    """When the application's public price was paid (São Bento art. 3º, § 2º), and how it was read.

    ``None`` while a charge is open or when the application has no charge."""
    app_id = app.id if isinstance(app, Application) else app
    charges = list(
        Charge.select().where((Charge.application == app_id) & (Charge.status != "cancelled")).order_by(Charge.id)
    )
    if not charges:
        return None, "sem cobrança emitida"
    unpaid = [c for c in charges if c.status != "paid"]
    if unpaid:
        return None, "em aberto: cobrança nº " + ", ".join(c.number for c in unpaid)
    payments = list(Payment.select().where(Payment.charge.in_([c.id for c in charges])))
    if not payments:  # pragma: no cover - a paid charge has its payments
        return None, "sem pagamento registrado"
    last_of = {}
    for p in payments:
        moment = _moment(p)
        if p.charge_id not in last_of or moment[0] > last_of[p.charge_id][0]:
            last_of[p.charge_id] = moment
    at, known = max(last_of.values(), key=lambda m: m[0])
    if known:
        return at, f"pago em {at:%d/%m/%Y} às {at:%H:%M:%S} (hora do registro do pagamento)"
    return at, (f"pago em {at:%d/%m/%Y}, hora não registrada: conta-se o fim do dia (registrado em outro dia)")


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
            out.append(f"Local ou evento: {_place_label(regime, self.site)}")
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
        return _group_text(regime.group(group))
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
        aliases = _site_aliases(regime, site)
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
    if final is not None:  # the draw of places runs on the final list (art. 10, § 5º; art. 12)
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


# --------------------------------------------------------------------------- draws held


@dataclass(frozen=True)
class DrawRow:
    """One kept draw for the list "Sorteios realizados", checked again (``verify_draw``)."""

    id: int
    held_at: _dt.datetime
    regime_id: str
    regime_label: str
    call: str
    site_label: str
    place: str
    status: str
    status_label: str
    seed: str
    list_sha256: str
    participants: int
    holders: int
    problems: tuple[str, ...]
    replaced_by: int | None
    replaces: int | None
    annul_reason: str

    @property
    def check_text(self) -> str:
        return "confere" if not self.problems else "NÃO CONFERE"

    @property
    def situation(self) -> str:
        text = self.status_label
        if self.replaced_by:
            text += f" — substituído pelo nº {self.replaced_by}"
        if self.replaces:
            text += f" — substitui o nº {self.replaces}"
        return text


def draw_row(draw: Draw | int) -> DrawRow:
    draw = get_draw(draw.id if isinstance(draw, Draw) else draw)
    try:
        regime = get_regime(draw.regime)
        regime_label, site_label = (
            f"{regime.municipality}/{regime.state} — {regime.short}",
            _place_label(regime, draw.site),
        )
    except UserError:  # a regime file removed since: show the ids
        regime_label, site_label = draw.regime, draw.site
    counts = {
        role: n
        for role, n in DrawEntry.select(DrawEntry.role, fn.COUNT(DrawEntry.id))
        .where(DrawEntry.draw == draw.id)
        .group_by(DrawEntry.role)
        .tuples()
    }
    previous = Draw.get_or_none(Draw.replaced_by == draw.id)
    return DrawRow(
        id=draw.id,
        held_at=draw.held_at,
        regime_id=draw.regime,
        regime_label=regime_label,
        call=draw.call,
        site_label=site_label,
        place=draw.place,
        status=draw.status,
        status_label=draw.status_label,
        seed=draw.seed,
        list_sha256=draw.list_sha256,
        participants=sum(n for role, n in counts.items() if role != "excluded"),
        holders=counts.get("holder", 0),
        problems=tuple(verify_draw(draw)),
        replaced_by=draw.replaced_by_id,
        replaces=previous.id if previous else None,
        annul_reason=draw.annul_reason,
    )


def draw_rows(*, limit: int = 200) -> list[DrawRow]:
    """The kept draws, newest first, each checked again against its list and seed."""
    return [draw_row(d) for d in list_draws(limit=limit)]


# --------------------------------------------------------------------------- holders: permits and stalls


@dataclass(frozen=True)
class HolderRow:
    entry_id: int
    order: int  # order of choice within the group (1 = chooses first)
    group: str
    participant_id: str
    name: str
    quota: bool
    application_id: int | None
    application_status: str
    application_status_label: str
    permit_id: int | None
    permit_number: str
    permit_status_label: str
    stall_text: str  # the stalls the permit holds ("Banca 3 — Rua …")
    permit_live: bool = False  # the permit is in force (active or suspended)
    section: str = ""  # the permit's section (SJC art. 8º): a stall of another section is not offered first
    #: what the act asks the winner after the list (Sapezal art. 11), checked today: ``RuleResult`` values
    requirements: tuple = ()

    @property
    def requirements_text(self) -> str:
        """ "entregues", "faltam 2 — até 20/10/2026", "prazo encerrado em …" ("" when the act asks nothing later)."""
        return requirements_text(self.requirements)

    @property
    def due_documents(self) -> tuple[str, ...]:
        """The ids of the documents still to deliver (not met yet)."""
        return tuple(r.rule.document for r in self.requirements if r.rule.kind == "document" and r.status != "passed")


def requirements_text(results) -> str:
    """Short state of the requirements an act asks after the list, for a column (the reasons say the rest)."""
    if not results:
        return ""
    unmet = [r for r in results if r.status != "passed"]
    if not unmet:
        return "cumpridos"
    if any(r.status == "failed" for r in unmet):
        return f"{len(unmet)} em falta — prazo encerrado"
    dues = sorted({r.due for r in unmet if r.due is not None})
    return f"{len(unmet)} a apresentar" + (f" até {dues[0]:%d/%m/%Y}" if dues else " após a lista definitiva")


def _permit_of_application(app_id: int | None) -> Permit | None:
    if app_id is None:
        return None
    return Permit.get_or_none(Permit.application == app_id)


def draw_holders(draw: Draw | int, *, today: _dt.date | None = None, requirements: bool = False) -> list[HolderRow]:
    """The holders of a draw in order of choice (by group, then the drawn order), with permit and stall; with
    ``requirements``, what the act asks them after the list (Sapezal art. 11), checked ``today``, while their
    permit is not issued."""
    from models.services.front_desk import later_requirements

    draw = get_draw(draw.id if isinstance(draw, Draw) else draw)
    today = today or _dt.date.today()
    rows = []
    for entry in draw_entries(draw, role="holder"):
        app = Application.get_or_none(Application.id == entry.application_id) if entry.application_id else None
        permit = _permit_of_application(app.id if app else None)
        stalls = []
        if permit is not None:
            for stall in Stall.select(Stall, Site).join(Site).where(Stall.holder == permit.id).order_by(Stall.number):
                stalls.append(f"Banca {stall.number} — {stall.site.name}")
        rows.append(
            HolderRow(
                entry_id=entry.id,
                order=entry.role_order,
                group=entry.group,
                participant_id=entry.participant_id,
                name=entry.name,
                quota=bool(entry.quota),
                application_id=app.id if app else None,
                application_status=app.status if app else "",
                application_status_label=APP_STATUSES.get(app.status, app.status) if app else "sem requerimento",
                permit_id=permit.id if permit else None,
                permit_number=permit.number if permit else "",
                permit_status_label=permit.status_label if permit else "",
                stall_text="; ".join(stalls),
                permit_live=bool(permit and permit.status in LIVE_STATUSES),
                section=(permit.section if permit else (app.section if app else "")) or "",
                requirements=(
                    later_requirements(app, today=today) if requirements and app is not None and permit is None else ()
                ),
            )
        )
    return rows


@dataclass(frozen=True)
class IssueOutcome:
    holder: HolderRow
    ok: bool
    message: str
    permit_number: str = ""
    needs: str = ""  # "valid_until" / "event_end": the act leaves the end open, ask it


def _held(draw: Draw) -> None:
    if draw.status != "held":
        raise UserError(
            f"O sorteio nº {draw.id} foi anulado: os seus titulares não recebem permissão nem banca.", field="draw"
        )


def issue_holder_permits(
    draw: Draw | int, *, by: str, today: _dt.date, key_dir: Path | None, end: _dt.date | None = None
) -> list[IssueOutcome]:
    """Issue the permit of each holder whose application is approved (or awaiting payment and paid), in order.

    Each permit is its own transaction (``models.permits.issue_permit``): one
    refusal does not stop the others, and says why. Where the act leaves the
    end of the term open, ``end`` is used; without it the outcome has
    ``needs`` set (ask the date and call again: issued permits are skipped)."""
    draw = get_draw(draw.id if isinstance(draw, Draw) else draw)
    _held(draw)
    outcomes = []
    for holder in draw_holders(draw):
        who = f"{holder.order}º {holder.name}"
        if holder.permit_id is not None:
            outcomes.append(
                IssueOutcome(
                    holder,
                    True,
                    f"{who}: permissão nº {holder.permit_number} já emitida ({holder.permit_status_label}).",
                    holder.permit_number,
                )
            )
            continue
        if holder.application_id is None:
            outcomes.append(IssueOutcome(holder, False, f"{who}: participante sem requerimento no Praça."))
            continue
        app = Application.get_by_id(holder.application_id)
        if app.status not in ("approved", "awaiting_payment"):
            outcomes.append(
                IssueOutcome(
                    holder,
                    False,
                    f"{who}: requerimento {app.protocol} "
                    f"{APP_STATUSES.get(app.status, app.status)} — aprove-o no Atendimento "
                    "antes de emitir a permissão.",
                )
            )
            continue
        kwargs: dict = {}
        outcome = None
        for _attempt in range(2):
            try:
                permit = issue_permit(app, by=by, today=today, key_dir=key_dir, quota=holder.quota, **kwargs)
            except FieldErrors as exc:
                key, message = next(iter(exc.errors.items()))
                if key in ("valid_until", "event_end") and not kwargs and end is not None:
                    kwargs = {key: end}
                    continue
                outcome = IssueOutcome(
                    holder,
                    False,
                    f"{who}: {message}",
                    needs=key if key in ("valid_until", "event_end") and not kwargs else "",
                )
                break
            except UserError as exc:
                outcome = IssueOutcome(holder, False, f"{who}: {exc.message}")
                break
            outcome = IssueOutcome(
                holder,
                True,
                f"{who}: permissão nº {permit.number} emitida, válida de "
                f"{permit.valid_from:%d/%m/%Y} a {permit.valid_until:%d/%m/%Y}.",
                permit.number,
            )
            break
        outcomes.append(outcome)
    return outcomes


def draw_sites(draw: Draw | int) -> list[Option]:
    """The map desk's sites of the draw's regime (value: the site id), the draw's own place first."""
    draw = get_draw(draw.id if isinstance(draw, Draw) else draw)
    regime = get_regime(draw.regime)
    aliases = _site_aliases(regime, draw.site) if draw.site else set()
    sites = list(Site.select().where(Site.regime == draw.regime).order_by(Site.name))
    sites.sort(key=lambda s: 0 if s.name.lower() in aliases or (s.regime_site or "").lower() in aliases else 1)
    return [Option(str(s.id), f"{s.name} — {s.kind_label}") for s in sites]


@dataclass(frozen=True)
class StallChoice:
    holder: HolderRow
    free: tuple[Option, ...]  # the free stalls of the site (value: stall id), by number
    default: str  # the stall offered (next free in number order), "" when none
    note: str  # why no stall is offered (already holds one, no permit in force…)


def _stall_label(row) -> str:
    size = f"{describe.number(row.front)} × {describe.number(row.depth)} m"
    extra = ", ".join(x for x in (f"seção {row.section.upper()}" if row.section else "", row.line) if x)
    return f"Banca {row.number} — {size}" + (f" ({extra})" if extra else "")


def stall_choices(draw: Draw | int, site: Site | int | str) -> list[StallChoice]:
    """For each holder in order of choice, the free stalls of ``site`` and the one offered by default:
    holder 1 takes the first free stall by number, holder 2 the next, and so on — of the holder's own
    section when the stalls have sections (SJC, Lei 9.158/2014, art. 8º)."""
    draw = get_draw(draw.id if isinstance(draw, Draw) else draw)
    site = find_site(site)
    rows = stall_rows(site)
    free_rows = [r for r in rows if r.permit_id is None]
    free = tuple(Option(str(r.id), _stall_label(r)) for r in free_rows)
    held_here = {r.permit_id: r.number for r in rows if r.permit_id is not None}
    taken: set[int] = set()

    def offer(section: str) -> Option | None:
        for r in free_rows:
            if r.id in taken or (section and r.section and r.section != section):
                continue
            taken.add(r.id)
            return Option(str(r.id), _stall_label(r))
        return None

    choices = []
    for holder in draw_holders(draw):
        if holder.permit_id is not None and holder.permit_id in held_here:
            choices.append(StallChoice(holder, free, "", f"já ocupa a banca {held_here[holder.permit_id]}"))
        elif not holder.permit_live:
            choices.append(StallChoice(holder, free, "", "sem permissão em vigor: emita a permissão antes"))
        else:
            nxt = offer(holder.section)
            choices.append(
                StallChoice(
                    holder, free, nxt.value if nxt else "", "" if nxt else "não há mais bancas livres neste local"
                )
            )
    return choices


def assign_stalls(draw: Draw | int, picks: Mapping[int, str | int | None]) -> list[tuple[bool, str]]:
    """Put each holder (``entry_id`` → stall id) on the stall picked, in order of choice.

    Each assignment is one transaction (``models.sites.assign_holder``); a
    refusal (stall taken, section of another line…) is reported and the
    others go on. Returns (ok, pt-BR line) per holder with a pick."""
    from models.sites import assign_holder

    draw = get_draw(draw.id if isinstance(draw, Draw) else draw)
    _held(draw)
    results = []
    for holder in draw_holders(draw):
        stall = picks.get(holder.entry_id)
        if stall in (None, ""):
            continue
        who = f"{holder.order}º {holder.name}"
        if not holder.permit_live:
            results.append((False, f"{who}: sem permissão em vigor — emita a permissão antes."))
            continue
        try:
            row = assign_holder(int(stall), holder.permit_id)
        except UserError as exc:
            results.append((False, f"{who}: {exc.message}"))
            continue
        results.append((True, f"{who}: banca {row.number} (permissão nº {holder.permit_number})."))
    return results
