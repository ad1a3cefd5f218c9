"""Praça's benchmarks (issue 10): each builds its own seeded data in a temporary database, times Praça and a
baseline in the same run, and prints the figure, the ratio and the budget. Run with ``make bench`` or
``python -m bench``; see bench/README.md. Not part of the test suite (pytest collects tests/ only).
"""

#: Module of each benchmark, in the order they run.
BENCHMARKS = (
    "auto_layout",
    "plan_check",
    "search",
    "charges",
    "formulas",
    "bank_return",
    "fee_report",
    "map_render",
    "startup",
    "imports",
)

#: Those that run once per database (SQLite, and PostgreSQL when PRACA_TEST_PG is set); the others need none
#: (auto-layout) or time Qt's painting only (the map, read from SQLite).
ON_EACH_DATABASE = ("search", "charges", "formulas", "bank_return", "fee_report", "startup", "imports")

#: What ``python -m bench --smoke`` shrinks (module → constant → value): small data, every path exercised once.
SMOKE_SIZES = {
    "data": {"PEOPLE": 600, "COMPANIES": 20, "PERMITS": 300},
    "map_render": {"STALLS": 120},
    "imports": {"ROWS": 300},
}
