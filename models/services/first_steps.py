"""First steps (issue 31 §3): what a new database still lacks before its desks can work, read from the database.

The checklist is data: each step names what it is, whether it is done and why (or why not), and the tab of
Cadastros that does it. The Painel keeps it until every step is done, the Primeiros passos dialog walks through
it, and an act refused for a missing step names it (``UserError(step=…)``: issuing without an unlocked key,
a guia without a collection agreement) so that the screen can open it.

Two steps may be done by saying so: a town without municipal holidays, and a town without a collection agreement
(the one optional step). That word is a setting — who said it and when — written like every setting, so the
audit trail keeps it.
"""

from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass

__all__ = [
    "NO_COLLECTION",
    "NO_HOLIDAYS",
    "STEPS",
    "Step",
    "StepDef",
    "confirm_no_collection",
    "confirm_no_holidays",
    "first_steps",
    "pending",
    "step_def",
]

# The domain is imported inside each check, never here: the Painel lays its checklist out from STEPS while the
# window is being shown, before any database is open (start-up, bench/startup.py).

#: settings: who confirmed, and when, that the town has no municipal holiday / no collection agreement
NO_HOLIDAYS = "first_steps_no_municipal_holidays"
NO_COLLECTION = "first_steps_no_collection_agreement"


@dataclass(frozen=True)
class StepDef:
    id: str
    label: str
    #: the Cadastros tab that does it (the attribute of views.registry.RegistryPage)
    tab: str
    optional: bool = False


#: The steps, in the order an administrator takes them (the municipality in Cadastros → Município, issue 31 §1).
STEPS: tuple[StepDef, ...] = (
    StepDef("municipality", "Município", "municipality_page"),
    StepDef("acts", "Ato(s) do município", "regimes_page"),
    StepDef("signing", "Chave de assinatura", "signing"),
    StepDef("holidays", "Feriados municipais", "holidays_page"),
    StepDef("users", "Usuários e perfis", "users"),
    StepDef("collection", "Convênio de arrecadação", "collection_page", optional=True),
)


@dataclass(frozen=True)
class Step:
    id: str
    label: str
    done: bool
    why: str  # what is set, or what is missing and how to set it
    tab: str
    optional: bool


def step_def(step_id: str) -> StepDef:
    for step in STEPS:
        if step.id == step_id:
            return step
    raise KeyError(step_id)


def _municipality() -> tuple[bool, str]:
    from models.registry.municipality import municipality

    town = municipality()
    if town.is_set:
        return True, " · ".join(
            x for x in (town.label, f"IBGE {town.ibge}" if town.ibge else "", town.agency_name) if x
        )
    return False, (
        "Informe o município — nome, UF, código IBGE, CNPJ e brasão: os atos, os feriados e os documentos são os "
        "dele, e os relatórios só contam os seus atos."
    )


def _acts() -> tuple[bool, str]:
    from models.base.errors import UserError
    from models.registry.municipality import own_regime_ids
    from models.rules.regimes import shipped_regimes
    from models.store.settings import MUNICIPALITY, get_setting

    town = get_setting(MUNICIPALITY)
    if not town:
        return False, "Informe primeiro o município: os atos oferecidos nas mesas são os dele."
    try:
        offered = shipped_regimes()
    except UserError as exc:  # an installed act that no longer reads: said here as on the Painel
        return False, exc.message
    own = [offered[i] for i in own_regime_ids(offered.values())]
    if not own:
        from models.rules.acts import shipped_for

        shipped = shipped_for(town)
        if shipped:
            names = "; ".join(f"{r.act} ({r.id})" for r in shipped)
            return False, (
                f"Nenhum ato de {town} está instalado. O Praça traz {names}: instale-o aqui (Instalar) ou com "
                f"praca regimes install {shipped[0].id}; um ato próprio se instala de um arquivo."
            )
        return False, (
            f"Nenhum ato de {town} está instalado: instale o ato do município de um arquivo (.toml, "
            "docs/novo-ato.md) — aqui, em Cadastros → Regimes → Instalar ato… ou com praca regimes install ARQUIVO."
        )
    return True, "; ".join(f"{r.act} ({r.id})" for r in own)


def _signing() -> tuple[bool, str]:
    from models.access import signing_keys as sk

    row = sk.active_key()
    if row is None:
        return (
            False,
            "A prefeitura ainda não tem chave de assinatura: crie-a, com uma senha que só o administrador guarde.",
        )
    if not sk.is_unlocked():
        return False, f"A chave {row.key_id} existe, mas esta mesa ainda não assina: libere-a com a senha da chave."
    return True, f"Chave {row.key_id}; esta mesa assina as permissões que emite."


def _holidays() -> tuple[bool, str]:
    from models.base.errors import UserError
    from models.registry.municipality import own_regime_ids
    from models.rules.holidays import list_holidays, town_of
    from models.rules.regimes import shipped_regimes
    from models.store.settings import MUNICIPALITY, STATE, get_setting

    town, state = get_setting(MUNICIPALITY), get_setting(STATE)
    # Cadastros → Feriados keeps them under the town its act names ("Olímpia/SP" where "Olimpia" was typed)
    towns = {(town, state)} if town else set()
    try:
        offered = shipped_regimes()
        towns |= {town_of(offered[i]) for i in own_regime_ids(offered.values())}
    except UserError:  # an act that no longer reads: the acts' step says so
        pass
    count = len({row.id for place, uf in towns for row in list_holidays(place, uf)})
    if count:
        return True, f"{count} feriado(s) ou ponto(s) facultativo(s) de {town} cadastrado(s)."
    said = get_setting(NO_HOLIDAYS)
    if said:
        return True, f"Sem feriados municipais ({said})."
    return False, (
        "Cadastre os feriados do município (a lei municipal que os fixa), ou confirme que não há nenhum: os prazos "
        "em dias úteis contam com eles."
    )


def _users() -> tuple[bool, str]:
    from models.access import session
    from models.access.users import User

    active = list(User.select(User.role).where(User.active == True))  # noqa: E712 - peewee's SQL comparison
    roles: dict[str, int] = {}
    for user in active:
        roles[user.role] = roles.get(user.role, 0) + 1
    if len(active) < 2:
        return False, (
            "Só o administrador está cadastrado: cadastre quem atende, decide e fiscaliza, cada um com seu perfil "
            "(atendente, chefe, fiscal)."
        )
    shown = ", ".join(f"{session.ROLES.get(role, role)} ({n})" for role, n in sorted(roles.items()))
    return True, f"{len(active)} usuários ativos: {shown}."


def _collection() -> tuple[bool, str]:
    from models.billing.collection.agreement import get_agreement
    from models.store.settings import get_setting

    agreement = get_agreement()
    if agreement.configured:
        return True, f"Convênio {agreement.agreement}" + (" e chave Pix." if agreement.has_pix else ".")
    said = get_setting(NO_COLLECTION)
    if said:
        return True, f"Sem convênio de arrecadação por ora ({said}); as guias esperam por ele."
    return False, (
        "Informe o convênio de arrecadação que o banco deu à prefeitura (as guias com código de barras e Pix "
        "precisam dele), ou confirme que ainda não há."
    )


_CHECKS = {
    "municipality": _municipality,
    "acts": _acts,
    "signing": _signing,
    "holidays": _holidays,
    "users": _users,
    "collection": _collection,
}


def first_steps() -> list[Step]:
    """The checklist of the open database, in order."""
    steps = []
    for defined in STEPS:
        done, why = _CHECKS[defined.id]()
        steps.append(Step(defined.id, defined.label, done, why, defined.tab, defined.optional))
    return steps


def pending(steps: list[Step] | None = None) -> list[Step]:
    """The steps not done yet (all of them, optional included: skipping one is a recorded answer)."""
    return [s for s in (first_steps() if steps is None else steps) if not s.done]


def _confirm(key: str, yes: bool, *, today: _dt.date | None) -> None:
    from models.access import session
    from models.store.db import db
    from models.store.settings import write_setting

    session.require("settings.edit")
    day = today or _dt.date.today()
    with db.atomic():
        write_setting(key, f"confirmado por {session.author()} em {day:%d/%m/%Y}" if yes else "")


def confirm_no_holidays(yes: bool = True, *, today: _dt.date | None = None) -> None:
    """The administrator says the town has no municipal holiday (or takes it back)."""
    _confirm(NO_HOLIDAYS, yes, today=today)


def confirm_no_collection(yes: bool = True, *, today: _dt.date | None = None) -> None:
    """The administrator says the town has no collection agreement yet (or takes it back): the step is skipped,
    guias still wait for one."""
    _confirm(NO_COLLECTION, yes, today=today)
