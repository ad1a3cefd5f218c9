"""The municipality's verification page: one static HTML file to publish on the town's website (issue 17 §3).

A phone reads a permit's QR — ``https://…/verificar.html#PRACA2.…`` — and opens
this page; the page reads the fragment (never sent to the server) and checks the
Ed25519 signature in the browser with WebCrypto against the public keys written
into it, then the key's revocation and the list of permits revoked, suspended or
cancelled at the time of the export: "válido / inválido / vencido / revogada
desde …" in pt-BR, with the holder, the permit and its validity. No app, no
server: the file works from any static host.

The page carries the state of the database when it was exported; a digest of
that state is kept (:data:`EXPORTED_SETTING`) so the desk can tell when a
revocation or a key change made the published page out of date.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

EXPORTED_SETTING = "verify_page_digest"


@dataclass(frozen=True)
class PageState:
    keys: list[dict]
    withdrawn: dict[str, dict]

    @property
    def digest(self) -> str:
        text = json.dumps({"keys": self.keys, "withdrawn": self.withdrawn}, sort_keys=True, ensure_ascii=False)
        return hashlib.sha256(text.encode("utf-8")).hexdigest()


def page_state() -> PageState:
    """What the page must know now: every public key (with its revocation date) and every withdrawn permit."""
    from models.access.signing_keys import SigningKey
    from models.permits.signatures import withdrawn_numbers

    keys = [
        {
            "id": row.key_id,
            "public": row.public_key,
            "revoked_on": row.revoked_on.isoformat() if row.revoked_on else None,
        }
        for row in SigningKey.select().order_by(SigningKey.id)
    ]
    withdrawn = {
        number: {"word": word, "since": since.isoformat() if since else None}
        for number, word, since in withdrawn_numbers()
    }
    return PageState(keys, withdrawn)


def page_html(state: PageState | None = None, *, now: _dt.datetime | None = None) -> str:
    from models.registry.municipality import letterhead
    from reports.templating import render

    state = state or page_state()
    head = letterhead()
    now = (now or _dt.datetime.now()).replace(microsecond=0)
    data = script_json({"keys": state.keys, "withdrawn": state.withdrawn})
    from markupsafe import Markup

    return render(
        "verificar.html.j2",
        municipality=head["municipality"] or "Prefeitura",
        agency=head["agency"],
        coat_of_arms=head["coat_of_arms"],  # a data: URI: the page stays one file, published as it is
        exported_at=now.strftime("%d/%m/%Y %H:%M"),
        data_json=Markup(data),
    )


#: What must not appear as itself inside ``<script type="application/json">``: ``<`` (``</script>``, ``<!--``),
#: ``>`` and ``&`` (an HTML parser's business) and the two line separators some JavaScript engines end a line at.
_SCRIPT_ESCAPES = {ord(c): f"\\u{ord(c):04x}" for c in "<>&\u2028\u2029"}


def script_json(value) -> str:
    """``value`` as JSON that a ``<script type="application/json">`` element holds whole whatever its texts say,
    read back exactly by ``JSON.parse`` (each escape is JSON's own ``\\u00XX``, valid inside any string)."""
    return json.dumps(value, ensure_ascii=False, sort_keys=True).translate(_SCRIPT_ESCAPES)


def write_verify_page(out: str | Path, *, now: _dt.datetime | None = None) -> PageState:
    """Write the page to ``out`` (written aside and renamed; readable by all: it is meant to be published) and
    remember what it holds, so that :func:`page_is_current` can tell when it must be exported again.

    Only the administrator exports it (issue 26 §5): exporting marks the published page current, which silences
    the desk's reminder after a key revocation."""
    from models.access.session import require
    from models.base.errors import UserError
    from models.store.outfile import write_text
    from models.store.settings import Setting

    require("settings.edit")
    state = page_state()
    if not state.keys:
        raise UserError(
            "A prefeitura ainda não tem chave de assinatura (Cadastros → Assinatura): a página não "
            "teria com que verificar.",
            field="key",
        )
    write_text(out, page_html(state, now=now), kind="html", private=False)
    Setting.insert(key=EXPORTED_SETTING, value=state.digest).on_conflict(
        conflict_target=[Setting.key], update={Setting.value: state.digest}
    ).execute()
    return state


def page_is_current() -> bool | None:
    """Whether the last exported page still says what the database says (None: never exported)."""
    from models.store.settings import get_setting

    exported = get_setting(EXPORTED_SETTING)
    if not exported:
        return None
    return exported == page_state().digest
