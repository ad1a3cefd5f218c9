"""The regime format people edit: its JSON Schema and key tables (generated from the loader), ``praca regimes
check`` (every error at once) and ``praca regimes new``."""

import json
import tomllib
from pathlib import Path

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from desktop.cli import main
from models.rules.regime_schema import (
    as_json_data,
    build_schema,
    docs_with_key_tables,
    key_tables,
    published_schema_path,
    schema_text,
)
from models.rules.regimes import RegimeErrors, check_regime_text, default_regimes_folder, load_regime_file
from models.rules.regimes.locate import id_path

DOCS = Path(__file__).resolve().parent.parent / "docs"
SHIPPED = sorted(default_regimes_folder().glob("*.toml"))


@pytest.fixture(scope="module")
def schema():
    return build_schema()


@pytest.fixture(scope="module")
def validator():
    published = json.loads(published_schema_path().read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(published)
    return jsonschema.Draft202012Validator(published, format_checker=jsonschema.FormatChecker())


def test_the_published_schema_and_key_tables_are_the_loaders(schema):
    assert published_schema_path().read_text(encoding="utf-8") == schema_text(schema), (
        "docs/regime.schema.json is stale: run  praca regimes schema --out docs/regime.schema.json "
        "--doc docs/regime-format.md"
    )
    doc = (DOCS / "regime-format.md").read_text(encoding="utf-8")
    assert docs_with_key_tables(doc, key_tables(schema)) == doc, "docs/regime-format.md's key tables are stale"


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.stem)
def test_every_shipped_act_is_valid_by_the_schema(validator, path):
    errors = list(validator.iter_errors(as_json_data(tomllib.loads(path.read_text(encoding="utf-8")))))
    assert errors == []


#: docs/novo-ato.md's worked example: a fee, a fine, documents (the first act by name may have none of them)
EXAMPLE = default_regimes_folder() / "cabeceira-grande-2012.toml"


def test_the_schema_refuses_what_the_loader_refuses(validator, schema):
    data = as_json_data(tomllib.loads(EXAMPLE.read_text(encoding="utf-8")))
    data["fees"][0]["coefficient" if "coefficient" in data["fees"][0] else "label"] = 5.5  # a float
    data["regime"]["colour"] = "azul"  # an unknown key
    del data["regime"]["short"]  # a required one
    found = {(tuple(e.absolute_path), e.validator) for e in validator.iter_errors(data)}
    assert ("fees", 0) in {path[:2] for path, _ in found}
    assert (("regime",), "additionalProperties") in found and (("regime",), "required") in found
    # the loader's own choices are the schema's
    kinds = schema["properties"]["fees"]["items"]["properties"]["kind"]["enum"]
    assert {"linear-metre", "energy"} <= set(kinds)


def _write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_check_reports_every_broken_item_at_once_and_stores_nothing(tmp_path, capsys):
    text = EXAMPLE.read_text(encoding="utf-8")
    regime_id = EXAMPLE.stem
    broken = text.replace("[[fees]]\n", '[[fees]]\ncolour = "azul"\n', 1)
    broken = broken.replace("[[infractions]]\n", "[[infractions]]\nseverity_x = 1\n", 1)
    broken = broken.replace("[[documents]]\n", "[[documents]]\nlabel_x = true\nlabel_y = 1\n", 1)
    path = _write(tmp_path, f"{regime_id}.toml", broken)
    with pytest.raises(RegimeErrors) as exc:
        load_regime_file(path, all_errors=True)
    keys = [e.key for e in exc.value.errors]
    data = tomllib.loads(text)
    assert keys == [
        id_path(key, data)
        for key in ("documents[0].label_x", "documents[0].label_y", "fees[0].colour", "infractions[0].severity_x")
    ]
    assert "[" not in "".join(keys)  # each item named by its id, not its position
    assert main(["regimes", "check", str(path)]) == 2
    err = capsys.readouterr().err
    for error in exc.value.errors:
        assert f"{regime_id}.toml:{error.line}: {error.key}: chave desconhecida" in err
    assert "4 erros; nada foi gravado." in err


def test_check_names_a_toml_syntax_error_and_a_wrong_name(tmp_path, capsys):
    path = _write(tmp_path, "x.toml", "[regime\nid = 1\n")
    assert main(["regimes", "check", str(path)]) == 2
    assert "x.toml: erro de sintaxe TOML" in capsys.readouterr().err
    wrong = _write(tmp_path, "outro-nome.toml", SHIPPED[0].read_text(encoding="utf-8"))
    assert main(["regimes", "check", str(wrong), "--json"]) == 2
    out = json.loads(capsys.readouterr().out)
    assert out["valid"] is False and out["errors"][0]["key"] == "regime.id"


def test_new_writes_a_starting_file_that_checks_and_never_overwrites(tmp_path, capsys):
    out = tmp_path / "minha-cidade-2027.toml"
    assert main(["regimes", "new", "--like", "sao-bento-2026", "--id", "minha-cidade-2027", "--out", str(out)]) == 0
    text = out.read_text(encoding="utf-8")
    assert text.startswith("# Regime minha-cidade-2027") and 'id = "minha-cidade-2027"' in text
    capsys.readouterr()
    assert main(["regimes", "check", str(out)]) == 0
    assert "válido — minha-cidade-2027" in capsys.readouterr().out
    assert main(["regimes", "new", "--like", "sao-bento-2026", "--id", "minha-cidade-2027", "--out", str(out)]) == 2
    assert "já existe" in capsys.readouterr().err
    assert main(["regimes", "new", "--like", "sao-bento-2026", "--id", "Minha Cidade", "--out", str(out)]) == 2
    assert "Id inválido" in capsys.readouterr().err


def test_new_and_schema_write_through_the_one_file_writer(tmp_path, capsys, monkeypatch):
    """models/store/outfile.py writes them (issue 16 §1): synced before the rename, public, nothing left aside; a
    device refused in one line."""
    import os

    import models.store.outfile as outfile

    synced = []
    real_fsync = os.fsync
    monkeypatch.setattr(
        outfile.os, "fsync", lambda fd: (synced.append(os.readlink(f"/proc/self/fd/{fd}")), real_fsync(fd))[1]
    )
    out = tmp_path / "schema.json"
    assert main(["regimes", "schema", "--out", str(out)]) == 0
    act = tmp_path / "minha-cidade-2027.toml"
    assert main(["regimes", "new", "--like", "sao-bento-2026", "--id", "minha-cidade-2027", "--out", str(act)]) == 0
    assert json.loads(out.read_text(encoding="utf-8"))["$schema"]
    assert sum(".partial" in name for name in synced) == 2  # each synced as its temporary, then renamed
    assert sorted(p.name for p in tmp_path.iterdir()) == ["minha-cidade-2027.toml", "schema.json"]
    assert out.stat().st_mode & 0o777 == 0o666 & ~outfile._umask()  # public text, not owner-only
    capsys.readouterr()
    assert main(["regimes", "schema", "--out", "/dev/full"]) == 2
    err = capsys.readouterr().err.strip()
    assert "/dev/full" in err and "\n" not in err and "Traceback" not in err


def test_an_amendment_is_declared_and_may_not_precede_the_act(tmp_path):
    text = SHIPPED[0].read_text(encoding="utf-8")
    regime_id = SHIPPED[0].stem
    good = _write(
        tmp_path,
        f"{regime_id}.toml",
        text + '\n[regime.amendment]\nact = "Decreto nº 9/2099"\nin_force_from = 2099-01-01\n',
    )
    regime = load_regime_file(good)
    assert regime.amendment.act == "Decreto nº 9/2099" and str(regime.effective_from) == "2099-01-01"
    bad = _write(
        tmp_path,
        f"{regime_id}.toml",
        text + '\n[regime.amendment]\nact = "Decreto nº 9/1999"\nin_force_from = 1999-01-01\n',
    )
    with pytest.raises(RegimeErrors) as exc:
        load_regime_file(bad, all_errors=True)
    assert exc.value.errors[0].key == "regime.amendment.in_force_from"


def _items(data):
    """(top-level list, index) of every table of the act's top-level lists."""
    return [
        (name, i)
        for name, value in data.items()
        if isinstance(value, list)
        for i, item in enumerate(value)
        if isinstance(item, dict)
    ]


SAMPLE = SHIPPED[0]
_DATA = tomllib.loads(SAMPLE.read_text(encoding="utf-8"))
SAMPLE_ITEMS = _items(_DATA)


def _with_lines(broken, added: str) -> str:
    """The sample act with ``added`` under the table of each (list name, index) in ``broken``: the n-th
    "[[name]]" header of the file opens the n-th table of that list."""
    seen: dict[str, int] = {}
    out = []
    for line in SAMPLE.read_text(encoding="utf-8").splitlines(keepends=True):
        out.append(line)
        header = line.strip()
        if header.startswith("[[") and header.endswith("]]") and "." not in header:
            name = header[2:-2]
            index = seen.get(name, 0)
            seen[name] = index + 1
            if (name, index) in broken:
                out.append(added)
    return "".join(out)


@settings(max_examples=25, deadline=None)
@given(st.sets(st.sampled_from(SAMPLE_ITEMS), min_size=1, max_size=6))
def test_check_reports_exactly_the_items_broken(broken):
    """However many items of a file are broken, the check names each of them — and nothing else."""
    errors = check_regime_text(_with_lines(broken, "chave_inexistente = 1\n"), SAMPLE.name, expected_id=SAMPLE.stem)
    assert {e.key for e in errors} == {id_path(f"{name}[{i}].chave_inexistente", _DATA) for name, i in broken}


WITHOUT_NOTES = [(name, i) for name, i in SAMPLE_ITEMS if "notes" not in _DATA[name][i]]


@settings(max_examples=15, deadline=None)
@given(st.sets(st.sampled_from(WITHOUT_NOTES), min_size=1, max_size=4))
def test_check_reports_every_mistake_inside_one_entry(broken):
    """Two different mistakes inside one entry — a value of the wrong type and a key no table knows — are
    both reported, for every entry broken, and nothing else."""
    added = "notes = 7\nchave_inexistente = 1\n"  # notes must be text
    errors = check_regime_text(_with_lines(broken, added), SAMPLE.name, expected_id=SAMPLE.stem)
    assert {e.key for e in errors} == {
        id_path(f"{name}[{i}].{key}", _DATA) for name, i in broken for key in ("notes", "chave_inexistente")
    }


def test_a_mistake_in_the_acts_header_does_not_hide_the_rest():
    original = EXAMPLE.read_text(encoding="utf-8")
    text = original.replace("[regime]\n", "[regime]\nchave_x = 1\n", 1)
    text = text.replace("[[fees]]\n", "[[fees]]\nchave_y = 2\n", 1)
    errors = check_regime_text(text, EXAMPLE.name, expected_id=EXAMPLE.stem)
    assert {e.key for e in errors} == {"regime.chave_x", id_path("fees[0].chave_y", tomllib.loads(original))}


def test_a_broken_line_a_formula_names_is_reported_once():
    """A line the check could not read is not reported again where a fee's table names it (``line == 'x'``):
    Brumado's price table names each of its 25 lines."""
    path = default_regimes_folder() / "brumado-2026.toml"
    text = path.read_text(encoding="utf-8").replace("[[lines]]\n", "[[lines]]\nchave_inexistente = 1\n", 1)
    errors = check_regime_text(text, path.name, expected_id=path.stem)
    assert [e.key for e in errors] == ["lines.barraca-alimentacao.chave_inexistente"]
