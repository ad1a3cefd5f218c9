"""Money and time as the acts speak of them (issue 29 §2): an act's own currency, declared and printed as such on
the command line, in its worked cases and on the desk; an in-force article that is unknown, said so; a conduct the act
forbids without a sanction, said exactly so."""

import datetime as dt
import json

import pytest
from factories import open_new_database
from period_acts import CABECEIRA, FINE

from desktop.cli import main
from models.rules.regimes import RegimeError, default_regimes_folder, load_regime_text
from models.services.act_cases import check_act


def _act(tmp_path, *, currency='currency = "Cr$"\n', extra=FINE, regime_id="cruzeiros-1975", force=None):
    text = CABECEIRA.replace('id = "cabeceira-grande-2012"', f'id = "{regime_id}"', 1)
    text = text.replace('scope = ["street-vending"]\n', 'scope = ["street-vending"]\n' + currency, 1)
    if force is not None:
        start = text.index("in_force = {")
        text = text[:start] + force + text[text.index("\n", start) :]
    path = tmp_path / f"{regime_id}.toml"
    path.write_text(text + extra, encoding="utf-8")
    return path


def test_an_act_in_cruzeiros_prints_its_amounts_in_cruzeiros_on_the_command_line(database, tmp_path, capsys):
    path = _act(tmp_path)
    assert main(["--db", database, "regimes", "install", str(path)]) == 0
    capsys.readouterr()
    quote = ["--db", database, "quote", "--regime", "cruzeiros-1975", "--fee", "taxa-licenca"]
    assert main([*quote, "--admin-value", "taxa-licenca=1.500,00", "--date", "01/06/2026"]) == 0
    out = capsys.readouterr().out
    assert "Total: Cr$ 1.500,00" in out and "R$" not in out.replace("Cr$", "")
    assert main([*quote, "--admin-value", "taxa-licenca=1.500,00", "--date", "01/06/2026", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["currency"] == "Cr$" and data["total_text"] == "Cr$ 1.500,00"
    assert data["lines"][0]["amount_text"] == "Cr$ 1.500,00"

    penalty = ["--db", database, "penalty", "--regime", "cruzeiros-1975", "--infraction", "multa-cruzeiros"]
    assert main([*penalty, "--date", "01/06/2026"]) == 0
    out = capsys.readouterr().out
    assert "Multas impostas: Cr$ 500,00" in out and "R$" not in out.replace("Cr$", "")
    assert main([*penalty, "--date", "01/06/2026", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["currency"] == "Cr$" and data["total_text"] == "Cr$ 500,00"


def test_the_worked_cases_of_an_act_in_cruzeiros_speak_cruzeiros(tmp_path):
    path = _act(tmp_path, extra=FINE.replace('expect = { total = "500.00" }', 'expect = { total = "50.00" }'))
    checked = check_act(path.read_text(encoding="utf-8"), path.name, expected_id=path.stem)
    assert [e.key for e in checked.errors] == ["cases.multa-em-cruzeiros.expect.total"]
    assert "esperado Cr$ 50,00, calculado Cr$ 500,00" in checked.errors[0].reason


def test_an_unknown_currency_is_refused_with_the_ones_there_are(tmp_path):
    path = _act(tmp_path, currency='currency = "Cruzeiro"\n')
    errors = check_act(path.read_text(encoding="utf-8"), path.name, expected_id=path.stem).errors
    assert [e.key for e in errors] == ["regime.currency"]
    assert "Cr$" in errors[0].reason and "NCz$" in errors[0].reason


def test_an_act_without_currency_is_in_reais():
    regime = load_regime_text(CABECEIRA, "cabeceira-grande-2012.toml")
    assert regime.currency == "R$"


UNKNOWN = (
    "in_force = { from = 2012-06-25, basis_unknown = true, notes = "
    '"A cópia da lei não traz a cláusula de vigência; a data é a da lei." }'
)


def test_an_unknown_in_force_article_is_said_so(database, tmp_path, capsys):
    path = _act(tmp_path, currency="", extra="", regime_id="vigencia-2012", force=UNKNOWN)
    assert main(["regimes", "check", str(path)]) == 0
    assert "vigência: desde 25/06/2012 — artigo da vigência desconhecido" in capsys.readouterr().out
    assert main(["--db", database, "regimes", "install", str(path)]) == 0
    capsys.readouterr()
    penalty = ["--db", database, "penalty", "--regime", "vigencia-2012", "--infraction", "sem-licenca"]
    assert main([*penalty, "--date", "01/01/2012"]) == 2
    err = capsys.readouterr().err
    assert "anterior à vigência do ato (Lei 376/2012), em vigor desde 25/06/2012" in err
    assert "(Lei 376/2012, artigo da vigência" in err


@pytest.mark.parametrize(
    ("force", "reason"),
    [
        ("in_force = { from = 2012-06-25, basis_unknown = true }", "diga em notes por que"),
        (
            'in_force = { from = 2012-06-25, basis = "art. 6º", basis_unknown = true, notes = "x" }',
            "tire basis_unknown",
        ),
        ("in_force = { from = 2012-06-25 }", "chave obrigatória ausente"),
    ],
    ids=["no-notes", "both", "neither"],
)
def test_an_in_force_without_its_article_says_why(tmp_path, force, reason):
    path = _act(tmp_path, currency="", extra="", regime_id="vigencia-2012", force=force)
    with pytest.raises(RegimeError, match=reason):
        load_regime_text(path.read_text(encoding="utf-8"), path.name)


FORBIDDEN = """
[[infractions]]
code = "som-alto"
label = "Usar aparelho de som em volume alto"
article = "art. 3º"
no_sanction = true
notes = "O art. 3º proíbe; a lei não comina sanção a esta conduta."

[[cases]]
id = "proibida-sem-sancao"
label = "Conduta proibida sem sanção: nada a propor"
article = "art. 3º"
date = 2026-06-01
kind = "penalty"
inputs = { infraction = ["som-alto"] }
expect = { total = "0.00", proposed = "0.00" }
"""


def test_a_conduct_the_act_forbids_without_a_sanction_says_exactly_that(database, tmp_path, capsys):
    path = _act(tmp_path, currency="", extra=FORBIDDEN, regime_id="proibe-2012")
    assert main(["--db", database, "regimes", "install", str(path)]) == 0
    capsys.readouterr()
    penalty = [
        "--db",
        database,
        "penalty",
        "--regime",
        "proibe-2012",
        "--infraction",
        "som-alto",
        "--date",
        "01/06/2026",
    ]
    assert main(penalty) == 0
    out = capsys.readouterr().out
    assert "Penalidade: nenhuma — o ato proíbe a conduta (Lei 376/2012, art. 3º) e não lhe comina sanção" in out
    assert "O ato (Lei 376/2012) proíbe esta conduta" in out and "não há penalidade a propor com base nele" in out
    assert "Multas impostas" not in out and "Gradação" not in out
    assert main([*penalty, "--json"]) == 0
    item = json.loads(capsys.readouterr().out)["infractions"][0]
    assert item["no_sanction"] is True and item["sanctions"] == []


def test_a_conduct_without_sanction_cites_no_penalty_article(tmp_path):
    extra = FORBIDDEN.replace("no_sanction = true", 'no_sanction = true\nbasis = "art. 5º"')
    path = _act(tmp_path, currency="", extra=extra, regime_id="proibe-2012")
    errors = check_act(path.read_text(encoding="utf-8"), path.name, expected_id=path.stem).errors
    assert [e.key for e in errors] == ["infractions.som-alto.basis"]
    assert "não tem sanção no ato" in errors[0].reason


def test_the_price_simulator_prints_an_act_in_cruzeiros_in_cruzeiros(app_ready, qtbot, sqlite_url):
    """The desk: an act declaring Cr$ priced in the simulator — the total and each line's amount in cruzeiros."""
    from PySide6.QtCore import Qt

    from models.rules import acts

    text = (default_regimes_folder() / "sao-bento-2026.toml").read_text(encoding="utf-8")
    text = text.replace('id = "sao-bento-2026"', 'id = "cruzeiros-1986"', 1)
    text = text.replace('scope = ["event"]\n', 'scope = ["event"]\ncurrency = "Cz$"\n', 1)
    open_new_database(sqlite_url)
    acts.install(text.encode("utf-8"), "cruzeiros-1986.toml")
    from desktop.main_window import MainWindow

    win = MainWindow()
    qtbot.addWidget(win)
    win.show()
    win.show_desk("cobranca")
    page = win.pages["cobranca"]
    page.tabs.setCurrentIndex(2)
    simulator = page.simulator
    simulator.select_regime("cruzeiros-1986")
    simulator.equipment.setCurrentIndex(simulator.equipment.findData("barraca"))
    simulator.front.clear()
    qtbot.keyClicks(simulator.front, "2,5")
    qtbot.waitUntil(lambda: simulator.total.text().endswith("Total: Cz$ 528,28"))
    assert "R$" not in simulator.total.text()
    value = simulator.model.index(0, 1).data(Qt.ItemDataRole.DisplayRole)
    assert value == "Cz$ 528,28"
    simulator.grab().save("/tmp/i29_simulador_cz.png")


BANNED = """
[[infractions]]
code = "vender-no-feriado"
label = "Vender em dia proibido"
article = "art. 1º"
sanctions = [
  { kind = "impediment", text = "Impedido de vender no município", until = "end-of-year", basis = "art. 5º" },
]
basis = "art. 5º"

[[infractions]]
code = "vender-na-praca"
label = "Vender na praça interditada"
article = "art. 1º"
sanctions = [ { kind = "suspension", until = 2026-09-30, basis = "art. 5º" } ]
basis = "art. 5º"

[[cases]]
id = "impedido-ate-o-fim-do-ano"
label = "Impedido até o fim do ano civil"
article = "art. 5º"
date = 2026-06-01
kind = "penalty"
inputs = { infraction = ["vender-no-feriado"] }
expect = { sanctions = ["impediment"], until = 2026-12-31 }
"""


def test_a_ban_until_the_end_of_the_civil_year_ends_on_its_last_day(database, tmp_path, capsys):
    path = _act(tmp_path, currency="", extra=BANNED, regime_id="banido-2012")
    assert main(["regimes", "check", str(path)]) == 0
    capsys.readouterr()
    assert main(["--db", database, "regimes", "install", str(path)]) == 0
    capsys.readouterr()
    penalty = ["--db", database, "penalty", "--regime", "banido-2012", "--date", "01/06/2026"]
    assert main([*penalty, "--infraction", "vender-no-feriado"]) == 0
    out = capsys.readouterr().out
    assert "Impedimento: impedido de vender no município, até o fim do ano civil (31/12/2026)" in out
    assert "Até 31/12/2026 — fim do ano civil da infração (Lei 376/2012, art. 5º)." in out
    assert main([*penalty, "--infraction", "vender-na-praca", "--json"]) == 0
    sanction = json.loads(capsys.readouterr().out)["infractions"][0]["sanctions"][0]
    assert sanction["kind"] == "suspension" and sanction["until"] == "2026-09-30"
    assert "Até 30/09/2026 — data fixada pelo ato (Lei 376/2012, art. 5º)." in sanction["details"]


FOR_A_TERM = """
[[infractions]]
code = "vender-em-vidro"
label = "Vender bebida em garrafa de vidro no evento"
article = "art. 1º"
sanctions = [
  { kind = "impediment", text = "proibido de vender em eventos públicos", years = 2, basis = "art. 5º" },
]
basis = "art. 5º"

[[infractions]]
code = "vender-sem-crachá"
label = "Vender sem o crachá"
article = "art. 1º"
sanctions = [ { kind = "suspension", months = 1, basis = "art. 5º" } ]
basis = "art. 5º"

[[cases]]
id = "dois-anos-sem-vender"
label = "Dois anos sem vender em eventos públicos, contados do dia da infração"
article = "art. 5º"
date = 2026-06-21
kind = "penalty"
inputs = { infraction = ["vender-em-vidro"] }
expect = { sanctions = ["impediment"], until = 2028-06-21 }
"""


def test_a_ban_for_n_years_or_months_ends_on_the_day_of_the_same_number(database, tmp_path, capsys):
    """ "Proibição de venda em eventos públicos por 2 anos" (Conceição/PB, Dec. 41/2025, art. 2º, I): the term runs
    to the day of the same number (Código Civil, art. 132, § 3º), or the next day where that month has none."""
    from models.enforcement.sanctions import term_end

    assert term_end(dt.date(2025, 6, 21), 24) == dt.date(2027, 6, 21)
    assert term_end(dt.date(2028, 2, 29), 24) == dt.date(2030, 3, 1)  # no 29/02/2030: the day after
    assert term_end(dt.date(2026, 1, 31), 1) == dt.date(2026, 3, 1)  # no 31/02: the day after
    assert term_end(dt.date(2026, 12, 15), 1) == dt.date(2027, 1, 15)
    path = _act(tmp_path, currency="", extra=FOR_A_TERM.replace("crachá", "cracha"), regime_id="prazo-2012")
    assert main(["regimes", "check", str(path)]) == 0
    assert "(1 exemplo ou linha de tabela do próprio ato," in capsys.readouterr().out  # the case added here
    assert main(["--db", database, "regimes", "install", str(path)]) == 0
    capsys.readouterr()
    penalty = ["--db", database, "penalty", "--regime", "prazo-2012", "--date", "21/06/2026"]
    assert main([*penalty, "--infraction", "vender-em-vidro"]) == 0
    out = capsys.readouterr().out
    assert "Impedimento: proibido de vender em eventos públicos, por 2 anos: até 21/06/2028" in out
    assert (
        "Até 21/06/2028 — 2 anos contados de 21/06/2026 (Lei 376/2012, art. 5º), vencendo no dia de igual número "
        "(Código Civil, art. 132, § 3º)." in out
    )
    later = ["--db", database, "penalty", "--regime", "prazo-2012", "--date", "31/01/2027"]
    assert main([*later, "--infraction", "vender-sem-cracha", "--json"]) == 0
    sanction = json.loads(capsys.readouterr().out)["infractions"][0]["sanctions"][0]
    assert sanction["kind"] == "suspension" and sanction["until"] == "2027-03-01"
    assert any("vencendo no dia imediato" in line for line in sanction["details"])
    # the case checks the day: a wrong one is a mistake of the file
    wrong = path.read_text(encoding="utf-8").replace("until = 2028-06-21", "until = 2028-06-20")
    path.write_text(wrong, encoding="utf-8")
    assert main(["regimes", "check", str(path)]) == 2
    assert "cases.dois-anos-sem-vender" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("sanction", "reason"),
    [
        ('{ kind = "suspension", years = 2, days = 30, basis = "art. 5º" }', "uma só duração"),
        ('{ kind = "suspension", months = 6, until = 2026-09-30, basis = "art. 5º" }', "não os dois"),
        ('{ kind = "suspension", years = 1, until_remedied = true, basis = "art. 5º" }', "sanar a irregularidade"),
        ('{ kind = "seizure", years = 2, basis = "art. 5º" }', "chave desconhecida"),
        ('{ kind = "impediment", text = "x", years = 0, basis = "art. 5º" }', "years"),
    ],
    ids=["years-and-days", "months-and-until", "years-and-remedied", "years-on-seizure", "zero-years"],
)
def test_a_term_in_months_or_years_is_checked_with_the_rest(tmp_path, sanction, reason):
    extra = f"""
[[infractions]]
code = "x"
label = "x"
article = "art. 1º"
sanctions = [ {sanction} ]
basis = "art. 5º"
"""
    path = _act(tmp_path, currency="", extra=extra, regime_id="prazo-2012")
    with pytest.raises(RegimeError) as error:
        load_regime_text(path.read_text(encoding="utf-8"), path.name)
    assert reason in str(error.value)


@pytest.mark.parametrize(
    ("due", "text"),
    [
        ('due = { at_each = "feira-day", basis = "art. 3º" }', "Vencimento: a cada dia de feira, na montagem"),
        ('due = { at_each = "event", basis = "art. 3º" }', "Vencimento: a cada evento, na montagem"),
        ('due = { hours_after_issue = 48, basis = "art. 3º" }', "Vencimento: em até 48 horas após a emissão da guia"),
        ('due = { date = 2026-07-10, basis = "art. 3º" }', "Vencimento: até 10/07/2026"),
    ],
    ids=["each-feira-day", "each-event", "hours", "fixed-date"],
)
def test_payment_due_as_the_act_says_it(database, tmp_path, capsys, due, text):
    extra = ""
    path = _act(tmp_path, currency="", extra=extra, regime_id="vencimento-2012")
    body = path.read_text(encoding="utf-8").replace('id = "taxa-licenca"\n', f'id = "taxa-licenca"\n{due}\n', 1)
    assert due in body
    path.write_text(body, encoding="utf-8")
    assert main(["--db", database, "regimes", "install", str(path)]) == 0
    capsys.readouterr()
    quote = ["--db", database, "quote", "--regime", "vencimento-2012", "--fee", "taxa-licenca", "--date", "01/06/2026"]
    assert main([*quote, "--admin-value", "taxa-licenca=20,00"]) == 0
    assert text in capsys.readouterr().out


def test_a_value_an_amending_act_worded_cites_it_with_the_figure(database, tmp_path, capsys):
    """ "Redação dada por…": the fee, the deadline and the fine an amending act worded print it beside the figure."""
    text = (default_regimes_folder() / "sao-bento-2026.toml").read_text(encoding="utf-8")
    text = text.replace('id = "sao-bento-2026"', 'id = "redacao-2026"', 1)
    assert 'kind = "formula"\n' in text  # the occupation price (art. 9º), the act's first fee
    text = text.replace('kind = "formula"\n', 'kind = "formula"\namended_by = "Lei nº 2.600/2026"\n', 1)
    text = text.replace('role = "price-payment"\n', 'role = "price-payment"\namended_by = "Decreto nº 4.800/2026"\n', 1)
    text = text.replace(
        'fine = { value = "150.00", unit = "BRL", basis = "art. 2º, § 2º"',
        'fine = { value = "150.00", unit = "BRL", amended_by = "Lei nº 2.601/2026", basis = "art. 2º, § 2º"',
        1,
    )
    path = tmp_path / "redacao-2026.toml"
    path.write_text(text, encoding="utf-8")
    assert main(["--db", database, "regimes", "install", str(path)]) == 0
    capsys.readouterr()
    db = ["--db", database]
    assert main([*db, "quote", "--regime", "redacao-2026", "--equipment", "barraca", "--front", "2,5"]) == 0
    out = capsys.readouterr().out
    assert "Base legal: Dec. 4.794/2026, art. 9º, § 2º" in out and "(redação dada pela Lei nº 2.600/2026)" in out
    assert main([*db, "deadline", "--regime", "redacao-2026", "--kind", "late-payment", "--from", "2026-03-27"]) == 0
    out = capsys.readouterr().out
    assert "Base legal: Dec. 4.794/2026, art. 10 (redação dada pelo Decreto nº 4.800/2026)" in out
    penalty = ["penalty", "--regime", "redacao-2026", "--infraction", "nao-desmontar", "--date", "30/03/2026"]
    assert main([*db, *penalty]) == 0
    out = capsys.readouterr().out
    assert "Multa da infração: R$ 150,00 (Dec. 4.794/2026, art. 2º, § 2º (redação dada pela Lei nº 2.601/2026)" in out


def test_the_record_dialog_shows_the_acts_money_its_ban_until_and_a_conduct_without_sanction(qtbot, keys, app_ready):
    """The inspector's desk: the proposal of a record under an act in cruzeiros, with a ban until the end of the
    civil year and a conduct the act forbids without a sanction, each said as the command line says it."""
    from factories import draft, person

    from models.rules import acts
    from views.enforcement import RecordDialog

    body = CABECEIRA.replace('id = "cabeceira-grande-2012"', 'id = "mesa-1975"', 1)
    body = body.replace('scope = ["street-vending"]\n', 'scope = ["street-vending"]\ncurrency = "Cr$"\n', 1)
    acts.install((body + FINE + BANNED + FORBIDDEN).encode("utf-8"), "mesa-1975.toml")
    holder = person("José Ambulante")
    codes = ["multa-cruzeiros", "vender-no-feriado", "som-alto"]
    dialog = RecordDialog(draft("mesa-1975", codes, "04/05/2026 10:00", holder=holder), today=dt.date(2026, 5, 4))
    qtbot.addWidget(dialog)
    dialog.update_preview()
    shown = dialog.proposal_view.toPlainText()
    assert "Multa (valor da infração): Cr$ 500,00" in shown and "R$" not in shown.replace("Cr$", "")
    assert "até o fim do ano civil (31/12/2026)" in shown and "Até 31/12/2026 — fim do ano civil da infração" in shown
    assert "Penalidade: nenhuma — o ato proíbe a conduta (Lei 376/2012, art. 3º) e não lhe comina sanção" in shown
    dialog.resize(1366, 768)
    dialog.grab().save("/tmp/i29_auto_cruzeiros.png")


@pytest.mark.parametrize(
    ("due", "expected"),
    [
        ('{ hours_after_issue = 48, basis = "art. 3º" }', dt.date(2026, 6, 3)),
        ('{ hours_after_issue = 12, basis = "art. 3º" }', dt.date(2026, 6, 2)),
        ('{ at_each = "event", basis = "art. 3º" }', dt.date(2026, 6, 1)),
        ('{ date = 2026-07-10, basis = "art. 3º" }', dt.date(2026, 7, 10)),
    ],
    ids=["48-hours", "12-hours", "each-event", "fixed-date"],
)
def test_the_months_charges_fall_due_as_the_act_says(due, expected):
    """A charge of a fee due in N hours falls due on the day the last hour falls (counted from the guia's day); one
    paid at each event, on the day it is issued (at the event)."""
    from models.billing.charges.steps import due_for

    text = CABECEIRA.replace('id = "taxa-licenca"\n', f'id = "taxa-licenca"\ndue = {due}\n', 1)
    fee = load_regime_text(text, "cabeceira-grande-2012.toml").fee("taxa-licenca")
    assert due_for(fee, None, issued=dt.date(2026, 6, 1), period_end=dt.date(2026, 6, 30)) == expected
