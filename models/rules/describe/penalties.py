"""Penalties in words: sanctions, fines, ladders, infractions, deadlines and the seizure of goods."""

from __future__ import annotations

import dataclasses

from models.rules.describe.fees import act_word
from models.rules.describe.rules import fine_rule_facts
from models.rules.describe.text import (
    Fact,
    amount,
    cap,
    days,
    fact,
    lower_first,
    months,
    notes,
    number,
    period,
    plural,
    years,
)
from models.rules.describe.words import CLOSED_DAY_RULES, EVENTS, PER, SANCTIONS, SCOPES
from models.rules.fees.needs import fee_needs
from models.rules.regimes import Regime
from models.rules.regimes.model import Deadline, Fine, Infraction, Ladder, LadderStep, Penalties, Sanction, Seizure

# --------------------------------------------------------------------------- penalties


def _masculine(word: str) -> bool:
    return word.split()[0].endswith("mento")


def sanction(item: Sanction, *, terms: bool = True, currency: str = "R$") -> str:
    """One sanction in words, in the act's own word where the file declares it (``word``); with ``terms``, also
    whether the act leaves it to the authority and the condition it waits for (a proposal shows those itself)."""
    name = act_word(item.kind, getattr(item, "word", None))
    parts = [cap(name)]
    if item.kind == "warning":
        if item.comply_hours == 0:
            parts.append("regularização imediata")
        elif item.comply_hours is not None:
            parts.append(f"prazo de {period(hours=item.comply_hours)} para regularizar")
        elif item.comply_days is not None:
            parts.append(f"prazo de {period(item.comply_days)} para regularizar")
    elif item.kind == "fine":
        if item.amount is not None:
            parts.append(amount(item.amount, currency))
        elif item.multiplier is not None:
            m = item.multiplier
            if m == 1:
                parts[0] += " (valor da infração)"
            elif m == 2:
                parts[0] += " em dobro (2 × o valor da infração)"
            else:
                parts[0] += f" de {number(m)} × o valor da infração"
        if item.graded:
            ceiling = f" até {amount(item.max, currency)}" if item.max is not None else ""
            parts.append("graduada pela autoridade" + ceiling)
        elif item.max is not None:
            parts.append(f"até {amount(item.max, currency)}")
    elif item.kind == "suspension":
        if item.until_remedied:
            parts.append("até sanar a irregularidade")
        elif item.days is not None and item.max_days:
            parts.append(f"de {item.days} a {days(item.max_days)}")
        elif item.days is not None:
            parts.append(f"de {days(item.days)}")
        elif item.max_days:
            parts.append(f"de até {days(item.max_days)}")
        elif item.admin_defined:
            parts.append("prazo definido pela Administração")
    term_years, term_months = getattr(item, "years", None), getattr(item, "months", None)
    if item.kind in ("suspension", "impediment") and (term_years or term_months):  # "por 2 anos" (the act's own)
        parts.append("por " + (years(term_years) if term_years else months(term_months or 0)))
    if item.kind == "revocation" and item.wait_months:
        parts.append(f"nova permissão só após {months(item.wait_months)}")
    until = getattr(item, "until", None)
    if isinstance(until, str):  # the sanction as the act writes it (a proposal's carries the day itself)
        parts.append("até o fim do ano civil")
    elif until is not None and not hasattr(item, "decision"):
        parts.append(f"até {until.strftime('%d/%m/%Y')}")
    if item.admin_defined and item.kind not in ("suspension",):
        parts.append("definida pela Administração" if not _masculine(name) else "definido pela Administração")
    if item.text and item.kind == "impediment":
        parts[0] = f"{parts[0]}: {lower_first(item.text)}"
    elif item.text and item.kind != "warning":
        parts.append(lower_first(item.text))
    if item.cumulative:
        parts.append("cumulativo" if _masculine(name) else "cumulativa")
    text = ", ".join(parts)
    if not terms:
        return text
    if getattr(item, "one_of", None):
        text += " — alternativa: a autoridade impõe uma das sanções alternativas"
    elif item.discretionary:
        text += f" — poderá ser aplicad{'o' if _masculine(name) else 'a'}, a critério da autoridade"
    condition = getattr(item, "condition", None)
    if condition is not None:
        text += f" — só {lower_first(condition.text)}"
    return text


def sanction_fact(regime: Regime, item: Sanction) -> Fact:
    return fact(regime, sanction(item, currency=regime.currency), item)


def fine(item: Fine, currency: str = "R$") -> str:
    if item is None:
        return "—"
    if item.admin_defined:
        return "definida pela Administração"
    if item.amount is not None:
        return amount(item.amount, currency)
    if item.max is not None:
        return f"até {amount(item.max, currency)}" + (" (graduada pelo fiscal)" if item.graded else "")
    return "—"


def offence(step: LadderStep, last: bool) -> str:
    return f"{step.offence}ª ocorrência" + (" e seguintes" if last else "")


def window(days_: int | None = None, years_: int | None = None) -> str:
    """A recurrence window as the file declares it: "5 anos" (calendar years) or "730 dias"."""
    return years(years_) if years_ else days(days_ or 0)


def recurrence_window(days_: int | None = None, years_: int | None = None) -> str:
    return f"reincidência: nova infração da mesma natureza em até {window(days_, years_)}"


def ladder_facts(regime: Regime, ladder: Ladder) -> list[Fact]:
    """A penalty ladder: its recurrence window and article, then each step with its sanctions."""
    head = (
        cap(recurrence_window(ladder.recurrence_window_days, ladder.recurrence_window_years))
        if ladder.recurrence_window_days or ladder.recurrence_window_years
        else "Prazo de reincidência: não fixado"
    )
    out = [fact(regime, head, ladder)]
    for n, step in enumerate(ladder.steps):
        last = n == len(ladder.steps) - 1
        out.append(
            Fact(
                text=cap(offence(step, last)) + ":",
                notes=notes(step),
                details=tuple(sanction_fact(regime, s) for s in step.sanctions),
            )
        )
    return out


def infraction_facts(regime: Regime, inf: Infraction) -> list[Fact]:
    """Everything an infraction entails: its fine, ladder and every extra sanction, with their articles."""
    out = []
    if inf.fine is not None and inf.fine.formula is not None:  # the fine's rule in words, its values under it
        rule = fine_rule_facts(regime, inf)
        if rule:
            out.append(dataclasses.replace(rule[0], details=tuple(rule[1:])))
    elif inf.fine is not None:
        out.append(fact(regime, f"Multa: {fine(inf.fine, regime.currency)}", inf.fine))
    if inf.ladder:
        ladder = regime.ladder(inf.ladder)
        label = ladder.label if ladder.label.lower().startswith("gradação") else f"Gradação: {ladder.label}"
        out.append(Fact(text=label, ident=ladder.id))
    for s in inf.sanctions:
        out.append(sanction_fact(regime, s))
    if inf.no_sanction:  # the act forbids it and sets no penalty: never "prevista" in the article that forbids it
        cited = regime.cite(inf.article, inf.basis_act)
        text = f"Penalidade: nenhuma — o ato proíbe a conduta ({cited}) e não lhe comina sanção"
        out.append(Fact(text=text, notes=notes(inf)))
        return out
    out.append(Fact(text=f"Penalidade prevista em {regime.cite_item(inf)}", notes=notes(inf)))
    return out


def penalty_facts(regime: Regime, penalties: Penalties) -> list[Fact]:
    """Regime-wide penalty facts: cumulation, recurrence, any order, index correction of fines."""
    if penalties is None:
        return []
    out = []
    if penalties.cumulative is not None:
        out.append(
            fact(
                regime, "Infrações simultâneas: as sanções de cada uma aplicam-se cumulativamente", penalties.cumulative
            )
        )
    r = penalties.recurrence
    if r is not None:
        text = "Reincidência"
        if r.window_days or r.window_years:
            text += f" (nova infração da mesma natureza em até {window(r.window_days, r.window_years)})"
        parts = []
        if r.multiplier is not None:
            how = "em dobro" if r.multiplier == 2 else f"multiplicada por {number(r.multiplier)}"
            parts.append(f"a multa {'poderá ser aplicada' if r.discretionary else 'é aplicada'} {how}")
        if r.max_doublings:
            parts.append(f"no máximo {plural(r.max_doublings, 'vez', 'vezes')}")
        if r.discretionary:
            parts.append("a critério da autoridade")
        if parts:
            text += ": " + ", ".join(parts)
        if r.reading:
            text += f". Leitura adotada: {r.reading}"
        out.append(fact(regime, text, r))
    if penalties.any_order is not None:
        out.append(
            fact(
                regime,
                "As penalidades podem ser aplicadas independentemente da ordem da gradação, "
                "conforme a gravidade da infração",
                penalties.any_order,
            )
        )
    if penalties.index is not None:
        code = penalties.index.code
        try:
            name = f" ({regime.index(code).name})"
        except Exception:  # an id the act no longer has: shown as it is
            name = ""
        out.append(fact(regime, f"O valor das multas é corrigido anualmente pelo {code}{name}", penalties.index))
    return out


def deadline(item: Deadline) -> str:
    return period(item.days, item.hours, item.count)


def deadline_text(item: Deadline, regime: Regime | None = None) -> str:
    """ "10 dias corridos, contados da aplicação da penalidade; se terminar em dia sem expediente, …" — as the
    act counts it, with the rule for a closed last day (the deadline's own, or the regime's calendar)."""
    n = item.days if item.days is not None else item.hours
    direction = "antes" if item.direction == "before" else ("contado" if n == 1 else "contados")
    text = f"{deadline(item)}, {direction} {event(item.from_)}"
    rule = regime.closed_day_rule(item) if regime is not None else item.closed_day
    if rule is not None:
        text += f"; {CLOSED_DAY_RULES[rule.rule]}"
        if regime is not None:
            text += f" ({regime.cite_item(rule)})"
    if item.applies_to:
        text += "; vale para: " + ", ".join(SANCTIONS.get(k, k) for k in item.applies_to)
    if item.matter:
        text += "; matéria: " + ", ".join(SCOPES.get(k, k) for k in item.matter)
    if item.perishable is not None:
        text += "; bens perecíveis" if item.perishable else "; bens não perecíveis"
    if item.alternative:
        text += "; alternativo (escolhido pelo fiscal)"
    return text


def event(key: str) -> str:
    """What a deadline counts from, contracted for "contado …"/"antes …" ("da notificação")."""
    return EVENTS.get(key, key)


def seizure_facts(regime: Regime, seizure: Seizure) -> list[Fact]:
    if seizure is None:
        return []
    out = [fact(regime, "Apreensão de mercadorias e objetos", seizure)]
    fee = seizure.depot_fee
    if fee is not None:
        value = (
            "definida pela Administração"
            if fee_needs(regime, fee.as_fee()).administration is not None
            else f"{amount(fee.amount, regime.currency)} {PER.get(fee.per or '', fee.per or '')}".strip()
        )
        where = (" — só em " + ", ".join(SCOPES.get(x, x) for x in fee.scopes)) if fee.scopes else ""
        out.append(fact(regime, f"Taxa de depósito: {value}{where}", fee))
    if seizure.expenses is not None:
        e = seizure.expenses
        extra = f" (valor: {amount(e.amount, regime.currency)})" if e.amount is not None else ""
        out.append(fact(regime, f"Despesas da apreensão: {e.text}{extra}", e))
    for label, p in (
        ("Prazo para retirar perecíveis", seizure.reclaim_perishable),
        ("Prazo para retirar os demais bens", seizure.reclaim_other),
    ):
        if p is not None:
            value = "definido pela Administração" if p.admin_defined else period(p.days, p.hours, p.count)
            out.append(fact(regime, f"{label}: {value}", p))
    if seizure.release is not None:
        r = seizure.release
        extra = f" (valor: {amount(r.amount, regime.currency)})" if r.amount is not None else ""
        out.append(fact(regime, f"Liberação: {r.text}{extra}", r))
    if seizure.donation is not None:
        d = seizure.donation
        extra = f" (valor: {amount(d.amount, regime.currency)})" if d.amount is not None else ""
        out.append(fact(regime, f"Destinação: {d.text}{extra}", d))
    return out
