"""The ranking, the appeals against it, the final list, and the state of a call's process."""

from __future__ import annotations

import datetime as _dt
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from models.access.session import require
from models.base.errors import FieldErrors, UserError
from models.rules.deadlines import compute_deadline
from models.rules.regimes import Regime, get_regime
from models.selection import (
    Participant,
    Score,
    ScoreLine,
    draw_rules,
    normalize_text,
    published_list,
    rank_scores,
    with_ranks,
)
from models.selection.process_tables import APPEAL_STATUSES, KINDS, ListPublication, SelectionAppeal
from models.selection.publications import (
    call_key,
    check_date,
    clerk_name,
    create_publication,
    day_text,
    deadline_from,
    has_appeals,
    latest_publication,
    regime_of,
)
from models.store.db import db


def final_basis(regime: Regime | str) -> str:
    """The article of the final list (the decision on the appeals, Sapezal art. 10, § 5º)."""
    regime = regime_of(regime)
    deadline = deadline_from(regime, "appeal-filed")
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
    regime = regime_of(current.regime_id) if current is not None else None
    if regime is None or not has_appeals(regime):
        raise UserError("O ato deste regime não prevê recurso contra a classificação.", field="regime")
    if current.published is None or not current.scored:
        raise UserError(current.problem or "Não há classificação para publicar.", field="list")
    published_on = check_date(published_on, "da publicação", "published_on", today)
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
    deadline = deadline_from(regime, "list-publication")
    if deadline is None:
        raise UserError(
            f"O regime {regime.id} prevê recurso, mas não traz o prazo contado da publicação da lista.", field="regime"
        )
    window = compute_deadline(regime, deadline.id, published_on)
    entries = [_entry(c) for c in current.candidates if not c.excluded and c.score is not None]
    with db.atomic():
        return create_publication(
            call_key(current),
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
    regime = regime_of(regime)
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
    filed_on = check_date(filed_on, "do recurso", "filed_on", today)
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
        deadline = deadline_from(regime, "appeal-filed")
        if deadline is not None:
            due = compute_deadline(regime, deadline.id, filed_on)
            fields = {"decision_due": due.due_date, "decision_formula": f"{due.formula} — {due.basis}"}
    return SelectionAppeal.create(
        publication=ranking.id,
        participant_id=entry["id"],
        name=entry["name"],
        filed_on=filed_on,
        grounds=text,
        filed_by=clerk_name(by),
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
    decided_on = check_date(decided_on, "da decisão", "decided_on", today)
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
                decided_by=clerk_name(by),
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
    regime = regime_of(regime)
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
        text = f"Prazo de recurso aberto até {day_text(ranking.appeal_due)} ({basis})."
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
    published_on = check_date(published_on, "da publicação", "published_on", today)
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
        return create_publication(
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
