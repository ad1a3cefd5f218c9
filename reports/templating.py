"""The one jinja2 environment for every report: autoescaped HTML, strict variables, pt-BR filters."""

from __future__ import annotations

import datetime as _dt
from functools import lru_cache
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape

import resources
from models.base.money import format_brl, format_decimal_br
from models.rules import describe

TEMPLATES = Path(resources.__file__).resolve().parent / "templates"


def date_br(value) -> str:
    if value is None:
        return "—"
    if isinstance(value, str):  # an ISO date kept in a record's JSON
        value = _dt.date.fromisoformat(value)
    if isinstance(value, _dt.datetime):
        return value.strftime("%d/%m/%Y %H:%M")
    return value.strftime("%d/%m/%Y")


def trail_anchor() -> str:
    """The audit trail's signed checkpoint a printed report carries at the foot of its pages (issue 26 §3)."""
    from models.store.checkpoints import footer_text

    return footer_text()


@lru_cache(maxsize=1)
def environment() -> Environment:
    env = Environment(
        loader=FileSystemLoader(str(TEMPLATES)),
        autoescape=select_autoescape(enabled_extensions=("html", "html.j2"), default_for_string=True),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters.update(
        brl=format_brl,
        dec=format_decimal_br,
        date_br=date_br,
        amount=describe.amount,
        metres=describe.metres,
        percent=describe.percent,
        sanction=describe.sanction,
        fine=describe.fine,
        validity=describe.validity,
        deadline=describe.deadline,
    )
    env.globals["describe"] = describe
    return env


def render(template: str, **context) -> str:
    return environment().get_template(template).render(**context)
