"""The undo commands: a change of the plan, pushed on one QUndoStack; arrow-key nudges merge."""

from __future__ import annotations

from PySide6.QtGui import (
    QUndoCommand,
    QUndoStack,
)

from models.sites.stall_plan import StallPlan
from views.map_editor.style import NUDGE_COMMAND


class PlanCommand(QUndoCommand):
    """One change of the plan: the boxes before and after. ``merge`` (arrow-key nudges of the same stalls)
    folds consecutive commands into one step."""

    def __init__(self, plan: StallPlan, after: dict, text: str, *, merge: bool = False):
        super().__init__(text)
        self.plan = plan
        self.before = plan.before(after)
        self.after = dict(after)
        self._merge = merge

    def id(self) -> int:  # Qt API: the name shadows a builtin on purpose
        return NUDGE_COMMAND if self._merge else -1

    def mergeWith(self, other: QUndoCommand) -> bool:
        if not isinstance(other, PlanCommand) or not (self._merge and other._merge):
            return False
        if set(other.after) != set(self.after):
            return False
        self.after = dict(other.after)
        if self.after == self.before:
            self.setObsolete(True)
        return True

    def redo(self) -> None:
        self.plan.apply(self.after)

    def undo(self) -> None:
        self.plan.apply(self.before)


def push_change(stack: QUndoStack, plan: StallPlan, changes: dict, text: str, *, merge: bool = False) -> bool:
    """Push ``changes`` as one undo step (nothing when they change nothing)."""
    if not changes or all(plan.stalls.get(uid) == box for uid, box in changes.items()):
        return False
    stack.push(PlanCommand(plan, changes, text, merge=merge))
    return True
