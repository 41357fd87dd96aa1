"""Page weight: the bytes a phone fetches to show each page, against a 30 KB / 10 KB budget.

For every page a person sees, the HTML plus every stylesheet and script it loads, as served
(`Accept-Encoding: gzip`) and uncompressed. Sizes, not timings: one run is the answer.
The budget (issue 6): at most 30 KB uncompressed and 10 KB gzip per page, no other host.
"""

from __future__ import annotations

import gzip
import re
import sys
import tempfile
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urljoin

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from common import machine, table  # noqa: E402
from factories import PAGE_BUDGET, fullest_pages  # noqa: E402

from scorekeeper.network import lan_addresses  # noqa: E402

RAW_BUDGET, GZIP_BUDGET = PAGE_BUDGET
GZIP_LEVEL = 6  # Flask-Compress's default COMPRESS_LEVEL: what the app serves
HOST = "localhost"
# Absolute URLs that name no place to fetch: XML namespaces and the like.
NOT_FETCHED = ("http://www.w3.org/",)


class Loads(HTMLParser):
    """What a page's HTML asks the browser to fetch: stylesheets, scripts, and the rest."""

    def __init__(self) -> None:
        super().__init__()
        self.styles: list[str] = []
        self.scripts: list[str] = []
        self.extras: list[str] = []
        self.later: list[str] = []  # fetched when first needed (the keypads), named in data-

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = {name: value or "" for name, value in attrs}
        for name, value in found.items():
            if name.startswith("data-"):
                self.later += [url for url in value.split() if url.startswith("/static/")]
        if tag == "link":
            rel = found.get("rel", "").split()
            if "stylesheet" in rel:
                self.styles.append(found["href"])
            elif {"manifest", "icon", "apple-touch-icon", "preload", "modulepreload"} & set(rel):
                self.extras.append(found["href"])
        elif tag == "script" and "src" in found:
            self.scripts.append(found["src"])
        elif tag in ("img", "iframe", "audio", "video", "source") and "src" in found:
            self.extras.append(found["src"])


@dataclass
class Fetched:
    """One response: its body uncompressed and the bytes it took on the wire."""

    url: str
    raw: bytes
    wire: int
    served_gzip: bool


@dataclass
class Weight:
    """One page: the HTML and its stylesheets and scripts, uncompressed and as sent."""

    name: str
    url: str
    parts: list[Fetched]
    extras: list[str]
    other_hosts: list[str]
    later: list[str]

    @property
    def raw(self) -> int:
        return sum(len(part.raw) for part in self.parts)

    @property
    def wire(self) -> int:
        return sum(part.wire for part in self.parts)

    @property
    def passes(self) -> bool:
        return self.raw <= RAW_BUDGET and self.wire <= GZIP_BUDGET and not self.other_hosts


def fetch(client, url: str, status: int = 200) -> Fetched:  # type: ignore[no-untyped-def]
    """GET as a phone does (gzip accepted); the wire size is the body as sent, or the gzip
    of it at the served level when the app sends it uncompressed (then marked so)."""
    response = client.get(url, headers={"Accept-Encoding": "gzip"})
    assert response.status_code == status, (url, response.status_code)
    body = response.get_data()
    if response.headers.get("Content-Encoding") == "gzip":
        return Fetched(url, gzip.decompress(body), len(body), True)
    wire = len(gzip.compress(body, GZIP_LEVEL, mtime=0)) if len(body) >= 500 else len(body)
    return Fetched(url, body, wire, False)


def other_hosts(text: str) -> list[str]:
    """Absolute or protocol-relative URLs to any host but the app's own."""
    found = []
    own = {HOST, *lan_addresses()}  # the session's address for the other phones is the app's
    for match in re.finditer(
        r"(?:https?:)?//(\d+\.\d+\.\d+\.\d+|[A-Za-z0-9.-]+\.[A-Za-z]{2,}|[A-Za-z0-9-]+)", text
    ):
        url = text[match.start() : match.end() + 30]
        if match[1] in own or url.startswith(NOT_FETCHED):
            continue
        if match[0].startswith("//") and text[max(0, match.start() - 1)] not in "\"'(=":
            continue  # a // comment in a script, not a URL
        found.append(match[0])
    return found


def weigh(client, name: str, url: str) -> Weight:  # type: ignore[no-untyped-def]
    """The page at `url` and everything it loads."""
    page = fetch(client, url, 404 if "no-such" in url else 200)
    loads = Loads()
    loads.feed(page.raw.decode())
    parts = [page] + [fetch(client, src) for src in loads.styles + loads.scripts]
    hosts = [host for part in parts for host in other_hosts(part.raw.decode())]
    hosts += [src for src in loads.extras if other_hosts(f'"{src}')]
    extras = [urljoin(url, src) for src in loads.extras]  # the session page's are relative
    return Weight(name, url, parts, extras, hosts, loads.later)


def measure() -> tuple[list[Weight], list[Fetched], list[Fetched], list[str]]:
    """Every page weighed, the files fetched beside them at load, those fetched when first
    needed, and the vendored scripts."""
    from scorekeeper import create_app
    from scorekeeper.extensions import db

    with tempfile.TemporaryDirectory() as folder:
        config = {
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder}/bench.sqlite",
            "SECRET_KEY": "bench",
            "WTF_CSRF_ENABLED": False,
            "PASSPHRASE": None,
            "SERVER_NAME": HOST,
        }
        app = create_app(config, instance_path=f"{folder}/instance")
        with app.app_context():
            db.create_all()  # the schema alone matters here, not how migrations reach it
        client = app.test_client()
        weights = [weigh(client, name, url) for name, url in fullest_pages(client).items()]
        locked = create_app({**config, "PASSPHRASE": "tiles on the table"}, instance_path=folder)
        weights.append(weigh(locked.test_client(), "Sign in (passphrase set)", "/sign-in"))
        extras = sorted({src for weight in weights for src in weight.extras})
        beside = [fetch(client, src) for src in [*extras, "/sw.js"]]
        later = [fetch(client, src) for src in sorted({u for w in weights for u in w.later})]
        templates = Path(app.root_path, "templates").rglob("*.html")
        vendored = [t.name for t in templates if "vendor/" in t.read_text(encoding="utf-8")]
        vendored += [w.url for w in weights if any("vendor/" in p.url for p in w.parts)]
        with app.app_context():
            db.engine.dispose()
        with locked.app_context():
            db.engine.dispose()
    return weights, beside, later, vendored


def kb(size: int) -> str:
    return f"{size / 1024:.1f}"


def run(quick: bool = False) -> str:
    """The page-weight section of docs/PERFORMANCE.md (sizes do not vary: quick is the same)."""
    weights, beside, later, vendored = measure()
    rows = [
        (
            w.name,
            len(w.parts),
            kb(len(w.parts[0].raw)),
            kb(sum(len(p.raw) for p in w.parts[1:] if p.url.endswith(".css"))),
            kb(sum(len(p.raw) for p in w.parts[1:] if p.url.endswith(".js"))),
            kb(w.raw),
            kb(w.wire),
            "pass" if w.passes else "**fail**",
        )
        for w in weights
    ]
    files = {p.url: p for w in weights for p in w.parts[1:]}
    file_rows = [(f"`{url}`", kb(len(p.raw)), kb(p.wire)) for url, p in sorted(files.items())]
    beside_rows = [(f"`{p.url}`", kb(len(p.raw)), kb(p.wire)) for p in beside]
    later_rows = [(f"`{p.url}`", kb(len(p.raw)), kb(p.wire)) for p in later]
    hosts = sorted({h for w in weights for h in w.other_hosts})
    plain = sorted(
        {p.url for w in weights for p in w.parts if len(p.raw) >= 500 and not p.served_gzip}
    )
    return "\n\n".join(
        [
            "## Page weight",
            "What a phone fetches to show each page: the HTML plus every stylesheet and script it "
            "links, uncompressed and as sent to a browser that accepts gzip "
            f"(level {GZIP_LEVEL}). Budget per page: at most {RAW_BUDGET // 1024} KB "
            f"uncompressed and {GZIP_BUDGET // 1024} KB gzip, and nothing from another host. "
            "Sizes in KB (1024 bytes); `python bench/page_weight.py`. "
            "The session is six players, 30 rounds played (every fourth with racks typed as "
            "tiles), the turn clock on.",
            table(
                ["Page", "Files", "HTML", "CSS", "JS", "Total", "Total gzip", "Budget"],
                rows,
            ),
            "Every response of 500 bytes or more is sent gzip-compressed "
            + (
                "(`Content-Encoding: gzip`)."
                if not plain
                else "but these, whose gzip size is computed instead: "
                + ", ".join(f"`{url}`" for url in plain)
                + " (Flask-Compress compresses 2xx responses only)."
            ),
            "Each stylesheet and script (cached by the phone across pages):",
            table(["File", "Size", "gzip"], file_rows),
            "Fetched beside the page at load, not counted in the budget: images (the session's "
            "chart, an SVG kept by the phone per version of the session), the manifest and "
            "icons, and the service worker where https allows one:",
            table(["File", "Size", "gzip"], beside_rows),
            "Fetched when first needed, not at load: the tile keypads (at the first tap on a "
            "rack's or a field's button) and the sending of rounds kept offline (once there are "
            "some), each script after its words in the page's language:",
            table(["File", "Size", "gzip"], later_rows),
            f"References to other hosts: {len(hosts)}"
            + (f" ({', '.join(hosts)})." if hosts else ".")
            + " Templates or pages naming the vendored axe-core (for the tests only): "
            + (", ".join(vendored) if vendored else "none")
            + ".",
            f"Machine: {machine()}.",
        ]
    )


if __name__ == "__main__":
    print(run(quick="--quick" in sys.argv))
