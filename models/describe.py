"""pt-BR sentences for the parts of a regime, for screens, reports and the command line.

Pure functions over the regime's dataclasses: they never compute a price (the
fee engine does), they only say in words what the act says.
"""

from __future__ import annotations

from decimal import Decimal

from models.money import format_brl, format_decimal_br

HOLDERS = {"person": "pessoa física", "company": "pessoa jurídica", "mei": "MEI"}
SCOPES = {
    "street-vending": "comércio ambulante", "event": "eventos", "street-food": "comida de rua",
    "feira": "feira livre", "beach": "praia",
}
SIDES = {"a": "lado A", "b": "lado B"}
COUNTS = {"calendar": "dias corridos", "business": "dias úteis", "hours": "horas"}
SANCTIONS = {
    "warning": "advertência", "fine": "multa", "suspension": "suspensão", "revocation": "cassação",
    "seizure": "apreensão", "interdiction": "interdição", "forfeiture": "perdimento",
    "impediment": "impedimento", "cancellation": "cancelamento", "exclusion": "exclusão",
}
FEE_KINDS = {
    "linear-metre": "por metro linear", "energy": "tarifa de energia", "per-area-month": "por m² ao mês",
    "venue-table": "tabela por imóvel", "fixed": "valor fixo", "per-day": "por dia",
}
SEVERITIES = {"leve": "leve", "media": "média", "grave": "grave", "gravissima": "gravíssima"}
RULES = {
    "min-age": "idade mínima", "legally-capable": "capacidade civil", "legal-form": "forma jurídica",
    "cnpj-required": "CNPJ", "municipal-registration": "inscrição municipal", "resident": "residência no município",
    "document": "documento", "one-per": "uma permissão por", "no-debts": "sem débitos com o município",
    "no-prior-revocation": "sem cassação anterior", "waiting-period": "carência", "cap": "limite de permissões",
    "quota": "cota reservada", "not-public-servant": "não ser servidor público", "custom": "verificação manual",
}
ONE_PER = {
    "person": "pessoa", "family": "família", "spouse": "cônjuge", "partners": "sócios",
    "household": "núcleo familiar", "dependants": "dependentes",
}
AFTER = {"expiry": "o vencimento", "revocation": "a cassação", "abandonment": "o abandono",
         "cancellation": "o cancelamento"}
EVENTS = {
    "absence-start": "do início da ausência", "appeal-filed": "da interposição do recurso",
    "approval-notice": "do aviso de aprovação", "archiving": "do arquivamento", "boleto-issue": "da emissão do boleto",
    "decision-notification": "da notificação da decisão", "decision-publication": "da publicação da decisão",
    "defence-filed": "da apresentação da defesa", "deposit-return-request": "do pedido de devolução da caução",
    "event-end": "do fim do evento", "filing": "do protocolo", "final-list-publication": "da publicação da lista final",
    "infraction-record": "da lavratura do auto de infração", "issue": "da emissão",
    "leave-start": "do início do afastamento", "licence-expiry": "do vencimento da licença",
    "list-publication": "da publicação da lista", "notification": "da notificação", "penalty": "da aplicação da penalidade",
    "permit-grant": "da concessão da permissão", "request-received": "do recebimento do pedido",
    "seizure": "da apreensão", "selection-end": "do fim da seleção", "tpu-publication": "da publicação do TPU",
}
PER = {"once": "uma vez", "year": "por ano", "month": "por mês", "day": "por dia", "event": "por evento"}


def metres(value: Decimal | None) -> str:
    return "—" if value is None else f"{format_decimal_br(value, 2)} m"


def amount(value) -> str:
    """An ``Amount``: "R$ 150,00" or "20 UFESP"."""
    if value is None:
        return "—"
    if value.unit == "BRL":
        return format_brl(value.value)
    number = value.value
    text = format_decimal_br(number, 0) if number == number.to_integral_value() else format_decimal_br(number, 2)
    return f"{text} {value.unit}"


def percent(rate: Decimal) -> str:
    """A fraction as a percentage with the places it needs: 0.30 → "30 %", 0.0623 → "6,23 %"."""
    value = (rate * 100).normalize()
    places = min(max(0, -value.as_tuple().exponent), 4)
    return f"{format_decimal_br(value, places)} %"


def period(days: int | None = None, hours: int | None = None, count: str | None = None) -> str:
    if hours is not None:
        return f"{hours} hora{'s' if hours != 1 else ''}"
    if days is None:
        return "—"
    unit = COUNTS.get(count or "calendar", "dias")
    if days == 1:
        unit = {"dias corridos": "dia corrido", "dias úteis": "dia útil"}.get(unit, "dia")
    return f"{days} {unit}"


def rule(item, regime=None) -> str:
    """One eligibility rule in words."""
    kind = item.kind
    name = RULES.get(kind, kind)
    if kind == "min-age":
        return f"Idade mínima de {item.years} anos"
    if kind == "legal-form":
        return "Forma jurídica: " + ", ".join(HOLDERS.get(a, a) for a in item.allowed)
    if kind == "resident":
        return f"Residente no município há pelo menos {item.years} ano(s)" if item.years else "Residente no município"
    if kind == "document" and item.document:
        label = item.document
        if regime is not None:
            try:
                label = regime.document(item.document).label
            except Exception:  # noqa: BLE001 - a dangling id is caught by the loader; show the id
                pass
        return f"Documento: {label}"
    if kind == "one-per":
        return f"Uma permissão por {ONE_PER.get(item.scope, item.scope)}"
    if kind in ("waiting-period", "no-prior-revocation"):
        after = AFTER.get(item.after or "revocation", item.after or "")
        return f"Carência de {item.months} meses após {after}"
    if kind == "cap":
        return f"No máximo {item.count} permissões"
    if kind == "quota":
        who = ", ".join(item.beneficiaries)
        return f"Cota de {percent(item.percent)} para {who}" if item.percent is not None else f"Cota para {who}"
    if kind == "custom":
        return item.text or name
    return name[:1].upper() + name[1:]


def sanction(item) -> str:
    """One sanction of a ladder step in words."""
    name = SANCTIONS.get(item.kind, item.kind)
    parts = [name[:1].upper() + name[1:]]
    if item.kind == "warning":
        if item.comply_hours is not None:
            parts.append(f"prazo de {period(hours=item.comply_hours)} para regularizar")
        elif item.comply_days is not None:
            parts.append(f"prazo de {period(item.comply_days)} para regularizar")
    elif item.kind == "fine":
        if item.amount is not None:
            parts.append(amount(item.amount))
        elif item.multiplier is not None and item.multiplier != 1:
            parts.append(f"{format_decimal_br(item.multiplier, 0)} × a multa-base")
        if item.graded and item.max is not None:
            parts.append(f"graduada até {amount(item.max)}")
    elif item.kind == "suspension":
        if item.until_remedied:
            parts.append("até sanar a irregularidade")
        elif item.days is not None and item.max_days:
            parts.append(f"de {item.days} a {item.max_days} dias")
        elif item.days is not None:
            parts.append(f"{'até ' if item.discretionary else ''}{item.days} dias")
        elif item.admin_defined:
            parts.append("prazo definido pela Administração")
    elif item.kind == "revocation" and item.wait_months:
        parts.append(f"nova permissão só após {item.wait_months} meses")
    elif item.text:
        parts.append(item.text)
    if item.cumulative:
        parts.append("cumulativa")
    return ", ".join(parts)


def fine(item) -> str:
    if item is None:
        return "—"
    if item.admin_defined:
        return "definida pela Administração"
    if item.amount is not None:
        return amount(item.amount)
    if item.max is not None:
        return f"até {amount(item.max)}" + (" (graduada pelo fiscal)" if item.graded else "")
    return "—"


def validity(item) -> str:
    if item is None:
        return "—"
    if item.years:
        return f"{item.years} ano(s)"
    if item.months:
        return f"{item.months} meses"
    if item.days:
        return f"{item.days} dias"
    if item.until:
        return {"event-end": "até o fim do evento"}.get(item.until, item.until)
    return "—"


def deadline(item) -> str:
    return period(item.days, item.hours, item.count)


def event(key: str) -> str:
    """What a deadline counts from, contracted for "contado …"/"antes …" ("da notificação")."""
    return EVENTS.get(key, key)
