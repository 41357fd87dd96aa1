"""An open session page whose poll can no longer be answered with the table tells its phone
why (static/live.js): sent to sign in when its cookie stopped counting, told when the session
is gone, and quietly waiting while a restore runs. Chromium at a phone's size."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path
from typing import Any

from factories import add_round, new_session, went_out
from playwright.sync_api import Page, expect

from scorekeeper.services import backup

PLAYERS = ["Ann", "Bo", "Cy"]
PASSPHRASE = "our kitchen table"
# A guard against a hang on a loaded machine (the poll asks every 1.25 s), not a measure.
WAIT = 20_000


def test_a_phone_whose_cookie_stopped_counting_is_sent_to_sign_in(
    page: Page, browser: Any, live_server: str
) -> None:
    session_id = new_session(live_server, PLAYERS)
    page.goto(f"{live_server}/sessions/{session_id}")
    # Another phone sets a household passphrase: this one, not signed in, may no longer look.
    other = browser.new_context()
    try:
        settings = other.new_page()
        settings.goto(f"{live_server}/access")
        settings.get_by_label("New passphrase").fill(PASSPHRASE)
        settings.get_by_label("The same passphrase again").fill(PASSPHRASE)
        settings.get_by_role("button", name="Set the passphrase").click()
        expect(settings.get_by_text("The household passphrase is set.")).to_be_visible()
    finally:
        other.close()
    page.wait_for_url(
        re.compile(rf"/sign-in\?next=(/|%2F)sessions(/|%2F){session_id}$"), timeout=WAIT
    )
    page.get_by_label("Household passphrase", exact=True).fill(PASSPHRASE)
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(f"**/sessions/{session_id}", timeout=WAIT)


def test_a_phone_whose_session_is_gone_says_so(
    page: Page, live_server: str, tmp_path: Path
) -> None:
    session_id = new_session(live_server, PLAYERS)
    page.goto(f"{live_server}/sessions/{session_id}")
    # The session leaves the database, as when a restore puts an older copy in place.
    with sqlite3.connect(tmp_path / "browser.sqlite") as scores:
        scores.execute("PRAGMA foreign_keys = ON")
        scores.execute("DELETE FROM sessions WHERE id = ?", (session_id,))
    expect(page.get_by_text("The session or round may have been deleted")).to_be_visible(
        timeout=WAIT
    )
    home = page.get_by_role("link", name="Back to the sessions")
    expect(home).to_be_visible()
    home.click()
    page.wait_for_url(f"{live_server}/")


def test_a_phone_waits_out_a_restore_and_shows_the_table_after(
    page: Page, live_server: str, tmp_path: Path
) -> None:
    session_id = new_session(live_server, PLAYERS)
    page.goto(f"{live_server}/sessions/{session_id}")
    flag = backup.restore_flag(f"sqlite:///{tmp_path / 'browser.sqlite'}", str(tmp_path))
    with backup.closed_for_restore(flag):
        closed = page.wait_for_event(
            "response", lambda r: "/table" in r.url and r.status == 503, timeout=WAIT
        )
        assert closed.headers.get("retry-after")
        # While the app is closed, nothing on the page says anything is wrong.
        expect(page.get_by_text("The session or round may have been deleted")).to_have_count(0)
        assert "/sessions/" in page.url
    # Once the restore is over, the page goes on polling and shows what was saved since.
    add_round(live_server, session_id, went_out("Ann", Bo=5, Cy=7))
    expect(page.get_by_role("link", name="Edit round 1", exact=True)).to_be_visible(timeout=WAIT)
