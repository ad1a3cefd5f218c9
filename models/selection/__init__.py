"""Selection: socio-economic scores, ranking, and public, verifiable draws.

Pure functions over plain values — no database, no Qt. The screens and the
``praca draw`` command gather the participants as :class:`Participant`
records; ``models/selection/draws.py`` keeps the draws that were held.

Scores (``selection.criteria`` of a regime; Sapezal, Lei 1.171/2014, art. 10)
-------------------------------------------------------------------------------

:func:`score_participant` gives one :class:`ScoreLine` per criterion — its
label, the value read, the points and the article — and the total;
:func:`rank_by_score` orders the participants by total, then by the regime's
``tie_break`` (Sapezal art. 10, § 3º: the disabled first, then the oldest);
those equal on all of it share a rank (``tie_unresolved``) and the draw's
order decides between them, and only between them. A tie a tie-break would
decide but whose fact is unknown is flagged (``tie_missing``) and stops the
list: the lot never decides what the act decides. Readings:

* **Brackets**: the first bracket of the file whose ``min`` (inclusive) and
  ``max`` (inclusive) hold the value; upper limits are inclusive because the
  act says "menor ou igual a" (art. 10, II–IV). **Values**: by equality (a
  category, yes/no or a count).
* **Age** (``age_years``): whole years completed on the reference date — how
  the act states ages: a person "tem 60 anos" until the 61st birthday, so
  "maior de 60 anos" is 61 completed years or more.
* **Residence time** (``residence_years``): the exact time elapsed since
  ``resident_since``, as a decimal number of years (years completed plus the
  fraction of the current year of residence): "mais de 4 anos" is true from
  the day after the 4th anniversary — the reading the eligibility check takes
  of "há mais de N anos" (``models/rules/eligibility/``).
* **Reference date**: the date of registration (``registered_at``), else the
  ``on`` date given — the act fixes none; the Sapezal regime adopts the
  registration date.
* A fact nobody gave makes its line ``missing`` (0 points) and the score
  ``complete = False``; a value outside every bracket makes it ``out-of-range``.

Draws (algorithm ``praca-sorteio-1``, documented in the README, "Sorteios: como conferir")
-----------------------------------------------------------------------------------------

1. **The list.** Each participant becomes one line of UTF-8 text
   ``id;name`` followed, in this order and only when set, by
   ``;group=G``, ``;quota=1``, ``;preference=P``, ``;rank=R``, ``;score=S``
   and ``;paid_at=AAAA-MM-DDTHH:MM:SS`` — every fact that decides the result.
   Texts are NFC-normalised with single spaces; ``;`` and line breaks are not
   allowed in them. Lines are sorted by id (Unicode code points, as Python
   sorts strings) and each ends with ``\\n``; the SHA-256 of that text is
   ``list_sha256``, published with the list before the draw.
2. **The order.** Each participant gets the key
   ``sha256((seed + "\\n" + list_sha256 + "\\n" + id).encode("utf-8")).hexdigest()``;
   the drawn ``order`` is the ids sorted by (key, id). Only ``hashlib`` — no
   ``random`` — so any Python on any machine gives the same order.
3. **Selection**, per group (``group``; Sapezal art. 12, II–III: per product
   group), with ``N`` vacancies and ``K`` alternates:

   * plain draw: the group in drawn order;
   * with ``rank``/``score`` (Sapezal art. 10, § 2º): by rank, ties in drawn order;
     scores without ranks are ranked here, equal scores by the regime's
     ``tie_break`` (art. 10, § 3º; CSV columns ``disability``, ``birth_date``);
   * by payment time (São Bento art. 3º, § 2º): by ``paid_at``, ties in drawn
     order; a participant without ``paid_at`` is excluded;
   * with preferences (SJC art. 11, § 3º): founders, then day-feira holders,
     then the others, each class in drawn order.

   **Holders** are the first ``N`` of that sequence and are listed in drawn
   order, which is their order of choice of place / their position (Sapezal
   art. 12, § 1º; São Bento art. 3º, I). With a quota among the rules of the
   permit kinds the selection serves (``[selection] permit_kinds``; Ilha
   Comprida's 10 % of art. 11, § 2º is of the beach licences, not of the event
   draws of art. 21) ``ceil(percent × N)`` places are reserved — a
   fraction of a place is a whole place, the reading the eligibility check
   takes of the same quota — and go first to the quota participants in the
   sequence; reserved places nobody of the quota takes go to the general list.
   **Alternates** are the next ``K`` (Sapezal art. 12, § 3º: 10, per group);
   with scores they are the next ``K`` *in drawn order* among the others
   ("serão sorteados mais dez suplentes"); by payment time, the next in
   payment order. Everybody else follows in the same order (``others``).

Debtors are left out before the list is made when the regime's ``exclude``
holds ``"debtors"`` (Sapezal art. 12, I), each with reason and article.
:func:`rotation` applies one drawn order as Ilha Comprida's rotating list over
several events (art. 21, § 1º, I) and :func:`assign_points` is the second draw
that spreads one event's vendors over its points (art. 21, § 1º, II; at most
60 points, art. 22).

The pure part, one module per seam (each imports only the ones listed before it):

* :mod:`~models.selection.scores` — scores by the regime's criteria, the tie-breaks and the ranking by score.
* :mod:`~models.selection.regime_rules` — the draw's rules as the regime sets them (:class:`DrawRules`).
* :mod:`~models.selection.published` — the published list: its canonical text, its hash, the drawn order.
* :mod:`~models.selection.draw` — the draw itself: exclusions, groups and vacancies, the published list and its result.
* :mod:`~models.selection.rotating` — the rotating list (Ilha Comprida, art. 21) and the points of an event or beach.
"""

from models.selection.csv_input import parse_vacancies, read_participants_csv
from models.selection.draw import (
    DrawResult,
    PublishedList,
    published_list,
    run_draw,
)
from models.selection.participants import (
    ALGORITHM,
    ALGORITHM_STEPS,
    TIE_BREAKS,
    Participant,
    normalize_text,
)
from models.selection.published import (
    canonical_line,
    canonical_list,
    drawn_order,
    list_sha256,
    order_from_list,
)
from models.selection.regime_rules import DrawRules, draw_rules, max_points_of
from models.selection.rotating import (
    assign_points,
    event_vendors,
    rotation,
)
from models.selection.scores import (
    Score,
    ScoreLine,
    rank_by_score,
    rank_scores,
    score_participant,
    with_ranks,
)

__all__ = [
    "ALGORITHM",
    "ALGORITHM_STEPS",
    "TIE_BREAKS",
    "DrawResult",
    "DrawRules",
    "Participant",
    "PublishedList",
    "Score",
    "ScoreLine",
    "assign_points",
    "canonical_line",
    "canonical_list",
    "draw_rules",
    "drawn_order",
    "event_vendors",
    "list_sha256",
    "max_points_of",
    "normalize_text",
    "order_from_list",
    "parse_vacancies",
    "published_list",
    "rank_by_score",
    "rank_scores",
    "read_participants_csv",
    "rotation",
    "run_draw",
    "score_participant",
    "with_ranks",
]
