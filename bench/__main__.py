"""``python -m bench [NAME…] [--repeat N] [--backend sqlite|postgresql] [--wall] [--smoke]`` — see bench/README.md."""

from __future__ import annotations

import os
import sys
import tempfile

# Before anything imports Qt: no screen, and user folders of the run's own (no window state, no settings).
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
_HOME = tempfile.mkdtemp(prefix="praca-bench-home-")
for _var in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME"):
    os.environ[_var] = os.path.join(_HOME, _var.lower())
os.environ.pop("PRACA_DB", None)


def main(argv: list[str] | None = None) -> int:
    import argparse
    import importlib
    import platform
    import time

    from bench import BENCHMARKS, ON_EACH_DATABASE, SMOKE_SIZES
    from bench.common import HEADER, SMOKE, backends, cpu_clock, say

    parser = argparse.ArgumentParser(
        prog="python -m bench",
        description="Praça's benchmarks against their baselines, each measured in the same run (bench/README.md).",
    )
    parser.add_argument(
        "names", nargs="*", metavar="NAME", help=f"which to run (default: all): {', '.join(BENCHMARKS)}"
    )
    parser.add_argument("--repeat", type=int, default=5, help="runs of each side (default 5; the best is judged)")
    parser.add_argument(
        "--backend", choices=("sqlite", "postgresql"), help="only this database (PostgreSQL needs PRACA_TEST_PG)"
    )
    parser.add_argument(
        "--wall",
        action="store_true",
        help="judge elapsed time everywhere (default: CPU time where all the work is in this "
        "process, elapsed time on PostgreSQL)",
    )
    parser.add_argument(
        "--smoke",
        action="store_true",
        help="each benchmark once on small data, nothing judged: exit 0 when every one ran (CI runs it)",
    )
    args = parser.parse_args(argv)
    unknown = [n for n in args.names if n not in BENCHMARKS]
    if unknown:
        parser.error(f"unknown benchmark(s): {', '.join(unknown)}; choose from {', '.join(BENCHMARKS)}")
    names = args.names or list(BENCHMARKS)
    if args.smoke:
        SMOKE["on"] = True
        args.repeat = 1
        for module_name, sizes in SMOKE_SIZES.items():
            module = importlib.import_module(f"bench.{module_name}")
            for constant, value in sizes.items():
                setattr(module, constant, value)

    import openpyxl
    import peewee
    import PySide6

    cpu = (
        next(
            (
                line.split(":", 1)[1].strip()
                for line in open("/proc/cpuinfo", encoding="utf-8")
                if line.startswith("model name")
            ),
            platform.processor(),
        )
        if os.path.exists("/proc/cpuinfo")
        else platform.processor()
    )
    say(
        f"Praça benchmarks — {time.strftime('%Y-%m-%d %H:%M')} — {os.cpu_count()} CPU(s), {cpu}; Python "
        f"{platform.python_version()}, PySide6 {PySide6.__version__}, peewee {peewee.__version__}, openpyxl "
        f"{openpyxl.__version__}"
    )
    found = backends(args.backend)
    figures = []
    for name in names:
        module = importlib.import_module(f"bench.{name}")
        for backend in found if name in ON_EACH_DATABASE else ["sqlite"]:
            say(f"{name} [{backend if name in ON_EACH_DATABASE else '—'}]…")
            with cpu_clock(not args.wall and backend != "postgresql"):
                for figure in module.run(backend, args.repeat):
                    if args.smoke:  # small data: the figure says nothing of the budget
                        figure.judged = False
                    say(f"  {figure.row()}")
                    say(f"    {figure.detail}")
                    figures.append(figure)
    say()
    say(HEADER)
    for figure in figures:
        say(figure.row())
    if args.smoke:
        say()
        say(f"Smoke run: {len(names)} benchmark(s) ran on small data, {len(figures)} figures; no budget judged.")
        return 0 if figures else 1
    judged = [f for f in figures if f.judged]
    missed = [f for f in judged if not f.ok]
    say()
    say(f"{len(judged) - len(missed)} of {len(judged)} within budget." if judged else "Nothing run.")
    return 1 if missed else 0


if __name__ == "__main__":
    import shutil

    try:
        status = main()
    finally:
        shutil.rmtree(_HOME, ignore_errors=True)  # the run's own user folders, whatever happened
    sys.exit(status)
