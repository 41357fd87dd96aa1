/* The tile notation in the browser, as scorekeeper/rules/tiles.py reads it on the server (the
   cases of tests/notation_cases.json hold the two to the same answers): a colour or a suit,
   then a number or a card's face: r7, "red 7", k13 with tiles, hQ, ♦A with cards; j (or joker,
   *, jkr) is a joker in both. Each session reads only its own notation.
   A tile's id is its tile notation (r7, j). No words a person reads here: the keypads name the
   tiles (tile_keys.js). Bundled with the scripts that read racks (web/assets.py, BUNDLES). */
window.ScorekeeperTiles = (() => {
  "use strict";
  const FACES = { 1: "A", 11: "J", 12: "Q", 13: "K" };
  const FACE_NUMBERS = { a: 1, j: 11, q: 12, k: 13 };
  const JOKERS = ["j", "joker", "*", "jkr"];
  const MAX_TOKEN = 12; // no tile is written longer
  /* Spaces, commas and semicolons part tiles: every space Python's \s or JavaScript's knows. */
  const SEPARATORS = /[\s\x1c-\x1f\x85,;]+/g;
  const TOKEN = /^([a-z]+|[♠♥♦♣])([0-9]+|[ajqk])$/;
  const COLOURS = {}; // a colour's letter -> {letter, suit, symbol}: its card suit
  /* Each notation's names of the colours, one table each, as rules/tiles.py has them: a
     session reads only its own (a card in a game of tiles is not a tile). */
  const NAMES = { tiles: new Map(), cards: new Map() };
  /* The four colours in the box's order, each with the card suit that stands for it: a letter
     and a word, a suit's letter, symbol and word (singular too: "heart"). */
  ["k black s ♠ spades", "r red h ♥ hearts", "b blue c ♣ clubs", "o orange d ♦ diamonds"].forEach((line) => {
    const names = line.split(" ");
    const [letter, , suit, symbol] = names;
    COLOURS[letter] = { letter, suit, symbol };
    [...names, names[4].slice(0, -1)].forEach((name, i) => NAMES[i > 1 ? "cards" : "tiles"].set(name, letter));
  });
  const isColour = (name) => NAMES.tiles.has(name) || NAMES.cards.has(name);

  /* One tile as typed (case and spaces aside) in a notation (`cards`: a game of cards), as
     its id; null when it is not one. Jokers are written the same in both. */
  const read = (text, cards) => {
    const match = TOKEN.exec(text);
    const letter = match && NAMES[cards ? "cards" : "tiles"].get(match[1]);
    if (!letter) return null;
    const raw = match[2];
    let n = 0;
    if (/[0-9]/.test(raw)) n = raw[0] === "0" ? 0 : parseInt(raw, 10);
    else if (cards) n = FACE_NUMBERS[raw];
    return n >= 1 && n <= 13 ? letter + n : null;
  };
  const clean = (token) => String(token).replace(SEPARATORS, "").toLowerCase();
  const tileOf = (token, cards = false) => {
    const text = clean(token);
    if (JOKERS.includes(text)) return "j";
    return text.length <= MAX_TOKEN ? read(text, cards) : null;
  };
  /* Whether a token is a tile of the other notation (a card typed in a game of tiles). */
  const otherNotation = (token, cards = false) => {
    const text = clean(token);
    return text.length <= MAX_TOKEN && !JOKERS.includes(text) && read(text, !cards) !== null;
  };
  /* A rack or a set as typed, each tile read in the notation: [{raw, id}], id null when
     unread. A colour word standing alone joins the number after it ("red 7" is one tile). */
  const tilesOf = (text, cards = false) => {
    const chunks = String(text).split(SEPARATORS).filter(Boolean);
    const out = [];
    for (let i = 0; i < chunks.length; i += 1) {
      let raw = chunks[i];
      if (isColour(raw.toLowerCase()) && i + 1 < chunks.length) {
        i += 1;
        raw = `${raw} ${chunks[i]}`;
      }
      out.push({ raw, id: tileOf(raw, cards) });
    }
    return out;
  };
  const colourOf = (id) => COLOURS[id[0]];
  const numberOf = (id) => parseInt(id.slice(1), 10);
  /* What a tile costs its holder: its number, or the joker penalty. */
  const valueOf = (id, penalty) => (id === "j" ? penalty : numberOf(id));
  /* A tile in the session's notation: r12 with tiles, hQ with cards. */
  const notation = (id, cards) => {
    if (!cards || id === "j") return id;
    const n = numberOf(id);
    return `${colourOf(id).suit}${FACES[n] || n}`;
  };
  return { FACES, tileOf, tilesOf, otherNotation, colourOf, numberOf, valueOf, notation };
})();
