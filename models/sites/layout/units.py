"""Millimetres and metres, and the constants of a plan (sides, obstacle kinds, numbering, breach codes)."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

from models.base.money import format_decimal_br

SIDES = ("a", "b")
SIDE_LABELS = {"a": "lado A", "b": "lado B", "both": "os dois lados"}
SIDE_USES = {"one": "um lado", "both": "os dois lados"}
OBSTACLE_KINDS = {
    "garage": "entrada de garagem",
    "crossing": "cruzamento",
    "bus-stop": "ponto de ônibus",
    "taxi-stop": "ponto de táxi",
    "school-gate": "portão de escola",
    "hydrant": "hidrante",
    "tree": "árvore",
    "building-entrance": "entrada de edifício",
}
NUMBERING = {
    "sequential": "sequencial (lado A, depois lado B)",
    "odd-even": "ímpares no lado A, pares no lado B",
}
ROTATIONS = (0, 90, 180, 270)
BREACH_CODES = {
    "overlap": "bancas sobrepostas",
    "gap": "espaço entre bancas menor que o mínimo",
    "crossing": "banca em cruzamento",
    "garage": "banca em frente a garagem",
    "obstacle": "banca sobre obstáculo",
    "outside": "banca fora do trecho",
    "section-order": "seção fora de ordem",
    "wrong-side": "seção no lado errado",
    "two-sections": "ramo em mais de uma seção",
    "max-points": "pontos além do limite",
    "too-large": "banca maior que o permitido",
    "end-vendor": "ponta de feira fora do lugar",
    "number": "número de banca repetido",
    "unknown": "seção, ramo ou equipamento desconhecido",
}

# what a regime's min_distance_from measures from, in pt-BR
DISTANCE_FROM = {
    "bus-stop": "ponto de ônibus",
    "taxi-stop": "ponto de táxi",
    "school": "portão de escola",
    "feira": "feira livre",
    "same-trade-shop": "comércio fixo do mesmo ramo",
    "corner": "esquina",
}
_MM = Decimal(1000)
INF = 1 << 62


# --------------------------------------------------------------------------- units


def to_mm(value: Decimal | int | str) -> int:
    """Metres (``Decimal``, ``int`` or text such as ``"0.50"``) → whole millimetres (half up)."""
    if isinstance(value, bool) or not isinstance(value, (Decimal, int, str)):
        raise TypeError(f"medida em metros deve ser Decimal, int ou texto, não {type(value).__name__}")
    return int((Decimal(value) * _MM).to_integral_value(ROUND_HALF_UP))


def from_mm(value: int) -> Decimal:
    """Whole millimetres → ``Decimal`` metres with three places (``12500`` → ``12.500``)."""
    return Decimal(value).scaleb(-3)


def format_metres(value: Decimal | int, *, mm: bool = False) -> str:
    """``"12,50 m"`` (three places when the value has millimetres)."""
    metres = from_mm(int(value)) if mm else Decimal(value)
    places = 3 if (metres * 100) != (metres * 100).to_integral_value() else 2
    return f"{format_decimal_br(metres, places)} m"
