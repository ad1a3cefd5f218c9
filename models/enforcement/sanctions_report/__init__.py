"""The sanctions report (Relatórios → Sanções): a period's enforcement in figures, gathered once.

Pure data, like :mod:`models.billing.fee_report` (whose regime labels, site
disambiguation and sums it shares): :func:`sanctions_report` reads the records
**drawn up** in the period (the day and hour of the facts, ``Record.at``) and
returns a :class:`SanctionsReport` that the Excel, HTML and PDF writers
(``reports/sanctions_report_*.py``) only lay out.

What the figures mean:

* **autos** — the records of the period, by kind, regime, site and inspector. A
  record *corrected* (or whose offender was identified) is replaced by the new
  record that refers to it (Olímpia, LC 324/2025, art. 32, § 4º): it is listed
  but counts in nothing, so one occurrence is never counted twice; an
  *annulled* record counts (it was drawn up) with no fine;
* **infrações** — each article infringed on a counted record, with the article
  and the article that sets its penalty, as frozen on the record when issued;
  a **reincidência** is an infraction whose offence number is 2 or more (the
  offender's earlier occurrences of the same nature inside the act's window —
  Olímpia art. 12, § 1º; art. 17, § 1º);
* **sanções aplicadas** — the sanctions of the records in force (not corrected,
  not annulled) that apply now: a warning's conditional fine only once the
  notice was not complied with (art. 29);
* **multas** — the fine charges of the counted records (a reduced fine is a new
  charge, the old one cancelled; a cancelled charge is listed and counts in no
  total): **cobrado** their amounts, **pago** what was paid up to each amount,
  **em aberto** = cobrado − pago, **vencido** what is open on charges due before
  ``today``; and the unpaid fines past every deadline, for the **dívida ativa**
  (LC 324/2025, art. 11, § 1º — :func:`models.enforcement.debt_register`);
* **prazos em curso** — deadlines of the records still running on ``today``,
  and decisions on defences and appeals still pending, with their basis;
* **bens apreendidos pendentes** — goods seized in the period still in the
  depot on ``today``, with what must be paid to get them back
  (:func:`models.enforcement.seized_goods`).

Money is ``Decimal`` from integer centavos; nothing here is a float.

The package: :mod:`figures` (what the report holds: rows, groups, totals) and :mod:`gathering` (reading a period's
records, sanctions, fines, deadlines and seizures into them).
"""

from __future__ import annotations

# the report's shared vocabulary with the fee report, named here as the sanctions report's callers know it
from models.enforcement.sanctions_report.figures import (
    CORRECTED,
    SanctionsReport,
    check_period,
    period_label,
)
from models.enforcement.sanctions_report.gathering import (
    sanctions_report,
)

__all__ = [
    "CORRECTED",
    "SanctionsReport",
    "check_period",
    "period_label",
    "sanctions_report",
]
