"""Verification by phone (issue 17 §3): the exported page checks a QR's Ed25519 signature in a real browser.

Headless Chromium (the distribution's package; ``.ci/run`` installs it when missing, and under ``CI=true`` a
missing browser fails the run instead of skipping) opens ``verificar.html#<signed text>`` from the disk and the
test reads the verdict the page wrote into the DOM.
"""

from __future__ import annotations

import datetime as dt
import os
import re
import shutil
import subprocess

import pytest
from factories import PASS, make_summary, open_new_database

from desktop.cli import main
from models.access import signing_keys as sk
from models.access.signing import sign_summary
from models.permits import signatures
from models.store.bootstrap import open_database
from reports.verify_page import page_is_current, write_verify_page

TODAY = dt.date.today()  # the browser checks against its own clock


def _browser() -> str:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail("Chromium não está instalado: .ci/run deveria tê-lo instalado (apt-get install chromium)")
    pytest.skip("Chromium não está instalado (apt-get install chromium)")


def _verdict(page, text: str) -> tuple[str, str, str]:
    """(data-status, the headline, the message) the page shows for ``text``."""
    done = subprocess.run(
        [
            _browser(),
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--disable-extensions",
            f"--user-data-dir={page.parent / 'chromium-profile'}",
            "--virtual-time-budget=5000",
            "--dump-dom",
            f"{page.as_uri()}#{text}",
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    dom = done.stdout
    status = re.search(r'id="resultado" data-status="([a-z]+)"', dom).group(1)
    headline = re.search(r'<p id="situacao">([^<]*)</p>', dom).group(1)
    message = re.search(r'<p id="mensagem">([^<]*)</p>', dom).group(1)
    return status, headline, message


@pytest.fixture
def municipality(sqlite_url, tmp_path):
    from models.store.files import set_store
    from models.store.settings import set_settings

    open_new_database(sqlite_url, ["olimpia-2025"])  # Olímpia's database: its own act
    set_store(tmp_path / "files")
    set_settings({"municipality": "Olímpia", "state": "SP"})
    sk.create_key(PASS)
    sk.set_verify_url("https://www.olimpia.sp.gov.br/verificar.html")
    return tmp_path


def test_the_page_in_a_real_browser(municipality, capsys, sqlite_url):
    from factories import person, tpu

    from models.permits import revoke

    in_force = dict(valid_from=TODAY - dt.timedelta(days=2), valid_until=TODAY + dt.timedelta(days=60))
    valid = sign_summary(make_summary(**in_force), sk.MUNICIPAL_KEY)
    expired = sign_summary(
        make_summary(valid_from=dt.date(2020, 1, 1), valid_until=dt.date(2020, 1, 31)), sk.MUNICIPAL_KEY
    )
    payload = valid.split(".")[2]
    index = len("PRACA3.XXXXXXXX.") + len(payload) // 2
    tampered = valid[:index] + ("A" if valid[index] != "A" else "B") + valid[index + 1 :]
    foreign = sign_summary(make_summary(**in_force), municipality / "forger")
    forged_id = ".".join([foreign.split(".")[0], valid.split(".")[1], *foreign.split(".")[2:]])

    permit = tpu(sk.MUNICIPAL_KEY, person("Maria Aparecida Souza"), on=TODAY - dt.timedelta(days=5))
    revoke(permit, by="chefe", reason="comércio de produto proibido", today=TODAY - dt.timedelta(days=1))
    page = municipality / "verificar.html"
    assert main(["verify-page", "--out", str(page), "--db", sqlite_url]) == 0
    open_database(sqlite_url)
    assert "Publique-a em https://www.olimpia.sp.gov.br/verificar.html" in capsys.readouterr().out
    assert page_is_current() is True
    html = page.read_text(encoding="utf-8")
    assert sk.active_key().public_key in html and permit.number in html
    assert "Maria" not in html  # the page holds keys and permit numbers, no one's name

    status, headline, message = _verdict(page, valid)
    assert (status, headline) == ("valid", "válido")
    assert "Documento válido: assinatura autêntica da Prefeitura de São Bento do Sapucaí" in message
    assert _verdict(page, tampered)[:2] == ("invalid", "inválido")
    # a card printed before issue 32 (PRACA2, the payload as JSON) still verifies on the page
    from models.access.signing import _b32, as_signer, canonical_json

    signer = as_signer(sk.MUNICIPAL_KEY)
    signed = f"PRACA2.{signer.key_id}.{_b32(canonical_json(make_summary(**in_force).to_wire()))}"
    old_card = f"{signed}.{_b32(signer.sign(signed.encode('ascii')))}"
    assert valid.startswith("PRACA3.") and len(valid) < len(old_card) - 60
    status, headline, message = _verdict(page, old_card)
    assert (status, headline) == ("valid", "válido") and "São Bento do Sapucaí" in message
    assert _verdict(page, "PRACA3" + old_card[6:])[:2] == ("invalid", "inválido")
    status, headline, message = _verdict(page, expired)
    assert (status, headline) == ("expired", "vencido") and "vencido em 31/01/2020" in message
    status, _, message = _verdict(page, foreign)
    assert status == "invalid" and "chave" in message and "que esta prefeitura não tem" in message
    assert _verdict(page, forged_id)[:2] == ("invalid", "inválido")
    status, headline, message = _verdict(page, permit.qr_text)
    since = (TODAY - dt.timedelta(days=1)).strftime("%d/%m/%Y")
    assert status == "withdrawn" and headline == f"revogada desde {since}"
    # the desk's own check says the same
    assert signatures.verify_here(permit.qr_text).standing == "revogada"
    assert not signatures.verify_here(tampered).ok and not signatures.verify_here(forged_id).ok
    # the page knows the keys and the withdrawn numbers only; the desk knows every permit (issue 26 §5)
    assert "não há permissão" in signatures.verify_here(valid).message


def test_the_page_knows_when_it_is_out_of_date(municipality):
    from factories import person, tpu

    from models.permits import suspend

    assert page_is_current() is None  # never exported
    permit = tpu(sk.MUNICIPAL_KEY, person("João Batista Lima"), on=TODAY)
    write_verify_page(municipality / "verificar.html")
    assert page_is_current() is True
    suspend(permit, by="chefe", reason="falta de pagamento", today=TODAY)
    assert page_is_current() is False  # the desk reminds: export it again
    write_verify_page(municipality / "verificar.html")
    assert page_is_current() is True
    sk.rotate_key("outra senha da prefeitura", today=TODAY)
    assert page_is_current() is False


#: What a permit number or a holder's name may hold that would end the page's data early or break its JSON.
HOSTILE = 'TPU<!--</script><script>alert(1)</script>&amp;"\\\u2028\u2029>'


def _hostile_page(municipality):
    """A page whose data holds a withdrawn permit numbered with everything that breaks a script element."""
    from factories import person, tpu

    from models.permits import Permit, revoke
    from models.store.db import db

    permit = tpu(sk.MUNICIPAL_KEY, person("Maria <!-- </script> Souza"), on=TODAY - dt.timedelta(days=5))
    revoke(permit, by="chefe", reason="teste", today=TODAY - dt.timedelta(days=1))
    db.execute_sql(f"UPDATE {Permit._meta.table_name} SET number = ? WHERE id = ?", (HOSTILE, permit.id))
    page = municipality / "verificar.html"
    write_verify_page(page)
    return page


def test_the_page_data_is_valid_json_whatever_the_text(municipality):
    import json

    page = _hostile_page(municipality)
    html = page.read_text(encoding="utf-8")
    data = re.search(r'<script type="application/json" id="praca-data">(.*?)</script>', html, re.S).group(1)
    assert "<" not in data and ">" not in data and "&" not in data and "\u2028" not in data and "\u2029" not in data
    assert json.loads(data)["withdrawn"][HOSTILE]["word"] == "revogada"


def test_the_page_shows_a_verdict_with_hostile_numbers_and_names(municipality):
    page = _hostile_page(municipality)
    in_force = dict(valid_from=TODAY - dt.timedelta(days=2), valid_until=TODAY + dt.timedelta(days=60))
    valid = sign_summary(make_summary(holder_name='Ana "<!--" </script> Lima\u2028', **in_force), sk.MUNICIPAL_KEY)
    status, headline, _ = _verdict(page, valid)
    assert (status, headline) == ("valid", "válido")
    withdrawn = sign_summary(make_summary(number=HOSTILE, **in_force), sk.MUNICIPAL_KEY)
    status, headline, _ = _verdict(page, withdrawn)
    since = (TODAY - dt.timedelta(days=1)).strftime("%d/%m/%Y")
    assert (status, headline) == ("withdrawn", f"revogada desde {since}")


def test_the_page_says_a_key_is_revoked_from_a_later_day(municipality):
    """Issue 26 §5: a revocation from a later day holds from that day; until then the page says it is coming."""
    in_force = dict(valid_from=TODAY - dt.timedelta(days=2), valid_until=TODAY + dt.timedelta(days=60))
    text = sign_summary(make_summary(**in_force), sk.MUNICIPAL_KEY)
    later = TODAY + dt.timedelta(days=10)
    kid = sk.active_key().key_id
    sk.revoke_key(kid, on=later, reason="troca programada")
    page = municipality / "verificar.html"
    write_verify_page(page)
    status, headline, message = _verdict(page, text)
    assert (status, headline) == ("valid", "válido")
    assert f"a chave {kid} que o assinou está revogada a partir de {later:%d/%m/%Y}" in message


PROBE = """<script>
setTimeout(() => {  // test only: what the page's own CSS made of the result, read after its check ran
  const d = document.getElementById("dados");
  document.body.dataset.probe = [getComputedStyle(d).display, Math.round(d.getBoundingClientRect().height),
    document.documentElement.scrollWidth, window.innerWidth].join(",");
}, 2000);
</script>
</body>"""


def _layout(page, text: str, width: int) -> tuple[str, int, int, int]:
    """(the data list's display, its height, the page's scroll width, the window's width) in a ``width`` px window,
    and a screenshot beside the page (``verificar-<width>-<status>.png``) to look at."""
    probe = page.parent / "probe.html"
    probe.write_text(page.read_text(encoding="utf-8").replace("</body>", PROBE), encoding="utf-8")
    common = [
        _browser(),
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--no-first-run",
        "--disable-extensions",
        "--hide-scrollbars",
        f"--user-data-dir={page.parent / 'chromium-profile'}",
        f"--window-size={width},900",
        "--virtual-time-budget=6000",
    ]
    done = subprocess.run(
        [*common, "--dump-dom", f"{probe.as_uri()}#{text}"], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr[-2000:]
    status = re.search(r'id="resultado" data-status="([a-z]+)"', done.stdout).group(1)
    shot = page.parent / f"verificar-{width}-{status}.png"
    subprocess.run([*common, f"--screenshot={shot}", f"{page.as_uri()}#{text}"], capture_output=True, timeout=60)
    display, height, scroll, inner = re.search(r'data-probe="([^"]+)"', done.stdout).group(1).split(",")
    return display, int(height), int(scroll), int(inner)


@pytest.mark.parametrize("width", [390, 1366])
def test_the_page_shows_only_what_the_result_has(municipality, width):
    """Issue 32 §3: under "inválido" no empty "Permissão / Titular / …" labels (a ``dl{display:grid}`` rule beat
    the ``hidden`` attribute); a valid permit's data shown; nothing wider than a 390 px phone."""
    valid = sign_summary(
        make_summary(valid_from=TODAY - dt.timedelta(days=2), valid_until=TODAY + dt.timedelta(days=60)),
        sk.MUNICIPAL_KEY,
    )
    page = municipality / "verificar.html"
    write_verify_page(page)
    display, height, scroll, inner = _layout(page, "PRACA2.NADA.X.Y", width)
    assert (display, height) == ("none", 0)
    assert scroll <= inner
    display, height, scroll, inner = _layout(page, valid, width)
    assert display == "grid" and height > 40 and scroll <= inner
    assert (municipality / f"verificar-{width}-invalid.png").exists()


def test_the_page_is_headed_with_the_coat_of_arms(municipality):
    """Issue 31 §1: the published page carries the municipality's coat of arms, inside the one file (a data: URI)."""
    import base64

    from models.access import session
    from models.registry.municipality import MunicipalityInput, set_municipality
    from reports.verify_page import page_html

    assert "Brasão" not in page_html()
    png = base64.b64decode(
        "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="
    )
    with session.acting_as(session.SYSTEM):
        set_municipality(MunicipalityInput(coat_of_arms=png))
    html = page_html()
    arms = re.search(r'<img class="arms" src="data:image/png;base64,([^"]+)" alt="Brasão de Olímpia/SP">', html)
    assert arms is not None and base64.b64decode(arms.group(1)) == png
