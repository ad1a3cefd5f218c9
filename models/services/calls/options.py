"""A call's options — the acts that select, their sites and groups, the call's text — and when a payment counts."""

from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass

from models.base.errors import UserError
from models.billing.charges import Charge, ChargeState, Payment
from models.registry.applications import Application
from models.registry.town import working_regimes
from models.rules import describe
from models.rules.regimes import Regime, get_regime
from models.selection import (
    TIE_BREAKS,
    draw_rules,
    normalize_text,
)
from models.sites import Site

#: applications that take part in a call (received ones are not yet analysed; refused, withdrawn or issued ones are out)
ELIGIBLE_STATUSES = ("analysis", "approved", "awaiting_payment")
_END_OF_DAY = _dt.time(23, 59, 59)


@dataclass(frozen=True)
class Option:
    value: str
    label: str


# --------------------------------------------------------------------------- the call


def selection_regimes() -> list[Regime]:
    """The regimes whose act foresees a draw (Olímpia's LC 324/2025 has none), by municipality."""
    found = []
    for regime in working_regimes().values():
        try:
            draw_rules(regime)
        except UserError:
            continue
        found.append(regime)
    return sorted(found, key=lambda r: (r.municipality, r.id))


def method_text(regime: Regime | str) -> str:
    """How the act selects, in one pt-BR paragraph with its articles."""
    regime = get_regime(regime) if isinstance(regime, str) else regime
    rules = draw_rules(regime)
    sel = regime.selection
    parts = []
    if sel is not None and sel.criteria:
        ties = ", depois ".join(TIE_BREAKS.get(t, t) for t in sel.tie_break)
        parts.append(
            f"Pontuação socioeconômica ({regime.cite(sel.criteria[0].basis.split(',')[0])})"
            + (f"; empate: {ties} ({rules.tie_basis}); o que restar empatado, pela ordem sorteada" if ties else "")
            + "; os de maior pontuação ficam com as vagas, na ordem sorteada"
        )
    if rules.mode == "payment-time":
        parts.append(
            f"ordem de inscrição confirmada pela data e hora do pagamento ({rules.payment_basis}); posições por sorteio"
        )
    elif rules.mode == "preference":
        prefs = "; ".join(f"{p.rank}º {p.label}" for p in sorted(rules.preferences, key=lambda p: p.rank))
        parts.append(f"preferência ({prefs}), depois sorteio")
    elif rules.method == "rotating-draw":
        parts.append("sorteio que forma a lista corrida dos eventos")
    parts.append(f"sorteio: {rules.basis}")
    if rules.when_more_than is not None:
        parts.append(f"só é exigido com mais de {rules.when_more_than} interessados")
    if rules.alternates:
        parts.append(f"{rules.alternates} suplentes por grupo ({rules.alternates_basis})")
    if rules.exclude_debtors:
        parts.append(f"excluídos os devedores do Município ({rules.debt_basis})")
    if rules.quota_percent is not None:
        parts.append(f"cota de {describe.percent(rules.quota_percent)} das vagas ({rules.quota_basis})")
    elif rules.quota_note:
        parts.append(f"sem cota: {rules.quota_note}")
    text = "; ".join(parts)
    return text[:1].upper() + text[1:] + "."


def site_options(regime: Regime | str) -> list[Option]:
    """The places a call of ``regime`` may be for: the act's named sites, then the sites of the map desk."""
    regime = get_regime(regime) if isinstance(regime, str) else regime
    options = [Option(s.id, f"{s.label} ({regime.cite_item(s)})") for s in regime.sites]
    named = {o.value for o in options}
    for site in Site.select().where(Site.regime == regime.id).order_by(Site.name):
        if site.name not in named:
            options.append(Option(site.name, f"{site.name} — {site.kind_label}"))
    return options


def group_options(regime: Regime | str) -> list[Option]:
    """Product groups (Sapezal art. 34) where the act has them, else its lines (SJC's ramos)."""
    regime = get_regime(regime) if isinstance(regime, str) else regime
    if regime.groups:
        return [Option(g.id, group_text(g)) for g in regime.groups]
    return [Option(line.id, line.label) for line in regime.lines]


def group_text(g) -> str:
    """A product group as the act names it ("Grupo 3 — …"; the label may already start so)."""
    return g.label if g.label.lower().startswith("grupo") else f"Grupo {g.number} — {g.label}"


def place_label(regime: Regime, site: str) -> str:
    if site and site in regime.ids("site"):
        return regime.site(site).label
    return site


def default_call_text(regime: Regime | str, site: str = "", group: str = "", *, year: int | None = None) -> str:
    """A name for the call, to be corrected by the clerk with the edital's number."""
    regime = get_regime(regime) if isinstance(regime, str) else regime
    parts = [f"Chamamento {year or _dt.date.today().year} — {regime.municipality}"]
    if site:
        parts.append(place_label(regime, site))
    if group:
        label = next((o.label for o in group_options(regime) if o.value == group), group)
        parts.append(label.split(" — ")[0] if group in regime.ids("group") else label)
    return " — ".join(parts)


def site_aliases(regime: Regime, site: str) -> set[str]:
    """Every way an application may name ``site``: the act's id, a map site's name and its act id."""
    text = normalize_text(site)
    aliases = {text.lower()}
    for named in regime.sites:  # the act's id, its label, or the label up to its explanation in brackets
        if text.lower() in (named.id.lower(), named.label.lower(), named.label.split(" (")[0].lower()):
            aliases.update((named.id.lower(), named.label.lower()))
    row = Site.get_or_none((Site.regime == regime.id) & ((Site.name == text) | (Site.regime_site == text)))
    if row is not None:
        aliases.add(row.name.lower())
        if row.regime_site:
            aliases.add(row.regime_site.lower())
            if row.regime_site in regime.ids("site"):
                aliases.add(regime.site(row.regime_site).label.lower())
    return aliases


# --------------------------------------------------------------------------- payment time


def _moment(payment: Payment) -> tuple[_dt.datetime, bool]:
    """(the moment of a payment, whether its time of day is known)."""
    recorded = payment.recorded_at
    if recorded is not None and recorded.date() == payment.paid_on:
        return recorded.replace(microsecond=0), True
    return _dt.datetime.combine(payment.paid_on, _END_OF_DAY), False


def payment_time(app: Application | int) -> tuple[_dt.datetime | None, str]:
    """When the application's public price was paid (São Bento art. 3º, § 2º), and how it was read.

    ``None`` while a charge is open or when the application has no charge."""
    app_id = app.id if isinstance(app, Application) else app
    charges = list(
        Charge.with_state()
        .where((Charge.application == app_id) & (ChargeState.status != "cancelled"))
        .order_by(Charge.id)
    )
    if not charges:
        return None, "sem cobrança emitida"
    unpaid = [c for c in charges if c.status != "paid"]
    if unpaid:
        return None, "em aberto: cobrança nº " + ", ".join(c.number for c in unpaid)
    payments = list(Payment.select().where(Payment.charge.in_([c.id for c in charges])))
    if not payments:  # pragma: no cover - a paid charge has its payments
        return None, "sem pagamento registrado"
    last_of: dict[int, tuple[_dt.datetime, bool]] = {}
    for p in payments:
        moment = _moment(p)
        if p.charge_id not in last_of or moment[0] > last_of[p.charge_id][0]:
            last_of[p.charge_id] = moment
    at, known = max(last_of.values(), key=lambda m: m[0])
    if known:
        return at, f"pago em {at:%d/%m/%Y} às {at:%H:%M:%S} (hora do registro do pagamento)"
    return at, (f"pago em {at:%d/%m/%Y}, hora não registrada: conta-se o fim do dia (registrado em outro dia)")
