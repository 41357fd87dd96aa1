"""Serve Scorekeeper on the home network with waitress and print where phones can reach it."""

import os

import waitress

from scorekeeper import create_app
from scorekeeper.network import lan_addresses, terminal_qr

__all__ = ["lan_addresses", "main"]


# Slow clients hold waitress's connections, never its threads: these limits keep them from
# exhausting the connections (docs/OPERATIONS.md, "Slow clients").
LIMITS = {
    "threads": 8,  # requests served at once (pages take milliseconds)
    # Open connections before waitress stops accepting (its default: 100), within the 1024 file
    # descriptors a process may open by default; poll(), as select() stops at 1024.
    "connection_limit": 500,
    "asyncore_use_poll": True,
    # A connection silent for 5 s is closed (checked every second); a phone at the table asks
    # every 1.25 s, so it keeps its connection.
    "channel_timeout": 5,
    "cleanup_interval": 1,
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
    if shown[0] != "localhost":
        # A phone's camera opens the first address straight from the terminal.
        print(terminal_qr(f"http://{shown[0]}:{port}/"), flush=True)
    waitress.serve(app, host=host, port=port, **LIMITS)


if __name__ == "__main__":
    main()
