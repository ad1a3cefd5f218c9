"""Buttons an act forbids to the user's role (issue 18 §4): disabled, with a tooltip saying who may do it — the
domain refuses the act anyway (models.access.session.require); the screen says so before the click."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QWidget

from models.access import session
from views.blocks import fill


def who_may(act: str) -> str:
    """'chefe ou administrador'."""
    roles = [session.ROLES[r] for r in session.PERMISSIONS[act]] + ["administrador"]
    return " ou ".join(dict.fromkeys(roles))


def allow(widget: QWidget | QAction, act: str, enabled: bool = True) -> bool:
    """Enable ``widget`` (a button, an action) when ``enabled`` and the user's role may do ``act``; when the role
    may not, disabled with a tooltip that says who may. Returns whether it is enabled."""
    if session.can(act):
        if widget.property("role-tip"):
            widget.setToolTip(widget.property("own-tip") or "")
            widget.setProperty("role-tip", False)
        widget.setEnabled(enabled)
        return enabled
    if not widget.property("role-tip"):
        widget.setProperty("own-tip", widget.toolTip())
        widget.setProperty("role-tip", True)
    widget.setEnabled(False)
    widget.setToolTip(
        fill(QCoreApplication.translate("roles", "Só %1 pode %2."), who_may(act), session.ACT_LABELS[act])
    )
    return False
