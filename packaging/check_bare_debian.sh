#!/bin/sh
# The README's system libraries, checked on a bare Debian 12 (issue 31 §6): a minbase chroot (debootstrap) with
# python3 only, then with the README's apt-get line — this tree's .venv (the wheel's PySide6) run inside it.
#
#   sudo packaging/check_bare_debian.sh [/tmp/praca-bare]        (root, debootstrap, Xvfb and the network)
#
# It prints what ldd does not find on the bare system, opens every desk with Qt's X11 window (xcb) against an
# Xvfb of the host — which fails there — installs the README's list and does both again: nothing missing, every
# desk built. Exit 0 only then. The chroot is left for a look; remove it with the umount line it prints.
set -eu
ROOT=${1:-/tmp/praca-bare}
TREE=$(cd "$(dirname "$0")/.." && pwd)
MIRROR=${MIRROR:-http://deb.debian.org/debian}
DISPLAY_NUMBER=${DISPLAY_NUMBER:-77}
PACKAGES=$(sed -n '/<!-- system-libraries:/,/apt-get install/p' "$TREE/README.md" | sed -n 's/.*apt-get install //p')
[ -n "$PACKAGES" ] || { echo "README.md: sem a linha apt-get install da lista" >&2; exit 2; }

if [ ! -x "$ROOT/usr/bin/python3" ]; then
    debootstrap --variant=minbase --include=python3,ca-certificates bookworm "$ROOT" "$MIRROR"
fi
mkdir -p "$ROOT$TREE" "$ROOT/tmp/.X11-unix"
mountpoint -q "$ROOT$TREE" || mount --bind -o ro "$TREE" "$ROOT$TREE"
mountpoint -q "$ROOT/tmp/.X11-unix" || mount --bind /tmp/.X11-unix "$ROOT/tmp/.X11-unix"
mountpoint -q "$ROOT/proc" || mount -t proc proc "$ROOT/proc"
echo "(para desfazer: umount $ROOT$TREE $ROOT/tmp/.X11-unix $ROOT/proc)"

Xvfb ":$DISPLAY_NUMBER" -screen 0 1366x768x24 -nolisten tcp >/dev/null 2>&1 &
XVFB=$!
trap 'kill $XVFB 2>/dev/null || true' EXIT
sleep 2

SITE=$(ls -d "$TREE"/.venv/lib/python3*/site-packages/PySide6)
inside() {
    chroot "$ROOT" env -i HOME=/root PATH=/usr/bin:/bin:/usr/sbin:/sbin LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive \
        DISPLAY=":$DISPLAY_NUMBER" XDG_RUNTIME_DIR=/tmp PRACA_USER=ana PRACA_PASSWORD=senha-forte-123 ${QT_QPA_PLATFORM:+QT_QPA_PLATFORM=$QT_QPA_PLATFORM} "$@"
}
missing() {
    for f in "$SITE"/Qt/plugins/platforms/libqxcb.so "$SITE"/Qt/plugins/platforms/libqwayland.so \
        "$SITE"/Qt/plugins/xcbglintegrations/*.so "$SITE"/Qt/plugins/printsupport/*.so "$SITE"/Qt/lib/libQt6Gui.so.6 \
        "$SITE"/Qt/lib/libQt6DBus.so.6 "$SITE"/Qt/lib/libQt6WaylandClient.so.6 "$SITE"/Qt/lib/libQt6XcbQpa.so.6; do
        inside ldd "$f"
    done | grep "not found" | grep -v libQt6 | sort -u
}
# The bare system's own Python 3.11 with this tree's .venv packages (the wheels' files, PySide6 among them):
# the .venv's interpreter may be one the bare system does not have (pyenv).
PACKAGES_DIR=$(dirname "$SITE")
praca() {
    inside /usr/bin/python3 -c "import runpy, site, sys; site.addsitedir('$PACKAGES_DIR'); sys.argv[0] = 'praca'; \
runpy.run_module('desktop', run_name='__main__')" "$@"
}
window() {
    rm -rf "$ROOT/root/.config" "$ROOT/root/.local" "$ROOT/tmp/bare.sqlite3"
    praca init --admin ana --db sqlite:////tmp/bare.sqlite3 >/dev/null &&
        QT_QPA_PLATFORM=xcb praca check-window --db sqlite:////tmp/bare.sqlite3
}

echo "== Debian 12 mínimo, só python3: o que falta"
missing || true
echo "== a janela (xcb) sem a lista"
if window; then bare=0; else bare=$?; fi
echo "(saída $bare)"

echo "== apt-get install da lista do README"
inside apt-get update -qq
# shellcheck disable=SC2086  # one word per package
inside apt-get install -y -qq --no-install-recommends $PACKAGES >/dev/null
echo "== com a lista: o que falta"
left=$(missing || true)
echo "${left:-nada}"
echo "== a janela (xcb) com a lista"
window
[ -z "$left" ] && [ "$bare" -ne 0 ]
