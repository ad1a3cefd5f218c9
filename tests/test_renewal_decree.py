"""Issue 29 §2: a renewal window "set by decree". Where an act leaves the renewal window to the Executive, the file
says so (``renewal = { by_decree = true }``) and gives none; Praça invents none: a renewal is refused until the
decree is recorded — at the desk (Permissões → Renovações e prazos → Decreto de renovação…) or with ``praca
renewal-decree add`` — with its number, date and window and who recorded it; renewals then use its window."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from conftest import run_modal
from period_acts import FISCAL_YEAR, REGIME_ID, period_act_text

from desktop.cli import main
from models.base.errors import FieldErrors, UserError
from models.rules.regimes import RegimeError, load_regime_text

BY_DECREE = FISCAL_YEAR + '\nrenewal = { by_decree = true, basis = "art. 6º, parágrafo único" }'
KIND = "licenca-ambulante"
ON = dt.date(2026, 3, 10)


def _act_text(renewal: str = BY_DECREE) -> str:
    return period_act_text(validity=renewal)


@pytest.fixture
def licence(keys):
    """The act leaving the renewal window to a decree installed, and a licence for the 2026 fiscal year."""
    from factories import all_documents, approved, issue, person

    from models.access import session
    from models.rules import acts

    with session.acting_as(session.SYSTEM):
        acts.install(_act_text().encode("utf-8"), f"{REGIME_ID}.toml")
    app = approved(
        REGIME_ID, KIND, on=ON, holder=person("Carlos Alberto Nunes"), documents=all_documents(REGIME_ID, KIND, ON)
    )
    permit = issue(app, keys, on=ON)
    assert permit.valid_until == dt.date(2026, 12, 31)
    return permit


def test_the_file_says_the_window_is_set_by_decree_and_gives_none():
    regime = load_regime_text(_act_text(), f"{REGIME_ID}.toml")
    renewal = regime.permit_kind(KIND).renewal
    assert renewal is not None and renewal.by_decree and renewal.to_days_before is None
    with pytest.raises(RegimeError, match="a janela fixada por decreto não se escreve no arquivo"):
        load_regime_text(
            _act_text(FISCAL_YEAR + '\nrenewal = { by_decree = true, to_days_before = 30, basis = "art. 6º" }'),
            f"{REGIME_ID}.toml",
        )


def test_a_renewal_waits_for_the_decree_then_uses_its_window(licence, keys):
    from models.permits import (
        RenewalDecree,
        RenewalDecreeInput,
        record_renewal_decree,
        renewal_decree,
        renewal_window,
    )
    from models.services.issuing import renew

    assert renewal_window(licence) is None
    with pytest.raises(UserError, match=r"deixa a decreto do Executivo a janela de renovação .*art\. 6º, parágrafo"):
        renew(licence, by="ana", today=dt.date(2026, 11, 10), key_dir=keys)
    data = RenewalDecreeInput(REGIME_ID, KIND, 2026, "Decreto nº 1.234/2026", "10/10/2026", "01/11/2026", "30/11/2026")
    with pytest.raises(FieldErrors) as refused:  # every mistake at its field, nothing stored
        record_renewal_decree(
            RenewalDecreeInput(REGIME_ID, KIND, "dois mil", " ", "31/02/2026", "30/11/2026", "01/11/2026")
        )
    assert set(refused.value.errors) == {"year", "number", "decree_date", "closes"}
    assert RenewalDecree.select().count() == 0
    decree = record_renewal_decree(data, by="Helena Prado")
    assert (decree.opens, decree.closes, decree.recorded_by) == (
        dt.date(2026, 11, 1),
        dt.date(2026, 11, 30),
        "Helena Prado",
    )
    window = renewal_window(licence)
    assert (window.opens, window.closes) == (dt.date(2026, 11, 1), dt.date(2026, 11, 30))
    assert "Decreto nº 1.234/2026" in window.article and "art. 6º, parágrafo único" in window.article
    with pytest.raises(UserError, match=r"Fora do prazo de renovação .* de 01/11/2026 a 30/11/2026"):
        renew(licence, by="ana", today=dt.date(2026, 10, 31), key_dir=keys)
    new = renew(licence, by="ana", today=dt.date(2026, 11, 10), key_dir=keys)
    assert (new.valid_from, new.valid_until) == (dt.date(2027, 1, 1), dt.date(2027, 12, 31))
    # a later decree corrects the window: the old one is kept, replaced
    again = record_renewal_decree(
        RenewalDecreeInput(REGIME_ID, KIND, 2026, "Decreto nº 1.250/2026", "20/10/2026", "01/11/2026", "15/12/2026")
    )
    assert renewal_decree(REGIME_ID, KIND, 2026).id == again.id
    assert RenewalDecree.get_by_id(decree.id).replaced_by == again.id


def test_a_kind_whose_act_fixes_the_window_takes_no_decree(database):
    from models.permits import RenewalDecreeInput, record_renewal_decree

    with pytest.raises(FieldErrors, match="não deixa a decreto a janela de renovação"):
        record_renewal_decree(
            RenewalDecreeInput(
                "olimpia-2025", "street-vending", 2026, "Decreto nº 1/2026", "01/10/2026", "01/11/2026", "30/11/2026"
            )
        )


def test_the_command_line_records_and_lists_the_decree(licence, database, capsys):
    from models.store.bootstrap import close_database

    close_database()
    add = ["--db", database, "renewal-decree", "add", "--regime", REGIME_ID, "--kind", KIND, "--year", "2026"]
    add += ["--number", "Decreto nº 1.234/2026", "--date", "10/10/2026", "--opens", "01/11/2026"]
    assert main([*add, "--closes", "31/10/2026"]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "--closes: O fim da janela (31/10/2026) é antes do início (01/11/2026)." in err
    assert main([*add, "--closes", "30/11/2026"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Registrado: Decreto nº 1.234/2026, de 10/10/2026: renovação de 01/11/2026 a 30/11/2026")
    assert main(["--db", database, "renewal-decree", "list", "--json"]) == 0
    (row,) = json.loads(capsys.readouterr().out)
    assert (row["opens"], row["closes"], row["year"], row["replaced"]) == ("2026-11-01", "2026-11-30", 2026, False)
    assert row["recorded_by"]


def test_the_desk_records_the_decree_where_renewals_are_handled(licence, make_tab, qtbot):
    from factories import select

    tab = make_tab()
    select(tab, licence.number)
    assert "janela fixada por decreto do Executivo" in tab.detail_labels["renewal"].text()

    def fill(dialog):
        assert dialog.kind.count() == 1
        dialog.number.setText("Decreto nº 1.234/2026")
        dialog.decree_date.setText("10/10/2026")
        dialog.opens.setText("01/11/2026")
        dialog.closes.setText("31/10/2026")
        dialog.accept()  # refused at its field: the dialog stays open
        assert "antes do início" in dialog.error.text() and dialog.isVisible()
        dialog.closes.setText("30/11/2026")
        dialog.accept()

    _dialog, decree = run_modal(lambda: tab.acts.record_decree(), fill)
    assert decree is not None and decree.closes == dt.date(2026, 11, 30)
    select(tab, licence.number)
    assert tab.detail_labels["renewal"].text().startswith("pedido de 01/11/2026 a 30/11/2026")


def test_the_painel_says_the_decree_is_missing_until_it_is_recorded(licence):
    from models.permits import RenewalDecreeInput, record_renewal_decree, today_items

    day = dt.date(2026, 12, 10)
    missing = [i for i in today_items(day) if i.kind == "renewal-decree"]
    assert [i.number for i in missing] == [licence.number]
    assert "nenhum foi registrado para as permissões que terminam em 2026" in missing[0].text
    assert missing[0].article.endswith("art. 6º, parágrafo único")
    record_renewal_decree(
        RenewalDecreeInput(REGIME_ID, KIND, 2026, "Decreto nº 1.234/2026", "10/10/2026", "01/12/2026", "20/12/2026")
    )
    items = today_items(day)
    assert not [i for i in items if i.kind == "renewal-decree"]
    assert [i.kind for i in items if i.permit_id == licence.id and i.kind.startswith("renewal")] == ["renewal-closes"]
