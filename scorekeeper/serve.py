"""Serve Scorekeeper on the home network with waitress and print where phones can reach it."""

import os

import waitress

from scorekeeper import create_app
from scorekeeper.network import lan_addresses, terminal_qr

__all__ = ["lan_addresses", "main"]


# waitress reads every request (headers and body) on its one event-loop thread and hands it to
# a worker thread only once complete, so a slow client holds a connection, never a thread. What
# a trickle of slow connections can exhaust is the number of open connections: at waitress's
# default limit (100) 45 trickling clients plus the family's phones' idle keep-alive
# connections (a browser keeps up to 6 per server) stop it accepting anyone. Hence:
LIMITS = {
    "threads": 8,  # requests served at once (pages take milliseconds)
    # Open connections before waitress stops accepting new ones: well above what slow clients
    # on a home network reach, and within the 1024 file descriptors a process may open by
    # default (`ulimit -n`; systemd's default too). poll() instead of select(), whose file
    # descriptors end at 1024.
    "connection_limit": 500,
    "asyncore_use_poll": True,
    # A connection that sends and receives nothing for 5 s is closed (checked every second):
    # at the limit, new connections wait at most about 6 s for idle ones to go (at 30 s, 500
    # idle sockets silenced the server for 30 s). A phone at the table asks every 1.25 s, so
    # its keep-alive connection stays; a phone put away opens a new one when it next asks.
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
