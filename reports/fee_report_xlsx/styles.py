"""The workbook's styles: fonts, number formats (money in pt-BR), the lists' columns."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal

from xlsxwriter.utility import xl_col_to_name

# Arial in every format: Excel and LibreOffice on Windows have it; on Linux LibreOffice takes its metric twin,
# Liberation Sans, so the widths and heights computed here hold. 10 pt, never scaled below 80 % in print.
FONT, FONT_SIZE = "Arial", 10
LINE_HEIGHT = 12.75  # points per line of 10 pt Arial, as Excel spaces it
MIN_PRINT_SCALE = 0.8  # 10 pt × 0,8 = 8 pt on paper

# pt-BR by the format itself: the [$-416] prefix makes LibreOffice read it as a Portuguese (Brazil) format, so it
# shows R$ 3.378,36 under any locale (with [$R$-416] the locale names only the symbol: R$ 3,378.36 in en-US)
MONEY = '[$-416]"R$" #,##0.00'

DATE = "DD/MM/YYYY"
DATETIME = "DD/MM/YYYY HH:MM"
COUNT = "0"
GREEN = "#1F4F45"

TITLE, SUBTITLE, HEADER, LONG_TEXT = "Praça título", "Praça subtítulo", "Praça cabeçalho", "Praça texto longo"
STYLES: dict[str, dict[str, object]] = {
    TITLE: {"bold": True, "font_size": 14, "font_color": GREEN},
    SUBTITLE: {"italic": True, "font_size": 9, "font_color": "#555555"},
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
    "Praça texto": {},
    "Praça moeda": {"num_format": MONEY},
    "Praça data": {"num_format": DATE},
    "Praça data e hora": {"num_format": DATETIME},
    "Praça número": {"num_format": COUNT, "valign": "top"},  # beside wrapped text: on its first line
    "Praça destaque": {"bold": True, "num_format": MONEY},
    "Praça total": {"bold": True, "bg_color": "#E9EFE9"},
    "Praça total moeda": {"bold": True, "bg_color": "#E9EFE9", "num_format": MONEY},
    "Praça total número": {"bold": True, "bg_color": "#E9EFE9", "num_format": COUNT},
}
VALUE_STYLE = {MONEY: "Praça moeda", DATE: "Praça data", DATETIME: "Praça data e hora", COUNT: "Praça número"}
TOTAL_STYLE = {MONEY: "Praça total moeda", COUNT: "Praça total número", None: "Praça total"}

HEADER_ROW = 3  # rows 1–2: title and subtitle; row 3: column headers; data from row 4 (1-based, as Excel shows)
FIRST = HEADER_ROW + 1

SHEETS = ("Resumo", "Por regime", "Por local", "Por seção", "Por tipo", "Cobranças", "Pagamentos", "Inadimplentes")

# the charge list: (header, width, number format or None, value of a ReportCharge)
CHARGE_COLUMNS = (
    ("Nº", 12, None, lambda c: c.number),
    ("Titular", 34, None, lambda c: c.holder),
    ("CPF/CNPJ", 19, None, lambda c: c.holder_document),
    ("Permissão", 14, None, lambda c: c.permit),
    ("Regime", 36, None, lambda c: c.regime_label),
    ("Local", 32, None, lambda c: c.site),
    ("Seção", 30, None, lambda c: c.section),
    ("Tipo", 22, None, lambda c: c.kind_label),
    ("Descrição", 48, None, lambda c: c.label),
    ("Competência", 12, None, lambda c: c.period),
    ("Vencimento", 12, DATE, lambda c: c.due_on),
    ("Valor", 14, MONEY, lambda c: c.amount),
    ("Pago", 14, MONEY, lambda c: c.paid),
    ("Em aberto", 14, MONEY, lambda c: c.open),
    ("Vencido", 14, MONEY, lambda c: c.overdue),
    ("Situação", 14, None, lambda c: c.situation),
    ("Fórmula", 40, None, lambda c: c.formula),
    ("Base legal", 50, None, lambda c: c.basis),
)
COL = {name: xl_col_to_name(i) for i, (name, *_rest) in enumerate(CHARGE_COLUMNS)}

PAYMENT_COLUMNS = (
    ("Data", 12, DATE, lambda p: p.paid_on),
    ("Cobrança", 12, None, lambda p: p.charge),
    ("Titular", 34, None, lambda p: p.holder),
    ("Tipo", 22, None, lambda p: p.kind_label),
    ("Referência (boleto)", 20, None, lambda p: p.reference),
    ("Valor", 14, MONEY, lambda p: p.amount),
    ("Registrado por", 18, None, lambda p: p.recorded_by),
)

DELINQUENT_COLUMNS = (
    ("Titular", 34, None, lambda d: d.holder),
    ("CPF/CNPJ", 19, None, lambda d: d.document),
    ("Cobranças vencidas", 12, COUNT, lambda d: d.count),
    ("Valor vencido", 14, MONEY, lambda d: d.amount),
    ("Vencimento mais antigo", 14, DATE, lambda d: d.oldest_due),
    ("Permissões", 20, None, lambda d: d.permits),
    ("Cobranças", 60, None, lambda d: d.charges),
)

UNSAFE_CRITERIA = set("*?~")
PROGRESS_STEP = 500
CENT_PLACES = Decimal("0.01")

Progress = Callable[[int, int], None]
