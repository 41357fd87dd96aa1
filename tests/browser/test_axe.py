"""axe-core on every page, at a phone viewport, in the light and the dark colour scheme (one
load a page: checked in light, then with the phone switched to dark in place).

axe (vendored under scorekeeper/static/vendor/axe/ with its licence) is put into each page by
the test itself, as a script of the test's browser context that runs in every document it opens
(add_init_script: sent to the browser once, not once a page); no page of the app loads it. These
contexts bypass the CSP, as they did when axe was injected inline (the CSP itself is tested in
tests/app/test_security.py). A page passes with no serious or critical violation; the message of
a failure names each rule, its help and the elements.

Which rules run where. Light: every rule axe runs by default, on the whole page. Dark: the dark
theme is the same document with other colours (static/app.css: one block of colour tokens under
data-theme="dark"), so in dark the colour rules (COLOUR_RULES: axe's rules tagged cat.color that
run by default, color-contrast and link-in-text-block) run on the whole page, and every rule
runs again only on the elements the theme changes otherwise: each page is switched to light in
place and back, and an element whose display, visibility or box differs (the chart's dark
drawing, shown only in dark) is checked with every rule in dark too. Each check of the light run
is so made in dark wherever the dark page can differ, without running the structure rules twice
over the same structure.
"""

from __future__ import annotations

import re
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from factories import add_round, api, new_session, paper, went_out
from phone import phone_page
from playwright.sync_api import Browser, Page, expect

AXE = (
    Path(__file__).resolve().parents[2] / "scorekeeper" / "static" / "vendor" / "axe" / "axe.min.js"
)
BLOCKING = ("serious", "critical")
# axe's rules tagged cat.color that its default run enables (color-contrast-enhanced, AAA, is
# off by default, in light as in dark): test_axe_finds_what_it_should checks the list.
COLOUR_RULES = ["color-contrast", "link-in-text-block"]
PASSPHRASE = "tiles on the table"
THEMES = ("light", "dark")

FOUR = ["Ann", "Bo", "Cy", "Di"]


def exists(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status == 200
    except urllib.error.HTTPError:
        return False


# In a dark page: the elements whose display, visibility or box the theme changes, found by
# switching the page to light in place and back (static/app.js sets data-theme; the page then
# is as a light one, the dark one back after). Only the outermost of them is listed.
THEME_CHANGES = """() => {
  const root = document.documentElement;
  const was = root.getAttribute("data-theme");
  const all = Array.from(document.body.querySelectorAll("*"));
  const look = () => all.map((e) => {
    const r = e.getBoundingClientRect();
    const s = getComputedStyle(e);
    return [r.x, r.y, r.width, r.height, s.display, s.visibility, s.opacity].join(" ");
  });
  const dark = look();
  root.setAttribute("data-theme", "light");
  const light = look();
  if (was === null) root.removeAttribute("data-theme");
  else root.setAttribute("data-theme", was);
  const changed = all.filter((e, i) => dark[i] !== light[i]);
  const outermost = changed.filter((e) => !changed.some((o) => o !== e && o.contains(e)));
  window.__themeChanged = outermost;
  return outermost.map((e) => e.outerHTML.slice(0, 80));
}"""
RUN = """async ([context, rules]) => {
  const options = {resultTypes: ["violations"]};
  if (rules) options.runOnly = {type: "rule", values: rules};
  const where = context === "theme-changed" ? {include: window.__themeChanged} : document;
  return (await axe.run(where, options)).violations;
}"""


def dark(page: Page) -> bool:
    return page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches")


def violations(page: Page, every_rule: bool = False) -> list[dict[str, Any]]:
    """The serious and critical violations axe finds on the page as it is now: in light (or
    with `every_rule`) every rule on the whole page; in dark the colour rules on the whole page
    and every rule on what the theme changes besides colours (the module's docstring)."""
    if every_rule or not dark(page):
        found = page.evaluate(RUN, ["document", None])
    else:
        found = page.evaluate(RUN, ["document", COLOUR_RULES])
        if page.evaluate(THEME_CHANGES):
            found += page.evaluate(RUN, ["theme-changed", None])
    return [v for v in found if v["impact"] in BLOCKING]


def report(name: str, found: list[dict[str, Any]]) -> str:
    lines = [f"{name}: {len(found)} serious or critical axe violation(s)"]
    for v in found:
        targets = ", ".join(" ".join(node["target"]) for node in v["nodes"][:5])
        lines.append(f"  [{v['impact']}] {v['id']}: {v['help']} -> {targets}")
        summary = v["nodes"][0].get("failureSummary", "").replace("\n", " ")
        lines.append(f"      {summary[:300]}")
    return "\n".join(lines)


def in_each_theme(page: Page, name: str) -> list[str]:
    """The reports of the page as it is now, in light and then in dark (the phone's theme
    switched in place: the page follows it), left in light."""
    reports = []
    for theme in THEMES:
        page.emulate_media(color_scheme=theme)  # type: ignore[arg-type]
        assert dark(page) == (theme == "dark"), f"{name}: the page did not switch to {theme}"
        found = violations(page)
        if found:
            reports.append(report(f"{name} ({theme})", found))
    page.emulate_media(color_scheme="light")
    return reports


def assert_accessible(page: Page, name: str) -> None:
    reports = in_each_theme(page, name)
    assert not reports, "\n".join(reports)


@pytest.fixture
def axe_page(browser: Browser) -> Iterator[Page]:
    """A phone page, light at first; the CSP bypassed for axe only. No service worker: it has
    no part in what axe checks, and its install would fetch the app shell in every test."""
    with phone_page(
        browser, bypass_csp=True, color_scheme="light", service_workers="block"
    ) as page:
        page.context.add_init_script(path=str(AXE))
        yield page


@pytest.fixture
def evening(live_server: str) -> int:
    """A session of four with two rounds (one with tiles typed, one flagged), drop-worst on."""
    session_id = new_session(
        live_server, FOUR, name="Sunday", rounds=3, rules={"drop_worst_round": True}
    )
    add_round(live_server, session_id, went_out("Ann", Bo=["r7", "k13", "j"], Cy=12, Di=8))
    add_round(live_server, session_id, paper(Ann=-5, Bo=250, Cy=-200, Di=-45) | {"confirm": True})
    return session_id


def test_every_page_has_no_serious_violation(
    axe_page: Page, live_server: str, evening: int
) -> None:
    page = axe_page
    session = f"{live_server}/sessions/{evening}"
    player = api(live_server, f"/sessions/{evening}")  # the players exist from here on
    assert player["players"] == ["Ann", "Bo", "Cy", "Di"]
    pages = {
        "home": live_server + "/",
        "new session": live_server + "/sessions/new",
        "session table": session,
        "round form: went out": session + "/rounds/new?ending=went_out",
        "round form: pool empty": session + "/rounds/new?ending=pool_empty",
        "round form: on paper": session + "/rounds/new?ending=scores",
        "edit round (flagged)": session + "/rounds/2/edit",
        "delete round": session + "/rounds/1/delete",
        "turn clock": session + "/clock",
        "who starts": session + "/who-starts",
        "players": live_server + "/players",
        "player": live_server + "/players/1",
        "player, wrong dates": live_server + "/players/1?from=soon",
        "not found": live_server + "/sessions/9999",
        "household passphrase": live_server + "/access",
    }
    if exists(session + "/summary"):
        pages["summary"] = session + "/summary"
    # An evening over: the winner's banner in the winner's seat colour (Di: seat 4, orange).
    won = new_session(live_server, FOUR, rounds=1)
    add_round(live_server, won, went_out("Di", Ann=5, Bo=9, Cy=30))
    pages["session, won"] = f"{live_server}/sessions/{won}"
    pages["summary, won"] = f"{live_server}/sessions/{won}/summary"
    if exists(live_server + "/tools/check"):
        pages["table checker"] = f"{live_server}/tools/check?session={evening}"
    failures = []
    for name, url in pages.items():
        page.goto(url)
        expect(page.locator("main")).to_be_visible()
        failures += in_each_theme(page, name)
    assert not failures, "\n".join(failures)


def test_forms_with_errors_have_no_serious_violation(
    axe_page: Page, live_server: str, evening: int
) -> None:
    page = axe_page
    page.goto(f"{live_server}/sessions/{evening}/rounds/new?ending=went_out")
    page.get_by_role("textbox", name="Bo", exact=True).fill("x9")
    page.get_by_role("button", name="Save round").click()
    expect(page.locator(".problems, .error").first).to_be_visible()
    assert_accessible(page, "round form with errors")

    page.goto(f"{live_server}/sessions/{evening}/rounds/new?ending=scores")
    for name, score in (("Ann", "10"), ("Bo", "10"), ("Cy", "-5"), ("Di", "-5")):
        page.get_by_role("textbox", name=name, exact=True).fill(score)
    page.get_by_role("button", name="Save round").click()
    expect(page.locator(".problems").first).to_be_visible()
    assert_accessible(page, "paper scores that do not add up")

    page.goto(f"{live_server}/sessions/new")
    page.get_by_label("Player 1", exact=True).fill("Ann")
    page.get_by_label("Player 2", exact=True).fill("ann")
    page.get_by_role("button", name="Start the session").click()
    expect(page.locator(".error, .problems").first).to_be_visible()
    assert_accessible(page, "new session with a duplicate name")


def test_the_sign_in_page_has_no_serious_violation(axe_page: Page, live_server: str) -> None:
    page = axe_page
    page.goto(live_server + "/access")
    page.get_by_label("New passphrase").fill(PASSPHRASE)
    page.get_by_label("The same passphrase again").fill(PASSPHRASE)
    page.get_by_role("button", name="Set the passphrase").click()
    expect(page).to_have_url(re.compile(r"/sign-in$"))
    assert_accessible(page, "sign-in")

    page.get_by_label("Household passphrase", exact=True).fill("not the passphrase")
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_text("That is not the household passphrase.")).to_be_visible()
    assert_accessible(page, "sign-in with a wrong passphrase")


def test_axe_finds_what_it_should(axe_page: Page, live_server: str) -> None:
    """The check can fail: an unlabelled field and grey-on-grey text are caught; in dark the
    colour rules catch the grey, and every rule runs on what only the dark theme shows."""
    page = axe_page
    page.goto(live_server + "/")
    colour = page.evaluate("() => axe.getRules(['cat.color']).map((rule) => rule.ruleId)")
    assert set(colour) == {*COLOUR_RULES, "color-contrast-enhanced"}
    page.evaluate(
        """() => {
          const main = document.querySelector('main');
          main.insertAdjacentHTML('beforeend',
            '<input type="text" id="unlabelled"><p style="color:#999;background:#aaa">faint</p>');
        }"""
    )
    rules = {v["id"] for v in violations(page, every_rule=True)}
    assert {"label", "color-contrast"} <= rules
    rules = {v["id"] for v in violations(page)}
    assert {"label", "color-contrast"} <= rules  # light: every rule
    page.emulate_media(color_scheme="dark")
    assert dark(page)
    rules = {v["id"] for v in violations(page)}
    assert "color-contrast" in rules and "label" not in rules  # in light only
    page.evaluate(
        """() => {
          document.getElementById('unlabelled').remove();
          document.head.insertAdjacentHTML('beforeend',
            '<style>:root[data-theme=light] #dark-only { display: none; }</style>');
          document.querySelector('main').insertAdjacentHTML('beforeend',
            '<input type="text" id="dark-only">');
        }"""
    )
    rules = {v["id"] for v in violations(page)}
    assert {"label", "color-contrast"} <= rules


FOCUS_RING = """() => {
  let el = document.activeElement;
  if (!el || el === document.body) return null;
  // A visually hidden radio (the winner buttons) shows its focus on its label.
  if (el.classList.contains('visually-hidden') && el.id) {
    el = document.querySelector(`label[for="${el.id}"]`) || el;
  }
  const style = getComputedStyle(el);
  const ring = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2;
  return {what: el.outerHTML.slice(0, 80), ring: ring || style.boxShadow !== 'none'};
}"""


def test_focus_is_visible_on_every_control(axe_page: Page, live_server: str, evening: int) -> None:
    """axe cannot see focus: tab through the busiest pages and look at each focused control,
    in each theme."""
    page = axe_page
    unseen = []
    for theme in THEMES:
        page.emulate_media(color_scheme=theme)  # type: ignore[arg-type]
        for url in (
            f"{live_server}/sessions/{evening}/rounds/new?ending=went_out",
            f"{live_server}/sessions/{evening}",
            f"{live_server}/players/1",
        ):
            page.goto(url)
            for _ in range(30):
                page.keyboard.press("Tab")
                focused = page.evaluate(FOCUS_RING)
                if focused is not None and not focused["ring"]:
                    unseen.append(f"{url} ({theme}): {focused['what']}")
    assert not unseen, "focus not visible on:\n" + "\n".join(unseen)
