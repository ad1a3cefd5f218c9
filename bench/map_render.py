"""The stall map with 2.000 stalls: the whole view rendered to an image, against a plain QGraphicsScene.

Praça: the map editor (:class:`views.map_editor.MapEditor`) with a site of
2.000 stalls laid out by the legal auto-layout on a long São José dos Campos
night-feira street, each stall with its holder; "Ver tudo" (the whole street in
the window, :meth:`MapView.fit`), then the view rendered into an image of the
viewport's size — the street, kerbs, ruler, names, obstacles and every stall
as the clerk sees them.

Baseline: a plain ``QGraphicsScene`` holding 2.000 ``QGraphicsRectItem``s at
the same places and sizes (filled, outlined), in a plain ``QGraphicsView`` of
the same size with the same render hints, fitted to the same rectangle and
rendered into an image of the same size. Budget: ≤ 1,5×.

Also shown, not judged: the map read from the database and built (``load``).
"""

from __future__ import annotations

from decimal import Decimal as D  # noqa: N817 - D("2.5"): a measure as the act writes it

from bench import data
from bench.common import Figure, at_least, clock, open_scratch, paired, ratio_figure, say, thousands

NAME = "map_render"
LIMIT = 1.5
STALLS = 2_000
VIEW = (1600, 900)


def _site(permit_ids: list[int]) -> int:
    from dataclasses import replace

    from models.rules.regimes import get_regime
    from models.sites import ObstacleInput, SegmentInput, SiteInput, plan_of, save_layout, save_site
    from models.sites.layout import StallRequest, auto_layout

    regime = get_regime(data.REGIME)
    obstacles = [
        ObstacleInput(kind="hydrant", side="a" if k % 2 else "b", start=f"{97 * k},00", extent="0,50")
        for k in range(1, 60)
    ]
    site = save_site(
        SiteInput(
            name="Feira Noturna da Avenida Andrômeda (bench)",
            kind="feira",
            regime=regime.id,
            weekdays=("fri",),
            opens="18:00",
            closes="22:00",
            gap="0,50",
            avoid=("hydrant",),
            segments=[
                SegmentInput(
                    street="Avenida Andrômeda",
                    from_street="Rua Júpiter",
                    to_street="Rua Saturno",
                    length="6400,00",
                    width="12,00",
                    sides="both",
                    obstacles=obstacles,
                )
            ],
        )
    )
    requests = []
    for i in range(STALLS):
        section = regime.sections[i % len(regime.sections)]
        line = regime.line(section.lines[0])
        sized = line.front is not None
        requests.append(
            StallRequest(
                key=f"b{i:04d}",
                section=section.id,
                line=line.id,
                equipment="banca",
                front=None if sized else D("3.00"),
                depth=None if sized else D("2.50"),
            )
        )
    plan = plan_of(site.id)
    layout = auto_layout(regime, plan.segment, plan.obstacles, requests, gap=D("0.50"), avoid=("hydrant",))
    assert len(layout.stalls) == STALLS, (len(layout.stalls), layout.unplaced[:3])
    stalls = [replace(s, holder_id=permit_ids[k]) for k, s in enumerate(layout.stalls)]
    save_layout(site, stalls)
    return site.id


def _render(view, size):
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QImage, QPainter

    image = QImage(size[0], size[1], QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(Qt.GlobalColor.white)
    painter = QPainter(image)
    view.render(painter)
    painter.end()
    return image


def run(backend: str, repeat: int) -> list[Figure]:
    from PySide6.QtCore import QRectF, Qt
    from PySide6.QtGui import QBrush, QColor, QPen
    from PySide6.QtWidgets import QApplication, QGraphicsRectItem, QGraphicsScene, QGraphicsView

    from desktop.app import ensure_app

    ensure_app()
    with open_scratch(backend):
        say(f"  [{backend}] dados: um local com {STALLS} bancas, cada uma com o seu titular…")
        people, _ = data.add_people(STALLS, 0)
        data.add_index_corrections()
        permits = data.add_permits(people, STALLS)
        site_id = _site(permits)

        from views.map_editor import MapEditor

        editor = MapEditor()
        editor.resize(VIEW[0] + 420, VIEW[1] + 200)
        editor.show()
        load = clock(lambda: editor.load(site_id))
        QApplication.processEvents()
        editor.view.setFixedSize(*VIEW)
        QApplication.processEvents()
        editor.view.fit()
        size = (editor.view.viewport().width(), editor.view.viewport().height())
        whole = editor.view.street_rect()

        scene = QGraphicsScene()
        scene.setSceneRect(editor.scene.sceneRect())
        for item in editor.items.values():
            box = item.box
            rect = QGraphicsRectItem(QRectF(0, 0, float(box.along), float(box.across)))
            rect.setPos(float(box.x), float(box.y))
            colour = QColor(editor.plan.entry(box).hex)
            rect.setBrush(QBrush(colour))
            pen = QPen(colour.darker(135), 1)
            pen.setCosmetic(True)
            rect.setPen(pen)
            scene.addItem(rect)
        plain = QGraphicsView(scene)
        plain.setRenderHints(editor.view.renderHints())
        plain.setFixedSize(editor.view.size())
        plain.setHorizontalScrollBarPolicy(editor.view.horizontalScrollBarPolicy())
        plain.setVerticalScrollBarPolicy(editor.view.verticalScrollBarPolicy())
        plain.show()
        QApplication.processEvents()
        plain.fitInView(whole, Qt.AspectRatioMode.KeepAspectRatio)
        assert (plain.viewport().width(), plain.viewport().height()) == size, (plain.viewport().size(), size)
        assert len(editor.items) == STALLS == len(scene.items())

        _render(editor.view, size), _render(plain, size)  # warm: fonts, pens
        ours, theirs = paired(lambda: _render(editor.view, size), lambda: _render(plain, size), at_least(repeat, 5))
        figures = [
            ratio_figure(
                f"map, {thousands(STALLS)} stalls: whole view → image vs plain QGraphicsScene",
                "—",
                ours,
                theirs,
                LIMIT,
                detail=f"{size[0]}×{size[1]} px; map read and built (load) {load * 1000:.0f} ms, not judged",
            )
        ]
        plain.close()
        editor.close()
        editor.deleteLater()
        QApplication.processEvents()
        return figures
