#!/bin/sh
# What `make bench` needs besides the test extra: Debian's wrk (the throughput bench) and
# Chromium (the hot-path bench). Installed with apt-get when running as root (or with sudo
# that asks no password), as .ci/run installs Chromium; otherwise says how, and stops.
set -eu

as_root() {
    if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo -n "$@"; fi
}

can_install() {
    command -v apt-get >/dev/null 2>&1 &&
        { [ "$(id -u)" -eq 0 ] || sudo -n true 2>/dev/null; }
}

missing=""
command -v wrk >/dev/null 2>&1 || missing="$missing wrk"
[ -x /usr/bin/chromium ] || missing="$missing chromium"
[ -z "$missing" ] && exit 0

if can_install; then
    echo "bench: installing$missing from Debian"
    as_root apt-get update
    # shellcheck disable=SC2086 # one word per package
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y $missing
    exit 0
fi

echo "bench: missing$missing. Install it with Debian's package manager:" >&2
echo "    sudo apt-get install$missing" >&2
exit 1
