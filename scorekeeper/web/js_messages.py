"""Strings the scripts under static/ show, translated on the server.

base.html hands them to the page as a JSON data block (`<script type="application/json"
id="js-messages">`, see scorekeeper/translations/README.md); each script looks a key up with
`t(key, fallback, params)`, whose fallback is the English text below, byte for byte (a test
holds the two together; the served script leaves it out, web/assets.py `without_fallbacks`),
and fills the `%(name)s` placeholders itself. Keys are stable
identifiers, never the English text. A plural is one key, `lazy_plural(one, other)`, that the
page hands over as every form of its language by plural category (Polish: one, few, many);
the script says it with `tn(key, one, other, n, params)` (static/app.js), which picks the form
with the browser's `Intl.PluralRules`. `list_locale` is not a message but the locale
whose CLDR list patterns the server's lists use ("en-GB", "pl"), for the scripts'
Intl.ListFormat (static/lists.js). Numbers reach the
placeholders already formatted by the script for the page's language (Intl.NumberFormat).
"""

from __future__ import annotations

from scorekeeper.web.text import LazyPlural, LazyText, lazy_list_locale, lazy_plural
from scorekeeper.web.text import lazy_text as _l

JS_MESSAGES: dict[str, LazyText | LazyPlural] = {
    # Shared by several scripts.
    "list_locale": lazy_list_locale(),
    "done": _l("Done"),
    "joker": _l("joker"),
    "colour_black": _l("black"),
    "colour_red": _l("red"),
    "colour_blue": _l("blue"),
    "colour_orange": _l("orange"),
    "suit_spades": _l("spades"),
    "suit_hearts": _l("hearts"),
    "suit_clubs": _l("clubs"),
    "suit_diamonds": _l("diamonds"),
    "tile_name": _l("%(colour)s %(number)s"),
    "card_name": _l("%(suit)s %(face)s"),
    "legend_tiles": _l("k black · r red · b blue · o orange · J joker."),
    "legend_cards": _l("♠ s spades · ♥ h hearts · ♦ d diamonds · ♣ c clubs · J joker."),
    # round.js and round_<ending>.js: the round form and its live preview.
    "round_tap_winner": _l("Tap who went out."),
    "round_unreadable": _l("Some tiles are not readable yet."),
    "round_still_to_enter": _l("Still to enter: %(names)s."),
    "round_winner_bonus": _l("%(name)s %(points)s (bonus)."),
    "round_winner_sum": _l("%(name)s %(points)s: adds up to 0."),
    "round_enter_counts": _l("Enter every player's tile count."),
    "round_tie": _l("%(names)s tie: enter tile counts, or save and say who takes it."),
    "round_takes": _l("%(name)s takes the round: %(points)s."),
    "round_whole_number": _l("A score is a whole number, like -12 or 24."),
    "round_sum_so_far": _l("Adds up to %(sum)s so far (still to enter: %(names)s)."),
    "round_sum_wrong": _l("Adds up to %(sum)s: someone counted a rack wrong."),
    "round_zero_so_far": _l("Adds up to 0 so far; still to enter: %(names)s."),
    "round_all_plus": _l("%(names)s all score plus: only the winner scores plus."),
    "round_adds_up": _l("Adds up to 0 ✓"),
    "round_change_sign": _l("Change the sign of %(name)s's score"),
    "round_type_numbers": _l("Type numbers (123)"),
    "round_type_tiles": _l("Type letters (abc)"),
    "round_saving": _l("Saving…"),
    # keypad.js: the tile keypad of the round form (its buttons are round.js's).
    "keypad_tap_tile": _l("Tap a tile to add it, a chosen tile to take it off."),
    "keypad_tap_card": _l("Tap a card to add it, a chosen card to take it off."),
    "keypad_tiles": _l("Tap tiles"),
    "keypad_cards": _l("Tap cards"),
    "keypad_tiles_for": _l("Tap tiles for %(name)s"),
    "keypad_cards_for": _l("Tap cards for %(name)s"),
    "keypad_entered_as_tile": _l(": entered as %(value)s; a tap on a tile replaces the number"),
    "keypad_entered_as_card": _l(": entered as %(value)s; a tap on a card replaces the number"),
    "keypad_count_tiles": lazy_plural(
        ": %(count)s tile · %(points)s points", ": %(count)s tiles · %(points)s points"
    ),
    "keypad_count_cards": lazy_plural(
        ": %(count)s card · %(points)s points", ": %(count)s cards · %(points)s points"
    ),
    "keypad_take_off": _l("Take %(tile)s off"),
    "keypad_take_off_unread_tile": _l("Take “%(text)s” off (not a tile)"),
    "keypad_take_off_unread_card": _l("Take “%(text)s” off (not a card)"),
    "keypad_take_off_a_tile": _l("Take “%(text)s” off (a tile: this session is played with cards)"),
    "keypad_take_off_a_card": _l("Take “%(text)s” off (a card: this session is played with tiles)"),
    "keypad_too_many_one_set": lazy_plural(
        "%(tile)s: entered %(count)s time; a single set has %(copies)s",
        "%(tile)s: entered %(count)s times; a single set has %(copies)s",
    ),
    "keypad_too_many_two_sets": lazy_plural(
        "%(tile)s: entered %(count)s time; two sets have %(copies)s",
        "%(tile)s: entered %(count)s times; two sets have %(copies)s",
    ),
    "keypad_both_copies": _l("%(tile)s: both copies are already on racks"),
    "keypad_all_copies": lazy_plural(
        "%(tile)s: the %(copies)s copy is already on a rack",
        "%(tile)s: all %(copies)s copies are already on racks",
    ),
    "keypad_both_jokers": _l("%(tile)s: both jokers are already on racks"),
    "keypad_all_jokers": lazy_plural(
        "%(tile)s: the %(copies)s joker is already on a rack",
        "%(tile)s: all %(copies)s jokers are already on racks",
    ),
    # clock.js: the turn clock.
    "clock_time_up": _l("Time! Put the table back as it was and take back the tiles you played."),
    "clock_time_up_penalty": lazy_plural(
        "Time! Put the table back as it was, take back the tiles you played and draw"
        " %(count)s penalty tile.",
        "Time! Put the table back as it was, take back the tiles you played and draw"
        " %(count)s penalty tiles.",
    ),
    "clock_start": _l("Start the clock: %(name)s first"),
    "clock_enter_number": _l("%(name)s: enter the number of the tile drawn."),
    "clock_number_range": _l("%(name)s: a drawn tile is numbered 1 to 13."),
    "clock_starts": _l("%(name)s starts (drew %(number)s)."),
    "clock_then": _l("Then %(names)s, in seating order."),
    "clock_draw_again_both": _l("%(names)s draw again (both drew %(number)s)."),
    "clock_draw_again_all": _l("%(names)s draw again (all drew %(number)s)."),
    "clock_turn": _l("%(name)s's turn"),
    "clock_tap_for_turn": _l("Tap anywhere for %(name)s's turn."),
    "clock_next": _l("Next: %(name)s · tap anywhere for the next player"),
    "clock_pause": _l("Pause"),
    "clock_resume": _l("Resume"),
    # live.js: what changed on another phone (the change itself is worded by the server).
    "live_change": _l("%(change)s."),
    # offline.js and offline_send.js: rounds kept on this phone while the network is gone.
    "offline_saved": _l("Saved on this phone; it will be sent when the network is back."),
    "offline_waiting": lazy_plural(
        "%(count)s round is waiting on this phone.", "%(count)s rounds are waiting on this phone."
    ),
    "offline_not_kept": _l(
        "This phone could not keep the round: the network is gone. Keep the page open and save"
        " again later."
    ),
    "offline_sign_in": _l("Sign in again to send the rounds kept on this phone."),
    "offline_server_trouble": _l(
        "The server could not take the rounds kept on this phone yet; they stay here."
    ),
    "offline_refused": _l(
        "This round was typed while the network was gone and was not saved: Check it and save"
        " again."
    ),
    "offline_refused_because": _l(
        "This round was typed while the network was gone and was not saved: %(problems)s Check"
        " it and save again."
    ),
    # draft.js: a round typed in place, kept on this phone until saved, brought back.
    "draft_kept": _l("Round %(number)s as you left it."),
    "draft_taken": _l(
        "Round %(number)s was saved on another phone meanwhile; your draft is below to compare."
    ),
    "draft_sent": _l("Round %(number)s is in the table now; your draft is below to compare."),
    "draft_renumbered": _l(
        "Rounds were deleted meanwhile, so your draft is round %(number)s now: check the table"
        " before saving."
    ),
    # new_session.js: what picking a preset changed.
    "preset_changed": _l("%(preset)s changed: %(settings)s."),
    "preset_unchanged": _l("Nothing changed: the rules already were %(preset)s."),
    # awake.js: keep the screen on.
    "awake_refused": _l("This phone would not keep the screen on (battery saver?)."),
    # checker.js and checker_keypad.js: the table checker (its verdicts are the page's own).
    "checker_whole_number": _l("Enter a whole number, like 30."),
    "checker_new_set": _l("New set"),
    "checker_take_last": _l("Take the last off"),
    "checker_keypad": _l("Keypad"),
    "checker_keypad_for": _l("Keypad for %(field)s"),
    "checker_rules_changed": _l("Rules: Standard, as changed here"),
}
