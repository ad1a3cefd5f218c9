"""Each act shown completely and truthfully: the Regimes screen (HTML in a QTextDocument) and
``praca regimes --show`` (text) say the same facts, each with its article, in the words of
``models.rules.describe``."""

from __future__ import annotations

import re
from decimal import Decimal
from types import SimpleNamespace

import pytest
from PySide6.QtGui import QTextDocument

from desktop.commands.regimes import regime_text
from models.rules import describe
from models.rules.regimes import load_regimes
from models.rules.regimes.model import Sanction, Validity
from reports.regime_sheet import regime_html

REGIMES = load_regimes()
REGIME_IDS = sorted(REGIMES)

# the key facts of each act, as both front ends must say them (plain spaces: the screen's
# non-breaking spaces are normalised before the comparison)
FACTS = {
    "leopolis-2003": [
        # the districts' feiras: days, hours and place left to a Decreto (art. 1º, parágrafo único)
        "Dias e horários de funcionamento: definidos pela Administração",
        "Locais: definidos pela Administração — nos distritos, o local que o Decreto fixar",
        "art. 1º, parágrafo único",
        "Limite de permissões definido pela Administração",
        # without registration the feirante does not stay at the feira; the fish rules forbid without a sanction
        "Não permanência na feira",
        "art. 3º, parágrafo único",
        "Penalidade: nenhuma — o ato proíbe a conduta (Lei 784/2003, art. 5º) e não lhe comina sanção",
        "artigo da vigência desconhecido",
    ],
    "caravelas-1994": [
        "Finalidade: Vender a varejo, a preços acessíveis",
        "Lei 28/1994, art. 1º",
        "Funcionamento: segundas-feiras, das 07:00 às 16:00",
        "Locais: definidos pela Administração — logradouros públicos que o Prefeito designar",
        "Lei 28/1994, art. 2º",
        "Retirada imediata",
        "Penalidade: nenhuma — o ato proíbe a conduta (Lei 28/1994, art. 1º) e não lhe comina sanção",
    ],
    "brumado-2026": [
        # the price table by the unit and the event, the square metre, the day (a decree of 2026)
        "Quando ramo: acarajé: R$ 150,00 por evento",
        "Dec. 011/2026, tabela de preços, acarajé",
        "× eventos, por evento",  # the period counted, in words
        "Quando ramo: parque de diversões: R$ 1,00 por m² e por evento",  # each unit it is counted per
        "Valor = R$ 90,00 × número de aparelhos de som × dias, por dia",
        "Não se admite: quando ano > 2026",  # a year said as a year, never 2.026
        "Lei Complementar nº 02/2006 (Código Tributário Municipal), art. 247, III",
        "artigo da vigência desconhecido",
    ],
    "altos-2018": [
        # a fine of 10 % to 100 % of the minimum wage, which the authority fixes, from a rule the copy does not number
        "Dec. 042/2018, dispositivo da multa, sem número na cópia lida",
        "Finalidade: Conservar o patrimônio público da praça",
        "Praça Cônego Honório",
    ],
    "conceicao-2025": [
        # a ban for a term (art. 2º, I): two years, counted as the Código Civil counts years
        "proibido de vender em eventos públicos, por 2 anos",
        "Dec. 41/2025, art. 2º, I",
        "Penalidade: nenhuma — o ato proíbe a conduta (Dec. 41/2025, art. 3º) e não lhe comina sanção",
        "Centro Cultural Elba Ramalho",
    ],
    "sao-lourenco-do-oeste-1997": [
        "0,55 UFRM/dia",
        "art. 2º, § 3º, II",
        "Valor = 0,60 UFRM, por evento",
        "(redação dada pela Lei Complementar nº 127/2010)",
        "quando year < 2011",
        "Produtor do município vendendo produto de origem própria ou do grupo familiar",
        "art. 2º, § 1º",
        "Multa: definida pela Administração",
    ],
    "chapadao-do-sul-2007": [
        "0,05 UFM/dia",
        "Tabela III, item 01",
        "9,00 UFM",
        "Tabela III, item 08",
        "quando local, base × (1 − desconto_residente ÷ 100)",
        "Alíquota sobre a UFM",
    ],
    "sao-bento-2026": [
        # schedule: set-up, each day's hours, tear-down (art. 2º, § 1º; art. 5º)
        "Montagem a partir de 27/03/2026 (sexta-feira) às 12:00",
        "Sexta-feira, 27/03/2026: das 18:00 às 01:00 de 28/03/2026",
        "art. 5º, I",
        "Domingo, 29/03/2026: das 12:00 às 00:00",
        "art. 5º, III",
        "Desmontagem até 30/03/2026 (segunda-feira) às 12:00",
        "art. 2º, § 1º",
        # the street segment (art. 1º)
        "Rua Cel. Ribeiro da Luz (trecho de rua, entre Av. Dr. Rubião Júnior e Rua 7 de Setembro)",
        # selection: registration, proof, draw of positions, late fill (arts. 3º and 10)
        "Seleção por ordem de inscrição, confirmada pela data e hora do pagamento",
        "Inscrição até 26/03/2026 (quinta-feira) às 12:00",
        "comprovante de pagamento até 26/03/2026 (quinta-feira) às 14:00",
        "Sorteio das posições: 26/03/2026 (quinta-feira) às 15:00",
        "art. 3º, I",
        "com pagamento em até 1 dia após a emissão do boleto",
        "art. 10",
        # placard (art. 4º, parágrafo único)
        "no mínimo 0,65 m × 0,45 m, na cor branca",
        "art. 4º, parágrafo único",
        "nome da empresa, CNPJ e número do Cadastro Municipal",
        # layout: the gap the Administration defines (art. 11, § 4º)
        "Espaço mínimo entre bancas, barracas ou veículos: definido pela Administração",
        "art. 11, § 4º",
        # each infraction's own sanctions, in the act's words
        "Revogação, cumulativa",
        "art. 11, § 6º",
        "Apreensão — poderá ser aplicada, a critério da autoridade",
        "art. 14, II",
        "Impedimento: impedida de participar de festas futuras sem a quitação da multa",
        "art. 2º, § 2º",
        "cumulativamente ou não",
        # energy tiers and discounts with their conditions
        'A tarifa "Impacto I/IV — Baixo consumo" vale até 2,00 ML',
        'A tarifa "Impacto I/IV — Alto consumo" vale até 3,00 m de profundidade',
        "quando MEI, do município, equipamento: trailer, reboque ou barraca e profundidade (m) ≤ 3,00 m, "
        "Valor = o valor da regra geral × (1 − 0,30)",
        "Pagamento: até 26/03/2026",
        "art. 6º",
        # notes of the regime and of its items
        "Vigência: data da publicação (art. 15).",
        "entendido como 0,65 m × 0,45 m",
    ],
    "sapezal-2014": [
        "Seleção por pontuação (análise socioeconômica)",
        "art. 10",
        # every criterion of art. 10 with every bracket/value and its points
        "aluguel: 100 pontos",
        "imóvel financiado: 80 pontos",
        "imóvel cedido: 40 pontos",
        "outros: 20 pontos",
        "até 1,00: 100 pontos",
        "mais de 1,00 até 2,00: 80 pontos",
        "mais de 4,00: 20 pontos",
        "até 30: 20 pontos",
        "mais de 60: 100 pontos",
        "mais de 13 até 20: 80 pontos",
        "mais de 20: 100 pontos",
        "sim: 100 pontos",
        "não: 0 pontos",
        "1: 20 pontos",
        "60: 1.200 pontos",
        "art. 10, I",
        "art. 10, II",
        "art. 10, III",
        "art. 10, IV",
        "art. 10, V",
        "art. 10, VI",
        "art. 10, VII",
        "Desempate: 1º pessoa com deficiência; 2º o mais idoso",
        "Excluído(s): quem está em débito com a Fazenda Municipal",
        "10 suplentes além dos titulares",
        "Recurso contra o resultado: 3 dias",
        "Decisão do recurso: 3 dias úteis",
        "Sorteio das vagas: por ramo de atividade",
        "art. 12, II e III; § 1º",
        # eligibility in the act's words
        "Residente no município há mais de 1 ano",
        "Limite de permissões definido pela Administração",
        "No máximo uma permissão por família",
        "Renovação: até 30 dias antes do vencimento",
        "Afastamento anual: até 30 dias por ano",
        "art. 48, II",
        # layout
        "Comércio nas pontas da feira: espaço máximo de 2,00 m × 1,00 m, "
        "a pelo menos 1,00 m da primeira e da última banca",
        "art. 68",
        "Distância mínima de 50,00 m de estabelecimento fixo do mesmo ramo",
        "art. 45, V",
        "Número máximo de pontos: definido pela Administração",
        # discretionary sanctions read "poderá"
        "Suspensão, de até 10 dias, cumulativa — poderá ser aplicada, a critério da autoridade",
        "Multa em dobro (2 × o valor da infração)",
        # seizure release and donation
        "Liberação: Liberação imediata à vista de",
        "art. 52, § 1º",
        "Taxa de depósito: definida pela Administração",
        "Valor definido pela Administração; o ato não fixa a periodicidade",
    ],
    "cabeceira-grande-2012": [
        # the non-resident's limit and the fee the act names without a value (arts. 2º and 3º)
        "Admite requerentes de outras localidades",
        "art. 2º",
        "não são encontrados no comércio local",
        "Taxa da licença de vendedor ambulante",
        "Valor definido pela Administração",
        # seizure and the donation of what was seized (art. 5º)
        "Apreensão",
        "doados às entidades filantrópicas",
        "art. 5º, parágrafo único",
    ],
    "ilha-comprida-2017": [
        "Ponto 01 — Balneário Di Franco (ponto de praia)",
        "Ponto 15 — Boqueirão Sul (ponto de praia): Boqueirão Sul, em frente à última barraca",
        "art. 23, § 2º, o",
        "Arena de Shows (eventos da Municipalidade — Ilha Verão) (arena); no máximo 60 pontos",
        "Número máximo de pontos: 60 pontos",
        "art. 22",
        "Cota de 10 % das vagas para idosos e pessoas com deficiência",
        "art. 11, § 2º",
        "No máximo 280 permissões",
        "Residente no município há pelo menos 2 anos",
        "Validade: 1 ano",
        "Renovação: até 30/09 de cada ano",
        "Início da atividade: em até 15 dias",
        "Distância mínima de 100,00 m de escolas (portões de acesso)",
        "art. 17, IV",
        "Seleção por sorteio, com lista corrida (rodízio)",
        "art. 21, § 1º",
        "Carência de 6 meses após o vencimento",
        "Valor definido pela Administração, por ano",
    ],
    "sjc-2014": [
        "Seção XXVIII: Arte, cultura e lazer em geral",
        "art. 8º, XXVIII",
        "Pagamento: antecipadamente, até o dia 20 de cada mês",
        "art. 11, § 5º",
        "Valor = R$ 2,50 × correção do INPC desde 2014 × área (m²), por mês",
        'acima do máximo de 14,00 m² que o ato fixa para "Comidas típicas"',
        "Correção do INPC desde 2014",
        "art. 11, § 7º",
        "3 meses consecutivos sem pagar: cassação",
        "art. 11, § 6º",
        "Valor definido pela Administração; o ato não fixa a periodicidade",
        # weekly feira hours (art. 10) and the days left to the Executive (art. 2º)
        "Montagem (em cada dia de funcionamento): das 16:00 às 17:00",
        "art. 10, I",
        "Desmontagem (em cada dia de funcionamento): das 22:00 às 23:00",
        "art. 10, II",
        "Dias e horários de funcionamento: definidos pela Administração",
        "art. 2º",
        # selection: preferences (art. 11, § 3º) then draw (art. 18)
        "Seleção pela ordem de preferência e, depois, por sorteio",
        "1º: Fundadores: permissionários das unidades de pastéis, frango, peixe e milho verde e derivados",
        "art. 11, § 3º, I",
        "2º: Permissionários já estabelecidos nas feiras diurnas",
        "art. 11, § 3º, II",
        "Sorteio das vagas: havendo mais de 2 interessados, por ramo de atividade",
        "art. 18, parágrafo único",
        # penalties
        "Reincidência: a multa poderá ser aplicada em dobro, a critério da autoridade",
        "art. 24, § 2º",
        "As penalidades podem ser aplicadas independentemente da ordem da gradação",
        "art. 22, parágrafo único",
        "O valor das multas é corrigido anualmente pelo INPC",
        "art. 24, § 3º",
        "Multa em dobro (2 × o valor da infração), graduada pela autoridade, cumulativa",
        # art. 25, I and art. 26, II: conditions, never imposed by the count alone
        "só quando o permissionário infrator não sanar a irregularidade descrita no auto de infração",
        "art. 25, I",
        # art. 12 and art. 16
        "Não se concede permissão a cônjuge ou companheiro(a) de quem já é permissionário na mesma feira",
        "Não se concede permissão a sócio de quem já é permissionário na mesma feira",
        "Não se concede permissão a dependente de quem já é permissionário na mesma feira",
        "Afastamento anual: até 30 dias por ano, em até 2 períodos, pedido com 30 dias de antecedência",
        "art. 16",
        "Seções em dois lados",
        "art. 8º, § 2º",
    ],
    "olimpia-2025": [
        "Reincidência (nova infração da mesma natureza em até 5 anos): a multa é aplicada em dobro, no máximo 2 vezes",
        "Reincidência: nova infração da mesma natureza em até 5 anos",
        "Validade: 5 anos",
        "art. 158; art. 177",
        "Renovação: entre 240 e 60 dias antes do vencimento",
        "Início da atividade: em até 90 dias, prorrogável uma vez",
        "Espaço mínimo entre bancas, barracas ou veículos: 0,50 m",
        "art. 206, I",
        "Nenhuma banca montada em cruzamento de vias",
        "art. 206, IV",
        "Livre acesso às garagens",
        "art. 206, II",
        "Distância mínima de 200,00 m de estabelecimento fixo do mesmo ramo",
        "Não se concede permissão a sócio de quem já é permissionário",
        "art. 162, § 2º",
        "Não se concede permissão a cônjuge ou companheiro(a) de quem já é permissionário",
        "Valor definido pela Administração, por dia",
        "Valor definido pela Administração, por evento",
        "Taxa de depósito: 1 UFESP por dia",
        "Prazo para retirar perecíveis: 24 horas",
        "Suspensão, até sanar a irregularidade",
        "Advertência, regularização imediata",
        "Seleção por ordem de inscrição",
        "Excluído(s): quem está em débito com a Fazenda Municipal",
    ],
}

# English ids of the format that must never reach a reader
ENGLISH_IDS = (
    sorted(describe.ONE_PER)
    + sorted(describe.BENEFICIARIES)
    + sorted(describe.TIE_BREAKS)
    + ["debtors", "admin_defined", "event-end", "registration-order", "payment-time"]
)
ENGLISH_IDS = [w for w in ENGLISH_IDS if w not in ("draw", "local")]


def _plain(text: str) -> str:
    return text.replace("\xa0", " ")


@pytest.fixture(scope="module")
def screen_texts(qapp):
    """What the Regimes screen shows of each act, as plain text."""
    texts = {}
    for regime_id, regime in REGIMES.items():
        document = QTextDocument()
        document.setHtml(regime_html(regime))
        texts[regime_id] = _plain(document.toPlainText())
    return texts


@pytest.fixture(scope="module")
def command_texts():
    return {regime_id: regime_text(regime) for regime_id, regime in REGIMES.items()}


@pytest.mark.parametrize("regime_id", REGIME_IDS)
def test_screen_and_command_say_the_key_facts(regime_id, screen_texts, command_texts):
    for where, text in (("tela", screen_texts[regime_id]), ("--show", command_texts[regime_id])):
        flat = re.sub(r"\s+", " ", text)
        missing = [fact for fact in FACTS[regime_id] if fact not in flat]
        assert not missing, f"{regime_id} ({where}) não mostra: {missing}"


@pytest.mark.parametrize("regime_id", REGIME_IDS)
def test_no_python_values_nor_english_ids(regime_id, screen_texts, command_texts):
    for where, text in (("tela", screen_texts[regime_id]), ("--show", command_texts[regime_id])):
        for word in (
            "None",
            "True",
            "False",
            "ano(s)",
            "Uma permissão por",
            "vencimento dia",
            "1825 dias",
            "1.825 dias",
        ):
            assert word not in text, f"{regime_id} ({where}): {word!r}"
        for english in ENGLISH_IDS:
            # an id shown as an id ([spouse], `sjc-2014`) would be in brackets or monospace; the words must not
            # appear as prose at all
            assert not re.search(rf"(?<![\w\[-]){re.escape(english)}(?![\w\]-])", text), (
                f"{regime_id} ({where}): id em inglês {english!r}"
            )


@pytest.mark.parametrize("regime_id", REGIME_IDS)
def test_every_item_is_shown_with_its_article(regime_id, screen_texts, command_texts):
    regime = REGIMES[regime_id]
    cited = []
    for kind in regime.permit_kinds:
        cited += [kind, *kind.rules] + [x for x in (kind.validity, kind.renewal, kind.startup, kind.leave) if x]
    for fee in regime.fees:
        cited += [fee, *fee.discounts, *fee.tiers, *fee.venues, *fee.terms, *fee.exceptions]
        cited += [x for x in (fee.due, fee.arrears) if x]
    for schedule in regime.schedules:
        cited += [schedule, *schedule.days] + [
            x
            for x in (
                schedule.setup,
                schedule.teardown,
                schedule.setup_hours,
                schedule.teardown_hours,
                schedule.opening_hours,
            )
            if x
        ]
    cited += list(regime.sites) + list(regime.deadlines) + list(regime.infractions) + list(regime.ladders)
    for infraction in regime.infractions:
        cited += list(infraction.sanctions) + ([infraction.fine] if infraction.fine else [])
    for ladder in regime.ladders:
        cited += [s for step in ladder.steps for s in step.sanctions]
    if regime.selection:
        s = regime.selection
        cited += [s, *s.preferences, *s.criteria] + [x for x in (s.registration, s.positions, s.draw, s.late_fill) if x]
    if regime.layout:
        lay = regime.layout
        cited += [
            x
            for x in (lay.min_gap, lay.no_crossings, lay.keep_garages_free, lay.sides, lay.end_vendors, lay.max_points)
            if x
        ] + list(lay.min_distance_from)
    if regime.penalties:
        p = regime.penalties
        cited += [x for x in (p.cumulative, p.recurrence, p.any_order, p.index) if x]
    if regime.placard:
        cited.append(regime.placard)
    if regime.seizure:
        z = regime.seizure
        cited += [z] + [x for x in (z.depot_fee, z.reclaim_perishable, z.reclaim_other, z.donation, z.release) if x]
    for where, text in (("tela", screen_texts[regime_id]), ("--show", command_texts[regime_id])):
        flat = re.sub(r"\s+", " ", text)
        missing = {regime.cite_item(item) for item in cited if regime.cite_item(item) not in flat}
        assert not missing, f"{regime_id} ({where}) sem o artigo: {sorted(missing)}"


@pytest.mark.parametrize("regime_id", REGIME_IDS)
def test_notes_of_the_act_and_its_items_are_shown(regime_id, screen_texts, command_texts):
    regime = REGIMES[regime_id]
    items = [
        regime,
        *regime.permit_kinds,
        *regime.fees,
        *regime.schedules,
        *regime.sites,
        *regime.ladders,
        *regime.infractions,
        *regime.deadlines,
    ]
    items += [x for x in (regime.layout, regime.selection, regime.placard, regime.penalties, regime.seizure) if x]
    for where, text in (("tela", screen_texts[regime_id]), ("--show", command_texts[regime_id])):
        flat = re.sub(r"\s+", " ", text)
        for item in items:
            for line in describe.notes(item).splitlines():
                assert re.sub(r"\s+", " ", line.strip()) in flat, f"{regime_id} ({where}) sem a nota: {line[:60]}"


def test_validity_cites_its_own_article():
    olimpia = REGIMES["olimpia-2025"]
    kind = olimpia.permit_kind("street-food-tpu-a")
    facts = describe.permit_facts(olimpia, kind)
    validity = next(f for f in facts if f.text.startswith("Validade"))
    assert validity.text == "Validade: 5 anos"
    assert validity.cite == "LC 324/2025, art. 158; art. 177" != olimpia.cite_item(kind)


def test_screen_html_binds_money_and_takes_the_width():
    html = regime_html(REGIMES["sao-bento-2026"])
    assert "R$&nbsp;150,00" in html and "R$ 150,00" not in html
    assert "20&nbsp;UFESP" in html and "30&nbsp;%" in html
    assert "nowrap" not in html
    tables = re.findall(r"<table[^>]*>", html)
    assert tables and all('width="100%"' in t for t in tables)


# --------------------------------------------------------------------------- describe's sentences


def _rule(**kw):
    base = dict(
        kind="one-per",
        basis="art. 1º",
        scope=None,
        notes=None,
        years=None,
        allowed=(),
        document=None,
        months=None,
        after=None,
        count=None,
        percent=None,
        beneficiaries=(),
        text=None,
        admin_defined=False,
    )
    base.update(kw)
    return SimpleNamespace(**base)


@pytest.mark.parametrize(
    "scope, expected",
    [
        ("person", "No máximo uma permissão por pessoa"),
        ("family", "No máximo uma permissão por família"),
        ("household", "No máximo uma permissão por núcleo familiar"),
        ("spouse", "Não se concede permissão a cônjuge ou companheiro(a) de quem já é permissionário"),
        ("partners", "Não se concede permissão a sócio de quem já é permissionário"),
        ("dependants", "Não se concede permissão a dependente de quem já é permissionário"),
    ],
)
def test_one_per_rule_for_each_scope(scope, expected):
    assert describe.rule(_rule(scope=scope)) == expected


def test_one_per_same_site_from_the_attribute_never_the_notes():
    """The act's words for the site are declared (``same_site = "mesma feira"``, SJC art. 12), never read from notes."""
    assert describe.rule(_rule(scope="spouse", same_site=True)).endswith("permissionário no mesmo local")
    assert describe.rule(_rule(scope="partners", same_site=True, same_site_words="mesma feira")).endswith(
        "permissionário na mesma feira"
    )
    assert describe.rule(_rule(scope="dependants", notes="Nem aos dependentes, na mesma feira.")).endswith(
        "de quem já é permissionário"
    )
    sjc = REGIMES["sjc-2014"]
    rural = sjc.permit_kind("produtor-rural")
    spouse = next(r for r in rural.rules if r.scope == "spouse")
    assert spouse.same_site_words == "mesma feira" and describe.rule(spouse, sjc).endswith("na mesma feira")


def test_other_rules_read_as_the_acts_say():
    assert describe.rule(_rule(kind="cap", admin_defined=True)) == "Limite de permissões definido pela Administração"
    assert describe.rule(_rule(kind="cap", count=280)) == "No máximo 280 permissões"
    assert (
        describe.rule(_rule(kind="quota", percent=Decimal("0.10"), beneficiaries=("elderly", "disabled")))
        == "Cota de 10 % das vagas para idosos e pessoas com deficiência"
    )
    assert describe.rule(_rule(kind="resident", years=1, more_than=True)) == "Residente no município há mais de 1 ano"
    assert describe.rule(_rule(kind="resident", years=2)) == "Residente no município há pelo menos 2 anos"
    assert (
        describe.rule(_rule(kind="waiting-period", after="abandonment", months=1))
        == "Carência de 1 mês após o abandono"
    )


def test_validity_and_spans_in_proper_plural():
    assert describe.validity(Validity(basis="art. 1º", years=5)) == "5 anos"
    assert describe.validity(Validity(basis="art. 1º", years=1)) == "1 ano"
    assert describe.validity(Validity(basis="art. 1º", months=1)) == "1 mês"
    assert describe.window(years_=5) == "5 anos" and describe.window(years_=1) == "1 ano"
    assert describe.window(days_=30) == "30 dias" and describe.window(days_=1825) == "1.825 dias"  # never guessed


def test_sanctions_keep_the_acts_word_and_its_discretion():
    """The act's own word is declared (``word``), never read out of the notes."""
    assert describe.sanction(Sanction(kind="revocation", basis="art. 11, § 6º", word="revogação")).startswith(
        "Revogação"
    )
    assert (
        describe.sanction(
            Sanction(kind="revocation", basis="art. 11, § 6º", notes="Imediata revogação da autorização.")
        )
        == "Cassação"
    )
    assert describe.sanction(Sanction(kind="revocation", basis="art. 217, II", word="exclusão definitiva")).startswith(
        "Exclusão definitiva"
    )
    assert describe.sanction(Sanction(kind="revocation", basis="art. 26")) == "Cassação"
    text = describe.sanction(Sanction(kind="suspension", basis="art. 49", max_days=10, discretionary=True))
    assert text == "Suspensão, de até 10 dias — poderá ser aplicada, a critério da autoridade"
    assert "poderá" in describe.sanction(Sanction(kind="impediment", basis="art. 1º", text="x", discretionary=True))


def test_fees_left_open_are_not_called_fixed():
    sjc = REGIMES["sjc-2014"]
    assert describe.fee_kind(sjc, sjc.fee("rateio-energia-banheiros")).startswith("valor definido pela Administração")
    olimpia = REGIMES["olimpia-2025"]
    assert describe.fee_kind(olimpia, olimpia.fee("street-vending-tax")).startswith(
        "valor definido pela Administração, por dia"
    )
    assert describe.fee_kind(olimpia, olimpia.fee("depot-feira")) == "por fórmula"  # 1 UFESP a day: the act's value


def test_a_conduct_forbidden_without_a_sanction_is_said_so_not_cited_as_its_penalty():
    """The regime sheet and ``--show`` said "Penalidade prevista em <the article that forbids it>" for a conduct the
    act forbids and gives no sanction (issue 29: "an almost empty result citing an article the format forced")."""
    from factories import BASE_REGIME

    from models.rules.regimes import load_regime_text

    text = BASE_REGIME + '\n[[infractions]]\ncode = "atacado"\nlabel = "Vender no atacado"\narticle = "art. 3º"\n'
    regime = load_regime_text(text + "no_sanction = true\n", "teste.toml")
    said = [f.text for f in describe.infraction_facts(regime, regime.infraction("atacado"))]
    assert said == ["Penalidade: nenhuma — o ato proíbe a conduta (Dec. 1/2026, art. 3º) e não lhe comina sanção"]
    shown = regime_text(regime)
    assert "o ato proíbe a conduta (Dec. 1/2026, art. 3º) e não lhe comina sanção" in shown
    assert "Penalidade prevista em Dec. 1/2026, art. 3º" not in shown
    assert "Em vigor desde 01/01/2026 (Dec. 1/2026, art. 11)" in shown  # --show says when the act is in force
