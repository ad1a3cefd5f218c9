"""Selection as a process kept in the database: publications, appeals and the final list, and the rotating list.

The draw itself is ``models/selection/draws.py``; this module keeps what comes before
and after it, so that a desk that closes and opens again — or another desk —
sees the same state.

Publications (:class:`ListPublication`)
---------------------------------------

Every list Praça publishes is kept, write-once: the exact text that is hashed,
its SHA-256, the printed document, the date of publication, where it was
published and who recorded it. Three kinds:

* ``list`` — the participants of a draw, published before the seed is
  announced (README, «Sorteios: como conferir»). A draw later compares the list
  it is about to draw with the latest publication of its call (regime, place,
  group), in any session (:func:`publication_check`).
* ``ranking`` — where the act opens an appeal against the ranked list (the
  regime's ``selection.appeal_days``; Sapezal, Lei 1.171/2014, art. 10, § 4º):
  the scores line by line, and the appeal window counted from the publication
  by the regime's ``selection-appeal`` deadline (from ``list-publication``)
  (``models.rules.deadlines.compute_deadline``), frozen in the record.
* ``final`` — the final list (art. 10, § 5º): the ranking with the scores the
  commission corrected on appeal, ranked again with the act's tie-breaks. Only
  a final list goes to the draw of places (art. 12); it is also the draw's
  published list.

Appeals (:class:`SelectionAppeal`)
----------------------------------

Who, when, on what grounds. One filed after the window closes is recorded
and not heard ("não conhecido"), with the article; one in time gets the
decision deadline of the regime's ``selection-decision`` deadline (from ``appeal-filed``)
(art. 10, § 5º: 3 business days) and is decided once — granted or denied, with
the reason, and, when granted, the points the commission corrected, criterion
by criterion (only points the act's table can give). A decision after the
deadline is accepted and flagged: the law binds the commission, and refusing to
record its late decision would stop the process. The final list waits for the
window to close and every appeal in time to be decided.

The rotating list (:class:`RotationEvent`, :class:`PointDraw`)
--------------------------------------------------------------

Where the act's method is ``rotating-draw`` (Ilha Comprida, Dec. 890/2017,
art. 21, § 1º), the drawn order of a held draw is a list applied event after
event (``models.selection.rotation``): each event takes the next vendors and
the list starts again from the beginning when it ends (I). Each event is a
row — date, name, vacancies (at most the points the act allows in the area,
art. 22: 60), where in the list it started and who works it — so the list goes
on from where the last event stopped. The second draw (II) spreads the day's
vendors over the day's points (``models.selection.assign_points``, the same
algorithm with its own seed and list) and is kept in :class:`PointDraw`,
write-once and re-checked from its list and seed.

These are tables of their own, not held :class:`~models.selection.draws.Draw` rows:
a Draw's result is holders, alternates and others, its holders get permits
and stalls on the Seleção desk; an event's result is "who works that day" and
a point draw's is "vendor → point", and neither may offer permits. Keeping
them as draws would need a point column a draw entry does not have and a flag
to hide them from the holders' screen.

This module re-exports the process; its seams are modules of their own (each imports only the ones listed
before it):

* :mod:`~models.selection.process_tables` — the tables: publications, appeals, rotation events, point draws.
* :mod:`~models.selection.publications` — a list published write-once; a call's latest publication and its check.
* :mod:`~models.selection.appeals` — the ranking, its appeals, the final list, a call's process.
* :mod:`~models.selection.rotation_list` — the rotating list kept: its events and the draws of points.
"""

from models.selection.appeals import (
    AppealRow,
    Process,
    RankingRow,
    allowed_points,
    decide_appeal,
    file_appeal,
    final_basis,
    final_participants,
    process_of,
    publish_final,
    publish_ranking,
)
from models.selection.process_tables import (
    APPEAL_STATUSES,
    KINDS,
    ListPublication,
    PointDraw,
    RotationEvent,
    SelectionAppeal,
)
from models.selection.publications import (
    PublicationCheck,
    final_list_of,
    has_appeals,
    latest_publication,
    publication_check,
    publication_kind,
    publish_list,
)
from models.selection.rotation_list import (
    EventRow,
    ListRow,
    RotationState,
    add_event,
    event_with_draw,
    hold_point_draw,
    parse_points,
    point_label,
    preview_event,
    remove_last_event,
    rotation_draws,
    rotation_state,
    verify_point_draw,
)

__all__ = [
    "APPEAL_STATUSES",
    "KINDS",
    "AppealRow",
    "EventRow",
    "ListPublication",
    "ListRow",
    "PointDraw",
    "Process",
    "PublicationCheck",
    "RankingRow",
    "RotationEvent",
    "RotationState",
    "SelectionAppeal",
    "add_event",
    "allowed_points",
    "decide_appeal",
    "event_with_draw",
    "file_appeal",
    "final_basis",
    "final_list_of",
    "final_participants",
    "has_appeals",
    "hold_point_draw",
    "latest_publication",
    "parse_points",
    "point_label",
    "preview_event",
    "process_of",
    "publication_check",
    "publication_kind",
    "publish_final",
    "publish_list",
    "publish_ranking",
    "remove_last_event",
    "rotation_draws",
    "rotation_state",
    "verify_point_draw",
]
