"""Issue 28 §2/§4: where an act is silent, the regime declares the point (``[[silences]]``) with its readings;
the penalty shows it, applies the reading declared until the authority chooses, and records the choice."""

from __future__ import annotations

import datetime as dt
import json
from decimal import Decimal

import pytest
from factories import BASE_REGIME as BASE
from factories import write_regime as write
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel

from desktop.cli import main
from models.base.errors import UserError
from models.enforcement.sanctions import PriorOffence, Proposal, count_prior, propose_sanction
from models.rules.regimes import RegimeError, get_regime, load_regime_file
from models.rules.silences import Choice

D = Decimal

SILENCE = """
[[silences]]
id = "prazo"
topic = "recurrence-window"
where = ["penalty"]
question = "Por quanto tempo conta a reincidência?"
basis = "art. 9º"
applied = "sempre"

[[silences.readings]]
id = "sempre"
text = "Todas as anteriores."
basis = "art. 9º"

[[silences.readings]]
id = "cinco"
text = "Cinco anos."
window_years = 5
source = "Decreto federal nº 6.514/2008, art. 11"
"""


# ---------------------------------------------------------------- the format


def test_a_silence_is_read_with_its_readings(tmp_path):
    regime = load_regime_file(write(tmp_path, BASE + SILENCE))
    point = regime.silence("prazo")
    assert (point.topic, point.where, point.basis, point.applied) == (
        "recurrence-window",
        ("penalty",),
        "art. 9º",
        "sempre",
    )
    assert [r.id for r in point.readings] == ["sempre", "cinco"]
    assert point.reading("cinco").window_years == 5
    assert point.reading("cinco").source == "Decreto federal nº 6.514/2008, art. 11"
    assert regime.silences_for("penalty") == (point,) and regime.silences_for("draw") == ()


@pytest.mark.parametrize(
    ("old", "new", "key", "words"),
    [
        ('applied = "sempre"', 'applied = "nunca"', "silences[0].applied", "não declarada"),
        ('applied = "sempre"', 'applied = "sempre"\nladders = ["nada"]', "silences[0].ladders[0]", "não declarada"),
        ('applied = "sempre"', 'applied = "sempre"\ndeadlines = ["nada"]', "silences[0].deadlines[0]", "não declarado"),
        (
            'text = "Cinco anos."\nwindow_years = 5\nsource = "Decreto federal nº 6.514/2008, art. 11"\n',
            'text = "Cinco anos."\nwindow_years = 5\n',
            "silences[0].readings[1]",
            '"source"',
        ),
        ("window_years = 5", "counts = false", "silences[0].readings[1].counts", "recurrence-pending"),
        ('topic = "recurrence-window"', 'topic = "recurrence-same-day"', "silences[0].readings[0].counts", "conta"),
        ('where = ["penalty"]', 'where = ["mapa"]', "silences[0].where[0]", "mapa"),
    ],
)
def test_a_badly_declared_silence_is_refused_at_load(tmp_path, old, new, key, words):
    text = BASE + SILENCE.replace(old, new, 1)
    with pytest.raises(RegimeError) as exc:
        load_regime_file(write(tmp_path, text))
    assert exc.value.key == key and words in exc.value.reason, exc.value


def test_a_silence_needs_two_readings(tmp_path):
    one = SILENCE[: SILENCE.index('[[silences.readings]]\nid = "cinco"')]
    with pytest.raises(RegimeError) as exc:
        load_regime_file(write(tmp_path, BASE + one))
    assert exc.value.key == "silences[0].readings" and "duas leituras" in exc.value.reason


# ---------------------------------------------------------------- the acts declare their silence on recurrence


@pytest.mark.parametrize(
    ("regime_id", "article"),
    [("sapezal-2014", "art. 50"), ("ilha-comprida-2017", "arts. 17 a 20"), ("sjc-2014", "art. 24, § 2º")],
)
def test_acts_without_a_recurrence_window_declare_it_silent(regime_id, article):
    """Sapezal art. 50, Ilha Comprida arts. 17-20 and SJC art. 24, § 2º speak of reincidência without a window:
    the regime declares the point, with the federal Decreto 6.514/2008, art. 11 reading offered, not imposed."""
    regime = get_regime(regime_id)
    point = regime.silence("reincidencia-prazo")
    assert point.basis == article and point.topic == "recurrence-window"
    five = point.reading("cinco-anos")
    assert five.window_years == 5 and "6.514/2008, art. 11" in five.source
    assert point.applied == "todas-desde-a-vigencia"
    for ident in ("reincidencia-pendente", "reincidencia-mesmo-dia"):
        assert regime.silence(ident).basis == article


def test_olimpia_sets_its_window_and_declares_only_what_art_12_leaves_open():
    regime = get_regime("olimpia-2025")
    points = {s.id for s in regime.silences_for("penalty")}
    assert {"reincidencia-pendente", "reincidencia-mesmo-dia"} <= points and "reincidencia-prazo" not in points
    assert regime.silence("reincidencia-mesmo-dia").reading("mesmo-dia-nao-conta").basis == "art. 190, parágrafo único"


# ---------------------------------------------------------------- the engine applies the reading, and says so


def test_sjc_art_24_window_is_the_authoritys_reading():
    on = dt.date(2026, 3, 2)
    priors = [PriorOffence("descumprimento-geral", dt.date(2019, 1, 10))]
    count, details = count_prior("sjc-2014", "descumprimento-geral", priors, on)
    assert count == 1
    assert any("leitura [todas-desde-a-vigencia]" in d for d in details), details
    count, details = count_prior(
        "sjc-2014", "descumprimento-geral", priors, on, readings={"reincidencia-prazo": "cinco-anos"}
    )
    assert count == 0
    assert any("02/03/2021 a 02/03/2026" in d and "6.514/2008" in d for d in details), details
    assert any("fora do prazo de reincidência: 10/01/2019" in d for d in details), details


def test_sapezal_art_50_a_prior_under_appeal_counts_only_in_the_reading_that_says_so():
    on = dt.date(2026, 5, 4)
    priors = [PriorOffence("dever-40-i", dt.date(2026, 2, 1), pending=True)]
    assert count_prior("sapezal-2014", "dever-40-i", priors, on)[0] == 1
    count, details = count_prior(
        "sapezal-2014", "dever-40-i", priors, on, readings={"reincidencia-pendente": "so-com-decisao-definitiva"}
    )
    assert count == 0
    assert any("sem decisão definitiva" in d and "01/02/2026" in d for d in details), details


def test_olimpia_two_autos_of_the_same_day_double_the_fine_only_in_the_reading_applied():
    """Olímpia art. 12 doubles on recurrence; whether an auto of the same day is a prior is not said (art. 190,
    parágrafo único treats simultaneous infractions as cumulative)."""
    on = dt.date(2026, 5, 4)
    code = "ambulante-sem-autorizacao"
    priors = [PriorOffence(code, on)]
    assert count_prior("olimpia-2025", code, priors, on)[0] == 1
    count, details = count_prior(
        "olimpia-2025", code, priors, on, readings={"reincidencia-mesmo-dia": "mesmo-dia-nao-conta"}
    )
    assert count == 0
    assert any("do mesmo dia deste auto" in d and "art. 190, parágrafo único" in d for d in details), details


def test_the_proposal_lists_every_point_and_keeps_the_choice_and_its_reason():
    on = dt.date(2026, 5, 4)
    chosen = {"reincidencia-mesmo-dia": Choice("mesmo-dia-nao-conta", "autos simultâneos", "Chefe")}
    proposal = propose_sanction("olimpia-2025", ["ambulante-sem-autorizacao"], on=on, readings=chosen)
    by_point = {r.point: r for r in proposal.readings}
    # every point on recurrence, and those of the street-vending ladder only (art. 145, § 2º: the depot days)
    assert set(by_point) == {"reincidencia-pendente", "reincidencia-mesmo-dia", "diarias-na-virada-do-ano"}
    same_day = by_point["reincidencia-mesmo-dia"]
    assert (same_day.reading, same_day.chosen, same_day.reason, same_day.by) == (
        "mesmo-dia-nao-conta",
        True,
        "autos simultâneos",
        "Chefe",
    )
    assert same_day.basis == "LC 324/2025, art. 12, § 1º"
    pending = by_point["reincidencia-pendente"]
    assert (pending.reading, pending.chosen) == ("conta-ao-ser-autuada", False)
    assert [o[0] for o in pending.others] == ["so-com-decisao-definitiva"]
    again = Proposal.from_dict(json.loads(json.dumps(proposal.to_dict())))
    assert again.readings == proposal.readings


@pytest.mark.parametrize(
    ("chosen", "words"),
    [
        ({"reincidencia-prazo": "cinco-anos"}, "Ponto 'reincidencia-prazo' não é um silêncio"),
        ({"reincidencia-mesmo-dia": "talvez"}, "Leitura 'talvez' não existe"),
    ],
)
def test_a_point_or_reading_the_act_does_not_declare_is_refused(chosen, words):
    with pytest.raises(UserError) as exc:
        propose_sanction("olimpia-2025", ["ambulante-sem-autorizacao"], on=dt.date(2026, 5, 4), readings=chosen)
    assert words in exc.value.message and exc.value.field == "reading"


# ---------------------------------------------------------------- the command line


@pytest.fixture
def sqlite_url(sqlite_database):
    from models.store.bootstrap import close_database

    close_database()
    return sqlite_database


def _penalty(sqlite_url, *extra: str) -> list[str]:
    return [
        "penalty",
        "--db",
        sqlite_url,
        "--regime",
        "olimpia-2025",
        "--infraction",
        "ambulante-sem-autorizacao",
        "--date",
        "04/05/2026",
        "--prior-date",
        "04/05/2026",
        *extra,
    ]


def test_praca_penalty_prints_the_points_and_the_reading_applied(sqlite_url, capsys):
    assert main(_penalty(sqlite_url)) == 0
    out = capsys.readouterr().out
    assert (
        "Silêncio do ato [reincidencia-mesmo-dia] — Dois autos do mesmo dia contam um como infração anterior "
        "do outro? O ato não diz. (LC 324/2025, art. 12, § 1º)"
    ) in out
    assert "Leitura aplicada [mesmo-dia-conta]" in out and "aplicada pelo Praça até a autoridade escolher" in out
    assert "--reading reincidencia-mesmo-dia=mesmo-dia-nao-conta" in out
    assert "degrau 2" in out


def test_praca_penalty_takes_the_reading_and_its_reason_in_json(sqlite_url, capsys):
    code = main(
        _penalty(
            sqlite_url,
            "--reading",
            "reincidencia-mesmo-dia=mesmo-dia-nao-conta",
            "--reading-reason",
            "infrações simultâneas",
            "--json",
        )
    )
    assert code == 0
    data = json.loads(capsys.readouterr().out)
    same_day = next(r for r in data["readings"] if r["point"] == "reincidencia-mesmo-dia")
    assert (same_day["reading"], same_day["chosen"], same_day["reason"]) == (
        "mesmo-dia-nao-conta",
        True,
        "infrações simultâneas",
    )
    assert data["infractions"][0]["prior"] == 0


def test_praca_penalty_refuses_a_malformed_reading(sqlite_url, capsys):
    assert main(_penalty(sqlite_url, "--reading", "reincidencia-mesmo-dia")) == 2
    err = capsys.readouterr().err
    assert err == "praca: Leitura inválida 'reincidencia-mesmo-dia': use --reading PONTO=LEITURA.\n"


# ---------------------------------------------------------------- the desk: the infraction record


def _second(jose, when: str, **kw):
    from factories import draft

    return draft("olimpia-2025", ["geral-sem-penalidade"], when, holder=jose, **kw)


def test_the_record_applies_and_keeps_the_reading_of_a_prior_under_defence(keys):
    """LC 324/2025, art. 12, § 1º counts "outra infração da mesma natureza" within 5 years and says nothing of
    one still under defence: the desk counts it in the declared reading, and not in the authority's other one."""
    from factories import draft, person
    from factories import issue_record as issue

    from models import enforcement as enf
    from models.base.errors import FieldErrors

    jose = person("José Ambulante")
    first = issue(draft("olimpia-2025", ["geral-sem-penalidade"], "02/03/2026 10:00", holder=jose))
    enf.file_contest(first, kind="defence", filed_on=dt.date(2026, 3, 10), by="protocolo")

    declared = enf.preview(_second(jose, "04/05/2026 10:00"), today=dt.date(2026, 5, 4))
    assert declared.proposal.items[0].offence == 2
    assert declared.prior_refs == (f"{first.reference} de 02/03/2026 (sob defesa ou recurso)",)
    shown = [text for _indent, text in enf.explain(declared)]
    assert any(t.startswith("Silêncio do ato [reincidencia-pendente]") for t in shown), shown
    assert any("aplicada pelo Praça até a autoridade escolher" in t for t in shown), shown

    with pytest.raises(FieldErrors) as exc:
        enf.preview(
            _second(jose, "04/05/2026 10:00", readings={"reincidencia-pendente": Choice("so-com-decisao-definitiva")}),
            today=dt.date(2026, 5, 4),
        )
    assert "motivo" in exc.value.errors["readings"]

    chosen = {"reincidencia-pendente": Choice("so-com-decisao-definitiva", "defesa ainda não julgada")}
    record = issue(_second(jose, "04/05/2026 10:00", readings=chosen))
    assert record.proposal_data["infractions"][0]["offence"] == 1
    kept = next(r for r in record.proposal_data["readings"] if r["point"] == "reincidencia-pendente")
    assert (kept["reading"], kept["chosen"], kept["reason"], kept["by"]) == (
        "so-com-decisao-definitiva",
        True,
        "defesa ainda não julgada",
        "Marcos Fiscal",
    )
    # a correction starts from the reading the record carries
    assert enf.draft_from(record).readings["reincidencia-pendente"].reading == "so-com-decisao-definitiva"


def test_the_record_dialog_shows_the_points_and_records_the_authoritys_reading(qtbot, keys, app_ready):
    from conftest import type_text
    from factories import draft, person
    from factories import issue_record as issue

    from views.enforcement import RecordDialog

    jose = person("José Ambulante")
    first = issue(draft("olimpia-2025", ["geral-sem-penalidade"], "04/05/2026 08:00", holder=jose))
    base = _second(jose, "04/05/2026 10:00")
    dialog = RecordDialog(base, today=dt.date(2026, 5, 4))
    qtbot.addWidget(dialog)
    assert not dialog.form.readings_box.isHidden()
    combo = dialog.findChild(type(dialog.form.kind), "reading-reincidencia-mesmo-dia")
    assert combo is not None and combo.currentIndex() == 0
    tips = [combo.itemData(i, Qt.ItemDataRole.ToolTipRole) or "" for i in range(combo.count())]
    assert any("art. 190, parágrafo único" in text for text in tips), tips
    combo.setCurrentIndex(combo.findData("mesmo-dia-nao-conta"))  # the whole reading is read under the combo
    text = dialog.findChild(QLabel, "reading-text-reincidencia-mesmo-dia").text()
    assert "art. 190, parágrafo único" in text
    combo.setCurrentIndex(0)
    dialog.update_preview()
    shown = dialog.proposal_view.toPlainText()
    assert f"{first.reference} de 04/05/2026" in shown and "2ª ocorrência" in shown
    assert "Leitura aplicada [mesmo-dia-conta]" in shown

    combo.setCurrentIndex(combo.findData("mesmo-dia-nao-conta"))
    dialog.update_preview()
    assert not dialog.issue_button.isEnabled()  # a reading chosen asks for its reason
    reason = dialog.findChild(type(dialog.form.inspector), "reading-reason-reincidencia-mesmo-dia")
    type_text(reason, "autos simultâneos")
    dialog.update_preview()
    shown = dialog.proposal_view.toPlainText()
    assert "Leitura aplicada [mesmo-dia-nao-conta]" in shown and "motivo: autos simultâneos" in shown
    assert "1ª ocorrência" in shown
    dialog.issue()
    record = dialog.record
    assert record is not None
    kept = next(r for r in record.proposal_data["readings"] if r["point"] == "reincidencia-mesmo-dia")
    assert (kept["reading"], kept["reason"]) == ("mesmo-dia-nao-conta", "autos simultâneos")


def test_the_printed_record_states_the_reading_and_its_reason(keys, tmp_path):
    from factories import draft, person
    from factories import issue_record as issue

    from reports.enforcement_docs import record_context

    jose = person("José Ambulante")
    issue(draft("olimpia-2025", ["geral-sem-penalidade"], "04/05/2026 08:00", holder=jose))
    chosen = {"reincidencia-mesmo-dia": Choice("mesmo-dia-nao-conta", "autos simultâneos", "Chefe da Fiscalização")}
    record = issue(_second(jose, "04/05/2026 10:00", readings=chosen))
    from reports.templating import render

    html = render("record.html.j2", **record_context(record))
    assert "Ponto em que o ato silencia — Dois autos do mesmo dia" in html
    assert "escolhida pela autoridade (Chefe da Fiscalização); motivo: autos simultâneos" in html
    assert "leitura declarada no regime, aplicada até a escolha da autoridade" in html  # the pending point


# ---------------------------------------------------------------- draw, quote, deadline: the reading by the figure


SAPEZAL_CSV = "id,name,group,debtor\n" + "".join(f"g01-{i:02d},Ambulante {i},g01,\n" for i in range(1, 16))


def test_praca_draw_states_how_sapezal_art_12_alternates_are_drawn(tmp_path, capsys):
    """Art. 12, § 3º: "serão sorteados mais dez suplentes" — by lot among everyone not selected, ignoring the score
    (a reading once stated only in the README); art. 10, § 3º "deficiente físico" read as any disability."""
    from factories import draw_json
    from factories import write_list as write_csv

    path = write_csv(tmp_path, SAPEZAL_CSV)
    args = ["draw", "--regime", "sapezal-2014", "--input", path, "--vacancies", "g01=2", "--seed", "9"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "Silêncio do ato [suplentes-por-sorteio]" in out and "(Lei 1.171/2014, art. 12, § 3º)" in out
    assert "Leitura aplicada [sorteio-entre-nao-selecionados]" in out
    assert "Outra leitura [por-pontuacao]" in out and "art. 10, § 2º" in out
    assert "Silêncio do ato [deficiente-fisico]" in out and "Lei federal nº 13.146/2015" in out
    data = draw_json(capsys, *args[1:], "--reading", "deficiente-fisico=so-deficiencia-fisica")
    points = {r["point"]: r for r in data["readings"]}
    assert points["deficiente-fisico"]["reading"] == "so-deficiencia-fisica"
    assert "não calcula por esta leitura" in (
        next(line for line in _lines(data["readings"]) if "so-deficiencia-fisica" in line)
    )


def _lines(readings):
    from models.rules.silences import AppliedReading, lines

    return lines(AppliedReading.from_dict(r) for r in readings)


def test_praca_quote_states_that_sjc_charges_the_whole_month_and_the_stall_area(sqlite_url, capsys):
    argv = ["quote", "--db", sqlite_url, "--regime", "sjc-2014", "--line", "pastel", "--year", "2014"]
    assert main([*argv, "--area", "20", "--days", "3"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[-1] == "Total: R$ 50,00"
    assert any(line.startswith("Silêncio do ato [dias-no-mes]") and "art. 11, § 5º" in line for line in lines)
    assert any("Leitura aplicada [mes-inteiro]" in line for line in lines)
    assert any(line.startswith("Silêncio do ato [area-tenda-e-mesas]") for line in lines)
    assert main([*argv, "--area", "20", "--json", "--reading", "dias-no-mes=proporcional-aos-dias"]) == 0
    data = json.loads(capsys.readouterr().out)
    chosen = next(r for r in data["readings"] if r["point"] == "dias-no-mes")
    assert chosen["reading"] == "proporcional-aos-dias" and chosen["computed_by"] == "mes-inteiro"


def test_praca_deadline_states_the_deposit_for_sapezal_appeals_and_sumula_vinculante_21(sqlite_url, capsys):
    """Art. 53, § 3º accepts appeals only after a deposit; the STF's Súmula Vinculante 21 is offered beside it."""
    argv = ["deadline", "--db", sqlite_url, "--regime", "sapezal-2014", "--from", "2026-05-04"]
    assert main([*argv, "--kind", "appeal"]) == 0
    out = capsys.readouterr().out
    assert "Silêncio do ato [deposito-recurso]" in out and "(Lei 1.171/2014, art. 53, § 3º)" in out
    assert "Outra leitura [sem-deposito]" in out and "STF, Súmula Vinculante 21" in out
    assert main([*argv, "--kind", "renewal"]) == 0
    assert "deposito-recurso" not in capsys.readouterr().out  # only the appeal's deadline
    assert main([*argv, "--kind", "appeal", "--json"]) == 0
    assert [r["point"] for r in json.loads(capsys.readouterr().out)["readings"]] == ["deposito-recurso"]


# ---------------------------------------------------------------- renewal windows closing on a closed day


def test_a_renewal_window_that_closes_on_a_saturday_is_flagged_with_the_reading_applied(keys):
    """Sapezal, Lei 1.171/2014, art. 23, § 1º: renewal asked 30 days before the end — here Saturday 30/10/2027.
    The act does not say whether the window moves: flagged, with the declared reading and the other."""
    from factories import company, person, sapezal_licence, tpu

    from models.permits import renewal_window

    sapezal = renewal_window(sapezal_licence(keys, company("Bebidas Sapezal Ltda", person("Carlos Dias Rocha"))))
    assert sapezal.closes == dt.date(2027, 10, 30)
    assert "o último dia, 30/10/2027, é sem expediente" in sapezal.closed_flag
    assert "(Lei 1.171/2014, art. 23, § 1º)" in sapezal.closed_flag
    assert "leitura aplicada [dia-fixo]" in sapezal.closed_flag
    assert "outra leitura [proximo-dia-util]" in sapezal.closed_flag and "9.784/1999" in sapezal.closed_flag
    # Olímpia's TPU window closes on Tuesday 30/09/2031: nothing to flag
    olimpia = renewal_window(tpu(keys, company("Food Truck Ltda", person("Marcos Paulo Dias"))))
    assert olimpia.closes == dt.date(2031, 9, 30) and olimpia.closed_flag == ""


def test_a_window_the_act_sets_is_not_a_silence_and_a_topic_is_declared_once(tmp_path):
    assert "[[ladders]]" in BASE
    windowed = BASE.replace("[[ladders]]\n", "[[ladders]]\nrecurrence_window_years = 2\n", 1)
    with pytest.raises(RegimeError) as exc:
        load_regime_file(write(tmp_path, windowed + SILENCE))
    assert exc.value.key == "silences[0].topic" and "o ato fixa o prazo de reincidência" in exc.value.reason
    with pytest.raises(RegimeError) as exc:
        load_regime_file(write(tmp_path, BASE + SILENCE + SILENCE.replace('id = "prazo"', 'id = "outro"')))
    assert exc.value.key == "silences[1].topic" and '"prazo"' in exc.value.reason


def test_docs_silencios_lists_every_point_every_act_declares():
    """docs/silencios.md: for each of the six acts, every point where it is silent (issue 28, "Done when")."""
    from pathlib import Path

    from models.rules.regimes import load_regimes

    text = (Path(__file__).resolve().parent.parent / "docs" / "silencios.md").read_text(encoding="utf-8")
    regimes = load_regimes()
    assert len(regimes) >= 6
    for regime in regimes.values():
        start = text.index(f"(`{regime.id}`)")
        end = text.find("\n### ", start)
        section = text[start : end if end != -1 else len(text)]
        for point in regime.silences:
            assert f"| `{point.id}` |" in section, (regime.id, point.id)
            for reading in point.readings:
                assert f"**`{reading.id}`**" in section, (regime.id, point.id, reading.id)


def test_a_held_draw_keeps_the_reading_of_sapezal_art_12_and_its_ata_states_it(database):
    """The draw's act (the ata) says how the alternates were drawn — art. 12, § 3º read as a pure lot among all
    not selected — and, where the commission chose, its reading of art. 10, § 3º with the reason."""
    from models.selection import Participant
    from models.selection.draws import hold_draw
    from reports.draw_ata import draw_ata_html

    people = [Participant(id=f"{i:02d}", name=f"Ambulante {i}") for i in range(1, 15)]
    draw = hold_draw(
        "sapezal-2014",
        people,
        "Loteria Federal 06001: 41234",
        3,
        call="Edital de chamamento nº 1/2026",
        place="Paço Municipal",
        officials=["Maria Presidente (comissão)"],
        created_by="atendente",
        held_at=dt.datetime(2026, 4, 2, 15, 0),
        readings={"deficiente-fisico": Choice("so-deficiencia-fisica", "letra do edital", "comissão")},
    )
    kept = {r["point"]: r for r in draw.result["readings"]}
    assert kept["suplentes-por-sorteio"]["reading"] == "sorteio-entre-nao-selecionados"
    assert not kept["suplentes-por-sorteio"]["chosen"]
    assert (kept["deficiente-fisico"]["reading"], kept["deficiente-fisico"]["reason"]) == (
        "so-deficiencia-fisica",
        "letra do edital",
    )
    html = " ".join(draw_ata_html(draw).split())
    assert "Pontos em que o ato silencia" in html
    assert "Silêncio do ato [suplentes-por-sorteio]" in html and "Lei 1.171/2014, art. 12, § 3º" in html
    assert "escolhida pela autoridade (comissão) — motivo: letra do edital" in html


def test_olimpia_depot_days_state_the_reading_of_art_145_in_the_quote_of_that_fee_only(sqlite_url, capsys):
    """Art. 145, § 2º ("1 UFESP por dia") does not say which year's UFESP a day across the new year takes."""
    argv = ["quote", "--db", sqlite_url, "--regime", "olimpia-2025"]
    assert main([*argv, "--fee", "depot-street-vending", "--days", "5", "--date", "30/12/2026"]) == 0
    out = capsys.readouterr().out
    assert "Silêncio do ato [diarias-na-virada-do-ano]" in out and "LC 324/2025, art. 145, § 2º" in out
    assert "Leitura aplicada [ufesp-de-cada-dia]" in out and "cote cada ano à parte" in out
    assert main([*argv, "--venue", "recinto-arena", "--days", "2", "--year", "2026"]) == 0
    assert "Silêncio do ato" not in capsys.readouterr().out  # a venue's price: no depot day
