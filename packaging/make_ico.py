"""Praça's icon as a Windows ``.ico`` (the executables, the Start-menu entry, the installer), drawn from
``resources/icons/praca.svg`` by Qt at each size Windows asks for; each image is stored as PNG, as Windows
Vista and later read them. Used by packaging/praca.spec; ``python packaging/make_ico.py OUT.ico`` by hand."""

from __future__ import annotations

import os
import struct
import sys
from pathlib import Path

SIZES = (16, 20, 24, 32, 40, 48, 64, 128, 256)
SVG = Path(__file__).resolve().parent.parent / "resources" / "icons" / "praca.svg"


def png_at(svg: Path, size: int) -> bytes:
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice, Qt
    from PySide6.QtGui import QGuiApplication, QImage, QPainter
    from PySide6.QtSvg import QSvgRenderer

    if QGuiApplication.instance() is None:
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
        png_at.app = QGuiApplication([])  # kept: the application must outlive the painting
    renderer = QSvgRenderer(str(svg))
    if not renderer.isValid():
        raise ValueError(f"{svg}: SVG inválido")
    image = QImage(size, size, QImage.Format.Format_ARGB32)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    renderer.render(painter)
    painter.end()
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buffer, "PNG")
    return bytes(data)


def ico_bytes(images: dict[int, bytes]) -> bytes:
    """An ICO file: ICONDIR, one ICONDIRENTRY per image (0 stands for 256), then the PNGs."""
    header = struct.pack("<HHH", 0, 1, len(images))
    offset = len(header) + 16 * len(images)
    entries, blobs = b"", b""
    for size, png in sorted(images.items()):
        side = 0 if size >= 256 else size
        entries += struct.pack("<BBBBHHII", side, side, 0, 0, 1, 32, len(png), offset)
        blobs += png
        offset += len(png)
    return header + entries + blobs


def write_ico(target: Path, svg: Path = SVG) -> Path:
    target = Path(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(ico_bytes({size: png_at(svg, size) for size in SIZES}))
    return target


if __name__ == "__main__":
    print(write_ico(Path(sys.argv[1] if len(sys.argv) > 1 else "praca.ico")))
