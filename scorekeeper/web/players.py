"""Player pages: everyone who has played, and one player's history and statistics."""

from __future__ import annotations

from flask import Blueprint, render_template, request

from scorekeeper.rules import RulesError
from scorekeeper.rules.numbers import whole_number
from scorekeeper.services import stats
from scorekeeper.services.errors import status_for
from scorekeeper.services.stats import Period
from scorekeeper.web.forms.common import PAGE_DIGITS
from scorekeeper.web.messages import translate
from scorekeeper.web.seats import player_mark

bp = Blueprint("players", __name__, url_prefix="/players")


def _period() -> Period | RulesError:
    """The `from` and `to` of the query string (YYYY-MM-DD, both ends included), or why not."""
    try:
        return stats.period_of(request.args.get("from"), request.args.get("to"))
    except RulesError as error:
        return error


def _filter(error: RulesError | None) -> dict[str, object]:
    """What the date filter shows: the dates as typed, and the problems with them."""
    problems: dict[str, list[str]] = {}
    for problem in error.problems if error else []:
        problems.setdefault(problem.field or "", []).append(translate(problem))
    dates = {name: request.args.get(name, "")[:40] for name in ("from", "to")}
    # Links to other player pages keep a valid period; a wrong one is not passed on.
    query = {} if error else {name: value for name, value in dates.items() if value.strip()}
    return {"dates": dates, "problems": problems, "query": query}


@bp.get("")
def index() -> str | tuple[str, int]:
    """Everyone who has played, with sessions played and won and rounds won."""
    period = _period()
    if isinstance(period, RulesError):
        page = render_template("players/index.html", players=None, **_filter(period))
        return page, status_for(period)
    players = stats.list_players(period)
    return render_template("players/index.html", players=players, period=period, **_filter(None))


@bp.get("/<int:player_id>")
def show(player_id: int) -> str | tuple[str, int]:
    """One player: their mark, sessions and rounds won, best and worst round, streak, head-to-head,
    and their sessions a page at a time (`?page=2`), the newest first."""
    period = _period()
    if isinstance(period, RulesError):
        name, seat = stats.player_identity(player_id)
        page = render_template(
            "players/show.html",
            player_id=player_id,
            name=name,
            mark=player_mark(name, seat),
            player=None,
            **_filter(period),
        )
        return page, status_for(period)
    number = whole_number(request.args.get("page"), PAGE_DIGITS) or 1
    player = stats.get_player_stats(player_id, period, number)
    return render_template(
        "players/show.html",
        player_id=player.id,
        name=player.name,
        mark=player_mark(player.name, player.seat),
        player=player,
        period=period,
        **_filter(None),
    )
