"""The map's pages painted: header, strips with their stalls and points, footer, scale bar."""

from __future__ import annotations

import math
from decimal import Decimal

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import (
    QColor,
    QImage,
)

from models.sites.layout import format_metres
from models.sites.stall_plan import legend, legend_entry
from reports.site_map.canvas import Canvas, export_regime, metres_text, segment_title, today_text
from reports.site_map.geometry import (
    ASPHALT,
    END_BAND,
    FOOTER_H,
    HEADER_H,
    INK,
    KERB,
    MARGIN,
    MIN_SIDEWALK_MM,
    MUTED,
    OBSTACLE_COLOURS,
    OBSTACLE_MARKS,
    RULER_H,
    SEGMENT_TITLE_H,
    SIDEWALK,
    SIDEWALK_M,
    STRIP_GAP,
    as_float,
    footprint,
    stall_parts,
)
from reports.site_map.pages import PageChoice, Strip, strip_height


def paint_header(c: Canvas, export: dict, choice: PageChoice, *, page: int, pages: int, what: str = "") -> None:
    site = export["site"]
    x, w = MARGIN, choice.width - 2 * MARGIN
    arms = _arms_image(export.get("coat_of_arms") or "")
    if arms is not None:  # the municipality's coat of arms heads the map, as every letterhead (issue 31 §1)
        tall = 12.5
        wide = tall * arms.width() / arms.height()
        c.p.drawImage(c.r(x, MARGIN, wide, tall), arms)
        x, w = x + wide + 2, w - wide - 2
    c.pen(INK)
    c.font(5.2, bold=True)
    c.text(x, MARGIN, w * 0.7, 7, c.elided(site["name"], w * 0.7))
    c.font(3.0)
    kind = {"street": "rua (trecho)", "feira": "feira", "event-area": "área de evento", "beach": "praia"}.get(
        site.get("kind", ""), site.get("kind", "")
    )
    segments = export.get("segments") or []
    where = "; ".join(segment_title(s) for s in segments) if segments else "pontos nomeados pelo ato"
    c.pen(MUTED)
    town = export.get("municipality") or ""
    line = " — ".join(
        p for p in (f"Prefeitura de {town}" if town else "", where, kind, site.get("regime_short", "")) if p
    )
    c.text(x, MARGIN + 7.5, w * 0.72, 5, c.elided(line, w * 0.72))
    right = []
    if choice.scale:
        right.append(f"Escala 1:{choice.scale} (1 cm = {metres_text(Decimal(choice.scale) / 100)})")
    right.append(f"Emitido em {today_text()} — página {page} de {pages}")
    c.pen(INK)
    c.font(3.6, bold=True)
    c.text(
        x, MARGIN, w, 7, right[0] if choice.scale else "", Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
    )
    c.font(3.0)
    c.pen(MUTED)
    c.text(x, MARGIN + 7.5, w, 5, right[-1], Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
    if what:
        c.pen(INK)
        c.font(3.4, bold=True)
        c.text(x, MARGIN + 13, w, 5, what)
    c.pen(KERB, 0.3)
    c.line(x, MARGIN + HEADER_H - 2, x + w, MARGIN + HEADER_H - 2)


def _arms_image(uri: str) -> QImage | None:
    """The coat of arms of a data: URI, or None (none, or not an image)."""
    import base64
    import binascii

    if ";base64," not in uri:
        return None
    try:
        image = QImage.fromData(base64.b64decode(uri.split(";base64,", 1)[1], validate=True))
    except (binascii.Error, ValueError):
        return None
    return None if image.isNull() or not image.height() else image


def _ruler_step(scale: int) -> float:
    """Metres between the ruler's marks: about 15 mm apart on paper."""
    for step in (1, 2, 5, 10, 20, 25, 50, 100, 200, 500, 1000):
        if step * 1000.0 / scale >= 15:
            return float(step)
    return 1000.0


def _paint_strip(c: Canvas, export: dict, strip: Strip, seg: dict, top: float, choice: PageChoice, regime) -> float:
    """One strip of a segment from ``top``; returns its height."""
    k_m = choice.mm_per_m
    left = MARGIN + END_BAND
    width_m = as_float(seg["width"])
    sidewalk = max(MIN_SIDEWALK_MM, SIDEWALK_M * k_m)
    span = (strip.end - strip.start) * k_m
    ruler_y = top
    a_top = top + RULER_H
    road_top = a_top + sidewalk
    road_h = width_m * k_m
    b_top = road_top + road_h

    def X(metres: float) -> float:  # noqa: N802 - a coordinate
        return left + (metres - strip.start) * k_m

    # ruler: metres along the segment
    step = _ruler_step(choice.scale)
    c.pen(MUTED, 0.15)
    c.font(2.2)
    mark = math.ceil(strip.start / step - 1e-9) * step
    while mark <= strip.end + 1e-9:
        c.line(X(mark), ruler_y + RULER_H - 1.2, X(mark), ruler_y + RULER_H)
        label = f"{format_metres(Decimal(str(mark)).quantize(Decimal('1')))}".replace(",00", "")
        c.text(
            X(mark) - 10,
            ruler_y,
            20,
            RULER_H - 1.2,
            label,
            Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignBottom,
        )
        mark += step
    # sidewalks, kerbs, carriageway, centre line
    c.no_pen()
    c.brush(SIDEWALK)
    c.rect(left, a_top, span, sidewalk)
    c.rect(left, b_top, span, sidewalk)
    c.brush(ASPHALT)
    c.rect(left, road_top, span, road_h)
    c.pen(KERB, 0.35)
    c.line(left, road_top, left + span, road_top)
    c.line(left, b_top, left + span, b_top)
    c.pen("#FFFFFF", 0.3, Qt.PenStyle.DashLine)
    c.line(left, road_top + road_h / 2, left + span, road_top + road_h / 2)
    c.brush(None)
    # side names on the sidewalks
    c.pen(MUTED)
    c.font(min(2.4, sidewalk * 0.7), italic=True)
    sides = seg.get("sides", "both")
    c.text(left + 1, a_top, 40, sidewalk, "Lado A — calçada")
    c.text(left + 1, b_top, 40, sidewalk, "Lado B — calçada" if sides == "both" else "Lado B — sem bancas")
    c.font(min(3.0, road_h * 0.3), bold=True)
    c.pen("#9AA1A8")
    c.text(left, road_top, span, road_h, seg["street"], Qt.AlignmentFlag.AlignCenter)

    c.p.save()
    c.p.setClipRect(c.r(left, a_top, span, b_top + sidewalk - a_top))
    # obstacles on their side's sidewalk; crossings and garages marked across the kerb lane
    for obstacle in export.get("obstacles", []):
        if obstacle.get("segment", 0) != seg["position"]:
            continue
        x0, x1 = as_float(obstacle["start"]), as_float(obstacle["start"]) + as_float(obstacle["extent"])
        if x1 < strip.start or x0 > strip.end:
            continue
        colour = OBSTACLE_COLOURS.get(obstacle["kind"], MUTED)
        for side in ("a", "b") if obstacle["side"] == "both" else (obstacle["side"],):
            y = a_top if side == "a" else b_top
            w = max(1.8, (x1 - x0) * k_m)
            if obstacle["kind"] == "tree":
                c.pen("#1B5E20", 0.2)
                c.brush("#66BB6A")
                d = min(sidewalk * 0.9, max(1.8, w))
                c.p.drawEllipse(c.r(X((x0 + x1) / 2) - d / 2, y + (sidewalk - d) / 2, d, d))
            else:
                c.pen(colour, 0.2)
                c.brush(colour)
                c.rect(X(x0), y + sidewalk * 0.15, w, sidewalk * 0.7)
                symbol = OBSTACLE_MARKS.get(obstacle["kind"], "")
                if symbol:
                    c.pen("#FFFFFF")
                    c.font(min(2.2, sidewalk * 0.55), bold=True)
                    if c.width_of(symbol) < w + 2:
                        c.text(X(x0) - 2, y, w + 4, sidewalk, symbol, Qt.AlignmentFlag.AlignCenter)
            if obstacle["kind"] in ("garage", "crossing"):
                c.pen("#C62828", 0.2)
                c.brush("#C62828", Qt.BrushStyle.BDiagPattern)
                if obstacle["kind"] == "crossing" and obstacle["side"] == "both":
                    c.rect(X(x0), road_top, w, road_h)
                else:
                    lane = min(road_h / 2, 3.0 * k_m)
                    c.rect(X(x0), road_top if side == "a" else b_top - lane, w, lane)
    # stalls
    for stall in export.get("stalls", []):
        if stall.get("segment", 0) != seg["position"]:
            continue
        x0, y0, along, across = footprint(stall)
        if x0 + along < strip.start or x0 > strip.end:
            continue
        _paint_stall(c, stall, X(x0), road_top + y0 * k_m, along * k_m, across * k_m, regime)
    c.p.restore()

    # the streets at each end, or where the strip goes on
    band_top, band_h = a_top, b_top + sidewalk - a_top
    for at_start in (True, False):
        x = MARGIN if at_start else left + span
        is_end = strip.first if at_start else strip.last
        if is_end:
            name = seg.get("from" if at_start else "to") or ""
            c.no_pen()
            c.brush(ASPHALT)
            c.rect(x + 0.6, band_top, END_BAND - 1.2, band_h)
            c.pen(KERB, 0.35)
            c.line(x + 0.6, band_top, x + 0.6, band_top + band_h)
            c.line(x + END_BAND - 0.6, band_top, x + END_BAND - 0.6, band_top + band_h)
            if name:
                c.p.save()
                c.p.translate(c.pt(x + END_BAND / 2, band_top + band_h / 2))
                c.p.rotate(-90)
                c.pen(INK)
                c.font(min(2.8, END_BAND * 0.32), bold=True)
                c.p.drawText(
                    QRectF(-band_h / 2 * c.k, -END_BAND / 2 * c.k, band_h * c.k, END_BAND * c.k),
                    int(Qt.AlignmentFlag.AlignCenter),
                    c.elided(name, band_h - 1),
                )
                c.p.restore()
        else:
            c.pen(MUTED)
            c.font(2.2, italic=True)
            arrow = "continuação" if at_start else "continua abaixo"
            c.p.save()
            c.p.translate(c.pt(x + END_BAND / 2, band_top + band_h / 2))
            c.p.rotate(-90)
            c.p.drawText(
                QRectF(-band_h / 2 * c.k, -END_BAND / 2 * c.k, band_h * c.k, END_BAND * c.k),
                int(Qt.AlignmentFlag.AlignCenter),
                arrow,
            )
            c.p.restore()
    return RULER_H + 2 * sidewalk + road_h


def _paint_stall(c: Canvas, stall: dict, x: float, y: float, w: float, h: float, regime) -> None:
    entry = (
        legend_entry(regime, stall.get("section"), stall.get("equipment"), bool(stall.get("end_vendor")))
        if regime is not None
        else None
    )
    colour = QColor(entry.hex if entry else "#78909C")
    hitch_mm = (
        as_float(stall.get("hitch"))
        * (w if int(stall.get("rotation") or 0) % 180 == 0 else h)
        / max(1e-9, (as_float(stall["width"]) + as_float(stall.get("hitch"))))
    )
    body, band, tow = stall_parts(w, h, hitch_mm, int(stall.get("rotation") or 0))
    if tow is not None:
        c.pen(INK, 0.15)
        c.brush("#9E9E9E")
        c.rect(x + tow[0], y + tow[1], tow[2] - tow[0], tow[3] - tow[1])
    c.pen(colour.darker(130), 0.25)
    c.brush("#FFFFFF")
    bx, by, bw, bh = x + body[0], y + body[1], body[2] - body[0], body[3] - body[1]
    c.rect(bx, by, bw, bh)
    c.no_pen()
    c.brush(colour)
    c.rect(x + band[0], y + band[1], band[2] - band[0], band[3] - band[1])
    c.pen(colour.darker(130), 0.25)
    c.brush(None)
    c.rect(bx, by, bw, bh)
    # the label in the white part: number, then section
    free = (bx, by, bw, bh)
    rotation = int(stall.get("rotation") or 0)
    if rotation == 0:
        free = (bx, by + bh * 0.4, bw, bh * 0.6)
    elif rotation == 180:
        free = (bx, by, bw, bh * 0.6)
    elif rotation == 90:
        free = (bx, by, bw * 0.6, bh)
    else:
        free = (bx + bw * 0.4, by, bw * 0.6, bh)
    fx, fy, fw, fh = free
    size = min(3.2, fh * 0.55, fw * 0.45)
    if size < 1.1:
        return
    number = str(stall["number"])
    numeral = stall.get("section_numeral") or ""
    band_w, band_h = band[2] - band[0], band[3] - band[1]
    if numeral and rotation in (0, 180) and band_h >= 1.6:
        # the section's numeral in white on its colour
        c.pen("#FFFFFF")
        c.font(min(2.4, band_h * 0.8), bold=True)
        if c.width_of(numeral) <= band_w - 0.4:
            c.text(x + band[0], y + band[1], band_w, band_h, numeral, Qt.AlignmentFlag.AlignCenter)
            numeral = ""
    c.pen(INK)
    c.font(size, bold=True)
    if fh >= size * 2.1 and numeral:
        c.text(fx, fy, fw, fh / 2, number, Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignBottom)
        c.font(size * 0.75)
        c.pen(MUTED)
        c.text(
            fx,
            fy + fh / 2,
            fw,
            fh / 2,
            c.elided(numeral, fw),
            Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop,
        )
    else:
        c.text(fx, fy, fw, fh, number, Qt.AlignmentFlag.AlignCenter)


def _paint_footer(c: Canvas, export: dict, choice: PageChoice, regime, *, with_list: bool = False) -> None:
    top = choice.height - MARGIN - FOOTER_H + 2
    x = MARGIN
    c.pen(KERB, 0.3)
    c.line(x, top - 1.5, choice.width - MARGIN, top - 1.5)
    entries = (
        legend(
            regime,
            ((s.get("section"), s.get("equipment"), bool(s.get("end_vendor"))) for s in export.get("stalls", [])),
        )
        if regime is not None
        else []
    )
    c.pen(INK)
    c.font(3.2, bold=True)
    if entries or export.get("obstacles"):
        c.text(x, top, 40, 5, "Legenda")
    bar_w = 62.0
    col_w = (choice.width - 2 * MARGIN - bar_w - 6) / 2
    row_h = 4.6
    rows_per_col = max(1, int((FOOTER_H - 7) // row_h))
    for i, entry in enumerate(entries):
        col, row = divmod(i, rows_per_col)
        if col > 1:
            break
        ex, ey = x + col * col_w, top + 5.5 + row * row_h
        c.pen(QColor(entry.hex).darker(130), 0.2)
        c.brush("#FFFFFF")
        c.rect(ex, ey + 0.4, 7, 3.4)
        c.no_pen()
        c.brush(entry.hex)
        c.rect(ex, ey + 0.4, 7, 3.4 * 0.4)
        c.brush(None)
        c.pen(INK)
        c.font(2.6, bold=True)
        head = entry.label
        c.text(ex + 8.5, ey, col_w - 9, 4.2, head)
        used = c.width_of(head) + 1.5
        c.font(2.4)
        c.pen(MUTED)
        rest = entry.detail + (f" ({entry.basis})" if entry.basis else "")
        c.text(ex + 8.5 + used, ey, col_w - 9 - used, 4.2, c.elided(rest, col_w - 9 - used))
    # obstacles and the list
    kinds: list[tuple[str, str]] = []
    for o in export.get("obstacles", []):
        if o["kind"] not in [k for k, _ in kinds]:
            kinds.append((o["kind"], o.get("kind_label") or o["kind"]))
    extra_row = top + 5.5 + min(len(entries), rows_per_col) * row_h
    notes = []
    if kinds:
        notes.append(
            "Obstáculos: "
            + " · ".join(f"{OBSTACLE_MARKS.get(k) or ('●' if k == 'tree' else '▨')} {label}" for k, label in kinds)
        )
    if export.get("stalls") and with_list:
        notes.append("Lista das bancas e titulares na página seguinte.")
    if notes and extra_row + 4 <= choice.height - MARGIN:
        c.font(2.4)
        c.pen(MUTED)
        c.text(x, extra_row, 2 * col_w, 4.2, c.elided("   ".join(notes), 2 * col_w))
    # scale bar
    if choice.scale:
        _paint_scale_bar(c, choice, choice.width - MARGIN - bar_w, top + 2, bar_w)
    if not choice.fits:
        c.pen("#B00020")
        c.font(2.6, bold=True)
        c.text(
            x,
            choice.height - MARGIN - 4,
            choice.width - 2 * MARGIN,
            4,
            "O trecho não coube inteiro nesta folha: use uma folha maior ou exporte por trecho.",
            Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter,
        )


def _paint_scale_bar(c: Canvas, choice: PageChoice, x: float, y: float, width: float) -> None:
    k_m = choice.mm_per_m
    total = 1.0
    for step in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000):
        if step * k_m <= width - 6:
            total = float(step)
    parts = 4 if total not in (25.0, 250.0) else 5
    seg_mm = total * k_m / parts
    c.pen(INK)
    c.font(2.8, bold=True)
    c.text(x, y, width, 4.5, f"Escala 1:{choice.scale}", Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
    bar_y = y + 8
    for i in range(parts):
        c.pen(INK, 0.2)
        c.brush(INK if i % 2 == 0 else "#FFFFFF")
        c.rect(x + i * seg_mm, bar_y, seg_mm, 1.6)
    c.brush(None)
    c.font(2.2)
    for i in range(parts + 1):
        value = total * i / parts
        label = (f"{value:g}".replace(".", ",")) + (" m" if i == parts else "")
        c.text(
            x + i * seg_mm - 8, bar_y + 1.8, 16, 3.5, label, Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop
        )


def paint_map_page(c: Canvas, export: dict, choice: PageChoice, *, pages: int) -> None:
    with_list = pages > 1
    regime = export_regime(export)
    paint_header(c, export, choice, page=1, pages=pages)
    segments = {s["position"]: s for s in export.get("segments") or []}
    if not segments:
        _paint_points(c, export, choice, MARGIN + HEADER_H)
        _paint_footer(c, export, choice, regime, with_list=with_list)
        return
    top = MARGIN + HEADER_H
    limit = choice.height - MARGIN - FOOTER_H
    current = None
    for strip in choice.strips:
        seg = segments[strip.segment]
        if len(segments) > 1 and strip.segment != current:
            c.pen(INK)
            c.font(3.0, bold=True)
            c.text(
                MARGIN,
                top,
                choice.width - 2 * MARGIN,
                SEGMENT_TITLE_H,
                f"Trecho {strip.segment + 1}: {segment_title(seg)}",
            )
            top += SEGMENT_TITLE_H
        current = strip.segment
        if top + strip_height(seg, choice.mm_per_m) > limit + 0.01 and not choice.fits:
            break
        top += _paint_strip(c, export, strip, seg, top, choice, regime) + STRIP_GAP
    _paint_footer(c, export, choice, regime, with_list=with_list)


def _paint_points(c: Canvas, export: dict, choice: PageChoice, top: float) -> None:
    c.pen(INK)
    c.font(3.4, bold=True)
    c.text(MARGIN, top, 200, 5, "Pontos nomeados pelo ato")
    top += 7
    width = choice.width - 2 * MARGIN
    for point in export.get("points", []):
        if top > choice.height - MARGIN - FOOTER_H - 5:
            break
        c.pen(INK)
        c.font(2.8, bold=True)
        c.text(MARGIN, top, 24, 4.5, point["code"])
        c.font(2.6)
        text = point.get("description") or point.get("label") or ""
        if point.get("basis"):
            text += f" ({export['site'].get('regime_short', '')}, {point['basis']})"
        c.text(MARGIN + 24, top, width - 24, 4.5, c.elided(text, width - 24))
        top += 5.2
