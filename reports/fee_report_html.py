"""The monthly fee report as HTML that prints (A4, page numbers, inline SVG chart) and as PDF from it.

The HTML is for a browser and a phone: ``@page`` rules set A4 portrait for the
figures and A4 landscape for the charge list, with "Página N de M" in the page
margin; a viewport and a narrow-screen layout for phones. The PDF is the same
page laid out by ReportLab (reports/paged_pdf). The figures come from
:class:`models.billing.fee_report.FeeReport`; money is formatted here, once per
distinct amount, so 20.000 charges render in well under a second.

The sanctions report (reports/sanctions_report_html.py) shares :class:`Brl`,
:func:`cents`, :class:`Escaper` and :func:`bar_chart_svg`, and its template the
look of this one (resources/templates/report_common.html.j2).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from html import escape
from pathlib import Path

from markupsafe import Markup
from markupsafe import escape as markup_escape

from models.billing.fee_report import FeeReport
from models.billing.report_parts import CANCELLED
from models.store.outfile import atomic_writer
from reports.templating import date_br, render, trail_anchor

Progress = Callable[[int, int], None]

_PT = str.maketrans(",.", ".,")
CHARGED_COLOUR = "#1f4f45"
PAID_COLOUR = "#7fb59a"


class Brl:
    """``R$ 1.234,56`` for amounts already in cents (the report's), memoised: amounts repeat a lot."""

    def __init__(self, currency: str = "R$") -> None:
        self._seen: dict[Decimal, str] = {}
        self.currency = currency  # the act's own money: Cr$ for an act in cruzeiros, never converted

    def __call__(self, value: Decimal) -> str:
        text = self._seen.get(value)
        if text is None:
            body = f"{abs(value):,.2f}".translate(_PT)
            text = self._seen[value] = ("-" if value < 0 else "") + f"{self.currency} " + body
        return text


_Brl = Brl  # the name the fee report's tests know


def cents(value: Decimal) -> int:
    return int(value.scaleb(2))


# --------------------------------------------------------------------------- the chart


@dataclass(frozen=True)
class Chart:
    svg: Markup
    width: int
    height: int
    # the same chart drawn for a phone's width (issue 32 §3): type as large as the page's, no value over the bars
    # (the table beside it has them); the page shows it instead of the wide one below 760 px, print never does
    narrow: Markup


def _nice_step(top: Decimal) -> Decimal:
    """A round gridline step (1, 2 or 5 × 10ⁿ) giving four or five lines up to ``top``."""
    if top <= 0:
        return Decimal(1)
    raw = top / 4
    power = Decimal(10) ** math.floor(raw.log10())
    for factor in (1, 2, 5, 10):
        if power * factor >= raw:
            return power * factor
    return power * 10  # pragma: no cover


def _axis_label(value: Decimal, currency: str = "R$") -> str:
    whole = f"{value:,.0f}".translate(_PT) if value == value.to_integral_value() else f"{value:,.2f}".translate(_PT)
    return f"{currency} {whole}"


def _wrap(text: str, width: int = 16) -> list[str]:
    words, lines, line = text.split(), [], ""
    for word in words:
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}".strip()
    if line:
        lines.append(line)
    return lines[:3]


def bar_chart(report: FeeReport, *, width: int = 680, height: int = 260) -> Chart:
    """Charged vs paid by kind, as SVG (the Excel file has the same chart, native)."""
    return bar_chart_svg(
        report.by_kind,
        f"Cobrado × pago por tipo — {report.label}",
        width=width,
        height=height,
        currency=report.currency,
    )


def bar_chart_svg(
    groups,
    title: str,
    *,
    series: tuple[str, str] = ("Cobrado", "Pago"),
    width: int = 680,
    height: int = 260,
    currency: str = "R$",
) -> Chart:
    """Two bars per group — ``charged`` and ``paid`` of each (``key`` names it) — as SVG; shared by the fee and the
    sanctions reports. ``series`` names the two bars in the legend and the tooltips. With it, the same chart for a
    phone (:attr:`Chart.narrow`)."""
    wide = _bars_svg(groups, title, series, width, height, font=10, labels=True, css="wide", currency=currency)
    narrow = _bars_svg(groups, title, series, 340, 300, font=14, labels=False, css="narrow", currency=currency)
    return Chart(wide, width, height, narrow)


def _bars_svg(
    groups, title: str, series, width: int, height: int, *, font: int, labels: bool, css: str, currency: str = "R$"
) -> Markup:
    brl = Brl(currency)
    scale = font / 10
    left, right, top, bottom = round(92 * scale), 12, round(34 * scale), round(54 * scale)
    plot_w, plot_h = width - left - right, height - top - bottom
    peak = max([g.charged for g in groups] + [Decimal(0)])
    step = _nice_step(peak)
    ceiling = step * max(1, math.ceil(peak / step)) if peak > 0 else step * 4
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" style="width: 100%; height: auto;" role="img" class="{css}" '
        f'font-family="DejaVu Sans, Arial, sans-serif" font-size="{font}">',
        f"<title>{escape(title)}</title>",
        f'<rect x="0" y="0" width="{width}" height="{height}" fill="#ffffff"/>',
    ]
    # legend
    gap = max(90, 30 + 7 * len(series[0])) * scale  # the second legend entry after the first one's words
    box, base = 12 * scale, 8 + 10 * scale
    legend = min(left, width - gap - 17 * scale - 7 * scale * len(series[1]) - right)  # within the width
    out.append(
        f'<rect x="{legend:.0f}" y="8" width="{box:.0f}" height="{box:.0f}" fill="{CHARGED_COLOUR}"/>'
        f'<text x="{legend + 17 * scale:.0f}" y="{base:.0f}">{escape(series[0])}</text>'
        f'<rect x="{legend + gap:.0f}" y="8" width="{box:.0f}" height="{box:.0f}" fill="{PAID_COLOUR}"/>'
        f'<text x="{legend + gap + 17 * scale:.0f}" y="{base:.0f}">{escape(series[1])}</text>'
    )
    # gridlines and axis labels
    value = Decimal(0)
    while value <= ceiling:
        y = top + plot_h - float(value / ceiling) * plot_h
        out.append(
            f'<line x1="{left}" y1="{y:.1f}" x2="{width - right}" y2="{y:.1f}" stroke="#d5ddd7" stroke-width="1"/>'
        )
        out.append(
            f'<text x="{left - 6}" y="{y + 3.5 * scale:.1f}" text-anchor="end" fill="#555555">'
            f"{escape(_axis_label(value, currency))}</text>"
        )
        value += step
    out.append(f'<line x1="{left}" y1="{top + plot_h}" x2="{width - right}" y2="{top + plot_h}" stroke="#555555"/>')
    n = max(len(groups), 1)
    slot = plot_w / n
    bar = min(44.0, slot * 0.32)
    for i, g in enumerate(groups):
        centre = left + slot * (i + 0.5)
        # each value over its bar, running outwards from the gap between the two: they never overlap
        for offset, amount, colour, name, anchor, tx in (
            (-bar - 2, g.charged, CHARGED_COLOUR, series[0].lower(), "end", bar),
            (2, g.paid, PAID_COLOUR, series[1].lower(), "start", 0),
        ):
            h = float(amount / ceiling) * plot_h if ceiling else 0.0
            x, y = centre + offset, top + plot_h - h
            out.append(
                f'<rect x="{x:.1f}" y="{y:.1f}" width="{bar:.1f}" height="{h:.1f}" fill="{colour}">'
                f"<title>{escape(f'{g.key} — {name}: {brl(amount)}')}</title></rect>"
            )
            if labels:
                out.append(
                    f'<text x="{x + tx:.1f}" y="{y - 3:.1f}" text-anchor="{anchor}" font-size="8" '
                    f'fill="#333333">{escape(brl(amount))}</text>'
                )
        for k, line in enumerate(_wrap(g.key, 16 if labels else max(6, round(slot / (0.62 * font))))):
            y = top + plot_h + 14 * scale + 11 * scale * k
            out.append(f'<text x="{centre:.1f}" y="{y:.0f}" text-anchor="middle">{escape(line)}</text>')
    out.append("</svg>")
    return Markup("".join(out))


# --------------------------------------------------------------------------- HTML


# One charge of the annex. The 20.000 rows of a large month are built here, not in the template's loop: each
# distinct text is escaped once (names, labels, formulas and bases repeat), which keeps the page under a second.
CHARGE_ROW = (
    "<tr{css}><td>{number}</td><td>{holder}</td><td>{permit}</td><td>{label}<br>"
    '<span class="small">{formula} — {basis}</span></td><td>{due}</td>'
    '<td class="num" align="right">{amount}</td><td class="num" align="right">{paid}</td>'
    '<td class="num" align="right">{open}</td><td>{situation}</td></tr>\n'
)
DELINQUENT_ROW = (
    '<tr><td>{holder}{permits}</td><td>{document}</td><td class="num" align="right">{count}</td>'
    '<td class="num" align="right">{amount}</td><td>{since}</td><td class="small">{charges}</td></tr>\n'
)
PAYMENT_ROW = (
    "<tr><td>{day}</td><td>{number}</td><td>{holder}</td><td>{kind}</td><td>{reference}</td>"
    '<td class="num" align="right">{amount}</td><td>{by}</td></tr>\n'
)


class Escaper:
    def __init__(self) -> None:
        self._seen: dict[str, str] = {}

    def __call__(self, text: str) -> str:
        out = self._seen.get(text)
        if out is None:
            out = self._seen[text] = escape(text, quote=True)
        return out


def _charge_rows(charges, brl: Brl, day, progress: Progress | None, total: int) -> list[str]:
    esc = Escaper()
    rows = []
    for done, c in enumerate(charges, start=1):
        css = ' class="cancelled"' if c.situation == CANCELLED else (' class="late"' if c.overdue else "")
        rows.append(
            CHARGE_ROW.format(
                css=css,
                number=esc(c.number),
                holder=esc(c.holder),
                permit=esc(c.permit),
                label=esc(c.label),
                formula=esc(c.formula),
                basis=esc(c.basis),
                due=day(c.due_on),
                amount=brl(c.amount),
                paid=brl(c.paid),
                open=brl(c.open),
                situation=esc(c.situation),
            )
        )
        if progress is not None and done % 2000 == 0:
            progress(done, total)
    return rows


def _delinquent_rows(delinquents, brl: Brl, day) -> Markup:
    """The delinquents' table rows, as the template wrote them (escaped as jinja escapes), built here: thousands
    of holders in a large month."""
    esc = markup_escape
    return Markup(
        "".join(
            DELINQUENT_ROW.format(
                holder=esc(d.holder),
                permits=f'<br><span class="small">permissão {esc(d.permits)}</span>' if d.permits else "",
                document=esc(d.document),
                count=d.count,
                amount=esc(brl(d.amount)),
                since=esc(day(d.oldest_due)),
                charges=esc(d.charges),
            )
            for d in delinquents
        )
    )


def fee_report_html(report: FeeReport, *, progress: Progress | None = None) -> str:
    """The report as one HTML page: the figures on A4 portrait pages, the charge list (the annex) on A4
    landscape pages — in a browser's print and in the PDF alike."""
    brl = Brl(report.currency)
    dates: dict = {}

    def day(value) -> str:
        text = dates.get(value)
        if text is None:
            text = dates[value] = date_br(value)
        return text

    total = len(report.charges) + len(report.payments)
    rows = _charge_rows(report.charges, brl, day, progress, total)
    esc = Escaper()
    payments = Markup(
        "".join(
            PAYMENT_ROW.format(
                day=day(p.paid_on),
                number=esc(p.charge),
                holder=esc(p.holder),
                kind=esc(p.kind_label),
                reference=esc(p.reference),
                amount=brl(p.amount),
                by=esc(p.recorded_by),
            )
            for p in report.payments
        )
    )
    html = render(
        "fee_report.html.j2",
        report=report,
        totals=report.totals,
        charges=Markup("".join(rows)),
        payments=payments,
        delinquents=_delinquent_rows(report.delinquents, brl, day),
        chart=bar_chart(report),
        brl=brl,
        cents=cents,
        month_title=report.label[:1].upper() + report.label[1:],
        trail=trail_anchor(),
    )
    if progress is not None:
        progress(total, total)
    return html


@atomic_writer("path", kind="html")
def write_fee_report_html(report: FeeReport, path: str | Path, *, progress: Progress | None = None) -> Path:
    path = Path(path)
    path.write_text(fee_report_html(report, progress=progress), encoding="utf-8")
    return path


def write_fee_report_pdf(report: FeeReport, path: str | Path, *, progress: Progress | None = None) -> Path:
    """The same page as a PDF (reports/paged_pdf): rows never split, headings kept with what
    follows, headers repeated, "Página N de M" on every page."""
    from reports.paged_pdf import write_html_pdf

    return write_html_pdf(fee_report_html(report), path, progress=progress)
