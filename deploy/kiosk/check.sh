#!/bin/sh
# The kiosk recipe, checked on this machine (make kiosk-check):
#  1. systemd-analyze verify on huit-kiosk.service, with its paths pointed at this checkout
#     (the unit as shipped names /opt/huit/venv/bin/huit and /usr/local/lib/huit-kiosk/, which
#     only exist on a kiosk) and at a user that exists here;
#  2. the game under cage's headless wlroots backend (no screen, no GPU), started the way the
#     unit starts it (session script, --kiosk --cores 1, HUIT_DATA_DIR, SDL on Wayland), then
#     stopped the way the unit stops it (huit-kiosk-stop): the game must exit 0 and cage end.
# cage refuses to run as root: as root, the game runs as the user "nobody" (with the bundle
# from make dist, which "nobody" can read; else HUIT_COMMAND names the command to run).
# "check.sh unit" runs step 1 alone (tests/test_kiosk.py), which needs no game to run.
set -eu
only_unit=""
[ "${1:-}" = unit ] && only_unit=1
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
work=$(mktemp -d /tmp/huit-kiosk-check.XXXXXX)
trap 'rm -rf "$work"' EXIT
chmod 755 "$work"

huit=${HUIT_COMMAND:-$root/dist/huit/huit}
if [ ! -x "$huit" ]; then
    if [ -z "$only_unit" ]; then
        echo "no $huit: run make dist first, or set HUIT_COMMAND to a huit command" >&2
        exit 2
    fi
    huit=$here/huit-kiosk-session  # the unit's check only needs ExecStart to name an executable
fi

echo "== systemd-analyze verify"
if ! command -v systemd-analyze >/dev/null; then
    echo "systemd-analyze is not installed here: skipped"
elif [ ! -x /usr/bin/cage ]; then
    # The unit's ExecStart names /usr/bin/cage, and verify refuses a command it cannot run.
    echo "cage is not installed here (apt-get install cage xwayland): the unit's check skipped"
else
    user=$(id -un)
    sed -e "s|/opt/huit/venv/bin/huit|$huit|" \
        -e "s|/usr/local/lib/huit-kiosk/|$here/|g" \
        -e "s|^User=huit|User=$user|" -e "s|^Group=huit|Group=$(id -gn)|" \
        "$here/huit-kiosk.service" > "$work/huit-kiosk.service"
    # Only this unit's own problems count (the host's other units may have theirs).
    out=$(systemd-analyze verify "$work/huit-kiosk.service" 2>&1 || true)
    [ -z "$out" ] || printf 'systemd-analyze said:\n%s\n' "$out"
    mine=$(printf '%s\n' "$out" | grep -F "huit-kiosk" || true)
    if [ -n "$mine" ]; then
        printf '%s\n' "$mine"
        echo "the unit has problems" >&2
        exit 1
    fi
    echo "huit-kiosk.service: no problems"
fi
[ -z "$only_unit" ] || exit 0

echo "== the game under cage (headless)"
if ! command -v cage >/dev/null; then
    echo "cage is not installed here (apt-get install cage xwayland): skipped"
    exit 0
fi
as=""
runtime="$work/run"
data="$work/data"
mkdir -p "$runtime" "$data"  # as systemd makes RuntimeDirectory= and StateDirectory=
chmod 700 "$runtime" "$data"
scripts=$here
if [ "$(id -u)" = 0 ]; then
    chown nobody "$runtime" "$data"
    as="runuser -u nobody --"
    # A checkout in a private folder (mktemp -d makes them 0700) is out of nobody's reach:
    # then the bundle and the scripts run from copies in the work folder.
    if ! $as test -x "$huit" || ! $as test -x "$here/huit-kiosk-session"; then
        bundle=$(dirname "$huit")
        if [ ! -d "$bundle/_internal" ]; then
            echo "the user nobody cannot run $huit (cage refuses root): put it where nobody can read it" >&2
            exit 2
        fi
        echo "(nobody cannot reach $bundle: running copies of the bundle and the scripts)"
        cp -a "$bundle" "$work/bundle"
        mkdir "$work/kiosk"
        cp "$here/huit-kiosk-session" "$here/huit-kiosk-stop" "$work/kiosk/"
        chmod -R a+rX "$work/bundle" "$work/kiosk"
        huit="$work/bundle/$(basename "$huit")"
        scripts=$work/kiosk
    fi
fi
$as env -i PATH=/usr/bin:/bin XDG_RUNTIME_DIR="$runtime" RUNTIME_DIRECTORY="$runtime" \
    WLR_BACKENDS=headless WLR_LIBINPUT_NO_DEVICES=1 WLR_RENDERER=pixman \
    HUIT_DATA_DIR="$data" SDL_VIDEODRIVER=wayland SDL_FRAMEBUFFER_ACCELERATION=1 SDL_AUDIODRIVER=dummy \
    cage -s -- "$scripts/huit-kiosk-session" "$huit" --kiosk --cores 1 > "$work/cage.log" 2>&1 &
cage_pid=$!
started=$(date +%s)
# The game is up once its window is open and its loop runs: then it listens for links.
until [ -n "$(ls "$runtime/huit" 2>/dev/null)" ]; do
    if ! kill -0 "$cage_pid" 2>/dev/null; then
        cat "$work/cage.log"
        echo "cage ended before the game was up" >&2
        exit 1
    fi
    if [ $(( $(date +%s) - started )) -gt 60 ]; then
        cat "$work/cage.log"
        kill "$cage_pid"
        echo "the game did not come up within 60 s" >&2
        exit 1
    fi
    sleep 0.2
done
game=$(cat "$runtime/huit-game.pid")
echo "the game (pid $game) runs under cage after $(( $(date +%s) - started )) s; data folder $data"
sleep 2
$as env RUNTIME_DIRECTORY="$runtime" "$scripts/huit-kiosk-stop"
echo "huit-kiosk-stop returned: the game has ended"
status=0
wait "$cage_pid" || status=$?
echo "cage ended with status $status"
if grep -q "Traceback" "$work/cage.log"; then
    cat "$work/cage.log"
    exit 1
fi
[ "$status" = 0 ] || { cat "$work/cage.log"; echo "cage (and the game) did not end cleanly" >&2; exit 1; }
echo "kiosk check passed"
