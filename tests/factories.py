"""Builders the tests share: people, companies, approved applications and permits of each act, issued the way a
desk issues them (no test module imports another; a test needing a permit builds it here).

``keys`` is a fixture (an open database on each back end, the file store and signing-key folder in tmp_path):
import it by name beside the builders that take it.
"""

from __future__ import annotations

import csv
import datetime as dt
import hashlib
import itertools
import json
import zipfile
from dataclasses import dataclass, replace
from decimal import Decimal as D  # noqa: N817 - D("2.5"): a measure as the act writes it
from pathlib import Path

import pytest

from models import enforcement as enf
from models.base.br import cnpj_check_digits, cpf_check_digits, format_cpf
from models.billing.charges import Charge, record_payment
from models.billing.fiscal import set_index_correction
from models.permits import Permit
from models.registry.applications import Application, ApplicationInput, DocumentInput, change_status
from models.registry.people import CompanyInput, PartnerInput, PersonInput, save_company, save_person
from models.rules.eligibility import ApplicantFacts, DocumentFacts, add_months, evaluate_eligibility
from models.rules.regimes import RegimeError, default_regimes_folder, get_regime, load_regime_file
from models.services.filing import create_application
from models.services.front_desk import applicant_facts, load_applicant
from models.services.issuing import issue_permit
from models.store.bootstrap import open_database
from models.store.files import set_store

TODAY = dt.date(2026, 11, 30)  # a Monday
_numbers = itertools.count(123456780)


def new_cpf() -> str:
    base = f"{next(_numbers):09d}"
    return base + cpf_check_digits(base)


def new_cnpj() -> str:
    base = f"{next(_numbers) % 100000000:08d}0001"
    return base + cnpj_check_digits(base)


def person(name: str, *, cpf: str | None = None, resident_since=dt.date(2010, 1, 1), household=(), **kw):
    birth = kw.pop("birth_date", dt.date(1980, 5, 17))
    return save_person(
        PersonInput(
            name=name,
            cpf=cpf or new_cpf(),
            birth_date=birth,
            resident_since=resident_since,
            household=list(household),
            **kw,
        ),
        today=TODAY,
    )


def company(name: str, *partners, mei: bool = False, registration: str = "12345"):
    return save_company(
        CompanyInput(
            cnpj=new_cnpj(),
            legal_name=name,
            mei=mei,
            municipal_registration=registration,
            partners=[PartnerInput(name=p.name, cpf=p.cpf) for p in partners],
        )
    )


def approved(regime: str, kind: str, *, on: dt.date = TODAY, holder=None, documents=(), **fields) -> Application:
    who = {"person_id": holder.id} if hasattr(holder, "cpf") else {"company_id": holder.id}
    app = create_application(
        ApplicationInput(regime=regime, permit_kind=kind, documents=list(documents), **who, **fields),
        clerk="ana",
        today=on,
    )
    app = change_status(app, "analysis", by="chefe")
    return change_status(app, "approved", by="chefe")


def all_documents(regime: str, kind: str, on: dt.date) -> list[DocumentInput]:
    return [DocumentInput(d, on) for d in get_regime(regime).permit_kind(kind).documents]


@pytest.fixture
def keys(database, tmp_path) -> Path:
    set_store(tmp_path / "files")
    return tmp_path / "keys"


def issue(app, keys, on=TODAY, **kw) -> Permit:
    return issue_permit(app, by="ana", today=on, key_dir=keys, **kw)


def tpu(keys, holder, kind="street-food-tpu-a", on=TODAY, site="Praça Rui Barbosa") -> Permit:
    return issue(approved("olimpia-2025", kind, on=on, holder=holder, site=site, equipment="food-truck"), keys, on)


def feirante(keys, holder, site="Feira Noturna do Jardim Satélite", on=TODAY, kind="feirante", **kw) -> Permit:
    app = approved(
        "sjc-2014",
        kind,
        on=on,
        holder=holder,
        site=site,
        line="pastel",
        section="xvi",
        equipment="banca",
        front="8,00",
        depth="3,50",
    )
    return issue(app, keys, on, valid_until=kw.pop("valid_until", dt.date(2027, 12, 31)), **kw)


def sapezal_licence(keys, holder, on=TODAY, kind="ponto-fixo", documents=None) -> Permit:
    """Sapezal's licence of a person who runs an MEI (Lei 1.171/2014, art. 4º; art. 20: the licence is a firm's;
    art. 11, I: its CNPJ before the licence)."""
    from models.registry.people import mei_company

    if hasattr(holder, "cpf") and mei_company(holder) is None:
        company(f"{holder.name.upper()} MEI", holder, mei=True)
    docs = all_documents("sapezal-2014", kind, on - dt.timedelta(days=10)) if documents is None else documents
    app = approved(
        "sapezal-2014",
        kind,
        on=on,
        holder=holder,
        documents=docs,
        line="bebidas",
        group="g03",
        equipment="barraca",
        front="2,00",
        depth="1,50",
        site="Praça da Matriz",
    )
    return issue(app, keys, on)


def beach_licence(keys, holder, on=TODAY, site="ponto-03") -> Permit:
    app = approved(
        "ilha-comprida-2017",
        "ambulante-praia",
        on=on,
        holder=holder,
        documents=all_documents("ilha-comprida-2017", "ambulante-praia", on),
        line="cadeiras-guarda-sol",
        equipment="carrinho",
        front="1,50",
        depth="0,80",
        hitch="0,20",
        site=site,
    )
    return issue(app, keys, on)


def mei_vendor(name: str):
    owner = person(name, resident_since=dt.date(2015, 3, 1))
    company(f"{name.upper()} MEI", owner, mei=True)
    return owner


def results(holder, regime, kind, *, today=TODAY, site="", documents=()):
    kind_of = "person" if hasattr(holder, "cpf") else "company"
    facts = applicant_facts(
        load_applicant(kind_of, holder.id),
        documents=list(documents),
        site=site,
        today=today,
        regime=regime,
        permit_kind=kind,
    )
    return {r.article: r for r in evaluate_eligibility(regime, kind, facts).results}, facts


#: INPC's yearly rates as a clerk types them (IBGE), 2015–2026: what the SJC fee is corrected by.
INPC = {
    2015: "6,23",
    2016: "11,28",
    2017: "6,58",
    2018: "2,07",
    2019: "3,43",
    2020: "4,48",
    2021: "5,45",
    2022: "10,16",
    2023: "5,93",
    2024: "3,71",
    2025: "4,77",
    2026: "3,90",
}


@pytest.fixture
def inpc(database):
    for year, pct in INPC.items():
        set_index_correction("INPC", year, pct, entered_by="teste", reason="INPC de teste")


def sjc_stall(keys, name="Maria das Dores", on=dt.date(2026, 8, 3)):
    return feirante(keys, person(name), on=on)


# --------------------------------------------------------------------------- enforcement records


def at(text: str) -> dt.datetime:
    return dt.datetime.strptime(text, "%d/%m/%Y %H:%M")


def draft(regime: str, codes, when: str, *, kind: str = "infraction", holder=None, **kw) -> enf.RecordDraft:
    if holder is not None:
        kw.setdefault("person_id" if hasattr(holder, "cpf") else "company_id", holder.id)
    kw.setdefault("place", "Praça da Matriz, em frente ao nº 120")
    kw.setdefault("facts", "Constatado pelo agente no local, durante a fiscalização de rotina.")
    kw.setdefault("inspector", "Marcos Fiscal")
    kw.setdefault("inspector_id", "4521")
    return enf.RecordDraft(kind=kind, regime=regime, at=at(when), infractions=list(codes), **kw)


def fill_record_form(dialog, regime: str, offender: str, when: dt.datetime, place: str, facts: str) -> None:
    """The record dialog's facts typed as an inspector does: the act, the offender searched and picked, the day and
    hour, the place, the facts, and the inspector (Marcos Fiscal, 4521)."""
    from conftest import type_text

    dialog.form.regime.setCurrentIndex(dialog.form.regime.findData(regime))
    type_text(dialog.form.offender_search, offender.lower())
    dialog.form.matches_view.selectRow(0)
    dialog.form.date.set_date(when.date())
    dialog.form.time.setText(when.strftime("%H:%M"))
    type_text(dialog.form.place, place)
    type_text(dialog.form.facts, facts)
    dialog.form.inspector.setText("Marcos Fiscal")
    type_text(dialog.form.inspector_id, "4521")


def issue_record(d: enf.RecordDraft, today: dt.date | None = None) -> enf.Record:
    return enf.issue_record(d, by="ana.souza", today=today or d.at.date())


def fines(record: enf.Record) -> list[Charge]:
    return [c for c in enf.charges_of(record, "fine") if c.status != "cancelled"]


def pay(charge: Charge, on: dt.date, ref: str = "REC-1") -> None:
    record_payment(charge, paid_on=on, amount=charge.open_amount, reference=ref, by="tesouraria", today=on)


# --------------------------------------------------------------------------- the stall map


def placed_stall(
    number, x, *, side="a", section="vi", line="biscoitos-balas", width="3", depth="2", holder_id=None, holder=None
):
    from models.sites.layout import PlacedStall

    return PlacedStall(
        key=str(number),
        number=number,
        side=side,
        x=D(x),
        y=D(0) if side == "a" else D(10) - D(depth),
        width=D(width),
        depth=D(depth),
        rotation=0 if side == "a" else 180,
        section=section,
        line=line,
        holder_id=holder_id,
        holder=holder,
    )


def uid_of(plan, number: int) -> int:
    return plan.by_number(number)[0]


@pytest.fixture
def feira(database):
    from models.sites import ObstacleInput, SegmentInput, SiteInput, save_layout, save_site

    site = save_site(
        SiteInput(
            name="Feira do Teste",
            kind="feira",
            regime="sjc-2014",
            weekdays=("fri",),
            gap="0,50",
            segments=[
                SegmentInput(
                    street="Avenida Andrômeda",
                    from_street="Rua Júpiter",
                    to_street="Rua Saturno",
                    length="60",
                    width="10",
                    obstacles=[ObstacleInput(kind="hydrant", side="b", start="40", extent="0,5")],
                )
            ],
        )
    )
    save_layout(
        site,
        [
            placed_stall(1, "0"),
            placed_stall(2, "4"),
            placed_stall(3, "8"),
            placed_stall(4, "20", section="xvi", line="pastel", width="12", depth="3.5", side="b"),
        ],
    )
    return site


@pytest.fixture
def editor(app_ready, qtbot, feira):
    from views.map_editor import MapEditor

    widget = MapEditor()
    qtbot.addWidget(widget)
    widget.resize(1300, 760)
    widget.show()
    qtbot.waitExposed(widget)
    widget.load(feira.id)
    widget.view.setFocus()
    return widget


# --------------------------------------------------------------------------- signing


#: The signing tests' day (a permit of the Indomit event, São Bento do Sapucaí).
SIGNING_TODAY = dt.date(2026, 3, 28)
#: The municipality's signing passphrase in the tests.
PASS = "senha da prefeitura 2026"


def make_summary(**changes):
    from models.access.signing import PermitSummary

    values = dict(
        number="2026/000012",
        holder_name="Pastelaria Serra da Mantiqueira Ltda",
        holder_document="12345678000195",
        kind_label="Permissão de uso — barraca de ambulante no evento Indomit",
        place="Rua Cel. Ribeiro da Luz — Barraca 12",
        valid_from=dt.date(2026, 3, 27),
        valid_until=dt.date(2026, 3, 29),
        regime_id="sao-bento-2026",
        municipality="São Bento do Sapucaí",
    )
    values.update(changes)
    return PermitSummary(**values)


@pytest.fixture(autouse=True)
def fresh_desk(monkeypatch):
    """Each test starts as a desk that knows no passphrase; the system keyring is a dict. Keys are wrapped with a
    light scrypt (n = 2^10) so that a test spends no half second per key: the envelope records its parameters and
    is read by the same code; tests/test_key_wrapping.py checks the real ones (2^17)."""
    from models.access import key_envelope
    from models.access import signing_keys as sk

    monkeypatch.setattr(key_envelope, "KEY_KDF", {"n": 2**10, "r": 8, "p": 1})
    monkeypatch.setattr(sk, "_refused", set())
    vault: dict[str, str] = {}
    monkeypatch.setattr(sk, "_keyring_get", vault.get)
    monkeypatch.setattr(sk, "_keyring_set", lambda kid, p: vault.__setitem__(kid, p) or True)
    monkeypatch.setattr(sk, "_keyring_delete", lambda kid: vault.pop(kid, None))
    sk._session.clear()
    sk._private.clear()
    yield vault
    sk._session.clear()
    sk._private.clear()


def type_passphrase(passphrase: str, again: str | None = None):
    from conftest import type_text

    def fill(dialog):
        type_text(dialog.passphrase, passphrase)
        if dialog.again.isVisible():
            type_text(dialog.again, passphrase if again is None else again)
        dialog._accept()
        if dialog.isVisible():  # refused: keep what it said for the test
            fill.error = dialog.error.text()

    fill.error = ""
    return fill


# The permits tab (tests/test_permits_tab.py, tests/test_act_version_shown.py): a clock the test moves on.
class Clock:
    def __init__(self, day: dt.date):
        self.day = day

    def __call__(self) -> dt.date:
        return self.day


@pytest.fixture
def clock():
    return Clock(TODAY)


@pytest.fixture
def make_tab(app_ready, qtbot, keys, clock):
    from views.permits import PermitsTab

    def make():
        tab = PermitsTab(key_dir=keys, today=clock)
        qtbot.addWidget(tab)
        tab.resize(1200, 800)
        tab.show()
        tab.refresh()
        return tab

    return make


# A MEI company with its owner, on a fresh database (the application form and the cut-off tests).
@pytest.fixture
def mei(app_ready, database, tmp_path):
    set_store(tmp_path / "files")
    owner = save_person(
        PersonInput(
            name="Reinaldo Almeida Teixeira",
            cpf="529.982.247-25",
            birth_date=dt.date(1980, 5, 17),
            resident_since=dt.date(2000, 1, 1),
            city="São Bento do Sapucaí",
        ),
        today=TODAY,
    )
    return save_company(
        CompanyInput(
            cnpj="11.222.333/0001-81",
            legal_name="REINALDO ALMEIDA TEIXEIRA 11222333",
            mei=True,
            municipal_registration="12345",
            city="São Bento do Sapucaí",
            partners=[PartnerInput(owner.name, owner.cpf)],
        )
    )


# The selection page (tests/test_selection_page.py, test_quota_scope, test_tie_break).
@pytest.fixture
def page(qtbot, keys, app_ready):
    from views.selection import SelectionPage

    widget = SelectionPage(key_dir=keys, today=TODAY)
    qtbot.addWidget(widget)
    widget.resize(1200, 800)
    widget.show()
    return widget


# A regime file of the tests' own (tests/test_regimes_loader.py and the tests that break an act on purpose).
BASE_REGIME = """
[regime]
id = "teste"
municipality = "Cidade Teste"
state = "SP"
act = "Decreto nº 1, de 1º de janeiro de 2026"
short = "Dec. 1/2026"
published = 2026-01-01
scope = ["event"]
summary = "Regime de teste."
in_force = { from = 2026-01-01, basis = "art. 11" }

[[units]]
code = "UFESP"
name = "Unidade Fiscal do Estado de São Paulo"
basis = "art. 1º"
values = [ { year = 2026, value = "38.42", basis = "art. 1º" } ]

[[documents]]
id = "cnpj-card"
label = "Cartão CNPJ"
basis = "art. 2º"

[[equipment]]
id = "trailer"
label = "Trailer"
has_hitch = true
basis = "art. 3º"

[[lines]]
id = "comidas"
label = "Comidas"
front = "4.00"
depth = "3.50"
basis = "art. 4º"

[[sections]]
id = "i"
numeral = "I"
label = "Comidas"
lines = ["comidas"]
side = "a"
order = 1
basis = "art. 4º"

[[permit_kinds]]
id = "stall"
label = "Permissão"
instrument = "permissão de uso"
holder = ["company"]
documents = ["cnpj-card"]
fees = ["occupation"]
basis = "art. 5º"

[[permit_kinds.rules]]
kind = "legal-form"
allowed = ["company", "mei"]
basis = "art. 5º"

[[fees]]
id = "occupation"
label = "Ocupação"
kind = "linear-metre"
coefficient = "5.50"
unit = "UFESP"
min_metres = "1.00"
hitch_counts = true
basis = "art. 6º"

[[fees.discounts]]
id = "mei"
label = "MEI"
rate = "0.30"
when = { mei = true, notes = "notas são aceitas em qualquer tabela" }
basis = "art. 6º, I"

[[fees.discounts]]
id = "cart"
label = "Carrinho"
rate = "0.50"
when = { mei = true }
basis = "art. 6º, II"

[[ladders]]
id = "geral"
label = "Geral"
basis = "art. 7º"

[[ladders.steps]]
offence = 1
sanctions = [ { kind = "warning", comply_days = 30, basis = "art. 7º" } ]

[[ladders.steps]]
offence = 2
sanctions = [ { kind = "fine", multiplier = "1", basis = "art. 7º" } ]

[[infractions]]
code = "sem-placa"
label = "Sem placa"
article = "art. 8º"
fine = { value = "20", unit = "UFESP", basis = "art. 9º" }
ladder = "geral"
basis = "art. 9º"

[calendar]
closed_day = { rule = "next-business-day", basis_act = "Lei nº 9.784/1999, art. 66, § 1º" }

[[deadlines]]
id = "appeal"
label = "Recurso"
role = "appeal"
days = 10
count = "calendar"
from = "penalty"
basis = "art. 10"
"""


def open_new_database(url: str, acts=None):
    """A new database, made by Praça's own ``open_database(create=True)`` — which installs no act — with the acts the
    test works under installed (``acts``: their ids; every shipped act unless named), as the tests' empty database
    holds them (tests/db_templates.py)."""
    from models.rules import acts as installed
    from models.store.db import AUDIT

    database = open_database(url, create=True)
    AUDIT.suspended += 1  # part of the database as the test starts from: no audit entry
    try:
        installed.install_shipped(ids=acts)
    finally:
        AUDIT.suspended -= 1
    installed.forget()
    return database


def write_regime(tmp_path: Path, text: str, name: str = "teste") -> Path:
    path = tmp_path / f"{name}.toml"
    path.write_text(text, encoding="utf-8")
    return path


def broken_shipped(tmp_path: Path, regime_id: str, old: str, new: str) -> RegimeError:
    """The error of a shipped regime file with ``old`` replaced by ``new`` once."""
    source = (default_regimes_folder() / f"{regime_id}.toml").read_text(encoding="utf-8")
    assert old in source, old
    with pytest.raises(RegimeError) as exc:
        load_regime_file(write_regime(tmp_path, source.replace(old, new, 1), regime_id))
    return exc.value


# A site's export dict as reports/site_map.py draws it (tests/test_site_map.py, tests/test_fonts.py).
def map_export_of(
    length="80", width="10", stalls=(), obstacles=(), regime="sjc-2014", frm="Rua Júpiter", to="Rua Saturno"
):
    return {
        "site": {
            "id": 1,
            "name": "Feira do Teste",
            "kind": "feira",
            "regime": regime,
            "regime_short": "Lei 9.158/2014",
            "numbering": "sequential",
            "gap": D("0.50"),
            "max_points": None,
        },
        "length": D(length),
        "segments": [
            {
                "position": 0,
                "street": "Avenida Andrômeda",
                "from": frm,
                "to": to,
                "length": D(length),
                "width": D(width),
                "sides": "both",
            }
        ],
        "obstacles": list(obstacles),
        "points": [],
        "stalls": list(stalls),
    }


def map_stall(
    number,
    x,
    *,
    side="a",
    section="i",
    numeral="I",
    line="legumes-verduras",
    width="8",
    depth="3.5",
    holder=None,
    holder_name=None,
    rotation=None,
):
    return {
        "number": number,
        "segment": 0,
        "section": section,
        "section_numeral": numeral,
        "line": line,
        "side": side,
        "x": D(x),
        "y": D(0) if side == "a" else D("10") - D(depth),
        "width": D(width),
        "depth": D(depth),
        "hitch": D(0),
        "rotation": (0 if side == "a" else 180) if rotation is None else rotation,
        "end_vendor": False,
        "equipment": "banca",
        "holder": holder,
        "holder_name": holder_name,
    }


def feira_export():
    """A feira of four stalls, two held, and a garage on one side."""
    return map_export_of(
        stalls=[
            map_stall(1, "0", holder="2026/00001", holder_name="Ana Souza"),
            map_stall(2, "8.5"),
            map_stall(3, "20", section="v", numeral="V", line="frios", width="6"),
            map_stall(
                4,
                "0",
                side="b",
                section="xvi",
                numeral="XVI",
                line="pastel",
                width="12",
                holder="2026/00002",
                holder_name="Bia Lima",
            ),
        ],
        obstacles=[
            {
                "segment": 0,
                "kind": "garage",
                "kind_label": "entrada de garagem",
                "side": "a",
                "start": D("40"),
                "extent": D("3"),
                "label": "Garagem do nº 215",
            }
        ],
    )


# The eligibility engine's facts (tests/test_eligibility.py, test_outsiders, test_winner_documents).
ELIGIBILITY_TODAY = dt.date(2026, 5, 14)


def good_facts(regime, kind, today=ELIGIBILITY_TODAY, **changes) -> ApplicantFacts:
    """Facts that pass every rule of ``kind`` that the engine can decide."""
    facts = ApplicantFacts(
        applicant_type=kind.holder[0],
        today=today,
        is_mei=True,
        has_cnpj=True,
        has_municipal_registration=True,
        birth_date=add_months(today, -12 * 40),
        legally_capable=True,
        resident_since=add_months(today, -12 * 10),
        is_resident=True,
        based_elsewhere=False,
        public_servant=False,
        documents={d.id: DocumentFacts(delivered_on=add_months(today, -1)) for d in regime.documents},
        permits=(),
        debts=(),
        history=(),
        active_count=0,
        quota_used=0,
        quota_beneficiary=False,
        site_id="feira-1",
    )
    return replace(facts, **changes)


# A sealed backup changed after it was written (tests/test_sealed_backups.py, tests/test_daily_backup_seal.py).
def tamper_backup(path, out):
    """Change one row and recompute the checksum and size in the manifest: only the signature can tell."""
    with zipfile.ZipFile(path) as zf:
        members = {name: zf.read(name) for name in zf.namelist()}
    manifest = json.loads(members["manifest.json"])
    payload = members["data.jsonl"].replace("São Bento".encode(), b"Sao Bento", 1)
    assert payload != members["data.jsonl"]
    manifest["payload_sha256"] = hashlib.sha256(payload).hexdigest()
    manifest["payload_bytes"] = len(payload)
    members["manifest.json"] = json.dumps(manifest, ensure_ascii=False, indent=2).encode()
    members["data.jsonl"] = payload
    with zipfile.ZipFile(out, "w") as zf:
        for name, data in members.items():
            zf.writestr(name, data)


# `praca draw` from the command line (tests/test_cli_draw.py, test_cutoffs, test_quota_scope, test_tie_break).
def write_list(tmp_path, text: str, name: str = "inscritos.csv", *, bom: bool = False):
    path = tmp_path / name
    path.write_bytes((b"\xef\xbb\xbf" if bom else b"") + text.encode("utf-8"))
    return str(path)


def draw_json(capsys, *args: str) -> dict:
    from desktop.cli import main

    assert main(["draw", *args, "--json"]) == 0
    captured = capsys.readouterr()
    assert captured.err == ""
    return json.loads(captured.out)


def one_line_error(capsys, *args: str) -> str:
    from desktop.cli import main

    assert main(["draw", *args]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1 and captured.err.startswith("praca: ")
    return captured.err


# Spreadsheets of vendors to import (tests/test_importer.py, test_import_dialog, test_crash).
def cpf_number(n: int) -> str:
    base = f"{n:09d}"
    return base + cpf_check_digits(base)


def cnpj_number(n: int) -> str:
    base = f"{n:08d}0001"
    return base + cnpj_check_digits(base)


def write_xlsx(path: Path, rows: list[list]) -> Path:
    import openpyxl

    book = openpyxl.Workbook()
    sheet = book.active
    for row in rows:
        sheet.append(row)
    book.save(path)
    return path


def write_csv(path: Path, rows: list[list], *, delimiter=";", encoding="utf-8") -> Path:
    with path.open("w", newline="", encoding=encoding) as fh:
        csv.writer(fh, delimiter=delimiter).writerows(rows)
    return path


IMPORT_HEADER = ["Nome", "CPF", "Data de Nascimento", "Telefone", "E-mail", "Bairro"]


def vendor_rows() -> list[list]:
    return [
        IMPORT_HEADER,
        [
            "Maria da Silva",
            format_cpf(cpf_number(101)),
            "01/02/1980",
            "(11) 99999-0000",
            "maria@exemplo.com.br",
            "Centro",
        ],
        ["João Souza", "111.111.111-11", "31/02/1980", "", "", "Vila Nova"],  # bad CPF, impossible date
        ["José Pereira", cpf_number(102), "1975-05-20", "", "", ""],
        ["Ana Lima", cpf_number(101), "", "", "", ""],  # CPF repeated from line 2
        ["Paulo", cpf_number(103), "", "", "", ""],  # one name only
    ]


# Atendimento's application form (tests/test_application_form.py, test_cutoffs, test_legal_terms, test_outsiders,
# test_winner_documents).
def application_dialog(
    qtbot, applicant_kind: str, applicant_id: int, regime: str, permit_kind: str = "", *, today=TODAY, now=None
):
    """Atendimento's form at 1366×768 with the regime (and permit kind) chosen, its assessment settled."""
    from views.application_form import ApplicationDialog

    dialog = ApplicationDialog(applicant_kind, applicant_id, today=today, now=now)
    qtbot.addWidget(dialog)
    dialog.resize(1366, 768)
    dialog.show()
    dialog.regime.setCurrentIndex(dialog.regime.findData(regime))
    if permit_kind:
        dialog.kind.setCurrentIndex(dialog.kind.findData(permit_kind))
    dialog.settle()
    return dialog


def statuses(dialog) -> dict[str, str]:
    from PySide6.QtCore import Qt

    out = {}
    for row in range(dialog.rules.rowCount()):
        item = dialog.rules.item(row, 0)
        out[item.text().split("\n")[0]] = item.data(Qt.ItemDataRole.UserRole)
    return out


# Sapezal's selection: an applicant scored by housing, income, age and residence (tests/test_selection_page.py,
# test_tie_break, test_winner_documents).
SAPEZAL_SITE = "Praça da Matriz"


def sapezal_applicant(name, *, housing, income, birth, since, children=(), disabled=False, status="approved"):
    from models.registry.people import HouseholdInput

    household = [
        HouseholdInput(name=f"Filho {i} de {name}", relation="child", birth_date=b) for i, b in enumerate(children, 1)
    ]
    who = person(
        name,
        housing=housing,
        family_income_mw=income,
        birth_date=birth,
        resident_since=since,
        household=household,
        disabled=disabled,
        experience_years=5,
    )
    company(f"{name.upper()} MEI", who, mei=True)  # the licence is a firm's (art. 4º; art. 20): an MEI
    fields = dict(line="bebidas", group="g03", equipment="barraca", front="2,00", depth="1,50", site=SAPEZAL_SITE)
    if status == "approved":
        return who, approved("sapezal-2014", "ponto-fixo", holder=who, **fields)
    app = create_application(
        ApplicationInput(regime="sapezal-2014", permit_kind="ponto-fixo", person_id=who.id, **fields),
        clerk="ana",
        today=TODAY,
    )
    return who, change_status(app, "analysis", by="chefe")


# The permits tab: São Bento's event stall, and the tab's rows (tests/test_permits_tab.py, test_act_version_shown).
def event_stall(keys, holder):
    app = approved(
        "sao-bento-2026",
        "event-stall",
        on=dt.date(2026, 3, 18),
        holder=holder,
        site="rua-cel-ribeiro-da-luz",
        equipment="trailer",
        front="4,50",
        depth="3,00",
        hitch="1,20",
    )
    return issue_permit(app, by="ana", today=dt.date(2026, 3, 20), key_dir=keys, point="Posição 07")


def shown(tab) -> list[str]:
    return [tab.model.data(tab.model.index(r, 0)) for r in range(tab.model.rowCount())]


def select(tab, number: str) -> None:
    from models.permits import find_permit

    assert tab.select_permit(find_permit(number).id), f"{number} not in {shown(tab)}"


def history_kinds(tab) -> list[str]:
    """The kinds of the selected permit's history, as Permissões lists them."""
    model = tab.history_model
    return [model.data(model.index(r, 1)) for r in range(model.rowCount())]


def set_status(tab, key) -> None:
    tab.status.setCurrentIndex(tab.status.findData(key))


def click(qtbot, button) -> None:
    """A click on ``button``, which must be enabled (its text says which one was not)."""
    from PySide6.QtCore import Qt

    assert button.isEnabled(), button.text()
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


# Sites straight on the tables: a bare permit to hold a stall, a feira, a placed stall (tests/test_sites.py,
# test_bad_input, test_concurrency).
_permit_seq = iter(range(1, 10_000))


def site_permit(
    regime="sjc-2014", *, section="", line="", status="active", site="Feira do Teste", front=None, depth=None
) -> Permit:
    from models.registry.people import Person

    n = next(_permit_seq)
    person = Person.create(name=f"Titular Número {n}", cpf=f"{n:011d}")
    return Permit.create(
        number=f"2026/{n:05d}",
        year=2026,
        seq=n,
        regime=regime,
        permit_kind="feirante",
        person=person.id,
        site=site,
        section=section,
        line=line,
        status=status,
        front=front,
        depth=depth,
        valid_from=dt.date(2026, 1, 1),
        valid_until=dt.date(2026, 12, 31),
        issued_on=dt.date(2026, 1, 1),
        issued_by="teste",
    )


def feira_site(name="Feira do Teste", regime="sjc-2014", **kw):
    from models.sites import ObstacleInput, SegmentInput, SiteInput, save_site

    values = dict(
        name=name,
        kind="feira",
        regime=regime,
        weekdays=("fri",),
        setup_from="16:00",
        setup_to="17:00",
        opens="18:00",
        closes="22:00",
        teardown_from="22:00",
        teardown_to="23:00",
        segments=[
            SegmentInput(
                street="Avenida Andrômeda",
                from_street="Rua Júpiter",
                to_street="Rua Saturno",
                length="200,00",
                width="10",
                obstacles=[
                    ObstacleInput(kind="tree", side="b", start="20", extent="1"),
                    ObstacleInput(kind="hydrant", side="a", start="100", extent="0,5"),
                ],
            )
        ],
    )
    values.update(kw)
    return save_site(SiteInput(**values))


def placed_at(number, x, *, side="a", section="vi", line="biscoitos-balas", holder_id=None, width="3", depth="2"):
    from models.sites.layout import PlacedStall

    return PlacedStall(
        key=str(number),
        number=number,
        side=side,
        x=D(x),
        y=D(0) if side == "a" else D(8),
        width=D(width),
        depth=D(depth),
        section=section,
        line=line,
        holder_id=holder_id,
    )


@pytest.fixture
def queries():
    """Every SQL statement the test makes peewee run, with its thread (tests/query_log.py)."""
    from query_log import installed

    yield from installed()


@pytest.fixture
def steps(queries):
    """The GUI thread's statements step by step (``with steps("salvar"): …``, then ``steps.check()``)."""
    from query_log import Steps

    return Steps(queries)


# What a clerk files at each town demo's front desk (tests/test_town_demo_desks.py): the test's, not the demo's.
@dataclass(frozen=True)
class TownFiling:
    """One town's application typed at the Balcão: the permit kind, who asks (a person or a company of the town
    who has asked for nothing yet), what is typed, and whether the act prices the permit (its charges are paid
    before it is issued)."""

    slug: str
    kind: str
    holder_kind: str
    fields: dict
    priced: bool
    infraction: str = ""  # what an inspector records today at the enforcement desk ("": the act's first)
    mei: bool = False  # a person owning an MEI with its municipal registration, where the act asks for one

    def holder(self):
        from models.registry.applications import Application
        from models.registry.people import Company, CompanyPartner, Person

        if self.holder_kind == "person":
            asked = Application.select(Application.person).where(Application.person.is_null(False))
            people = Person.select().where(Person.id.not_in(asked))
            if self.mei:
                meis = Company.select(Company.id).where(Company.mei & (Company.municipal_registration != ""))
                owners = CompanyPartner.select(CompanyPartner.person).where(CompanyPartner.company.in_(meis))
                people = people.where(Person.id.in_(owners))
            return people.order_by(Person.id).first()
        asked = Application.select(Application.company).where(Application.company.is_null(False))
        return (
            Company.select()
            .where(Company.id.not_in(asked) & (Company.municipal_registration != ""))
            .order_by(Company.id)
            .first()
        )

    def fill(self, qtbot, dialog) -> None:
        """Choose and type the application's fields in Atendimento's form, as the clerk does."""
        from conftest import type_text

        dialog.kind.setCurrentIndex(dialog.kind.findData(self.kind))
        assert dialog.kind.currentData() == self.kind, self.kind
        for name in ("line", "section", "equipment"):
            if name in self.fields:
                combo = getattr(dialog, name)
                combo.setCurrentIndex(combo.findData(self.fields[name]))
                assert combo.currentData() == self.fields[name], (name, self.fields[name])
        site = self.fields.get("site", "")
        if dialog.site.findData(site) > 0:
            dialog.site.setCurrentIndex(dialog.site.findData(site))
        elif site:
            dialog.site.setCurrentIndex(0)
            type_text(dialog.site.lineEdit(), site)
        for name, widget in (("front", dialog.front), ("depth", dialog.depth_edit)):
            if name in self.fields:
                widget.clear()
                type_text(widget, self.fields[name])


TOWN_FILINGS = {
    f.slug: f
    for f in (
        TownFiling(
            "sao-bento",
            "event-stall",
            "company",
            {"site": "rua-cel-ribeiro-da-luz", "equipment": "barraca", "front": "3,00", "depth": "3,00"},
            infraction="sem-placa",
            priced=True,
        ),
        TownFiling(
            "sapezal",
            "feira-livre",
            "company",
            {"site": "Feira do Produtor", "equipment": "banca", "front": "2,00", "depth": "1,50"},
            infraction="dever-41",
            priced=False,
        ),
        TownFiling(
            "ilha-comprida",
            "ambulante-praia",
            "person",
            {"site": "Balneário Icaraí", "equipment": "carrinho"},
            infraction="grave-indisciplina",
            priced=False,
            mei=True,
        ),
        TownFiling(
            "sjc",
            "feirante",
            "person",
            {
                "site": "Feira Noturna do Jardim Satélite",
                "line": "pastel",
                "section": "xvi",
                "equipment": "banca",
                "front": "10,00",
                "depth": "3,50",
            },
            priced=False,
        ),
        TownFiling(
            "olimpia",
            "street-vending",
            "person",
            {"site": "Itinerante — área central", "equipment": "carrocinha"},
            priced=False,
            mei=True,
        ),
        TownFiling(
            "cabeceira-grande",
            "licenca-ambulante",
            "person",
            {"site": "Praça Central", "equipment": "ambulante"},
            infraction="fora-do-lugar",
            priced=False,
        ),
    )
}


def town_filing(slug: str) -> TownFiling:
    return TOWN_FILINGS[slug]


def arms_png(width: int = 60, height: int = 72) -> bytes:
    """A coat of arms for the letterhead tests: a blue shield with a gold disc, as PNG bytes."""
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QPoint
    from PySide6.QtGui import QColor, QImage, QPainter, QPolygon

    image = QImage(width, height, QImage.Format.Format_ARGB32)
    image.fill(QColor(0, 0, 0, 0))
    painter = QPainter(image)
    painter.setBrush(QColor("#1d4e89"))
    painter.drawPolygon(
        QPolygon(
            [
                QPoint(1, 1),
                QPoint(width - 2, 1),
                QPoint(width - 2, height * 3 // 5),
                QPoint(width // 2, height - 2),
                QPoint(1, height * 3 // 5),
            ]
        )
    )
    painter.setBrush(QColor("#f2c14e"))
    painter.drawEllipse(width // 4, height // 5, width // 2, width // 2)
    painter.end()
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buffer, "PNG")
    return bytes(data.data())


def pdf_images(path: Path) -> list[str]:
    """The image rows ``pdfimages -list`` reads in a PDF (its soft masks left out): what a reader sees placed."""
    import subprocess

    out = subprocess.run(["pdfimages", "-list", str(path)], capture_output=True, text=True, check=True).stdout
    return [line for line in out.splitlines()[2:] if line.split()[2:3] == ["image"]]


def olimpia_fine(
    holder, amount="300,00", due=dt.date(2026, 3, 20), label="Multa — art. 160", *, today=dt.date(2026, 3, 10)
) -> Charge:
    """A fine of Olímpia's act charged by hand on ``holder`` (LC 324/2025, art. 160): the collection tests' charge."""
    from models.billing.charges import create_charge

    return create_charge(
        kind="fine",
        regime="olimpia-2025",
        label=label,
        amount=amount,
        due_on=due,
        basis="LC 324/2025, art. 160",
        by="tesouraria",
        person_id=holder.id,
        today=today,
    )
