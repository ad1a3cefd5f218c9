"""packaging/: the Windows icon drawn from the SVG (the bundle itself: tests/test_bundle.py)."""

from __future__ import annotations

import struct
import sys
from pathlib import Path

from PySide6.QtGui import QImage

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "packaging"))
from make_ico import SIZES, write_ico  # noqa: E402


def test_the_ico_holds_every_size_as_png(qapp, tmp_path):
    data = write_ico(tmp_path / "praca.ico").read_bytes()
    reserved, kind, count = struct.unpack_from("<HHH", data)
    assert (reserved, kind, count) == (0, 1, len(SIZES))
    for index, size in enumerate(SIZES):
        width, height, _, _, planes, bits, length, offset = struct.unpack_from("<BBBBHHII", data, 6 + 16 * index)
        assert (width, height) == ((0, 0) if size == 256 else (size, size))
        image = QImage.fromData(data[offset:offset + length], "PNG")
        assert (image.width(), image.height(), planes, bits) == (size, size, 1, 32)
        assert image.pixelColor(size // 2, size // 2).alpha() > 0  # the drawing, not an empty square
