"""Where the other phones reach this server: its home-network addresses, and a QR code of one
(drawn by segno) for a phone's camera, in the terminal (`make run`) or as SVG (the session page)."""

from __future__ import annotations

import contextlib
import io
import ipaddress
import socket
from urllib.parse import urlsplit, urlunsplit

import segno

LOOPBACK_NAMES = ("localhost", "localhost.localdomain")
# The loopback names and addresses a phone or a browser on this machine may use. (werkzeug
# 3.1's TRUSTED_HOSTS cannot match a bracketed IPv6 address such as [::1]: it cuts each
# allowed name at its first ":". The server listens on IPv4 unless told otherwise.)
LOOPBACK_HOSTS = (*LOOPBACK_NAMES, "127.0.0.1")


def lan_addresses() -> list[str]:
    """Best-effort list of this machine's non-loopback IPv4 addresses; never raises."""
    found: set[str] = set()
    try:
        for *_, sockaddr in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            found.add(str(sockaddr[0]))
    except (OSError, ValueError):
        pass
    try:
        # connect() on a UDP socket sends nothing; it only picks the outgoing interface.
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))
            found.add(probe.getsockname()[0])
    except (OSError, ValueError):
        pass
    addresses = []
    for address in found:
        try:
            ip = ipaddress.IPv4Address(address)
        except ValueError:
            continue
        if not (ip.is_loopback or ip.is_unspecified or ip.is_link_local):
            addresses.append(address)
    return sorted(addresses, key=ipaddress.IPv4Address)


def allowed_hosts(extra: object = None) -> list[str]:
    """The names and addresses this server answers to (Flask's TRUSTED_HOSTS): loopback, this
    machine's home-network addresses and host names, and `extra` (SCOREKEEPER_HOSTS)."""
    hosts = [*LOOPBACK_HOSTS, *lan_addresses()]
    with contextlib.suppress(OSError, UnicodeError):
        name = socket.gethostname().strip().lower().rstrip(".")
        if name and name not in hosts:
            hosts.append(name)
            short = name.split(".")[0]
            if short and short not in LOOPBACK_NAMES:
                hosts.append(f"{short}.local")
    if extra is None:
        extra = []
    elif not isinstance(extra, list | tuple):  # the environment's text (or what JSON made of it)
        extra = str(extra).split(",")
    for value in extra:
        host = str(value).strip().lower()
        if host and host not in hosts:
            hosts.append(host)
    return hosts


def home_network_url(url: str) -> str:
    """`url` as another phone on the Wi-Fi can open it: a page opened as localhost (or
    127.0.0.1) names this machine by its first home-network address instead, same port."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    loopback = host in LOOPBACK_NAMES
    with contextlib.suppress(ValueError):  # a name, not an address
        loopback = loopback or ipaddress.ip_address(host).is_loopback
    addresses = lan_addresses() if loopback else []
    if not addresses:
        return url
    netloc = addresses[0] + (f":{parts.port}" if parts.port else "")
    return urlunsplit((parts.scheme, netloc, parts.path, parts.query, ""))


def qr_svg(url: str, title: str) -> str:
    """The QR code of `url` as a small SVG image (dark modules on a light quiet zone, as
    cameras expect, whatever the page's theme), `title` its accessible name."""
    out = io.BytesIO()
    segno.make(url, error="m").save(
        out,
        kind="svg",
        xmldecl=False,
        nl=False,
        scale=4,
        border=4,
        title=title,
        dark="#000",
        light="#fff",
        svgclass=None,
        lineclass=None,
    )
    return out.getvalue().decode()


def terminal_qr(url: str) -> str:
    """The QR code of `url` drawn in the terminal with block characters."""
    out = io.StringIO()
    segno.make(url, error="m").terminal(out=out, compact=True, border=2)
    return out.getvalue()
