"""Issue 31 §1: a database made before its municipality was known keeps every shipped act installed; once it knows
its municipality, only the municipality's own acts are offered for new work — the new application's act, the
price simulator, a new site, a new infraction record, the import, a call, ``praca quote|penalty|draw`` — while
what was done under another town's act stays readable (its site opens with its act, its record's follow-up keeps
it)."""

from __future__ import annotations

import datetime as dt

import pytest
from factories import company, draft, person

from models.access import session
from models.registry.municipality import MunicipalityInput, set_municipality
from models.rules import acts
from models.rules.regimes import get_regime, shipped_regimes_from_files

OWN = "sao-bento-2026"
OTHER = "sjc-2014"
TODAY = dt.date(2026, 11, 30)


@pytest.fixture
def old_database(database, app_ready, tmp_path):
    """Every shipped act installed (a database filled before issue 31 §1), a site under São José dos Campos's act,
    then the municipality set: São Bento do Sapucaí/SP."""
    from models.sites import SegmentInput, SiteInput, save_site
    from models.store.files import set_store

    set_store(tmp_path / "files")
    acts.install_shipped()
    acts.forget()
    site = save_site(
        SiteInput(
            name="Feira antiga de São José",
            kind="feira",
            regime=OTHER,
            weekdays=("fri",),
            segments=[SegmentInput(street="Avenida Andrômeda", length="60", width="10")],
        )
    )
    with session.acting_as(session.SYSTEM):
        set_municipality(MunicipalityInput(name="São Bento do Sapucaí", state="SP"))
    assert len(shipped_regimes_from_files()) == 10  # every shipped act is installed …
    return database, site


def _offered(combo) -> list[str]:
    return [combo.itemData(i) for i in range(combo.count()) if combo.itemData(i)]


def test_the_acts_it_works_under_are_the_municipalitys_and_the_others_stay_readable(old_database):
    from models.registry.town import NotThisTownsAct, for_new_work, working_regimes
    from models.rules.regimes import shipped_regimes
    from models.services.calls import selection_regimes

    assert len(shipped_regimes()) == 10  # … and not retired
    assert list(working_regimes()) == [OWN]
    assert [r.id for r in selection_regimes()] == [OWN]  # a call: São Bento's, though SJC and Sapezal draw too
    assert get_regime(OTHER).municipality == "São José dos Campos"  # what was done under it is still read
    assert for_new_work(OWN).id == OWN
    with pytest.raises(NotThisTownsAct) as refused:
        for_new_work(OTHER)
    assert refused.value.message == (
        "O ato sjc-2014 é de São José dos Campos/SP, não de São Bento do Sapucaí/SP: trabalho novo só nos atos do "
        "município (sao-bento-2026)."
    )


def test_no_municipality_known_offers_every_installed_act(database):
    from models.registry.town import for_new_work, working_regimes

    acts.install_shipped()
    acts.forget()
    assert len(working_regimes()) == 10
    assert for_new_work(OTHER).id == OTHER


def test_the_screens_offer_only_the_municipalitys_acts_for_new_work(old_database, qtbot, tmp_path):
    from views.application_form import ApplicationDialog
    from views.enforcement import RecordDialog
    from views.import_dialog import ImportDialog
    from views.price_simulator import PriceSimulator
    from views.site_form import SiteFormDialog

    applicant = company("Pastéis da Serra Ltda", person("Rita Moura"))
    application = ApplicationDialog("company", applicant.id, today=TODAY)
    qtbot.addWidget(application)
    assert _offered(application.regime) == [OWN]

    simulator = PriceSimulator()
    qtbot.addWidget(simulator)
    simulator.refresh()
    assert _offered(simulator.regime_combo) == [OWN]
    with pytest.raises(KeyError):
        simulator.select_regime(OTHER)

    new_site = SiteFormDialog()
    qtbot.addWidget(new_site)
    assert _offered(new_site.regime) == [OWN]
    old_site = SiteFormDialog(old_database[1].id)  # an old site opens with its own act, still readable
    qtbot.addWidget(old_site)
    assert old_site.regime.currentData() == OTHER and set(_offered(old_site.regime)) == {OWN, OTHER}

    record = RecordDialog(draft(OWN, [], "16/11/2026 09:45"), today=TODAY)
    qtbot.addWidget(record)
    assert _offered(record.form.regime) == [OWN]
    follow_up = RecordDialog(draft(OTHER, [], "16/11/2026 09:45"), today=TODAY)  # an old record's act is kept
    qtbot.addWidget(follow_up)
    assert follow_up.regime_id() == OTHER

    imports = ImportDialog(store=tmp_path / "mappings.json", today=TODAY)
    qtbot.addWidget(imports)
    assert _offered(imports.regime_combo) == [OWN]


def test_an_imported_row_under_another_towns_act_is_refused_at_its_line(old_database, tmp_path):
    from factories import cpf_number, write_csv

    from models.base.errors import UserError
    from models.services.importer import Mapping, guess_mapping, preview_import, read_sheet

    rows = [
        ["Nome", "CPF", "Regime", "Tipo de permissão", "Início", "Fim"],
        ["Maria da Silva", cpf_number(301), OWN, "event-stall", "01/11/2026", "30/11/2026"],
        ["João Pereira", cpf_number(302), OTHER, "feirante", "01/11/2026", "30/11/2026"],
    ]
    sheet = read_sheet(write_csv(tmp_path / "antiga.csv", rows))
    mapping = guess_mapping(sheet.headers)
    assert mapping.columns.get("regime") == "Regime"
    preview = preview_import(sheet, mapping, today=TODAY)
    errors = {row.line: row.errors for row in preview.rows}
    assert errors[3] == [
        "O ato sjc-2014 é de São José dos Campos/SP, não de São Bento do Sapucaí/SP: trabalho novo só nos atos do "
        "município (sao-bento-2026)."
    ]
    assert not any("sjc-2014" in e or "não de São Bento" in e for e in errors[2])  # its own act is judged as ever
    with pytest.raises(UserError, match="O ato sjc-2014 é de São José dos Campos/SP, não de São Bento"):
        preview_import(sheet, Mapping(dict(mapping.columns), {"regime": OTHER}), today=TODAY)


@pytest.mark.parametrize(
    "command",
    [
        ["quote", "--regime", OTHER, "--front", "2", "--depth", "2"],
        ["penalty", "--regime", OTHER, "--infraction", "x"],
        ["draw", "--regime", OTHER, "--input", "inscritos.csv", "--seed", "1"],
    ],
    ids=["quote", "penalty", "draw"],
)
def test_the_command_line_refuses_another_towns_act_in_one_line(old_database, command, capsys):
    from desktop.cli import main

    assert main([*command, "--db", old_database[0]]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err
    assert err.endswith(
        "O ato sjc-2014 é de São José dos Campos/SP, não de São Bento do Sapucaí/SP: trabalho novo só nos atos do "
        "município (sao-bento-2026)."
    )
