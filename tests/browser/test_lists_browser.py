"""Lists of names in the browser (static/lists.js: Intl.ListFormat in the page's list_locale)
read as the server's (web/text.py names_list: Babel's CLDR patterns), in every language of the
app, for two, three and six names: "Still to enter: Ann, Bo and Cy" never differs between what
a script writes and what a page drawn on the server says."""

from __future__ import annotations

from babel.lists import format_list
from playwright.sync_api import Browser

from scorekeeper.web.text import LIST_LOCALES

LANGUAGES = ("en", "da", "et", "fi", "fr", "pl")
NAMES = ["Ann", "Bo", "Cy", "Di", "Eva", "Łukasz"]


def test_a_script_joins_names_as_the_server_does(browser: Browser, live_server: str) -> None:
    created = browser.new_context().request.post(
        f"{live_server}/api/v1/sessions", data={"players": NAMES[:3]}
    )
    assert created.status == 201, created.text()
    form = f"{live_server}/sessions/{created.json()['id']}/rounds/new"
    for lang in LANGUAGES:
        context = browser.new_context(extra_http_headers={"Accept-Language": lang})
        page = context.new_page()
        page.goto(form)
        assert page.get_attribute("html", "lang") == lang
        for count in (1, 2, 3, 6):
            names = NAMES[:count]
            joined = page.evaluate("(names) => window.ScorekeeperAndList(names)", names)
            assert joined == format_list(names, locale=LIST_LOCALES.get(lang, lang)), (lang, count)
        context.close()
