"""The words for the format's values (a scope, a sanction, a fee kind, a role…), in pt-BR."""

from __future__ import annotations

from models.base.br import WeekdayNames

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
    "formula": "por fórmula",
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
    "decision-final": "decisão definitiva, esgotados os prazos de defesa e de recurso",
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
    "infraction-record-receipt": "do recebimento do auto de infração",
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
PER = {
    "once": "uma vez",
    "year": "por ano",
    "month": "por mês",
    "day": "por dia",
    "event": "por evento",
    "feira-day": "por dia de feira",
    "fiscal-year": "por exercício",
}
METHODS = {
    "score": "por pontuação (análise socioeconômica)",
    "registration-order": "por ordem de inscrição",
    "draw": "por sorteio",
    "rotating-draw": "por sorteio, com lista corrida (rodízio)",
    "preference-then-draw": "pela ordem de preferência e, depois, por sorteio",
}
MEASURES = {
    "elapsed": "tempo decorrido exato (anos, meses e dias)",
    "completed-years": "anos completos",
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
# "segunda-feira" … "domingo", from Babel: models.base.br.weekday_name; this sequence is for models.rules.deadlines
DAY_NAMES = WeekdayNames()
CATEGORIES = {  # values of score criteria (Sapezal art. 10, I)
    "rented": "aluguel",
    "financed": "imóvel financiado",
    "owned": "imóvel próprio",
    "lent": "imóvel cedido",
    "other": "outros",
}
