"""Serve Scorekeeper on the home network with waitress and print where phones can reach it."""

import ipaddress
import os
import socket

import waitress

from scorekeeper import create_app


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


# waitress reads every request (headers and body) on its one event-loop thread and hands it to
# a worker thread only once complete, so a slow client holds a connection, never a thread. What
# a trickle of slow connections can exhaust is the number of open connections: at waitress's
# default limit (100) 45 trickling clients plus the family's phones' idle keep-alive
# connections (a browser keeps up to 6 per server) stop it accepting anyone. Hence:
LIMITS = {
    "threads": 8,  # requests served at once (pages take milliseconds)
    # Open connections before waitress stops accepting new ones: well above what slow clients
    # on a home network reach. poll() instead of select(), whose file descriptors end at 1024.
    "connection_limit": 500,
    "asyncore_use_poll": True,
    # A connection that sends and receives nothing for 30 s is closed (checked every 5 s), so
    # idle connections do not pile up; the phones open a new one when they next ask.
    "channel_timeout": 30,
    "cleanup_interval": 5,
    # What waitress buffers for one request before the app sees it (the app itself refuses
    # bodies over 64 KiB): headers 32 KiB, bodies 1 MiB (waitress's defaults: 256 KiB, 1 GiB).
    "max_request_header_size": 32 * 1024,
    "max_request_body_size": 1024 * 1024,
}


def main() -> None:
    """Start the server on PORT (default 5000) on every interface (HOST to choose one)."""
    port = int(os.environ.get("PORT", "5000"))
    host = os.environ.get("HOST", "0.0.0.0")
    app = create_app()
    print("Scorekeeper is running. Open one of these on a phone on the same Wi-Fi:")
    shown = [*lan_addresses(), "localhost"] if host == "0.0.0.0" else [host]
    for address in shown:
        print(f"  http://{address}:{port}/", flush=True)
    waitress.serve(app, host=host, port=port, **LIMITS)


if __name__ == "__main__":
    main()
