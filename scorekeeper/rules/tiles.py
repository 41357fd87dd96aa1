"""Tiles and jokers: the notation of docs/RULES.md §1 (tiles or cards), rack values, supply."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum

from scorekeeper.rules.errors import RulesError, TileName


class Colour(Enum):
    """The four tile colours, each with its letter and the card suit that stands for it."""

    BLACK = ("k", "s", "♠", "black", "spades")
    RED = ("r", "h", "♥", "red", "hearts")
    BLUE = ("b", "c", "♣", "blue", "clubs")
    ORANGE = ("o", "d", "♦", "orange", "diamonds")

    @property
    def letter(self) -> str:
        return self.value[0]

    @property
    def suit_letter(self) -> str:
        return self.value[1]

    @property
    def suit_symbol(self) -> str:
        return self.value[2]

    @property
    def word(self) -> str:
        return self.value[3]

    @property
    def suit_word(self) -> str:
        return self.value[4]


COLOURS: tuple[Colour, ...] = tuple(Colour)
NUMBERS = range(1, 14)
FACES = {1: "A", 11: "J", 12: "Q", 13: "K"}
_FACE_NUMBERS = {face.lower(): number for number, face in FACES.items()}
JOKER_WORDS = ("j", "joker", "*", "jkr")

# Each notation's names of the colours, one table each (docs/RULES.md 1): a session reads
# only its own, and a token of the other is named as such. No name is in both tables.
TILE_NAMES: dict[str, Colour] = {n: c for c in Colour for n in (c.letter, c.word)}
CARD_NAMES: dict[str, Colour] = {
    n: c for c in Colour for n in (c.suit_letter, c.suit_symbol, c.suit_word, c.suit_word[:-1])
}
NOTATIONS: dict[str, dict[str, Colour]] = {"tiles": TILE_NAMES, "cards": CARD_NAMES}

# The digits are 0-9 only: Python's \d would read "r٧" or a full-width "r７" as red 7, which
# the browser's notation (static/tiles.js) does not (tests/notation_cases.json holds the two).
_TOKEN = re.compile(r"^(?P<colour>[a-z]+|[♠♥♦♣])(?P<number>[0-9]+|[ajqk])$")
# Spaces, commas and semicolons part tiles: every space Python's \s or JavaScript's knows
# (JavaScript's also has U+FEFF; Python's also has U+001C-U+001F and U+0085).
_SEPARATORS = re.compile(r"[\s\ufeff,;]+")
MAX_TOKEN = 12
# A set of every numbered tile once: 4 colours x (1 + ... + 13).
NUMBERED_VALUE_PER_COPY = 4 * sum(NUMBERS)


@dataclass(frozen=True)
class Tile:
    """A numbered tile, or a joker when `colour` is None."""

    number: int = 0
    colour: Colour | None = None

    @property
    def is_joker(self) -> bool:
        return self.colour is None

    def code(self) -> str:
        """The short tile notation: `r7`, `k13`, `j`."""
        return "j" if self.colour is None else f"{self.colour.letter}{self.number}"

    def card_code(self) -> str:
        """The short card notation: `h7`, `sK`, `j`."""
        if self.colour is None:
            return "j"
        return f"{self.colour.suit_letter}{FACES.get(self.number, str(self.number))}"

    def name(self, played_with: str = "tiles") -> str:
        """Plain words for messages: `red 7`, `joker`, or `queen of hearts`-style `hearts Q`."""
        return str(self.words(played_with))

    def words(self, played_with: str = "tiles") -> TileName:
        """The plain words of `name`, kept apart so the web layer can translate the colour."""
        if self.colour is None:
            return TileName("joker")
        if played_with == "cards":
            return TileName(self.colour.suit_word, FACES.get(self.number, str(self.number)))
        return TileName(self.colour.word, str(self.number))

    def notation(self, played_with: str = "tiles") -> str:
        return self.card_code() if played_with == "cards" else self.code()

    def __str__(self) -> str:
        return self.code()

    def __repr__(self) -> str:
        return f"Tile({self.code()})"


JOKER = Tile()


def tile(colour: Colour, number: int) -> Tile:
    """A numbered tile; refuses numbers outside 1-13."""
    if number not in NUMBERS:
        raise ValueError(f"no tile numbered {number}")
    return Tile(number, colour)


def parse_tile(token: str, played_with: str = "tiles") -> Tile:
    """Read one tile in the session's notation: `r7`, `red 7` with tiles, `hq`, `♦A` with
    cards, `j` in both (case and spaces ignored); a token of the other notation is named."""
    text = _SEPARATORS.sub("", str(token)).lower()
    if len(text) > MAX_TOKEN:  # no tile is written longer; int() of 5000 digits would fail
        raise _bad_tile(token, played_with)
    if text in JOKER_WORDS:
        return JOKER
    read = _read(text, played_with)
    if read is not None:
        return read
    if _read(text, _other(played_with)) is not None:
        raise _other_notation(token, played_with)
    raise _bad_tile(token, played_with)


def _other(played_with: str) -> str:
    return "tiles" if played_with == "cards" else "cards"


def _read(text: str, played_with: str) -> Tile | None:
    """The tile a token writes in one notation (a card's face only with cards), or None."""
    match = _TOKEN.match(text)
    colour = match and NOTATIONS[played_with].get(match["colour"])
    if not match or colour is None:
        return None
    raw = match["number"]
    if raw.isdigit():
        number = int(raw)
    elif played_with == "cards":
        number = _FACE_NUMBERS[raw]
    else:
        return None
    if number not in NUMBERS or raw.startswith("0"):
        return None
    return Tile(number, colour)


def parse_tiles(entry: str | Sequence[str], played_with: str = "tiles") -> list[Tile]:
    """Read a rack or a set in the session's notation from text (`r7 k13 j`, `red 7, black13`) or
    a list of tokens; a colour word standing alone joins the number after it."""
    if isinstance(entry, str):
        chunks = [c for c in _SEPARATORS.split(entry.strip()) if c]
    else:
        chunks = []
        for item in entry:
            if not isinstance(item, str):
                raise RulesError.one("bad_tile", "%(token)s is not a tile.", token=_shown(item))
            chunks.append(item)
    tiles: list[Tile] = []
    i = 0
    while i < len(chunks):
        chunk = chunks[i]
        lone_colour = chunk.lower() in TILE_NAMES or chunk.lower() in CARD_NAMES
        if lone_colour and chunk.lower() not in JOKER_WORDS and i + 1 < len(chunks):
            tiles.append(parse_tile(f"{chunk} {chunks[i + 1]}", played_with))
            i += 2
            continue
        tiles.append(parse_tile(chunk, played_with))
        i += 1
    return tiles


def format_tiles(tiles: Iterable[Tile], played_with: str = "tiles") -> str:
    """Tiles in notation, sorted by colour then number, jokers last."""
    return " ".join(t.notation(played_with) for t in sort_tiles(tiles))


def sort_tiles(tiles: Iterable[Tile]) -> list[Tile]:
    """Colour order of the box (black, red, blue, orange), numbers ascending, jokers last."""
    order: dict[Colour | None, int] = {c: i for i, c in enumerate(COLOURS)}
    return sorted(tiles, key=lambda t: (t.colour is None, order.get(t.colour, 9), t.number))


def rack_value(tiles: Iterable[Tile], joker_penalty: int) -> int:
    """What a rack costs its holder: the numbers plus the joker penalty per joker (the
    session's setting: Settings.joker_penalty)."""
    return sum(joker_penalty if t.is_joker else t.number for t in tiles)


def copies_per_set(t: Tile) -> int:
    """Every numbered tile exists twice in a set, and so do jokers."""
    return 2


def check_supply(
    racks: Iterable[Iterable[Tile]], tile_sets: int = 1, played_with: str = "tiles"
) -> None:
    """Refuse tiles entered more often than they exist across everything entered at once."""
    counts: Counter[Tile] = Counter()
    for rack in racks:
        counts.update(rack)
    for t in sort_tiles(counts):
        count = counts[t]
        limit = copies_per_set(t) * tile_sets
        if count > limit:
            if tile_sets == 1:
                raise RulesError.one(
                    "tile_supply",
                    "%(tile)s entered %(count)d times; a single set has %(limit)d.",
                    field=t.code(),
                    tile=t.words(played_with),
                    count=count,
                    limit=limit,
                )
            raise RulesError.one(
                "tile_supply",
                "%(tile)s entered %(count)d times; two sets have %(limit)d.",
                field=t.code(),
                tile=t.words(played_with),
                count=count,
                limit=limit,
            )


def most_valuable_rack(tile_sets: int, joker_penalty: int) -> int:
    """The value of every tile in the game: no rack can be worth more."""
    return tile_sets * 2 * (NUMBERED_VALUE_PER_COPY + joker_penalty)


def _shown(token: object) -> str:
    """The bad token quoted and cut short, so a hostile entry cannot flood a message."""
    text = str(token)
    return f"“{text[:20]}”" if len(text) <= 20 else f"“{text[:20]}…”"


def _bad_tile(token: object, played_with: str = "tiles") -> RulesError:
    if played_with == "cards":
        return RulesError.one(
            "bad_tile",
            "%(token)s is not a card: write a suit and a face like hQ or s10, or j for a joker.",
            token=_shown(token),
        )
    return RulesError.one(
        "bad_tile",
        "%(token)s is not a tile: write a colour and a number like r7 or k13, or j for a joker.",
        token=_shown(token),
    )


def _other_notation(token: object, played_with: str) -> RulesError:
    """A card typed in a game of tiles, or a tile in a game of cards."""
    if played_with == "cards":
        return RulesError.one(
            "bad_tile",
            "%(token)s is a tile: this session is played with cards.",
            token=_shown(token),
        )
    return RulesError.one(
        "bad_tile", "%(token)s is a card: this session is played with tiles.", token=_shown(token)
    )
