/* The tile notation in the browser, as scorekeeper/rules/tiles.py reads it on the server (the
   cases of tests/notation_cases.json hold the two to the same answers): a colour or a suit,
   then a number or a card's face: r7, "red 7", k13, hQ, ♦A; j (or joker, *, jkr) is a joker.
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
  const COLOUR = new Map(); // a colour or a suit as typed -> its colour's letter
  const SUITS = new Set(); // only cards have faces (A, J, Q, K)
  /* The four colours in the box's order, each with the card suit that stands for it: a letter
     and a word, a suit's letter, symbol and word (singular too: "heart"). */
  ["k black s ♠ spades", "r red h ♥ hearts", "b blue c ♣ clubs", "o orange d ♦ diamonds"].forEach((line) => {
    const names = line.split(" ");
    const [letter, , suit, symbol] = names;
    COLOURS[letter] = { letter, suit, symbol };
    [...names, names[4].slice(0, -1)].forEach((name, i) => {
      COLOUR.set(name, letter);
      if (i > 1) SUITS.add(name);
    });
  });

  /* One tile as typed (case and spaces aside), as its id; null when it is not one. */
  const tileOf = (token) => {
    const text = String(token).replace(SEPARATORS, "").toLowerCase();
    if (JOKERS.includes(text)) return "j";
    const match = text.length <= MAX_TOKEN && TOKEN.exec(text);
    const letter = match && COLOUR.get(match[1]);
    if (!letter) return null;
    const [, name, raw] = match;
    let n = 0;
    if (/[0-9]/.test(raw)) n = raw[0] === "0" ? 0 : parseInt(raw, 10);
    else if (SUITS.has(name)) n = FACE_NUMBERS[raw];
    return n >= 1 && n <= 13 ? letter + n : null;
  };
  /* A rack or a set as typed, each tile read: [{raw, id}], id null when unread. A colour word
     standing alone joins the number after it ("red 7" is one tile). */
  const tilesOf = (text) => {
    const chunks = String(text).split(SEPARATORS).filter(Boolean);
    const out = [];
    for (let i = 0; i < chunks.length; i += 1) {
      let raw = chunks[i];
      if (COLOUR.has(raw.toLowerCase()) && i + 1 < chunks.length) {
        i += 1;
        raw = `${raw} ${chunks[i]}`;
      }
      out.push({ raw, id: tileOf(raw) });
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
  return { FACES, tileOf, tilesOf, colourOf, numberOf, valueOf, notation };
})();
