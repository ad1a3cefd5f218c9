"""Sapezal (Lei 1.171/2014): firms from other towns admitted to temporary trade are not refused for residence.

Art. 29: the temporary licence goes "preferencialmente às pessoas jurídicas com sede no Município de Sapezal,
podendo haver participação e autorização de comércio de outras localidades, desde que sejam cadastradas no setor
responsável da prefeitura"; art. 32: the documents are those of the permanent licence — whose proof of residence
in Sapezal (art. 7º, III and VI) an out-of-town firm cannot give. The regime declares it (``non_residents`` on the
kind, ``proves = "residence"`` on the documents). Desk tests run on SQLite and, with ``PRACA_TEST_PG``, on
PostgreSQL."""

from __future__ import annotations

from dataclasses import replace

import pytest
from factories import TODAY, application_dialog, broken_shipped, good_facts, person
from PySide6.QtCore import Qt

from models.rules.eligibility import FAILED, MISSING, PASSED, evaluate_eligibility
from models.rules.regimes import get_regime

SAPEZAL = get_regime("sapezal-2014")
RESIDENCE_DOCS = ("residence-proof", "witness-declaration")


def residence_results(kind_id: str, **facts):
    kind = SAPEZAL.permit_kind(kind_id)
    good = good_facts(SAPEZAL, kind, applicant_type="company")
    docs = {k: v for k, v in good.documents.items() if k not in RESIDENCE_DOCS}
    result = evaluate_eligibility(SAPEZAL, kind, replace(good, documents=docs, **facts))
    return {r.rule.document: r for r in result.results if r.rule.document in RESIDENCE_DOCS}, result


def test_regime_declares_who_proves_residence_and_who_is_admitted_from_elsewhere():
    assert SAPEZAL.permit_kind("temporaria").non_residents.basis == "art. 29; art. 32"
    assert all(SAPEZAL.permit_kind(k).non_residents is None for k in ("ponto-fixo", "movel", "feira-livre"))
    assert [d.id for d in SAPEZAL.documents if d.proves == "residence"] == list(RESIDENCE_DOCS)


def test_art_29_firm_from_elsewhere_is_not_refused_for_residence():
    """Art. 29 and art. 32: without the residence documents, a firm seated elsewhere passes those two rules,
    with the articles; the temporary licence has no other residence requirement."""
    found, whole = residence_results("temporaria", based_elsewhere=True)
    assert [r.status for r in found.values()] == [PASSED, PASSED]
    assert all(
        "outra localidade" in r.reason and "Lei 1.171/2014, art. 29; art. 32" in r.reason for r in found.values()
    )
    assert whole.verdict != "ineligible"


def test_a_local_firm_still_proves_residence_and_an_unknown_seat_is_asked():
    """Art. 7º, III and VI, through art. 32: the firm of Sapezal still delivers them; whose seat is not known is
    asked for it, never refused nor waived."""
    found, whole = residence_results("temporaria", based_elsewhere=False)
    assert [r.status for r in found.values()] == [FAILED, FAILED] and whole.verdict == "ineligible"
    found, _ = residence_results("temporaria", based_elsewhere=None)
    assert [r.status for r in found.values()] == [MISSING, MISSING]
    assert all("Informe a sede da empresa" in r.reason for r in found.values())


def test_permanent_licences_keep_the_residence_of_art_7():
    """Art. 7º, parágrafo único, III: the permanent licences admit no one from elsewhere — still refused."""
    found, _ = residence_results("ponto-fixo", based_elsewhere=True)
    assert [r.status for r in found.values()] == [FAILED, FAILED]


def test_loader_checks_the_new_keys(tmp_path):
    err = broken_shipped(tmp_path, "sapezal-2014", 'proves = "residence"', 'proves = "renda"')
    assert "documents[2].proves" in str(err) and "renda" in str(err)
    err = broken_shipped(
        tmp_path, "sapezal-2014", 'non_residents = { basis = "art. 29; art. 32", ', "non_residents = { "
    )
    assert "non_residents.basis: chave obrigatória ausente" in str(err)


# --------------------------------------------------------------------------- the desk


@pytest.fixture
def outsider(keys):
    """A firm of Campo Novo do Parecis registered with Sapezal's Prefeitura (art. 29), on Sapezal's Praça."""
    from models.registry.people import CompanyInput, PartnerInput, save_company
    from models.store.settings import MUNICIPALITY, set_settings

    set_settings({MUNICIPALITY: "Sapezal"})

    owner = person("Valdir Nunes de Campo Novo", city="Campo Novo do Parecis", resident_since=None)
    return save_company(
        CompanyInput(
            cnpj="11.444.777/0001-61",
            legal_name="Espetinhos Campo Novo Ltda",
            municipal_registration="SAP-777",
            city="Campo Novo do Parecis",
            state="MT",
            partners=[PartnerInput(owner.name, owner.cpf)],
        )
    )


def test_front_desk_facts_of_an_out_of_town_firm_art_29(outsider):
    """On both back ends: the front desk reads the firm's seat (another town) and the temporary licence does not
    refuse it for residence (art. 29; art. 32)."""
    from models.services.front_desk import applicant_facts, load_applicant

    facts = applicant_facts(
        load_applicant("company", outsider.id),
        documents=[],
        today=TODAY,
        regime="sapezal-2014",
        permit_kind="temporaria",
    )
    assert facts.based_elsewhere is True and facts.has_municipal_registration is True  # "cadastradas" (art. 29)
    result = evaluate_eligibility(SAPEZAL, "temporaria", facts)
    residence = [r for r in result.results if r.rule.document in RESIDENCE_DOCS]
    assert [r.status for r in residence] == [PASSED, PASSED]


def test_application_form_shows_residence_not_required_for_the_firm_from_elsewhere(qtbot, outsider, app_ready):
    """Atendimento: choose Sapezal's temporary licence for the firm of Campo Novo do Parecis and read, on the rules
    table, the two residence documents as met, citing art. 29 and art. 32."""
    d = application_dialog(qtbot, "company", outsider.id, "sapezal-2014", "temporaria")
    rows = {d.rules.item(r, 0).text().split("\n")[0]: d.rules.item(r, 0) for r in range(d.rules.rowCount())}
    residence = [item for title, item in rows.items() if "resid" in title.lower()]
    assert len(residence) == 2
    for item in residence:
        assert item.data(Qt.ItemDataRole.UserRole) == "passed"
        assert "art. 29; art. 32" in item.text() and "outra localidade" in item.text()
