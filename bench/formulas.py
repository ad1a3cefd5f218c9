"""Formula fees (issue 29 §8) against the fee kinds they rewrite, in the same run: within 1,2×.

Four figures, each against the fee-kind engine (``bench/fee_kinds.py``) pricing the acts as their files said
them before, in the older kinds (``regime_schema.former_text``). **Quotes** — what ``praca quote`` prices, the fee
engine: São Bento's occupation price (``linear-metre``, with its MEI discounts) and São José dos Campos' monthly
licence fee (``per-area-month``, INPC corrected), each priced for the same seeded stalls in its older kind and
written as a formula with exceptions (the same figures: tests/test_formula_fees.py); CPU time. **Every fee of three
acts** — São Bento, Olímpia and SJC as the shipped files say them (formula fees: the energy tiers, the venues and
their deposit, the price per m² a month) against the same requests to their former texts. **The month's charges**
— the plan of :func:`models.billing.charges.plan_month` over the 20.000 SJC permits of the ``charges`` benchmark,
with the licence fee in its older kind and written as a formula (the same id, so the same permits are priced); the
plan is what the fee engine changes in the month's run (its writing is the same rows either way). **praca quote**
— the command itself, 40 calls in this process, São Bento's act installed in the database with its occupation
price in its older kind and also written as a formula. When the fee-kind engine goes, each baseline goes with it
(or is kept in bench/).
"""

from __future__ import annotations

import random
import re
from decimal import Decimal

from bench import data
from bench.common import Figure, cpu_clock, open_scratch, paired, ratio_figure, say

NAME = "formulas"
LIMIT = 1.2
QUOTES = 2000
CLI_QUOTES = 40
YEAR, MONTH = 2026, 12

OCCUPATION = """
[[fees]]
id = "occupation-formula"
label = "Preço público de ocupação de via pública"
kind = "formula"
per = "event"
year = 2026
formula = "ci * metros"
basis = "art. 9º, § 2º"

[[fees.terms]]
name = "ci"
value = "5.50"
unit = "UFESP/m"
basis = "art. 9º, § 2º"

[[fees.terms]]
name = "metros"
formula = "max(front + hitch, 1.00 m)"
basis = "art. 9º, § 3º"

[[fees.exceptions]]
id = "mei-local-estrutura"
label = "desconto de 30 %"
when = "mei and local and equipment in ['trailer', 'reboque', 'barraca'] and depth <= 3.00 m"
formula = "base * (1 - 0.30)"
basis = "art. 9º, § 3º, I"

[[fees.exceptions]]
id = "mei-local-carrinho"
label = "desconto de 50 %"
when = "mei and local and equipment in ['carrinho-pipoca', 'carrinho-algodao-doce']"
formula = "base * (1 - 0.50)"
basis = "art. 9º, § 3º, I"
"""

LICENCE = """[[fees]]
id = "{ident}"
label = "Taxa de licença — ocupação do solo (mensal)"
kind = "formula"
per = "month"
formula = "taxa * INPC * area"
basis = "art. 11, § 5º"
due = {{ day_of_month = 20, basis = "art. 11, § 5º" }}

[[fees.terms]]
name = "taxa"
value = "2.50"
unit = "R$/m2"
basis = "art. 11, § 5º"

"""


def _texts() -> tuple[str, str, str]:
    from models.rules.regime_schema import former_text
    from models.rules.regimes import default_regimes_folder

    folder = default_regimes_folder()
    # the acts with their fees in the older kinds, as the files said them before their formulas: the fee-kind
    # engine's reference (bench/fee_kinds.py prices only those)
    sao_bento = former_text("sao-bento-2026", (folder / "sao-bento-2026.toml").read_text(encoding="utf-8"))
    sjc = former_text("sjc-2014", (folder / "sjc-2014.toml").read_text(encoding="utf-8"))
    # the licence fee's own block, replaced by the formula under the same id (the month's run prices it)
    block = re.compile(r'\[\[fees\]\]\nid = "licence-fee"\n.*?\n\n(?=\[\[fees\]\])', re.DOTALL)
    assert block.search(sjc), "sjc-2014.toml's licence fee moved"
    sjc_formula = block.sub(lambda _: LICENCE.format(ident="licence-fee"), sjc, count=1)
    return sao_bento + OCCUPATION, sjc + LICENCE.format(ident="licence-fee-formula"), sjc_formula


def _stalls(regime, count: int) -> list[dict]:
    rng = random.Random(data.SEED)
    kinds = ["barraca", "trailer", "reboque", "carrinho-pipoca", "carrinho-algodao-doce"]
    stalls = []
    for _ in range(count):
        kind = rng.choice(kinds)
        stall = {
            "equipment": kind,
            "front": str(Decimal(rng.randint(50, 600)) / 100),
            "depth": str(Decimal(rng.randint(50, 300)) / 100),
            "mei": rng.random() < 0.5,
            "local": rng.random() < 0.5,
        }
        if kind in ("trailer", "reboque"):
            stall["hitch"] = str(Decimal(rng.randint(0, 150)) / 100)
        stalls.append(stall)
    return stalls


def _sjc_stalls(regime, count: int) -> list[dict]:
    rng = random.Random(data.SEED + 1)
    lines = [line for line in regime.lines if line.front is not None]
    stalls = []
    for _ in range(count):
        line = rng.choice(lines)
        front = min(line.front, Decimal(rng.randint(100, 800)) / 100)
        depth = min(line.depth, Decimal(rng.randint(100, 350)) / 100)
        stalls.append({"line": line.id, "front": str(front), "depth": str(depth)})
    return stalls


def _by_kind(fn):
    """``fn`` priced by the fee-kind engine (``bench/fee_kinds.py``): the engine every fee of an older kind
    was priced by before it was priced as its formula — the reference of each figure's "theirs"."""
    from bench.fee_kinds import priced_by_kind

    def priced():
        with priced_by_kind():
            return fn()

    return priced


def run(backend: str, repeat: int) -> list[Figure]:
    from models.billing.charges import plan_month
    from models.rules import regimes as regimes_module
    from models.rules.fees import fee_quote
    from models.rules.regimes import load_regime_text
    from models.rules.regimes.fee_formulas import compiled_count

    sao_bento_text, sjc_text, sjc_formula_text = _texts()
    sao_bento = load_regime_text(sao_bento_text, "sao-bento-2026.toml")
    sjc = load_regime_text(sjc_text, "sjc-2014.toml")
    stalls = _stalls(sao_bento, QUOTES // 2)
    feira = _sjc_stalls(sjc, QUOTES // 2)
    factors = {"INPC": Decimal("1.654321")}

    def quotes(occupation: str, licence: str) -> None:
        for stall in stalls:
            fee_quote(sao_bento, fees=[occupation], **stall)
        for stall in feira:
            fee_quote(sjc, fees=[licence], year=2026, index_factors=factors, **stall)

    for stall in stalls[:50]:  # the same figures, or the comparison means nothing
        one = fee_quote(sao_bento, fees=["occupation"], **stall).total
        assert one == fee_quote(sao_bento, fees=["occupation-formula"], **stall).total, stall
    for stall in feira[:50]:
        one = fee_quote(sjc, fees=["licence-fee"], year=2026, index_factors=factors, **stall).total
        assert one == fee_quote(sjc, fees=["licence-fee-formula"], year=2026, index_factors=factors, **stall).total
    figures_converted = _converted(repeat, backend, stalls, feira, factors)
    compiled = compiled_count()  # each formula fee compiled once, at its first quote: never again
    with cpu_clock():
        ours, theirs = paired(
            lambda: quotes("occupation-formula", "licence-fee-formula"),
            _by_kind(lambda: quotes("occupation", "licence-fee")),
            repeat,
        )
    assert compiled_count() == compiled, "a version of an act was compiled again"
    figures = [
        ratio_figure(
            f"{len(stalls) + len(feira)} quotes, formula fees vs the kinds they rewrite",
            backend,
            ours,
            theirs,
            LIMIT,
            detail="fee engine (praca quote's pricing); São Bento art. 9º and SJC art. 11 as formulas",
        ),
        figures_converted,
    ]

    with open_scratch(backend) as url:
        say(f"  [{backend}] dados: {data.PERMITS} permissões da feira noturna de SJC…")
        people, _ = data.add_people(data.PERMITS, 0)
        data.add_index_corrections()
        data.add_permits(people)
        shipped = sjc  # its licence fee per-area-month, as the file said it before its formula
        written = load_regime_text(sjc_formula_text, "sjc-2014.toml")
        original = regimes_module.get_regime
        chosen = {"regime": shipped}

        def get_regime(regime_id, *args, **kwargs):
            return chosen["regime"] if regime_id == "sjc-2014" else original(regime_id, *args, **kwargs)

        def plan(regime):
            def fn():
                chosen["regime"] = regime
                return plan_month(YEAR, MONTH, today=data.TODAY)

            return fn

        regimes_module.get_regime = get_regime  # plan_month asks the package for the act of each permit
        try:
            as_kind, as_formula = _by_kind(plan(shipped))(), plan(written)()
            assert [c.amount for c in as_kind.to_create] == [c.amount for c in as_formula.to_create]
            assert len(as_kind.to_create) >= data.PERMITS * 0.95
            with cpu_clock(backend == "sqlite"):
                ours, theirs = paired(plan(written), _by_kind(plan(shipped)), repeat)
        finally:
            regimes_module.get_regime = original
        figures.append(
            ratio_figure(
                f"the month's plan ({len(as_kind.to_create)} charges), licence fee as a formula vs per-area-month",
                backend,
                ours,
                theirs,
                LIMIT,
                detail="plan_month: every permit in force priced (the same amounts)",
            )
        )
        figures.append(_command_line(url, backend, sao_bento_text, stalls[:CLI_QUOTES], repeat))
    return figures


def _converted(repeat: int, backend: str, stalls: list[dict], feira: list[dict], factors: dict) -> Figure:
    """Every fee of three shipped acts as the one engine prices it — the fees the files write as formulas, the
    others said as formulas at load (``models.rules.regimes.legacy_fees``) — against the fee-kind engine over the
    same acts as their files said them before (the older kinds), the same requests: São Bento's stalls with their
    energy tier, Olímpia's venues by the day (the fee and its deposit), SJC's stalls by the month."""
    from models.rules.fees import fee_quote
    from models.rules.regime_schema import former_text
    from models.rules.regimes import default_regimes_folder, get_regime, load_regime_text

    names = ("sao-bento-2026", "olimpia-2025", "sjc-2014")
    shipped = {name: get_regime(name) for name in names}
    folder = default_regimes_folder()
    former = {
        name: load_regime_text(former_text(name, (folder / f"{name}.toml").read_text(encoding="utf-8")), f"{name}.toml")
        for name in names
    }
    rng = random.Random(data.SEED + 2)
    energy = {"barraca": "high", "trailer": "high", "reboque": "high"}
    requests = [("sao-bento-2026", {**s, "energy": energy.get(s["equipment"], "none")}) for s in stalls]
    venues = shipped["olimpia-2025"].ids("venue")
    requests += [("olimpia-2025", {"venue": rng.choice(venues), "days": rng.randint(1, 7)}) for _ in stalls]
    requests += [("sjc-2014", {**s, "year": 2026, "index_factors": factors}) for s in feira]
    for name, inputs in requests[::40]:  # the same figures, or the comparison means nothing
        kinds = _by_kind(lambda name=name, inputs=inputs: fee_quote(former[name], **inputs).total)()
        assert fee_quote(shipped[name], **inputs).total == kinds, inputs

    def quotes(regimes):
        def fn() -> None:
            for name, inputs in requests:
                fee_quote(regimes[name], **inputs)

        return fn

    with cpu_clock():
        ours, theirs = paired(quotes(shipped), _by_kind(quotes(former)), repeat)
    return ratio_figure(
        f"{len(requests)} quotes, every fee of three acts as the one engine prices it vs the fee-kind engine",
        backend,
        ours,
        theirs,
        LIMIT,
        detail="the files' formulas (energy tiers, venues + deposit, per m² + INPC) vs the older kinds they rewrite",
    )


def _command_line(url: str, backend: str, text: str, stalls: list[dict], repeat: int) -> Figure:
    """``praca quote`` itself, in this process (the database opened, the act read, priced, printed): the
    shipped occupation price against the same act installed with it written as a formula."""
    import contextlib
    import io

    from desktop.cli import main
    from models.access import session
    from models.rules import acts

    body = text.replace('id = "sao-bento-2026"', 'id = "bench-formulas"', 1)
    with session.acting_as(session.SYSTEM):
        acts.install(body.encode("utf-8"), "bench-formulas.toml")

    def args(stall: dict) -> list[str]:
        out = ["--equipment", stall["equipment"], "--front", stall["front"].replace(".", ",")]
        out += ["--depth", stall["depth"].replace(".", ",")]
        if "hitch" in stall:
            out += ["--hitch", stall["hitch"].replace(".", ",")]
        out += ["--mei"] if stall["mei"] else []
        out += ["--local"] if stall["local"] else []
        return out

    def quotes(regime: str, fee: str):
        def fn() -> None:
            with contextlib.redirect_stdout(io.StringIO()):
                for stall in stalls:
                    code = main(["--db", url, "quote", "--regime", regime, "--fee", fee, "--json", *args(stall)])
                    assert code == 0, stall

        return fn

    ours, theirs = paired(
        quotes("bench-formulas", "occupation-formula"), _by_kind(quotes("bench-formulas", "occupation")), repeat
    )
    return ratio_figure(
        f"praca quote × {len(stalls)} (in process), the occupation price as a formula vs linear-metre",
        backend,
        ours,
        theirs,
        LIMIT,
        detail="each call opens the database, reads the act in force, prices and prints JSON",
    )
