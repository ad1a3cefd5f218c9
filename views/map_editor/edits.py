"""The editor's edits of the plan: every change pushed on the undo stack (nudge, turn, delete, align,
distribute, pack, add, number, section, size), the holders assigned to stalls, the breaches kept or dropped,
the automatic layout.

A mixin of :class:`views.map_editor.editor.MapEditor`: the edits reach the plan through the editor's undo
stack, scene and side panels.
"""

from __future__ import annotations

from html import escape

from PySide6.QtCore import QRectF, Qt
from PySide6.QtWidgets import (
    QDialog,
    QListWidgetItem,
)

from models.base.errors import UserError
from models.sites import (
    HolderRow,
    check_assignment,
    drop_kept_breach,
    kept_breaches,
    requests_from_permits,
)
from models.sites.layout import format_metres
from models.sites.stall_plan import Box, HolderInfo
from views import theme
from views.blocks import fill
from views.map_editor.commands import push_change
from views.map_editor.dialogs import KeepBreachDialog
from views.roles import allow


class StallEdits:
    """The edits of :class:`views.map_editor.editor.MapEditor` on its plan."""

    def push(self, changes: dict, text: str, *, merge: bool = False) -> bool:
        return push_change(self.undo, self.plan, changes, text, merge=merge)

    def moving_text(self, uids) -> str:
        if len(uids) == 1:
            return fill(self.tr("Mover banca %1"), str(self.plan.stalls[uids[0]].number))
        return fill(self.tr("Mover %1 bancas"), str(len(uids)))

    def nudge(self, dx: int, dy: int) -> None:
        uids = self.selected_uids()
        self.push(self.plan.nudged(uids, dx, dy), self.moving_text(uids), merge=True)

    def rotate_selected(self) -> None:
        uids = self.selected_uids()
        self.push(self.plan.rotated(uids), fill(self.tr("Girar %1 banca(s)"), str(len(uids))))

    def delete_selected(self) -> None:
        uids = self.selected_uids()
        if uids:
            numbers = ", ".join(str(self.plan.stalls[u].number) for u in uids)
            self.push(self.plan.deleted(uids), fill(self.tr("Excluir banca(s) %1"), numbers))

    def align_selected(self, how: str) -> None:
        self.push(self.plan.aligned(self.selected_uids(), how), self.tr("Alinhar bancas"))

    def distribute_selected(self) -> None:
        self.push(self.plan.distributed(self.selected_uids()), self.tr("Distribuir bancas"))

    def pack_selected(self) -> None:
        self.push(self.plan.packed(self.selected_uids()), self.tr("Encostar bancas"))

    def add_stall(self, section: str | None = None) -> int | None:
        """A new stall in the middle of what the window shows, of the selected stall's section if any."""
        uids = self.selected_uids()
        if section is None and uids:
            section = self.plan.stalls[uids[0]].section
        centre = self.view.mapToScene(self.view.viewport().rect().center())
        try:
            uid, changes = self.plan.added(
                section=section, x=round(centre.x()), side="a" if centre.y() < self.plan.width / 2 else "b"
            )
        except UserError as exc:
            self.show_status(exc.message)
            return None
        self.push(changes, fill(self.tr("Adicionar banca %1"), str(changes[uid].number)))
        self.select_stalls([uid])
        return uid

    def _number_edited(self) -> None:
        uids = self.selected_uids()
        if len(uids) != 1:
            return
        try:
            changes = self.plan.edited(uids[0], number=self.prop_number.value())
        except UserError as exc:
            self.show_status(exc.message)
            self._selection_changed()
            return
        self.push(changes, self.tr("Renumerar banca"))

    def _section_edited(self) -> None:
        uids = self.selected_uids()
        if len(uids) == 1:
            changes = self.plan.edited(uids[0], section=self.prop_section.currentData())
            self.push(changes, fill(self.tr("Mudar a seção da banca %1"), str(self.plan.stalls[uids[0]].number)))

    def _show_size(self, box: Box) -> None:
        """The stall's size in the fields, unmarked."""
        self.prop_front.setText(format_metres(box.front, mm=True).removesuffix(" m"))
        self.prop_depth.setText(format_metres(box.depth, mm=True).removesuffix(" m"))
        self._size_error(None)

    def _size_error(self, exc: UserError | None) -> None:
        for key, edit in (("front", self.prop_front), ("depth", self.prop_depth)):
            wrong = exc is not None and exc.field == key
            edit.setStyleSheet(theme.error_style() if wrong else "")
            edit.setToolTip(exc.message if wrong else "")
        self.prop_error.setText(exc.message if exc is not None else "")
        self.prop_error.setVisible(exc is not None)

    def _size_edited(self) -> None:
        uids = self.selected_uids()
        if len(uids) != 1:
            return
        try:
            front, depth = self.plan.typed_size(uids[0], self.prop_front.text(), self.prop_depth.text())
        except UserError as exc:  # kept as typed, marked, nothing changed on the map
            self._size_error(exc)
            return
        self._size_error(None)
        self.resize_stall(uids[0], front, depth)

    def resize_stall(self, uid: int, front: int, depth: int) -> bool:
        changes, limit, clamped = self.plan.resized(uid, front, depth)
        if clamped:
            self.show_status(
                fill(self.tr("Tamanho limitado — %1"), limit.text) + (f" ({limit.basis})" if limit.basis else "")
            )
        return self.push(changes, fill(self.tr("Redimensionar banca %1"), str(self.plan.stalls[uid].number)))

    # -- holders ---------------------------------------------------------------------
    def _elsewhere(self) -> dict[int, int]:
        """Holders on a stall of another segment of the site → that stall's number."""
        return {
            h.permit_id: h.stall
            for h in self.holders.values()
            if h.stall is not None and h.segment_id not in (None, self.segment_id)
        }

    def free_holders(self) -> list[HolderRow]:
        if self.plan is None:
            return []
        on_plan = {b.holder_id for b in self.plan.stalls.values() if b.holder_id is not None}
        elsewhere = self._elsewhere()
        return [h for h in self.holders.values() if h.permit_id not in on_plan and h.permit_id not in elsewhere]

    def _fill_holders(self) -> None:
        if self.plan is None:
            return
        wanted = self.holder_filter.text().strip().lower()
        sections = {s.id: s for s in self.plan.regime.sections}
        keep = self.holder_list.currentItem().data(Qt.ItemDataRole.UserRole) if self.holder_list.currentItem() else None
        self.holder_list.clear()
        for holder in self.free_holders():
            section = sections.get(holder.section)
            text = f"{holder.number} — {holder.name}"
            if section is not None:
                text += "\n" + fill(self.tr("Seção %1 (%2)"), section.numeral, section.label)
            if wanted and wanted not in text.lower():
                continue
            item = QListWidgetItem(text)
            item.setData(Qt.ItemDataRole.UserRole, holder.permit_id)
            item.setToolTip(fill(self.tr("Local da permissão: %1"), holder.place or "—"))
            self.holder_list.addItem(item)
            if holder.permit_id == keep:
                self.holder_list.setCurrentItem(item)

    def assign(self, uid: int, permit_id: int) -> bool:
        """Put the permit's holder on the stall (one undo step); the refusal is shown in pt-BR."""
        holder = self.holders.get(permit_id)
        box = self.plan.stalls.get(uid)
        if holder is None or box is None:
            self.holder_message.setText(self.tr("Titular ou banca não encontrados."))
            return False
        try:
            check_assignment(self.site_id, permit_id, number=box.number, section=box.section)
            changes = self.plan.assigned(
                uid,
                HolderInfo(holder.permit_id, holder.number, holder.name, holder.section),
                elsewhere=self._elsewhere(),
            )
        except UserError as exc:
            self.holder_message.setText(exc.message)
            self.tabs.setCurrentIndex(1)
            return False
        self.holder_message.clear()
        self.select_stalls([uid])
        return self.push(changes, fill(self.tr("Atribuir %1 à banca %2"), holder.number, str(box.number)))

    def assign_selected(self) -> bool:
        uids = self.selected_uids()
        item = self.holder_list.currentItem()
        if len(uids) != 1:
            self.holder_message.setText(self.tr("Selecione uma banca no mapa."))
            return False
        if item is None:
            self.holder_message.setText(self.tr("Selecione um titular na lista."))
            return False
        return self.assign(uids[0], item.data(Qt.ItemDataRole.UserRole))

    def unassign_selected(self) -> bool:
        uids = self.selected_uids()
        changes = self.plan.unassigned(uids)
        if not changes:
            return False
        numbers = ", ".join(str(changes[u].number) for u in changes)
        return self.push(changes, fill(self.tr("Liberar banca %1"), numbers))

    # -- breaches ----------------------------------------------------------------------
    def _breach_chosen(self) -> None:
        item = self.breach_list.currentItem()
        breach = item.data(Qt.ItemDataRole.UserRole) if item is not None else None
        kept = self.kept.get(breach.signature) if breach is not None else None
        allow(self.keep_button, "sites.edit", breach is not None and kept is None)
        allow(self.unkeep_button, "sites.edit", kept is not None)
        if breach is not None:
            uids = self.plan.breach_uids(breach)
            if uids:
                self.select_stalls(uids)
                rect = QRectF()
                for uid in uids:
                    rect = rect.united(self.items[uid].sceneBoundingRect())
                self.view.ensureVisible(rect, 40, 40)

    def selected_breach(self):
        item = self.breach_list.currentItem()
        return item.data(Qt.ItemDataRole.UserRole) if item is not None else None

    def keep_selected_breach(self):
        """Open the reason dialog for the chosen breach; returns the kept breach or None."""
        breach = self.selected_breach()
        if breach is None:
            return None
        dialog = KeepBreachDialog(self.site_id, breach, self)
        self.last_dialog = dialog
        if dialog.exec() != QDialog.DialogCode.Accepted or dialog.kept is None:
            return None
        self.kept = kept_breaches(self.site_id)
        self._refresh_checks()
        self._update_status()
        self.show_status(self.tr("Irregularidade mantida com justificativa."))
        return dialog.kept

    def drop_selected_kept(self) -> bool:
        breach = self.selected_breach()
        kept = self.kept.get(breach.signature) if breach is not None else None
        if kept is None:
            return False
        drop_kept_breach(kept.id)
        self.kept = kept_breaches(self.site_id)
        self._refresh_checks()
        self._update_status()
        return True

    # -- auto-layout, saving, output -----------------------------------------------------
    def run_auto_layout(self):
        """Lay out again this segment's stalls and the holders of the site without one; one undo step."""
        from views.operations import run_operation

        elsewhere = self._elsewhere()
        names = {h.permit_id: h.name for h in self.holders.values()}
        site_id, plan = self.site_id, self.plan

        def work(progress):  # the worker thread (issue 18 §2): a large site's layout leaves the window responsive
            progress(0, 0)  # a busy bar: the layout reports no steps; nothing is written, so nothing to cancel
            extra = [r for r in requests_from_permits(site_id) if r.holder_id not in elsewhere]
            return plan.auto(extra, names=names)

        try:
            changes, layout = run_operation(
                self, self.tr("Distribuindo as bancas…"), work, title=self.tr("Auto-layout"), cancellable=False
            )
        except UserError as exc:
            self.show_status(exc.message)
            return None
        self.last_layout = layout
        self.push(changes, self.tr("Auto-layout"))
        html = [f"<b>{escape(self.tr('Auto-layout'))}</b>: {escape(layout.summary())}"]
        if layout.unplaced:
            html.append(
                "<ul>"
                + "".join(
                    f"<li>{escape(u.key)} — {escape(u.reason)}"
                    + (f" <i>({escape(u.basis)})</i>" if u.basis else "")
                    + "</li>"
                    for u in layout.unplaced
                )
                + "</ul>"
            )
        html.append(
            "<ul>"
            + "".join(
                f"<li>{escape(n.text)}" + (f" <i>({escape(n.basis)})</i>" if n.basis else "") + "</li>"
                for n in layout.notes
            )
            + "</ul>"
        )
        self.auto_result.setHtml("".join(html))
        self.auto_result.setVisible(True)
        self.tabs.setCurrentIndex(0)
        self.show_status(layout.summary())
        return layout
