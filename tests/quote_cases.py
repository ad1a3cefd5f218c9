"""One table of quotes, checked through the command line and through the simulator screen.

Each case: the regime, the inputs as ``praca quote`` takes them, and what the
act says the result must be (total and the first line's formula), with the
article that says so.
"""

QUOTE_CASES = [
    # Dec. 4.794/2026, art. 9º, § 2º and § 3º, I: MEI of the municipality, trailer ≤ 3 m deep → D = 30 %.
    dict(
        id="sb-trailer-mei-local",
        regime="sao-bento-2026",
        args=dict(equipment="trailer", front="4", depth="3", mei=True, local=True),
        total="591.67",
        formula="5,50 × 38,42 × 4,00 × (1 − 0,30)",
    ),
    # art. 9º, § 2º: no discount for a company that is not a local MEI.
    dict(
        id="sb-barraca",
        regime="sao-bento-2026",
        args=dict(equipment="barraca", front="2,5", depth="2"),
        total="528.28",
        formula="5,50 × 38,42 × 2,50",
    ),
    # art. 9º, § 1º: the hitch counts in ML; art. 12, § 2º: high consumption 3,25 × UFESP = R$ 124,87.
    dict(
        id="sb-trailer-hitch-high-energy",
        regime="sao-bento-2026",
        args=dict(equipment="trailer", front="3", hitch="1", depth="3", energy="high"),
        total="970.11",
        formula="5,50 × 38,42 × 4,00",
    ),
    # art. 9º, § 3º: minimum of 1 ML; § 3º, I: 50 % for popcorn carts; art. 12, § 1º: low consumption R$ 31,50.
    dict(
        id="sb-pipoca-min-ml-low-energy",
        regime="sao-bento-2026",
        args=dict(equipment="carrinho-pipoca", front="0,8", depth="0,8", mei=True, local=True, energy="low"),
        total="137.16",
        formula="5,50 × 38,42 × 1,00 × (1 − 0,50)",
    ),
    # Lei 9.158/2014, art. 11, § 5º and art. 5º, I: R$ 2,50 per m² used — a stall of the full 4,00 × 3,50 m.
    dict(
        id="sjc-comidas-tipicas-2014",
        regime="sjc-2014",
        args=dict(line="comidas-tipicas", front="4", depth="3,5", year=2014),
        total="35.00",
        formula="2,50 × 4,00 × 3,50",
    ),
    # art. 5º, IV: pastel 12,00 × 3,50.
    dict(
        id="sjc-pastel-2014",
        regime="sjc-2014",
        args=dict(line="pastel", front="12", depth="3,5", year=2014),
        total="105.00",
        formula="2,50 × 12,00 × 3,50",
    ),
    # art. 11, § 5º: "por metro quadrado utilizado" — a pastel stall using 10,00 × 3,00 of the 12,00 × 3,50 of art. 5º.
    dict(
        id="sjc-pastel-area-utilizada-2014",
        regime="sjc-2014",
        args=dict(line="pastel", front="10", depth="3", year=2014),
        total="75.00",
        formula="2,50 × 10,00 × 3,00",
    ),
    # LC 324/2025, art. 89, § 1º: Recinto (todas as instalações), 1 day: 100 UFESP + deposit 150 UFESP.
    dict(
        id="olimpia-recinto-1-dia",
        regime="olimpia-2025",
        args=dict(venue="recinto-todas-instalacoes", days=1, year=2026),
        total="9605.00",
        formula="1 × 100 × 38,42",
    ),
    # art. 89, § 1º: "Taxa por dia (mínimo de 3 dias)" — Arena for 2 days is charged 3 × 15 UFESP + deposit 50 UFESP.
    dict(
        id="olimpia-arena-2-dias-minimo-3",
        regime="olimpia-2025",
        args=dict(venue="recinto-arena", days=2, year=2026),
        total="3649.90",
        formula="3 × 15 × 38,42",
    ),
    # art. 89, § 1º: Barracas Pequenas, 4 days (≥ 3): 4 × 15 UFESP + deposit 50 UFESP, UFESP 2025.
    dict(
        id="olimpia-barracas-pequenas-4-dias-2025",
        regime="olimpia-2025",
        args=dict(venue="recinto-barracas-pequenas", days=4, year=2025),
        total="4072.20",
        formula="4 × 15 × 37,02",
    ),
]

# Bad input: the command exits 2 with one line; the screen shows the same message.
QUOTE_ERRORS = [
    dict(
        id="unknown-equipment",
        regime="sao-bento-2026",
        args=dict(equipment="nave-espacial", front="2"),
        fragment="nave-espacial",
    ),
    dict(
        id="zero-front",
        regime="sao-bento-2026",
        args=dict(equipment="barraca", front="0", depth="2"),
        fragment="frente",
    ),
    dict(
        id="ufesp-without-value",
        regime="olimpia-2025",
        args=dict(venue="recinto-arena", days=1, year=2031),
        fragment="2031",
    ),
    # sizes are measured to the centimetre: 4,004 would print 4,00 and charge 4,004
    dict(
        id="front-beyond-centimetre",
        regime="sao-bento-2026",
        args=dict(equipment="barraca", front="4,004"),
        fragment="duas casas decimais",
    ),
    # SJC art. 5º, IV: the pastel stall is at most 12,00 m of front
    dict(
        id="sjc-front-above-art-5",
        regime="sjc-2014",
        args=dict(line="pastel", front="13", depth="3", year=2014),
        fragment="acima do máximo de 12,00 m",
    ),
]
