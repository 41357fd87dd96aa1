/* The keys of a tile keypad and the tiles' names in the page's language, for both keypads: the
   round form's (keypad.js) and the table checker's (checker_keypad.js). Fetched on demand just
   before either, with its words (web/assets.py, ON_DEMAND); the notation is tiles.js's. */
window.ScorekeeperTileKeys = (() => {
  "use strict";
  const { t } = window.ScorekeeperText;
  const { FACES, colourOf, numberOf } = window.ScorekeeperTiles;
  /* Each colour's name and its suit's, by the colour's letter. */
  const NAMES = {
    k: [t("colour_black", "black"), t("suit_spades", "spades")],
    r: [t("colour_red", "red"), t("suit_hearts", "hearts")],
    b: [t("colour_blue", "blue"), t("suit_clubs", "clubs")],
    o: [t("colour_orange", "orange"), t("suit_diamonds", "diamonds")],
  };
  const SHOWN = { tiles: ["k", "r", "b", "o"], cards: ["k", "r", "o", "b"] }; // ♠ ♥ ♦ ♣ for cards

  /* A tile (by its id, r7 or j) in words: "red 7", "hearts Q", "joker". */
  const nameOf = (id, cards) => {
    if (id === "j") return t("joker", "joker");
    const [colour, suit] = NAMES[id[0]];
    const n = numberOf(id);
    return cards
      ? t("card_name", "%(suit)s %(face)s", { suit, face: FACES[n] || n })
      : t("tile_name", "%(colour)s %(number)s", { colour, number: n });
  };
  const legend = (cards) =>
    cards
      ? t("legend_cards", "♠ s spades · ♥ h hearts · ♦ d diamonds · ♣ c clubs · J joker.")
      : t("legend_tiles", "k black · r red · b blue · o orange · J joker.");

  const key = (id, cards) => {
    const button = document.createElement("button");
    button.type = "button";
    button.dataset.tile = id;
    button.setAttribute("aria-label", nameOf(id, cards));
    if (id === "j") {
      button.className = "key joker";
      button.append("J");
      return button;
    }
    const c = colourOf(id);
    const n = numberOf(id);
    // The colour's letter (a card's suit) in the key's corner: its own class, not a seat's .mark.
    const corner = document.createElement("span");
    corner.className = "corner";
    corner.setAttribute("aria-hidden", "true");
    corner.textContent = cards ? c.symbol : c.letter;
    button.className = `key c-${c.letter}`;
    button.append(corner, cards ? FACES[n] || String(n) : String(n));
    return button;
  };
  /* Every tile's key (each with its id in data-tile), a row per colour, the joker last. */
  const keys = (cards) => {
    const holder = document.createElement("div");
    holder.className = "keys";
    SHOWN[cards ? "cards" : "tiles"].forEach((letter) => {
      for (let n = 1; n <= 13; n += 1) holder.append(key(`${letter}${n}`, cards));
      const gap = document.createElement("span");
      gap.className = "gap";
      holder.append(gap);
    });
    holder.append(key("j", cards));
    return holder;
  };
  return { nameOf, legend, keys };
})();
