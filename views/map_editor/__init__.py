"""The stall map editor: a site's segment to scale, stalls dragged, turned and resized, every change undoable.

The document is a :class:`models.sites.stall_plan.StallPlan` (pure Python, whole
millimetres); this module only shows it and turns the clerk's gestures into
:class:`PlanCommand`s on one ``QUndoStack`` — a drag is one command pushed on
release, a run of arrow-key nudges of the same stalls merges into one. The
scene follows the plan through its listener: items are thin views of the
plan's boxes. After each change the plan's live legal checks
(:func:`models.sites.layout.check_plan`) outline the stalls in breach in red and fill
the side list, each breach with its article; a breach is kept only with a
written reason (:func:`models.sites.keep_breach`).

Scene units are millimetres: ``x`` along the street from the ``from`` end,
``y`` across from side A's kerb (drawn at the top) to side B's.

The package: style (dimensions and colours), commands (the undo commands), items (a stall), scene
(the drawn segment and the gestures), view (the view and its overlays), dialogs (keeping a breach, the
holders' list), editor (the editor that holds them).
"""

from views.map_editor.commands import PlanCommand, push_change
from views.map_editor.editor import MapEditor

__all__ = [
    "MapEditor",
    "PlanCommand",
    "push_change",
]
