"""Allowed hosts: the app answers only to the names and addresses it is reached by (its
home-network addresses and name, localhost, 127.0.0.1, SCOREKEEPER_HOSTS), so a page of
another site that rebinds its name to this server (DNS rebinding) reads and changes nothing,
and the join address and QR code never name a host a request made up."""

from __future__ import annotations

import socket
from collections.abc import Callable

import pytest
import sqlalchemy as sa
from factories import new_session
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.extensions import db
from scorekeeper.models import Household
from scorekeeper.network import allowed_hosts, lan_addresses

pytestmark = pytest.mark.one_database

FOREIGN = "rebound.evil.example"
# A DNS label is at most 63 characters: IDNA refuses this one (it was a 500 on every route).
LONG_LABEL = "a" * 64 + ".example"
MALFORMED = [
    LONG_LABEL,
    "a" * 64,
    "bad_char!",
    "two words",
    "caf\u00e9.example",
    "<script>",
    "localhost:99999",
    "localhost:port",
    "[::1",
    "",
]
PAGES = ["/", "/export.csv", "/api/v1/sessions", "/sessions/1", "/sessions/1/qr.svg", "/access"]


@pytest.mark.parametrize("path", PAGES)
def test_a_foreign_host_is_refused_everywhere(client: FlaskClient, path: str) -> None:
    new_session(client, ["Ann", "Bo"])
    response = client.get(path, headers={"Host": FOREIGN})
    assert response.status_code == 400
    body = response.get_data(as_text=True)
    assert "Ann" not in body and FOREIGN not in body
    if path.startswith("/api/"):
        assert response.get_json()["errors"][0]["code"] == "bad_host"
    else:
        assert response.mimetype == "text/html"
        assert "Scorekeeper does not answer to this address" in body
        assert "href=" not in body and "src=" not in body  # no URL built from that host


def test_a_foreign_host_cannot_set_the_passphrase(app: Flask, client: FlaskClient) -> None:
    form = {"passphrase": "rebinding wins", "confirm": "rebinding wins"}
    response = client.post("/access", data=form, headers={"Host": FOREIGN})
    assert response.status_code == 400
    with app.app_context():
        assert db.session.scalar(sa.select(Household.passphrase_hash)) is None
    assert client.get("/", headers={"Host": "localhost"}).status_code == 200


def test_a_foreign_host_writes_nothing_through_the_api(app: Flask, client: FlaskClient) -> None:
    response = client.post(
        "/api/v1/sessions", json={"players": ["Ann", "Bo"]}, headers={"Host": FOREIGN}
    )
    assert response.status_code == 400
    assert response.get_json()["errors"][0]["code"] == "bad_host"
    assert client.get("/api/v1/sessions").get_json()["sessions"] == []


@pytest.mark.parametrize("host", MALFORMED)
@pytest.mark.parametrize("path", ["/", "/api/v1/sessions", "/healthz", "/no/such/page"])
def test_a_malformed_host_is_a_400_never_a_500(client: FlaskClient, host: str, path: str) -> None:
    response = client.get(path, headers={"Host": host})
    assert response.status_code == 400, response.get_data(as_text=True)


def test_a_malformed_name_under_an_allowed_domain_is_a_400(
    make_app: Callable[..., Flask],
) -> None:
    """`.scores.example` allows every subdomain; one of them too long for IDNA is refused by
    the URL map instead (werkzeug's BadHost), and its page must not fail either."""
    client = make_app(HOSTS=".scores.example").test_client()
    assert client.get("/", headers={"Host": "smith.scores.example"}).status_code == 200
    for path in ("/", "/api/v1/sessions"):
        response = client.get(path, headers={"Host": "a" * 64 + ".scores.example"})
        assert response.status_code == 400


def test_the_refusal_is_in_the_phones_language(client: FlaskClient) -> None:
    page = client.get("/", headers={"Host": LONG_LABEL, "Accept-Language": "fr"})
    assert page.status_code == 400
    body = page.get_data(as_text=True)
    assert '<html lang="fr">' in body
    assert "Scorekeeper does not answer to this address" not in body
    api = client.get("/api/v1/sessions", headers={"Host": FOREIGN, "Accept-Language": "fr"})
    assert "Scorekeeper does not answer" not in api.get_json()["errors"][0]["message"]


@pytest.mark.parametrize("host", ["localhost", "localhost:5000", "127.0.0.1", "127.0.0.1:8000"])
def test_the_loopback_names_are_allowed(client: FlaskClient, host: str) -> None:
    assert client.get("/", headers={"Host": host}).status_code == 200


def test_the_home_network_addresses_and_the_hostname_are_allowed(client: FlaskClient) -> None:
    names = [*lan_addresses(), socket.gethostname()]
    for name in names:
        assert client.get("/", headers={"Host": f"{name}:5000"}).status_code == 200, name


def test_scorekeeper_hosts_adds_a_proxys_name(
    make_app: Callable[..., Flask], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SCOREKEEPER_HOSTS", "smith.scores.example, .family.example")
    client = make_app().test_client()
    for host in ("smith.scores.example", "scores.family.example", "localhost"):
        assert client.get("/", headers={"Host": host}).status_code == 200, host
    for host in ("scores.example", FOREIGN, "family.example.evil"):
        assert client.get("/", headers={"Host": host}).status_code == 400, host


def test_the_allowed_hosts_are_computed_at_start() -> None:
    hosts = allowed_hosts(" proxy.example ,, Other.Example")
    assert {"localhost", "127.0.0.1", socket.gethostname(), *lan_addresses()} <= set(hosts)
    assert {"proxy.example", "other.example"} <= set(hosts)
    assert "" not in hosts
    assert "10.0.0.7" in allowed_hosts("10.0.0.7")
    assert "7" in allowed_hosts(7)  # what SCOREKEEPER_HOSTS=7 becomes in the config: text
    assert set(allowed_hosts(["a.example"])) - set(allowed_hosts()) == {"a.example"}


def test_the_join_address_names_only_an_allowed_host(
    make_app: Callable[..., Flask],
) -> None:
    client = make_app(HOSTS="smith.scores.example").test_client()
    sid = new_session(client, ["Ann", "Bo"])
    page = client.get(f"/sessions/{sid}", headers={"Host": "smith.scores.example"})
    assert f"http://smith.scores.example/sessions/{sid}" in page.get_data(as_text=True)
    for host in (FOREIGN, "smith.scores.example.evil.example", LONG_LABEL):
        for path in (f"/sessions/{sid}", f"/sessions/{sid}/qr.svg"):
            response = client.get(path, headers={"Host": host})
            assert response.status_code == 400
            assert host not in response.get_data(as_text=True)


def test_behind_a_proxy_the_forwarded_host_is_the_one_checked(
    make_app: Callable[..., Flask],
) -> None:
    """With SCOREKEEPER_PROXY_FIX the app takes the proxy's X-Forwarded-Host for the Host:
    that name (the proxy's) is the one that must be in SCOREKEEPER_HOSTS."""
    client = make_app(PROXY_FIX=1, HOSTS="smith.scores.example").test_client()
    ok = {"Host": "127.0.0.1:8000", "X-Forwarded-Host": "smith.scores.example"}
    assert client.get("/", headers=ok).status_code == 200
    rebound = {"Host": "127.0.0.1:8000", "X-Forwarded-Host": FOREIGN}
    assert client.get("/", headers=rebound).status_code == 400
