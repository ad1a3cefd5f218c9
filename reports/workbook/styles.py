"""The workbooks' styles: fonts, number formats (money in pt-BR), the header row, the progress step."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal

# Arial in every format: Excel and LibreOffice on Windows have it; on Linux LibreOffice takes its metric twin,
# Liberation Sans, so the widths and heights computed here hold. 10 pt, never scaled below 80 % in print.
FONT, FONT_SIZE = "Arial", 10
LINE_HEIGHT = 12.75  # points per line of 10 pt Arial, as Excel spaces it
MIN_PRINT_SCALE = 0.8  # 10 pt × 0,8 = 8 pt on paper

# pt-BR by the format itself: the [$-416] prefix makes LibreOffice read it as a Portuguese (Brazil) format, so it
# shows R$ 3.378,36 under any locale (with [$R$-416] the locale names only the symbol: R$ 3,378.36 in en-US)
MONEY = '[$-416]"R$" #,##0.00'


def money_format(currency: str = "R$") -> str:
    """The money format in the act's own money (``Cr$ 1.500,00`` for an act in cruzeiros, ``[regime] currency``)."""
    return MONEY.replace('"R$"', f'"{currency}"')


DATE = "DD/MM/YYYY"
DATETIME = "DD/MM/YYYY HH:MM"
COUNT = "0"
GREEN = "#1F4F45"

TITLE, SUBTITLE, HEADER, LONG_TEXT = "Praça título", "Praça subtítulo", "Praça cabeçalho", "Praça texto longo"
STYLES: dict[str, dict[str, object]] = {
    TITLE: {"bold": True, "font_size": 14, "font_color": GREEN, "text_wrap": True, "valign": "top"},
    SUBTITLE: {
        "italic": True,
        "font_color": "#555555",
        "text_wrap": True,
        "valign": "top",
    },  # 10 pt as every cell: 8 pt at the least scale
    HEADER: {
        "bold": True,
        "font_color": "#FFFFFF",
        "bg_color": GREEN,
        "text_wrap": True,
        "valign": "top",
        "border": 1,
        "border_color": "#FFFFFF",
    },
    LONG_TEXT: {"text_wrap": True, "valign": "top"},
    "Praça nota": {"italic": True, "font_color": "#555555"},  # one line, over the empty cells beside it
    "Praça texto": {},
    # beside wrapped text, a figure or a date on its first line
    "Praça moeda": {"num_format": MONEY, "valign": "top"},
    "Praça data": {"num_format": DATE, "valign": "top"},
    "Praça data e hora": {"num_format": DATETIME, "valign": "top"},
    "Praça número": {"num_format": COUNT, "valign": "top"},  # beside wrapped text: on its first line
    "Praça destaque": {"bold": True, "num_format": MONEY},
    "Praça total": {"bold": True, "bg_color": "#E9EFE9"},
    "Praça total moeda": {"bold": True, "bg_color": "#E9EFE9", "num_format": MONEY},
    "Praça total número": {"bold": True, "bg_color": "#E9EFE9", "num_format": COUNT},
}
VALUE_STYLE = {MONEY: "Praça moeda", DATE: "Praça data", DATETIME: "Praça data e hora", COUNT: "Praça número"}
TOTAL_STYLE = {MONEY: "Praça total moeda", COUNT: "Praça total número", None: "Praça total"}

EMPTY = "Nenhum no período."  # an empty list, one line (issue 32 §1)

HEADER_ROW = 3  # rows 1–2: title and subtitle; row 3: column headers; data from row 4 (1-based, as Excel shows)
FIRST = HEADER_ROW + 1

UNSAFE_CRITERIA = set("*?~")
PROGRESS_STEP = 500
CENT_PLACES = Decimal("0.01")

Progress = Callable[[int, int], None]
