"""The editor's edit controller: every change of the plan pushed on the undo stack as one named step.

:class:`PlanEdits` is created with the undo stack it pushes on and is given the plan the editor opened
(:meth:`PlanEdits.open`). Each edit takes the stalls it acts on (the editor passes the selection) and says
whether a step was pushed; a refusal of the act is raised as :class:`models.base.errors.UserError` for the
editor to show. It reads no widget.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from PySide6.QtCore import QObject
from PySide6.QtGui import QUndoStack

from models.sites.stall_plan import Box, Changes, HolderInfo, SizeLimit, StallPlan
from views.blocks import fill
from views.map_editor.commands import push_change


class PlanEdits(QObject):
    """The plan's edits, each one undo step (a run of nudges of the same stalls merges into one)."""

    def __init__(self, undo: QUndoStack, parent: QObject | None = None):
        super().__init__(parent)
        self.undo = undo
        self._plan: StallPlan | None = None

    def open(self, plan: StallPlan) -> None:
        """Edit this plan from now on; the undo history starts afresh."""
        self._plan = plan
        self.undo.clear()

    @property
    def plan(self) -> StallPlan:
        if self._plan is None:
            raise RuntimeError("no plan open")
        return self._plan

    def push(self, changes: Mapping[int, Box | None], text: str, *, merge: bool = False) -> bool:
        return push_change(self.undo, self.plan, dict(changes), text, merge=merge)

    def moving_text(self, uids: list[int]) -> str:
        if len(uids) == 1:
            return fill(self.tr("Mover banca %1"), str(self.plan.stalls[uids[0]].number))
        return fill(self.tr("Mover %1 bancas"), str(len(uids)))

    def nudge(self, uids: list[int], dx: int, dy: int) -> bool:
        return self.push(self.plan.nudged(uids, dx, dy), self.moving_text(uids), merge=True)

    def rotate(self, uids: list[int]) -> bool:
        return self.push(self.plan.rotated(uids), fill(self.tr("Girar %1 banca(s)"), str(len(uids))))

    def delete(self, uids: list[int]) -> bool:
        if not uids:
            return False
        numbers = ", ".join(str(self.plan.stalls[u].number) for u in uids)
        return self.push(self.plan.deleted(uids), fill(self.tr("Excluir banca(s) %1"), numbers))

    def align(self, uids: list[int], how: str) -> bool:
        return self.push(self.plan.aligned(uids, how), self.tr("Alinhar bancas"))

    def distribute(self, uids: list[int]) -> bool:
        return self.push(self.plan.distributed(uids), self.tr("Distribuir bancas"))

    def pack(self, uids: list[int]) -> bool:
        return self.push(self.plan.packed(uids), self.tr("Encostar bancas"))

    def add(self, section: str | None, x: int | None, side: str) -> int:
        """A new free stall at ``x`` on ``side`` (``None``: the first place free of breaches); its uid (the act's
        refusal raised)."""
        uid, changes = self.plan.added(section=section, x=x, side=side)
        box = changes[uid]
        assert box is not None  # the stall added
        self.push(changes, fill(self.tr("Adicionar banca %1"), str(box.number)))
        return uid

    def renumber(self, uid: int, number: int) -> bool:
        return self.push(self.plan.edited(uid, number=number), self.tr("Renumerar banca"))

    def set_section(self, uid: int, section: str | None) -> bool:
        changes = self.plan.edited(uid, section=section)
        return self.push(changes, fill(self.tr("Mudar a seção da banca %1"), str(self.plan.stalls[uid].number)))

    def resize(self, uid: int, front: int, depth: int) -> tuple[bool, SizeLimit | None]:
        """Resize the stall; whether a step was pushed, and the act's limit when the size was cut to it."""
        changes, limit, clamped = self.plan.resized(uid, front, depth)
        pushed = self.push(changes, fill(self.tr("Redimensionar banca %1"), str(self.plan.stalls[uid].number)))
        return pushed, (limit if clamped else None)

    def assignment(self, uid: int, holder: HolderInfo, elsewhere: Mapping[int, int]) -> tuple[Changes, str]:
        """The step that puts the holder on the stall, to :meth:`push` (the act's refusal raised)."""
        box = self.plan.stalls[uid]
        changes = self.plan.assigned(uid, holder, elsewhere=elsewhere)
        return changes, fill(self.tr("Atribuir %1 à banca %2"), holder.number, str(box.number))

    def unassign(self, uids: Iterable[int]) -> bool:
        changes: Changes = self.plan.unassigned(uids)
        if not changes:
            return False
        numbers = ", ".join(str(box.number) for box in changes.values() if box is not None)
        return self.push(changes, fill(self.tr("Liberar banca %1"), numbers))
