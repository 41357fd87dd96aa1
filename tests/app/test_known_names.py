"""The played-before names on the new-session page (issue #25): the most recent first, eight
shown, the rest folded under "More names", so Start stays in reach."""

from __future__ import annotations

import re
from datetime import date

import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.extensions import db
from scorekeeper.models import GameSession
from scorekeeper.services import lists

API = "/api/v1"


def _evenings(client: FlaskClient, count: int) -> list[list[str]]:
    """`count` evenings of six new players each, one after another."""
    seated = []
    for evening in range(count):
        players = [f"Player {evening}-{seat}" for seat in range(6)]
        body = {"players": players, "rules": {"tile_sets": 2}}
        assert client.post(f"{API}/sessions", json=body).status_code == 201
        seated.append(players)
    return seated


def test_the_most_recent_names_come_first_and_the_rest_fold(client: FlaskClient) -> None:
    seated = _evenings(client, 5)  # 30 known players
    page = client.get("/sessions/new").get_data(as_text=True)
    box = page[page.index('id="known-names-buttons"') : page.index("<datalist")]
    shown, _, folded = box.partition('<details class="more-names">')
    chip = r'<button type="button" class="chip" data-name="([^"]+)">'
    newest_first = [name for players in reversed(seated) for name in players]
    assert re.findall(chip, shown) == newest_first[:8]
    assert "<summary>More names</summary>" in folded
    assert re.findall(chip, folded) == newest_first[8:]


def test_few_names_are_not_folded(client: FlaskClient) -> None:
    _evenings(client, 1)
    page = client.get("/sessions/new").get_data(as_text=True)
    assert page.count('class="chip"') == 6 and "More names" not in page


def test_the_order_is_by_the_day_each_last_played(app: Flask, client: FlaskClient) -> None:
    """An evening typed in later for an earlier day (or imported) does not jump the queue."""
    seated = _evenings(client, 2)
    with app.app_context():
        latest = db.session.scalar(sa.select(sa.func.max(GameSession.id)))
        db.session.execute(
            sa.update(GameSession)
            .where(GameSession.id == latest)
            .values(played_on=date(2020, 1, 1))
        )
        db.session.commit()
        assert lists.known_player_names() == seated[0] + seated[1]
