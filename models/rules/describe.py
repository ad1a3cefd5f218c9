"""pt-BR sentences for the parts of a regime, for screens, reports and the command line.

Pure functions over the regime's dataclasses: they never compute a price (the
fee engine does), they only say in words what the act says. The Regimes screen
(``resources/templates/regime.html.j2``) and ``praca regimes --show`` both
take their wording from here, so the two can never tell an act differently.

Most parts of an act come out as :class:`Fact`\\ s — one sentence, its full
citation, the regime file's notes on it and its details — which each front end
only lays out (HTML list or table, indented text).

Attributes that a newer regime loader adds (``Rule.more_than``,
``Rule.same_site``…) are read with ``getattr(…, None)``: without them the
sentence falls back on what the rule's notes say, as the eligibility check does.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal

from models.base.money import format_brl, format_decimal_br, format_factor

HOLDERS = {"person": "pessoa física", "company": "pessoa jurídica", "mei": "MEI"}
SCOPES = {
    "street-vending": "comércio ambulante",
    "event": "eventos",
    "street-food": "comida de rua",
    "feira": "feira livre",
    "beach": "praia",
}
SIDES = {"a": "lado A", "b": "lado B"}
COUNTS = {"calendar": "dias corridos", "business": "dias úteis", "hours": "horas"}
SANCTIONS = {
    "warning": "advertência",
    "fine": "multa",
    "suspension": "suspensão",
    "revocation": "cassação",
    "seizure": "apreensão",
    "interdiction": "interdição",
    "forfeiture": "perdimento",
    "impediment": "impedimento",
    "cancellation": "cancelamento",
    "exclusion": "exclusão",
}
FEE_KINDS = {
    "linear-metre": "por metro linear",
    "energy": "tarifa de energia",
    "per-area-month": "por m² ao mês",
    "venue-table": "tabela por imóvel",
    "fixed": "valor fixo",
    "per-day": "por dia",
}
SEVERITIES = {"leve": "leve", "media": "média", "grave": "grave", "gravissima": "gravíssima"}
RULES = {
    "min-age": "idade mínima",
    "legally-capable": "capacidade civil",
    "legal-form": "forma jurídica",
    "cnpj-required": "CNPJ",
    "municipal-registration": "inscrição municipal",
    "resident": "residência no município",
    "document": "documento",
    "one-per": "uma permissão por",
    "no-debts": "sem débitos com o município",
    "no-prior-revocation": "sem cassação anterior",
    "waiting-period": "carência",
    "cap": "limite de permissões",
    "quota": "cota reservada",
    "not-public-servant": "não ser servidor público",
    "custom": "verificação manual",
}
ONE_PER = {
    "person": "pessoa",
    "family": "família",
    "spouse": "cônjuge",
    "partners": "sócios",
    "household": "núcleo familiar",
    "dependants": "dependentes",
}
# one-per scopes that bar the relatives/partners of a current holder (SJC art. 12; Olímpia art. 162, § 2º)
RELATIVES = {
    "spouse": "cônjuge ou companheiro(a)",
    "partners": "sócio",
    "dependants": "dependente",
}
BENEFICIARIES = {
    "elderly": "idosos",
    "disabled": "pessoas com deficiência",
    "no-income": "pessoas sem outra fonte de renda",
    "low-income": "pessoas de baixa renda",
}
#: the facts a conditional sanction waits for (``regimes.SANCTION_FACTS``)
FACTS = {
    "not-complied": "notificação não atendida no prazo",
    "not-remedied": "irregularidade não sanada",
    "earlier-sanctions": "sanções anteriores aplicadas",
}
#: what each deadline is for (``regimes.DEADLINE_ROLES``)
ROLES = {
    "compliance": "Regularização",
    "payment": "Pagamento da multa",
    "payment-after-decision": "Pagamento após a decisão",
    "defence": "Defesa",
    "decision": "Julgamento da defesa",
    "appeal": "Recurso",
    "appeal-decision": "Julgamento do recurso",
    "reclaim": "Retirada dos bens apreendidos",
    "selection-appeal": "Recurso contra a lista",
    "selection-decision": "Julgamento do recurso contra a lista",
    "documents": "Entrega de documentos",
    "startup": "Início das atividades",
    "pickup": "Retirada do documento",
    "use": "Uso da permissão",
    "lapse": "Caducidade",
    "renewal": "Pedido de renovação",
    "leave": "Pedido de afastamento",
    "substitute": "Indicação de substituto",
    "request-decision": "Apreciação do pedido",
    "publication": "Publicação",
    "price-payment": "Pagamento do preço",
    "damage-report": "Laudo de danos",
    "deposit-return": "Devolução da caução",
    "notice": "Aviso prévio",
}
CLOSED_DAY_RULES = {
    "next-business-day": "se terminar em dia sem expediente, prorroga-se até o primeiro dia útil seguinte "
    "(um prazo em horas, até a mesma hora desse dia)",
    "end-of-next-business-day": "se terminar em dia sem expediente, vai até o fim do expediente do primeiro dia "
    "útil seguinte",
    "stays": "termina onde cair, mesmo em dia sem expediente",
}
AFTER = {
    "expiry": "o vencimento",
    "revocation": "a cassação",
    "abandonment": "o abandono",
    "cancellation": "o cancelamento",
}
EVENTS = {
    "absence-start": "do início da ausência",
    "appeal-filed": "da interposição do recurso",
    "approval-notice": "do aviso de aprovação",
    "archiving": "do arquivamento",
    "boleto-issue": "da emissão do boleto",
    "decision-notification": "da notificação da decisão",
    "decision-publication": "da publicação da decisão",
    "defence-filed": "da apresentação da defesa",
    "deposit-return-request": "do pedido de devolução da caução",
    "event-end": "do fim do evento",
    "filing": "do protocolo",
    "final-list-publication": "da publicação da lista final",
    "infraction-record": "da lavratura do auto de infração",
    "issue": "da emissão",
    "leave-start": "do início do afastamento",
    "licence-expiry": "do vencimento da licença",
    "list-publication": "da publicação da lista",
    "notification": "da notificação",
    "penalty": "da aplicação da penalidade",
    "permit-grant": "da concessão da permissão",
    "request-received": "do recebimento do pedido",
    "seizure": "da apreensão",
    "selection-end": "do fim da seleção",
    "tpu-publication": "da publicação do TPU",
}
PER = {"once": "uma vez", "year": "por ano", "month": "por mês", "day": "por dia", "event": "por evento"}
METHODS = {
    "score": "por pontuação (análise socioeconômica)",
    "registration-order": "por ordem de inscrição",
    "draw": "por sorteio",
    "rotating-draw": "por sorteio, com lista corrida (rodízio)",
    "preference-then-draw": "pela ordem de preferência e, depois, por sorteio",
}
ORDER_BY = {"registration-time": "pela data e hora da inscrição", "payment-time": "pela data e hora do pagamento"}
DRAW_PER = {"line": "por ramo de atividade", "section": "por seção", "site": "por local", "event": "por evento"}
TIE_BREAKS = {
    "disabled": "pessoa com deficiência",
    "oldest": "o mais idoso",
    "elderly": "idoso",
    "earliest": "o inscrito primeiro",
    "draw": "sorteio",
    "local": "morador do município",
    "earliest-registration": "a inscrição mais antiga",
    "earliest-payment": "o pagamento mais antigo",
}
EXCLUDES = {"debtors": "quem está em débito com a Fazenda Municipal", "revoked": "quem teve permissão cassada"}
SITE_KINDS = {"street-segment": "trecho de rua", "arena": "arena", "beach-point": "ponto de praia", "venue": "imóvel"}
PLACARD_CONTENTS = {
    "company-name": "nome da empresa",
    "holder-name": "nome do titular",
    "cnpj": "CNPJ",
    "cpf": "CPF",
    "municipal-registration": "número do Cadastro Municipal",
    "permit-number": "número da permissão",
    "line": "ramo de atividade (mercadorias)",
    "section": "seção",
    "photo": "foto",
    "qr-code": "código QR",
}
DISTANCES = {
    "bus-stop": "pontos ou abrigos de ônibus",
    "taxi-stop": "pontos de táxi",
    "school": "escolas (portões de acesso)",
    "same-trade-shop": "estabelecimento fixo do mesmo ramo",
    "feira": "feiras livres",
    "corner": "esquinas",
    "hospital": "hospitais",
    "church": "templos",
}
NUMBERING = {"sequential": "numeração sequencial", "odd-even": "numeração par e ímpar (um lado de cada)"}
WEEKDAYS = {
    "mon": "segundas-feiras",
    "tue": "terças-feiras",
    "wed": "quartas-feiras",
    "thu": "quintas-feiras",
    "fri": "sextas-feiras",
    "sat": "sábados",
    "sun": "domingos",
}
DAY_NAMES = ("segunda-feira", "terça-feira", "quarta-feira", "quinta-feira", "sexta-feira", "sábado", "domingo")
CATEGORIES = {  # values of score criteria (Sapezal art. 10, I)
    "rented": "aluguel",
    "financed": "imóvel financiado",
    "owned": "imóvel próprio",
    "lent": "imóvel cedido",
    "other": "outros",
}
# the act's own word for a sanction kind, found in the sanction's text or notes (earliest wins)


# --------------------------------------------------------------------------- a fact


@dataclass(frozen=True)
class Fact:
    """One thing an act says: the sentence, its full citation, the file's notes on it, its details.

    ``ident`` is the id other commands take (shown by the front end as it
    likes); ``option`` the command-line option that takes it (``--energy``).
    """

    text: str
    cite: str = ""
    notes: str = ""
    details: tuple[Fact, ...] = ()
    ident: str = ""
    option: str = ""


def notes(item) -> str:
    """The regime file's notes on ``item`` ("" when none)."""
    return (getattr(item, "notes", None) or "").strip()


def cite(regime, item) -> str:
    """Full citation of ``item`` if it has a basis, else ""."""
    if item is None or not getattr(item, "basis", None):
        return ""
    return regime.cite_item(item)


def _fact(regime, text: str, item=None, *, ident: str = "", option: str = "", citation: str | None = None) -> Fact:
    """A sentence about ``item``, with its citation and notes."""
    return Fact(
        text=text,
        cite=cite(regime, item) if citation is None else citation,
        notes=notes(item),
        ident=ident,
        option=option,
    )


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _lower_first(text: str) -> str:
    """ "Impedida de …" → "impedida de …" (an acronym such as "TPU …" stays as it is)."""
    if len(text) > 1 and text[1].islower():
        return text[:1].lower() + text[1:]
    return text


def _join(items, last: str = "e") -> str:
    items = [i for i in items if i]
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} {last} {items[-1]}"


# --------------------------------------------------------------------------- numbers, dates, periods


def plural(n: int, one: str, many: str) -> str:
    return f"{format_decimal_br(n, 0)} {one if n == 1 else many}"


def years(n: int) -> str:
    return plural(n, "ano", "anos")


def months(n: int) -> str:
    return plural(n, "mês", "meses")


def days(n: int) -> str:
    return plural(n, "dia", "dias")


def metres(value: Decimal | None) -> str:
    return "—" if value is None else f"{format_decimal_br(value, 2)} m"


def number(value) -> str:
    """A decimal of the file as written, in pt-BR ("1.00" → "1,00", "30" → "30")."""
    return format_factor(value)


def amount(value) -> str:
    """An ``Amount``: "R$ 150,00" or "20 UFESP"."""
    if value is None:
        return "—"
    if value.unit == "BRL":
        return format_brl(value.value)
    n = value.value
    text = format_decimal_br(n, 0) if n == n.to_integral_value() else format_decimal_br(n, 2)
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


def date(value: dt.date) -> str:
    return value.strftime("%d/%m/%Y")


def clock(value: dt.time) -> str:
    return value.strftime("%H:%M")


def moment(value: dt.datetime) -> str:
    """ "27/03/2026 (sexta-feira) às 12:00"."""
    return f"{date(value)} ({DAY_NAMES[value.weekday()]}) às {clock(value)}"


# --------------------------------------------------------------------------- permits and their rules


def _same_site(item, regime) -> str | None:
    """The act's "na mesma feira" for a one-per rule (its declared words), or None when the bar is not limited to
    one site."""
    if not getattr(item, "same_site", False):
        return None
    return getattr(item, "same_site_words", None) or "mesmo local"


def _more_than(item) -> bool:
    """ "há mais de 1 ano" (Sapezal art. 7º) rather than "há pelo menos", as the rule declares it."""
    return bool(getattr(item, "more_than", False))


def one_per(item, regime=None) -> str:
    """A one-per rule as the acts say it."""
    scope = item.scope or "person"
    where = _same_site(item, regime)
    place = f" {'no' if where.startswith('mesmo') else 'na'} {where}" if where else ""
    if scope in RELATIVES:
        return f"Não se concede permissão a {RELATIVES[scope]} de quem já é permissionário{place}"
    return f"No máximo uma permissão por {ONE_PER.get(scope, scope)}{place}"


def beneficiaries(ids) -> str:
    return _join([BENEFICIARIES.get(b, b) for b in ids]) or "beneficiários"


def rule(item, regime=None) -> str:
    """One eligibility rule in words."""
    kind = item.kind
    name = RULES.get(kind, kind)
    admin = bool(getattr(item, "admin_defined", False))
    if kind == "min-age":
        if admin or item.years is None:
            return "Idade mínima definida pela Administração"
        return f"Idade mínima de {years(item.years)}"
    if kind == "legally-capable":
        return "Pessoa legalmente capaz"
    if kind == "legal-form":
        return "Forma jurídica: " + ", ".join(HOLDERS.get(a, a) for a in item.allowed)
    if kind == "cnpj-required":
        return "Ter CNPJ"
    if kind == "municipal-registration":
        return "Inscrição municipal (cadastro mobiliário)"
    if kind == "resident":
        if admin:
            return "Residente no município (tempo mínimo definido pela Administração)"
        if item.years:
            return f"Residente no município há {'mais de' if _more_than(item) else 'pelo menos'} {years(item.years)}"
        return "Residente no município"
    if kind == "document" and item.document:
        label = item.document
        if regime is not None:
            try:
                label = regime.document(item.document).label
            except Exception:  # a dangling id is caught by the loader; show the id
                pass
        return f"Documento: {label}"
    if kind == "one-per":
        return one_per(item, regime)
    if kind == "no-prior-revocation":
        if admin or item.months is None:
            return "Sem cassação anterior (prazo definido pela Administração)"
        return f"Sem cassação nos últimos {months(item.months)}"
    if kind == "waiting-period":
        after = AFTER.get(item.after or "revocation", item.after or "")
        if admin or item.months is None:
            return f"Carência após {after} (prazo definido pela Administração)"
        return f"Carência de {months(item.months)} após {after}"
    if kind == "cap":
        if admin or item.count is None:
            return "Limite de permissões definido pela Administração"
        return f"No máximo {plural(item.count, 'permissão', 'permissões')}"
    if kind == "quota":
        who = beneficiaries(item.beneficiaries)
        if admin or item.percent is None:
            return f"Cota de vagas para {who} (percentual definido pela Administração)"
        return f"Cota de {percent(item.percent)} das vagas para {who}"
    if kind == "no-debts":
        return "Sem débitos com o município"
    if kind == "not-public-servant":
        return "Não ser servidor público"
    if kind == "custom":
        return item.text or _cap(name)
    return _cap(name)


def rule_due(item, regime) -> str:
    """ " — a apresentar depois: 10 dias úteis, contados da publicação da lista final" for a rule the act asks
    after the application (``due``; Sapezal art. 11), else ""."""
    if not getattr(item, "due", None):
        return ""
    try:
        return f" — a apresentar depois: {deadline_text(regime.deadline(item.due))}"
    except Exception:  # a dangling id is caught by the loader; show the id
        return f" — a apresentar depois ({item.due})"


def validity(item) -> str:
    if item is None:
        return "—"
    if item.years:
        return years(item.years)
    if item.months:
        return months(item.months)
    if item.days:
        return days(item.days)
    if item.until:
        return {"event-end": "até o fim do evento"}.get(item.until, item.until)
    return "—"


def renewal(item) -> str:
    if item.until_month_day:
        return f"até {item.until_month_day[3:]}/{item.until_month_day[:2]} de cada ano"
    if item.from_days_before is not None and item.to_days_before is not None:
        return f"entre {item.from_days_before} e {item.to_days_before} dias antes do vencimento"
    if item.to_days_before is not None:
        return f"até {days(item.to_days_before)} antes do vencimento"
    if item.from_days_before is not None:
        return f"a partir de {days(item.from_days_before)} antes do vencimento"
    return "—"


def startup(item) -> str:
    return f"em até {days(item.days)}" + (", prorrogável uma vez" if item.extendable_once else "")


def leave(item) -> str:
    parts = [f"até {days(item.max_days_per_year)} por ano"]
    if item.max_periods:
        parts.append(f"em até {plural(item.max_periods, 'período', 'períodos')}")
    if item.notice_days:
        parts.append(f"pedido com {days(item.notice_days)} de antecedência")
    return ", ".join(parts)


def holders(values) -> str:
    return ", ".join(HOLDERS.get(h, h) for h in values)


def document(doc) -> str:
    """A document with its validity, who must give it and when."""
    parts = [doc.label]
    if doc.validity_months:
        parts.append(f"validade de {months(doc.validity_months)}")
    if doc.applies_to:
        parts.append(f"de {holders(doc.applies_to)}")
    if doc.proves == "residence":
        parts.append("prova a residência no município")
    if doc.recorded == "municipal-registration":
        parts.append("dispensado quando a inscrição municipal consta do cadastro do requerente")
    text = " — ".join([parts[0], ", ".join(parts[1:])]) if len(parts) > 1 else parts[0]
    if doc.condition:
        text += f". Quando: {doc.condition}"
    return text


def permit_facts(regime, kind) -> list[Fact]:
    """What a permit kind is: instrument and holder, validity, renewal, start-up, leave, calendar, fees."""
    out = [_fact(regime, f"{_cap(kind.instrument)} · titular: {holders(kind.holder)}", kind)]
    if kind.validity is not None:
        out.append(_fact(regime, f"Validade: {validity(kind.validity)}", kind.validity))
    if kind.renewal is not None:
        out.append(_fact(regime, f"Renovação: {renewal(kind.renewal)}", kind.renewal))
    if kind.startup is not None:
        out.append(_fact(regime, f"Início da atividade: {startup(kind.startup)}", kind.startup))
    if kind.leave is not None:
        out.append(_fact(regime, f"Afastamento anual: {leave(kind.leave)}", kind.leave))
    if kind.non_residents is not None:
        out.append(
            _fact(
                regime,
                "Admite requerentes de outras localidades: a residência no município não os recusa",
                kind.non_residents,
            )
        )
    if kind.schedule:
        schedule = regime.schedule(kind.schedule)
        out.append(_fact(regime, f"Calendário: {schedule.label}", ident=schedule.id, citation=""))
    if kind.fees:
        labels = [regime.fee(f).label for f in kind.fees]
        out.append(Fact(text="Preços e taxas: " + "; ".join(labels)))
    return out


# --------------------------------------------------------------------------- fees


def condition(when, regime) -> str:
    """When a discount applies, every part of it."""
    parts = []
    if when.mei is True:
        parts.append("MEI")
    elif when.mei is False:
        parts.append("não MEI")
    if when.local is True:
        parts.append("do município")
    elif when.local is False:
        parts.append("de fora do município")
    if when.equipment:
        parts.append("equipamento: " + _join([_equipment_label(regime, e).lower() for e in when.equipment], "ou"))
    if when.lines:
        parts.append("ramo: " + _join([_line_label(regime, x) for x in when.lines], "ou"))
    if when.max_depth is not None:
        parts.append(f"profundidade até {metres(when.max_depth)}")
    if when.max_metres is not None:
        parts.append(f"até {metres(when.max_metres)} lineares")
    return ", ".join(parts)


def _equipment_label(regime, ident: str) -> str:
    try:
        return regime.equipment(ident).label
    except Exception:  # an id the act no longer has: shown as it is
        return ident


def _line_label(regime, ident: str) -> str:
    try:
        return regime.line(ident).label
    except Exception:  # an id the act no longer has: shown as it is
        return ident


def tier_condition(tier, regime) -> str:
    parts = []
    if tier.equipment:
        parts.append(_join([_equipment_label(regime, e).lower() for e in tier.equipment], "ou"))
    if tier.max_metres is not None:
        parts.append(f"até {metres(tier.max_metres)} lineares")
    if tier.max_depth is not None:
        parts.append(f"profundidade máxima de {metres(tier.max_depth)}")
    return ", ".join(parts)


def fee_kind(fee) -> str:
    """What kind of charge a fee is — never "valor fixo" for a value the act leaves open."""
    per = f", {PER.get(fee.per, fee.per)}" if fee.per else ""
    if fee.kind in ("fixed", "per-day") and fee.admin_defined:
        if fee.kind == "per-day":
            per = ", por dia"
        return (
            "valor definido pela Administração"
            + (per or "; o ato não fixa a periodicidade")
            + " (o servidor o informa antes do cálculo)"
        )
    return FEE_KINDS.get(fee.kind, fee.kind)


def due(item) -> str:
    """When a fee is paid: "antecipadamente, até o dia 20 de cada mês" (SJC art. 11, § 5º)."""
    if item.date is not None:
        return f"até {date(item.date)}"
    if item.day_of_month is not None:
        advance = getattr(item, "in_advance", None)
        if advance is None:
            advance = "antecipad" in notes(item).lower()
        return f"{'antecipadamente, ' if advance else ''}até o dia {item.day_of_month} de cada mês"
    if item.days_after_issue is not None:
        return f"em até {days(item.days_after_issue)} após a emissão da guia"
    return "—"


def act_word(kind: str, word: str | None = None) -> str:
    """The act's own word for a sanction kind as the file declares it (``word``: "revogação"), else the label."""
    return word or SANCTIONS.get(kind, kind)


def venue(item) -> str:
    text = (
        f"menos de {days(item.min_days)}: {amount(item.one_day)} por dia; "
        f"a partir de {days(item.min_days)}: {amount(item.per_day)} por dia"
    )
    if item.deposit is not None:
        text += f"; caução (restituível) de {amount(item.deposit)}"
    return text


def fee_facts(regime, fee) -> list[Fact]:
    """A fee in words: its kind, formula, minimums, discounts and tiers with their conditions, due date,
    correction and arrears — each with its article."""
    if fee.kind in ("fixed", "per-day") and fee.amount is not None:
        per = f" {PER.get(fee.per, fee.per)}" if fee.per else (" por dia" if fee.kind == "per-day" else "")
        head = f"{'Valor fixo: ' if fee.kind == 'fixed' else ''}{amount(fee.amount)}{per}"
    else:
        head = _cap(fee_kind(fee))
    out = [_fact(regime, head, fee)]
    if fee.kind == "linear-metre":
        formula = f"V = {format_decimal_br(fee.coefficient, 2)} × {fee.unit} × ML × (1 − D)"
        if fee.year:
            formula += f", com a {fee.unit} de {fee.year}"
        out.append(Fact(text=formula))
        if fee.min_metres is not None:
            out.append(
                Fact(
                    text=f"Mínimo de {metres(fee.min_metres)} por unidade",
                    cite=regime.cite(fee.min_metres_basis) if fee.min_metres_basis else regime.cite_item(fee),
                )
            )
        if fee.hitch_counts:
            out.append(
                Fact(
                    text="O engate conta na metragem",
                    cite=regime.cite(fee.hitch_basis) if fee.hitch_basis else regime.cite_item(fee),
                )
            )
        for d in fee.discounts:
            when = condition(d.when, regime)
            out.append(
                _fact(
                    regime,
                    f"D = {percent(d.rate)}: {d.label}" + (f" (condição: {when})" if when else ""),
                    d,
                    ident=d.id,
                )
            )
    elif fee.kind == "energy":
        for tier in fee.tiers:
            value = f" = {format_brl(tier.expected)}" if tier.expected is not None else ""
            when = tier_condition(tier, regime)
            out.append(
                _fact(
                    regime,
                    f"{tier.label}: {number(tier.factor)} × {fee.unit}{value}" + (f" — para {when}" if when else ""),
                    tier,
                    ident=tier.id,
                    option="--energy",
                )
            )
    elif fee.kind == "per-area-month":
        area = {
            "line": " (área do ramo: frente × profundidade)",
            "declared": " (área declarada)",
            "used": " (área utilizada: frente × profundidade, até o tamanho máximo do ramo)",
        }.get(fee.area, "")
        out.append(Fact(text=f"{amount(fee.rate)} por m² ao mês{area}"))
        if fee.index:
            index = regime.index(fee.index)
            out.append(
                _fact(
                    regime,
                    f"Corrigido anualmente pelo {index.code} ({index.name}), a partir dos valores de {index.base_year}",
                    index,
                )
            )
    elif fee.kind == "venue-table":
        for v in fee.venues:
            out.append(_fact(regime, f"{v.label}: {venue(v)}", v, ident=v.id, option="--venue"))
    if fee.due is not None:
        out.append(_fact(regime, f"Pagamento: {due(fee.due)}", fee.due))
    for e in fee.exemptions:
        waived = " e ".join({"fee": "taxa", "deposit": "caução"}[w] for w in e.waives)
        proof = f"; comprovação: documento {e.document}" if e.document else ""
        out.append(_fact(regime, f"Dispensa ({waived}): {e.label}{proof}", e, ident=e.id, option="--exemption"))
    if fee.reading:
        out.append(Fact(text=f"Leitura adotada: {fee.reading}", cite=regime.cite_item(fee)))
    if fee.arrears is not None:
        a = fee.arrears
        word = act_word(a.sanction, getattr(a, "word", None))
        out.append(_fact(regime, f"{months(a.months)}{' consecutivos' if a.consecutive else ''} sem pagar: {word}", a))
    return out


# --------------------------------------------------------------------------- penalties


def _masculine(word: str) -> bool:
    return word.split()[0].endswith("mento")


def sanction(item, *, terms: bool = True) -> str:
    """One sanction in words, in the act's own word where the file declares it (``word``); with ``terms``, also
    whether the act leaves it to the authority and the condition it waits for (a proposal shows those itself)."""
    name = act_word(item.kind, getattr(item, "word", None))
    parts = [_cap(name)]
    if item.kind == "warning":
        if item.comply_hours == 0:
            parts.append("regularização imediata")
        elif item.comply_hours is not None:
            parts.append(f"prazo de {period(hours=item.comply_hours)} para regularizar")
        elif item.comply_days is not None:
            parts.append(f"prazo de {period(item.comply_days)} para regularizar")
    elif item.kind == "fine":
        if item.amount is not None:
            parts.append(amount(item.amount))
        elif item.multiplier is not None:
            m = item.multiplier
            if m == 1:
                parts[0] += " (valor da infração)"
            elif m == 2:
                parts[0] += " em dobro (2 × o valor da infração)"
            else:
                parts[0] += f" de {number(m)} × o valor da infração"
        if item.graded:
            parts.append("graduada pela autoridade" + (f" até {amount(item.max)}" if item.max is not None else ""))
        elif item.max is not None:
            parts.append(f"até {amount(item.max)}")
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
    elif item.kind == "revocation" and item.wait_months:
        parts.append(f"nova permissão só após {months(item.wait_months)}")
    if item.admin_defined and item.kind not in ("suspension",):
        parts.append("definida pela Administração" if not _masculine(name) else "definido pela Administração")
    if item.text and item.kind == "impediment":
        parts[0] = f"{parts[0]}: {_lower_first(item.text)}"
    elif item.text and item.kind != "warning":
        parts.append(_lower_first(item.text))
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
        text += f" — só {_lower_first(condition.text)}"
    return text


def sanction_fact(regime, item) -> Fact:
    return _fact(regime, sanction(item), item)


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


def offence(step, last: bool) -> str:
    return f"{step.offence}ª ocorrência" + (" e seguintes" if last else "")


def window(days_: int | None = None, years_: int | None = None) -> str:
    """A recurrence window as the file declares it: "5 anos" (calendar years) or "730 dias"."""
    return years(years_) if years_ else days(days_ or 0)


def recurrence_window(days_: int | None = None, years_: int | None = None) -> str:
    return f"reincidência: nova infração da mesma natureza em até {window(days_, years_)}"


def ladder_facts(regime, ladder) -> list[Fact]:
    """A penalty ladder: its recurrence window and article, then each step with its sanctions."""
    head = (
        _cap(recurrence_window(ladder.recurrence_window_days, ladder.recurrence_window_years))
        if ladder.recurrence_window_days or ladder.recurrence_window_years
        else "Prazo de reincidência: não fixado"
    )
    out = [_fact(regime, head, ladder)]
    for n, step in enumerate(ladder.steps):
        last = n == len(ladder.steps) - 1
        out.append(
            Fact(
                text=_cap(offence(step, last)) + ":",
                notes=notes(step),
                details=tuple(sanction_fact(regime, s) for s in step.sanctions),
            )
        )
    return out


def infraction_facts(regime, inf) -> list[Fact]:
    """Everything an infraction entails: its fine, ladder and every extra sanction, with their articles."""
    out = []
    if inf.fine is not None:
        out.append(_fact(regime, f"Multa: {fine(inf.fine)}", inf.fine))
    if inf.ladder:
        ladder = regime.ladder(inf.ladder)
        label = ladder.label if ladder.label.lower().startswith("gradação") else f"Gradação: {ladder.label}"
        out.append(Fact(text=label, ident=ladder.id))
    for s in inf.sanctions:
        out.append(sanction_fact(regime, s))
    out.append(Fact(text=f"Penalidade prevista em {regime.cite_item(inf)}", notes=notes(inf)))
    return out


def penalty_facts(regime, penalties) -> list[Fact]:
    """Regime-wide penalty facts: cumulation, recurrence, any order, index correction of fines."""
    if penalties is None:
        return []
    out = []
    if penalties.cumulative is not None:
        out.append(_fact(regime, "As sanções podem ser aplicadas cumulativamente", penalties.cumulative))
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
        out.append(_fact(regime, text, r))
    if penalties.any_order is not None:
        out.append(
            _fact(
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
        out.append(_fact(regime, f"O valor das multas é corrigido anualmente pelo {code}{name}", penalties.index))
    return out


def deadline(item) -> str:
    return period(item.days, item.hours, item.count)


def deadline_text(item, regime=None) -> str:
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


def seizure_facts(regime, seizure) -> list[Fact]:
    if seizure is None:
        return []
    out = [_fact(regime, "Apreensão de mercadorias e objetos", seizure)]
    fee = seizure.depot_fee
    if fee is not None:
        value = (
            "definida pela Administração"
            if fee.admin_defined
            else f"{amount(fee.amount)} {PER.get(fee.per, fee.per or '')}".strip()
        )
        where = (" — só em " + ", ".join(SCOPES.get(x, x) for x in fee.scopes)) if fee.scopes else ""
        out.append(_fact(regime, f"Taxa de depósito: {value}{where}", fee))
    if seizure.expenses is not None:
        e = seizure.expenses
        extra = f" (valor: {amount(e.amount)})" if e.amount is not None else ""
        out.append(_fact(regime, f"Despesas da apreensão: {e.text}{extra}", e))
    for label, p in (
        ("Prazo para retirar perecíveis", seizure.reclaim_perishable),
        ("Prazo para retirar os demais bens", seizure.reclaim_other),
    ):
        if p is not None:
            value = "definido pela Administração" if p.admin_defined else period(p.days, p.hours, p.count)
            out.append(_fact(regime, f"{label}: {value}", p))
    if seizure.release is not None:
        r = seizure.release
        extra = f" (valor: {amount(r.amount)})" if r.amount is not None else ""
        out.append(_fact(regime, f"Liberação: {r.text}{extra}", r))
    if seizure.donation is not None:
        d = seizure.donation
        extra = f" (valor: {amount(d.amount)})" if d.amount is not None else ""
        out.append(_fact(regime, f"Destinação: {d.text}{extra}", d))
    return out


# --------------------------------------------------------------------------- calendars, sites, layout


def _hours(start: dt.time, end: dt.time) -> str:
    return f"das {clock(start)} às {clock(end)}"


def schedule_day(day) -> str:
    """ "Sexta-feira, 27/03/2026: das 18:00 às 01:00 de 28/03/2026"."""
    text = f"{_cap(DAY_NAMES[day.date.weekday()])}, {date(day.date)}: das {clock(day.opens)} às {clock(day.closes)}"
    if day.crosses_midnight:
        if day.closes == dt.time(0, 0):
            text += " (meia-noite)"
        else:
            text += f" de {date(day.closes_at.date())}"
    return text


def schedule_facts(regime, schedule) -> list[Fact]:
    """A calendar: set-up, each day's hours, tear-down; or the weekly hours of a feira."""
    out = []
    if schedule.setup is not None:
        out.append(_fact(regime, f"Montagem a partir de {moment(schedule.setup.at)}", schedule.setup))
    for day in schedule.days:
        out.append(_fact(regime, f"Funcionamento — {schedule_day(day)}", day))
    if schedule.teardown is not None:
        out.append(_fact(regime, f"Desmontagem até {moment(schedule.teardown.at)}", schedule.teardown))
    oh = schedule.opening_hours
    if oh is not None:
        if oh.admin_defined:
            text = "Dias e horários de funcionamento: definidos pela Administração"
        else:
            when = _join([WEEKDAYS.get(w, w) for w in oh.weekdays])
            text = "Funcionamento: " + (f"{when}, " if when else "") + _hours(oh.opens, oh.closes)
        out.append(_fact(regime, text, oh))
    if schedule.setup_hours is not None:
        hours = schedule.setup_hours
        out.append(_fact(regime, f"Montagem (em cada dia de funcionamento): {_hours(hours.start, hours.end)}", hours))
    if schedule.teardown_hours is not None:
        out.append(
            _fact(
                regime,
                f"Desmontagem (em cada dia de funcionamento): "
                f"{_hours(schedule.teardown_hours.start, schedule.teardown_hours.end)}",
                schedule.teardown_hours,
            )
        )
    if not out:
        out.append(
            Fact(
                text="Datas não fixadas no regime (veja a observação)"
                if notes(schedule)
                else "Datas não fixadas no regime"
            )
        )
    return out


def site(item) -> str:
    """A site the act names: "Rua Cel. Ribeiro da Luz (trecho de rua, entre … e …)"."""
    parts = [SITE_KINDS.get(item.kind, item.kind)]
    if item.from_ and item.to:
        parts.append(f"entre {item.from_} e {item.to}")
    elif item.from_:
        parts.append(f"a partir de {item.from_}")
    elif item.to:
        parts.append(f"até {item.to}")
    text = f"{item.label} ({', '.join(parts)})"
    if item.description:
        text += f": {item.description}"
    if item.max_points:
        text += f"; no máximo {plural(item.max_points, 'ponto', 'pontos')}"
    return text


def layout_facts(regime, layout) -> list[Fact]:
    if layout is None:
        return []
    out = []
    if layout.min_gap is not None:
        g = layout.min_gap
        value = "definido pela Administração" if g.admin_defined else metres(g.value)
        out.append(_fact(regime, f"Espaço mínimo entre bancas, barracas ou veículos: {value}", g))
    if layout.no_crossings is not None:
        out.append(_fact(regime, "Nenhuma banca montada em cruzamento de vias", layout.no_crossings))
    if layout.keep_garages_free is not None:
        out.append(
            _fact(
                regime,
                "Livre acesso às garagens e guias rebaixadas: nada instalado na frente delas",
                layout.keep_garages_free,
            )
        )
    if layout.sides is not None:
        out.append(_fact(regime, "Seções em dois lados, cada uma na sua posição (lado A e lado B)", layout.sides))
    if layout.end_vendors is not None:
        e = layout.end_vendors
        text = f"Comércio nas pontas da feira: espaço máximo de {metres(e.front)} × {metres(e.depth)}"
        if e.min_distance is not None:
            text += f", a pelo menos {metres(e.min_distance)} da primeira e da última banca"
        out.append(_fact(regime, text, e))
    for d in layout.min_distance_from:
        out.append(_fact(regime, f"Distância mínima de {metres(d.value)} de {DISTANCES.get(d.what, d.what)}", d))
    if layout.max_points is not None:
        m = layout.max_points
        value = "definido pela Administração" if m.admin_defined else plural(m.value, "ponto", "pontos")
        out.append(_fact(regime, f"Número máximo de pontos: {value}", m))
    if layout.numbering:
        out.append(Fact(text="Numeração: " + ", ".join(NUMBERING.get(n, n) for n in layout.numbering)))
    return out


def placard_facts(regime, placard) -> list[Fact]:
    if placard is None:
        return []
    parts = []
    if placard.min_width is not None and placard.min_height is not None:
        parts.append(f"no mínimo {metres(placard.min_width)} × {metres(placard.min_height)}")
    elif placard.min_width is not None:
        parts.append(f"largura mínima de {metres(placard.min_width)}")
    elif placard.min_height is not None:
        parts.append(f"altura mínima de {metres(placard.min_height)}")
    if placard.background:
        parts.append(f"na cor {placard.background}")
    text = "Identificação que a banca deve exibir" + (f": {', '.join(parts)}" if parts else "")
    out = [_fact(regime, text, placard)]
    if placard.contents:
        colour = f", na cor {placard.text_colour}" if placard.text_colour else ""
        out.append(Fact(text=f"Conteúdo{colour}: " + _join([PLACARD_CONTENTS.get(c, c) for c in placard.contents])))
    elif placard.text_colour:
        out.append(Fact(text=f"Texto na cor {placard.text_colour}"))
    return out


# --------------------------------------------------------------------------- selection


def _bound(value: Decimal) -> str:
    return number(value)


def _whole(value: Decimal | None) -> bool:
    return value is not None and value.as_tuple().exponent == 0


def brackets(criterion) -> list[str]:
    """Each bracket of a score criterion with its points: "até 1,00: 100 pontos", "mais de 4,00: 20 pontos"."""
    out = []
    previous = None
    for b in criterion.brackets:
        low = b.min
        if low is not None and b.max is not None:
            text = _bound(low) if low == b.max else f"de {_bound(low)} a {_bound(b.max)}"
        elif low is not None:
            text = f"a partir de {_bound(low)}"
        elif b.max is not None and previous is not None:
            if _whole(previous) and _whole(b.max) and b.max - previous == 1:
                text = _bound(b.max)  # whole counts one apart: "mais de 3 até 4" is just 4
            else:
                text = f"mais de {_bound(previous)} até {_bound(b.max)}"
        elif b.max is not None:
            text = f"até {_bound(b.max)}"
        elif previous is not None:
            text = f"mais de {_bound(previous)}"
        else:
            text = "qualquer valor"
        out.append(f"{text}: {plural(b.points, 'ponto', 'pontos')}")
        previous = b.max if b.max is not None else previous
    return out


def category(value) -> str:
    if value is True:
        return "sim"
    if value is False:
        return "não"
    return CATEGORIES.get(value, str(value)) if isinstance(value, str) else str(value)


def criterion_items(criterion) -> list[str]:
    """Every bracket or value of a criterion with its points, in order."""
    if criterion.brackets:
        return brackets(criterion)
    return [f"{category(v.equals)}: {plural(v.points, 'ponto', 'pontos')}" for v in criterion.values]


def criterion_points(criterion) -> str:
    return "; ".join(criterion_items(criterion))


def _place(text: str) -> str:
    """ "No local do evento" → "no local do evento"; "Secretaria da Fazenda" → "local: Secretaria da Fazenda"."""
    if text.split(" ", 1)[0] in ("No", "Na", "Nos", "Nas", "Em"):
        return _lower_first(text)
    return f"local: {text}"


def selection_facts(regime, selection, *, criteria: bool = True) -> list[Fact]:
    """How places are given: method and order, registration, draws, late fill, preferences, score,
    tie-break, exclusions, alternates and appeal deadlines — each with its article. ``criteria=False``
    leaves the score criteria out, for a front end that shows them as a table (:func:`criterion_points`)."""
    if selection is None:
        return []
    s = selection
    method = f"Seleção {METHODS.get(s.method, s.method)}"
    if s.order_by:
        method += f", confirmada {ORDER_BY.get(s.order_by, s.order_by)}"
    out = [_fact(regime, method, s)]
    here = regime.cite_item(s)
    if s.permit_kinds:
        kinds = [k.label for k in regime.permit_kinds if k.id in s.permit_kinds]
        out.append(Fact(text="Vale para: " + "; ".join(kinds), cite=here))
    r = s.registration
    if r is not None:
        parts = []
        if r.opens is not None:
            parts.append(f"a partir de {moment(r.opens)}")
        if r.until is not None:
            parts.append(f"até {moment(r.until)}")
        if r.place:
            parts.append(_place(r.place))
        text = "Inscrição " + ", ".join(parts) if parts else "Inscrição prévia"
        if r.proof_until is not None:
            text += f"; comprovante de pagamento até {moment(r.proof_until)}"
            if r.proof_basis:
                text += f" ({regime.cite(r.proof_basis)})"
        out.append(_fact(regime, text, r))
    for label, d in (("Sorteio das posições", s.positions), ("Sorteio das vagas", s.draw)):
        if d is None:
            continue
        parts = []
        if d.when_more_than is not None:
            parts.append(f"havendo mais de {d.when_more_than} interessados")
        if d.per and d.per != "event":
            parts.append(DRAW_PER.get(d.per, d.per))
        if d.at is not None:
            parts.append(moment(d.at))
        if d.place:
            parts.append(_place(d.place))
        if d.by:
            parts.append(f"responsável: {d.by}")
        if d.per == "event":
            parts.append("um sorteio para todo o evento")
        out.append(_fact(regime, f"{label}: {', '.join(parts)}" if parts else label, d))
    if s.late_fill is not None:
        lf = s.late_fill
        text = f"Vagas que sobrarem após os prazos: {ORDER_BY.get(lf.order_by, lf.order_by)}"
        if lf.pay_days_after_issue is not None:
            text += f", com pagamento em até {days(lf.pay_days_after_issue)} após a emissão do boleto"
        out.append(_fact(regime, text, lf))
    if s.preferences:
        prefs = tuple(_fact(regime, f"{p.rank}º: {p.label}", p) for p in s.preferences)
        out.append(Fact(text="Preferência, nesta ordem:", details=prefs))
    if s.criteria and criteria:
        crit = tuple(_fact(regime, f"{c.label}: {criterion_points(c)}", c) for c in s.criteria)
        out.append(Fact(text="Pontuação (vence quem somar mais pontos):", details=crit))
    if s.tie_break:
        out.append(
            Fact(
                text="Desempate: "
                + "; ".join(f"{n}º {TIE_BREAKS.get(t, t)}" for n, t in enumerate(s.tie_break, start=1))
                + "; o que restar empatado, pela ordem sorteada",
                cite=regime.cite(s.tie_break_basis) if s.tie_break_basis else here,
            )
        )
    if s.exclude:
        out.append(Fact(text="Excluído(s): " + _join([EXCLUDES.get(x, x) for x in s.exclude]), cite=here))
    if s.alternates:
        out.append(Fact(text=f"{plural(s.alternates, 'suplente', 'suplentes')} além dos titulares", cite=here))
    if s.appeal_days:
        out.append(Fact(text=f"Recurso contra o resultado: {days(s.appeal_days)}", cite=here))
    if s.decision_business_days:
        out.append(Fact(text=f"Decisão do recurso: {period(s.decision_business_days, count='business')}", cite=here))
    return out


# --------------------------------------------------------------------------- units, sections


def index_text(index) -> str:
    return f"Índice {index.code} — {index.name}: valores do ato em preços de {index.base_year}, corrigidos anualmente"


def section_title(section) -> str:
    return f"Seção {section.numeral}: {section.label}"


def section_place(section) -> str:
    place = []
    if section.side:
        place.append(SIDES.get(section.side, section.side))
    if section.order is not None:
        place.append(f"posição {section.order}")
    return ", ".join(place)
