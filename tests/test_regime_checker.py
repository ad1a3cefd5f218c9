"""``praca regimes check``: every mistake of a file in one run — structure, types and references —, each at
the item's id path and its line in the TOML, with a suggestion for a near miss, and the articles the act
does not have (``[regime] articles``)."""

import json
import re
from pathlib import Path

import pytest
from ten_defects import SAMPLE, TEN, ten_defects

from desktop.cli import main
from models.rules.regimes import RegimeError, check_regime_text, default_regimes_folder, load_regime_text
from models.rules.regimes.locate import cited_articles, key_lines

SHIPPED = sorted(default_regimes_folder().glob("*.toml"))


def test_a_file_with_ten_independent_defects_gets_all_ten_in_one_run():
    text = ten_defects()
    errors = check_regime_text(text, SAMPLE.name, expected_id=SAMPLE.stem)
    assert sorted(e.key for e in errors) == sorted(TEN)
    lines = text.splitlines()
    for error in errors:
        assert TEN[error.key] in error.reason, (error.key, error.reason)
        assert error.line is not None, error.key
        at = lines[error.line - 1]
        last = re.split(r"[.\[]", error.key)[-1].rstrip("]")
        if error.key == "regime.act":  # missing: the line of its table
            assert at == "[regime]"
        elif error.key.endswith("]"):  # an entry of a list: the line of the list
            assert at.startswith("documents =")
        else:
            assert at.startswith(f"{last} ="), (error.key, error.line, at)
    assert 'quis dizer "formula"?' in next(e.reason for e in errors if e.key == "fees.taxa-licenca.kind")


def test_the_check_prints_each_error_with_its_line_and_stores_nothing(tmp_path, capsys):
    path = tmp_path / SAMPLE.name
    path.write_text(ten_defects(), encoding="utf-8")
    assert main(["regimes", "check", str(path)]) == 2
    err = capsys.readouterr().err
    assert "10 erros; nada foi gravado." in err
    assert re.search(r"cabeceira-grande-2012\.toml:\d+: documents\.requerimento\.lable: chave desconhecida", err)
    assert main(["regimes", "check", str(path), "--json"]) == 2
    out = json.loads(capsys.readouterr().out)
    assert sorted(e["key"] for e in out["errors"]) == sorted(TEN)
    assert all(isinstance(e["line"], int) for e in out["errors"])


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.stem)
def test_the_shipped_acts_check_clean(path: Path):
    assert check_regime_text(path.read_text(encoding="utf-8"), path.name, expected_id=path.stem) == []


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.stem)
def test_the_shipped_acts_check_clean_against_the_articles_they_cite(path: Path):
    """Listing every article a shipped act cites keeps it clean; taking one away is reported at each basis."""
    text = path.read_text(encoding="utf-8")
    cited = sorted(
        {n for basis in re.findall(r'(?:basis|article) = "([^"]*)"', text) for n in cited_articles(basis)},
        key=lambda n: (int(n.split("-")[0]), n),
    )
    listed = text.replace("[regime]\n", f"[regime]\narticles = {json.dumps(cited)}\n", 1)
    assert check_regime_text(listed, path.name, expected_id=path.stem) == []
    regime = load_regime_text(listed, path.name)
    assert regime.articles == tuple(cited)
    if not cited:  # a copy that numbers no article (Chapadão do Sul's Tabela III) has none to list
        assert not re.search(r'(?:basis|article) = "art\.', text)
        return
    missing = cited[0]
    # the rest, and one the act does not cite, so that the list is never empty (an empty list is no list)
    fewer = text.replace("[regime]\n", f"[regime]\narticles = {json.dumps([*cited[1:], '999'])}\n", 1)
    errors = check_regime_text(fewer, path.name, expected_id=path.stem)
    assert errors and all(f"o ato não tem o art. {missing} " in e.reason for e in errors)
    with pytest.raises(RegimeError, match=f"o ato não tem o art. {missing} "):
        load_regime_text(fewer, path.name)


def test_a_missing_act_does_not_hide_the_rest():
    text = SAMPLE.read_text(encoding="utf-8").replace('act = "Lei nº 376, de 25 de junho de 2012"\n', "", 1)
    text = text.replace('id = "requerimento"\n', 'id = "requerimento"\nchave_x = 1\n', 1)
    errors = check_regime_text(text, SAMPLE.name, expected_id=SAMPLE.stem)
    assert {e.key for e in errors} == {"regime.act", "documents.requerimento.chave_x"}


def test_a_reference_is_checked_even_when_another_item_is_broken_but_not_one_to_the_broken_item():
    text = SAMPLE.read_text(encoding="utf-8")
    text = text.replace('kind = "formula"', 'kind = "formulario"', 1)  # the fee is broken: permit_kinds names it
    text = text.replace('ladder = "apreensao"', 'ladder = "multa"', 1)
    errors = check_regime_text(text, SAMPLE.name, expected_id=SAMPLE.stem)
    assert {e.key for e in errors} == {"fees.taxa-licenca.kind", "infractions.sem-licenca.ladder"}


def test_key_lines_follow_tables_arrays_and_multiline_strings():
    text = '[regime]\nid = "x"\nnotes = """\nfake = 1\n"""\n'
    text += '[[fees]]\nid = "a"\n[[fees]]\nid = "b"\nrate = { value = "1" }\n'
    text += "[[fees.tiers]]\nmax = 1\n[fees.when]\nx = 1\n"
    lines = key_lines(text)
    assert lines["regime.notes"] == 3 and "regime.fake" not in lines
    assert lines["fees[0]"] == 6 and lines["fees[1].id"] == 9 and lines["fees[1].rate"] == 10
    assert lines["fees[1].tiers[0].max"] == 12 and lines["fees[1].when.x"] == 14


def test_cited_articles_reads_what_a_basis_says():
    assert cited_articles("art. 12, II e III; § 1º") == ["12"]
    assert cited_articles("arts. 14 a 16; art. 3º-A, § 2º") == ["14", "15", "16", "3-A"]
    assert cited_articles("anexo I") == []


def test_a_missing_key_is_not_taken_from_another_key_of_the_table():
    """Only a slip of the keyboard (``lable``) stands for a required key; another key of the table never does."""
    text = SAMPLE.read_text(encoding="utf-8").replace('label = "Requerimento', 'labels_x = "Requerimento', 1)
    errors = check_regime_text(text, SAMPLE.name, expected_id=SAMPLE.stem)
    missing = next(e for e in errors if e.key == "documents.requerimento.label")
    assert missing.reason == "chave obrigatória ausente"
    assert not any("quis dizer" in e.reason for e in errors)


#: Olímpia's venue fee with a mistake in each row of its table of venues (and in the table itself)
BAD_VENUE_ROWS = {
    # a column the table does not have: a near miss of one it has
    "fees.event-venue.tables.imoveis.rows.recinto-todas-instalacoes.values.taxa_um_da": 'quis dizer "taxa_um_dia"?',
    # a row says when it holds: in a table of options, the option chosen
    "fees.event-venue.tables.imoveis.rows.recinto-exceto-estacionamento.when": 'não tem "when"',
    # a column without its value
    "fees.event-venue.tables.imoveis.rows.recinto-estacionamento.values.minimo_dias": "chave obrigatória ausente",
    # a row with a single value where the table has columns
    "fees.event-venue.tables.imoveis.rows.recinto-barracas-grandes.value": '"values = { coluna = valor }"',
    # the same venue twice
    "fees.event-venue.tables.imoveis.rows.recinto-barracas-pequenas.id": 'opção "recinto-barracas-pequenas" repetido',
    # a venue named otherwise in the deposit's table
    "fees.event-venue-caucao.tables.caucao.rows.estadio-tereza-breda.label": "outro nome noutra tabela",
}


def test_each_bad_row_of_a_table_of_choices_is_reported_at_its_id_path():
    path = default_regimes_folder() / "olimpia-2025.toml"
    text = path.read_text(encoding="utf-8")

    def row(ident: str, change) -> None:
        nonlocal text
        start = text.index(f'id = "{ident}"\nlabel = ', text.index('name = "imoveis"'))
        end = text.index("\n\n", start)
        text = text[:start] + change(text[start:end]) + text[end:]

    row("recinto-todas-instalacoes", lambda r: r.replace("{ taxa_um_dia =", "{ taxa_um_da ="))
    row("recinto-exceto-estacionamento", lambda r: r + '\nwhen = "days > 1 dia"')
    row("recinto-estacionamento", lambda r: r.replace(', minimo_dias = "3" }', " }"))
    row("recinto-barracas-grandes", lambda r: r + '\nvalue = "60"')
    row("recinto-arena", lambda r: r.replace('id = "recinto-arena"', 'id = "recinto-barracas-pequenas"'))
    deposit = text.index('name = "caucao"')
    text = text[:deposit] + text[deposit:].replace(
        'label = "Estádio Municipal “Tereza Breda”"', 'label = "Estádio Tereza Breda"', 1
    )
    errors = check_regime_text(text, path.name, expected_id=path.stem)
    found = {e.key: e for e in errors}
    for key, words in BAD_VENUE_ROWS.items():
        assert key in found, (key, sorted(found))
        assert words in found[key].reason, (key, found[key].reason)
        assert found[key].line is not None, key


def test_a_table_of_choices_is_only_for_a_desk_list_and_its_columns_are_its_own():
    """``choice`` names a desk list the act declares (``energy``, ``venue``): a near miss is suggested; ``columns``
    belong to a table of choices, each with its unit (none for the table)."""
    path = default_regimes_folder() / "sao-bento-2026.toml"
    text = path.read_text(encoding="utf-8").replace('choice = "energy"', 'choice = "enrgy"', 1)
    errors = check_regime_text(text, path.name, expected_id=path.stem)
    assert [(e.key, 'quis dizer "energy"?' in e.reason) for e in errors] == [("fees.energy.tables.tarifa.choice", True)]
    text = path.read_text(encoding="utf-8").replace(
        'choice = "energy"\nunit = "UFESP"', 'unit = "UFESP"\ncolumns = [{ name = "fator", label = "Fator" }]', 1
    )
    errors = check_regime_text(text, path.name, expected_id=path.stem)
    assert any(e.key == "fees.energy.tables.tarifa.columns" and "tabela de opções" in e.reason for e in errors)
