"""A penalty's inputs as a person types them — on the command line (``praca penalty``) or in a worked case of the
act (``[[cases]]``): the infraction codes, each known to the act, the number of earlier offences, or their dates
as ``[CÓDIGO=]DATA``."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable

from models.base.errors import UserError
from models.enforcement.sanctions import PriorOffence
from models.rules.deadlines import parse_moment
from models.rules.regimes import Regime

_WHOLE = re.compile(r"^\s*\d+\s*$")


def parse_prior_dates(texts: Iterable[str], codes: list[str], regime: Regime) -> list[PriorOffence]:
    """``[CÓDIGO=]DATA`` → ``PriorOffence``; a date without a code is of the one infraction given."""
    found = []
    for text in texts:
        code, _, when = text.rpartition("=")
        code = code.strip()
        if not code:
            if len(codes) > 1:
                raise UserError(
                    f"Com mais de uma infração, diga de qual é a data anterior: --prior-date CÓDIGO=DATA ('{text}').",
                    field="prior",
                )
            code = codes[0]
        elif code not in regime.ids("infraction"):
            raise UserError(
                f"Infração '{code}' de --prior-date não existe no regime {regime.id}: veja os códigos em "
                f"praca regimes --show {regime.id}.",
                field="prior",
            )
        day = parse_moment(when, what="Data da infração anterior")
        if isinstance(day, dt.datetime):
            day = day.date()
        found.append(PriorOffence(code, day))
    return found


def parse_prior(text: str | int) -> int:
    if isinstance(text, bool) or not _WHOLE.match(str(text)):
        raise UserError(
            f"Número de ocorrências anteriores inválido: '{text}' (use um número inteiro, 0 ou mais).", field="prior"
        )
    return int(str(text))


def check_codes(regime: Regime, codes: Iterable[str] | None) -> list[str]:
    """The codes as given, each known to the regime; else one line saying where to find them."""
    cleaned = [c.strip() for c in codes or ()]
    if not cleaned:
        raise UserError(
            f"Informe a infração: --infraction CÓDIGO (os códigos estão em praca regimes --show {regime.id}).",
            field="infraction",
        )
    known = set(regime.ids("infraction"))
    repeated = sorted({c for c in cleaned if cleaned.count(c) > 1})
    if repeated:
        raise UserError(f"Infração repetida na mesma autuação: {', '.join(repeated)}.", field="infraction")
    for code in cleaned:
        if code not in known:
            raise UserError(
                f"Infração '{code}' não existe no regime {regime.id} ({regime.short}): "
                f"veja os códigos em praca regimes --show {regime.id}.",
                field="infraction",
            )
    return cleaned
