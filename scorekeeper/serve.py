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


def main() -> None:
    """Start the server on PORT (default 5000) on every interface."""
    port = int(os.environ.get("PORT", "5000"))
    app = create_app()
    print("Scorekeeper is running. Open one of these on a phone on the same Wi-Fi:")
    for address in lan_addresses():
        print(f"  http://{address}:{port}/")
    print(f"  http://localhost:{port}/", flush=True)
    waitress.serve(app, host="0.0.0.0", port=port, threads=8)


if __name__ == "__main__":
    main()
