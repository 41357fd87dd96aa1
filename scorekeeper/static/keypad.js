/* Tile keypad of the round form: a "Tiles" button by each rack opens keys for every tile
   (or card); a tap adds it to that rack's field in notation (r7 k13 j), a tap on a chip takes
   it off. Keys run out as the copies do, counted across all racks of the round. The text
   field stays the truth: typing there works too, and the server checks everything again. */
(() => {
  "use strict";
  const form = document.getElementById("round-form");
  if (!form) return;
  const racks = Array.from(form.querySelectorAll('input[data-kind="rack"]'));
  if (!racks.length) return;
  const sets = parseInt(form.dataset.tileSets, 10) || 1;
  const cards = form.dataset.playedWith === "cards";
  const jokerPenalty = parseInt(form.dataset.jokerPenalty, 10) || 0;
  const copies = 2 * sets;
  const { t, number } = window.ScorekeeperText;

  /* The four colours in the box's order, each with the card suit that stands for it: the
     words are the notation typed in the field (English in every language), the names are
     what the page says. */
  const COLOURS = [
    { letter: "k", word: "black", suit: "s", suitWord: "spades", symbol: "♠",
      name: t("colour_black", "black"), suitName: t("suit_spades", "spades") },
    { letter: "r", word: "red", suit: "h", suitWord: "hearts", symbol: "♥",
      name: t("colour_red", "red"), suitName: t("suit_hearts", "hearts") },
    { letter: "b", word: "blue", suit: "c", suitWord: "clubs", symbol: "♣",
      name: t("colour_blue", "blue"), suitName: t("suit_clubs", "clubs") },
    { letter: "o", word: "orange", suit: "d", suitWord: "diamonds", symbol: "♦",
      name: t("colour_orange", "orange"), suitName: t("suit_diamonds", "diamonds") },
  ];
  const SHOWN = cards ? ["s", "h", "d", "c"] : ["k", "r", "b", "o"]; // ♠ ♥ ♦ ♣ for cards
  const FACES = { 1: "A", 11: "J", 12: "Q", 13: "K" };
  const FACE_NUMBERS = { a: 1, j: 11, q: 12, k: 13 };
  const JOKERS = ["j", "joker", "*", "jkr"];
  const BY_NAME = {};
  const SUIT_NAMES = new Set();
  COLOURS.forEach((c) => {
    [c.letter, c.word].forEach((n) => { BY_NAME[n] = c; });
    [c.suit, c.symbol, c.suitWord, c.suitWord.slice(0, -1)].forEach((n) => {
      BY_NAME[n] = c;
      SUIT_NAMES.add(n);
    });
  });
  const TOKEN = /^([a-z]+|[♠♥♦♣])(\d+|[ajqk])$/;

  /* A tile's id is its tile notation (r7, j); it is shown and sent in the session's notation. */
  const colourOf = (id) => COLOURS.find((c) => c.letter === id[0]);
  const numberOf = (id) => parseInt(id.slice(1), 10);
  const notation = (id) => {
    if (id === "j") return "j";
    const n = numberOf(id);
    return cards ? `${colourOf(id).suit}${FACES[n] || n}` : id;
  };
  const nameOf = (id) => {
    if (id === "j") return t("joker", "joker");
    const c = colourOf(id);
    const n = numberOf(id);
    return cards
      ? t("card_name", "%(suit)s %(face)s", { suit: c.suitName, face: FACES[n] || n })
      : t("tile_name", "%(colour)s %(number)s", { colour: c.name, number: n });
  };
  const valueOf = (id) => (id === "j" ? jokerPenalty : numberOf(id));

  const parseToken = (raw) => {
    const text = raw.toLowerCase();
    if (JOKERS.includes(text)) return "j";
    const match = TOKEN.exec(text);
    const colour = match && BY_NAME[match[1]];
    if (!colour) return null;
    let number;
    if (/^\d+$/.test(match[2])) number = match[2].startsWith("0") ? 0 : parseInt(match[2], 10);
    else if (SUIT_NAMES.has(match[1])) number = FACE_NUMBERS[match[2]];
    return number >= 1 && number <= 13 ? `${colour.letter}${number}` : null;
  };

  /* A field's tokens as typed (a lone colour word joins the number after it), each read. */
  const tokens = (text) => {
    const chunks = text.trim().split(/[\s,;]+/).filter(Boolean);
    const out = [];
    for (let i = 0; i < chunks.length; i += 1) {
      let raw = chunks[i];
      const lower = raw.toLowerCase();
      if (BY_NAME[lower] && !JOKERS.includes(lower) && i + 1 < chunks.length) {
        i += 1;
        raw = `${raw} ${chunks[i]}`;
      }
      out.push({ raw, id: parseToken(raw.replace(/\s+/g, "")) });
    }
    return out;
  };
  const isNumber = (text) => /^\s*[+\-\u2212\u2013]?\s*\d+\s*$/.test(text);
  const tilesIn = (input) => (isNumber(input.value) ? [] : tokens(input.value));
  const playerOf = (input) =>
    form.querySelector(`label[for="${input.id}"]`).textContent.replace("⚠", "").trim();

  /* How many of each tile are on the racks entered so far (the winner's hidden rack aside). */
  const counts = () => {
    const found = {};
    racks.filter((input) => !input.disabled).forEach((input) => {
      tilesIn(input).forEach((tile) => {
        if (tile.id) found[tile.id] = (found[tile.id] || 0) + 1;
      });
    });
    return found;
  };
  const usedUp = (id, count) => {
    const said = { tile: nameOf(id), count: number(count), copies: number(copies) };
    if (count > copies) {
      return sets === 1
        ? t("keypad_too_many_one_set", "%(tile)s: entered %(count)s times; a single set has %(copies)s", said)
        : t("keypad_too_many_two_sets", "%(tile)s: entered %(count)s times; two sets have %(copies)s", said);
    }
    if (id === "j") {
      return copies === 2
        ? t("keypad_both_jokers", "%(tile)s: both jokers are already on racks", said)
        : t("keypad_all_jokers", "%(tile)s: all %(copies)s jokers are already on racks", said);
    }
    return copies === 2
      ? t("keypad_both_copies", "%(tile)s: both copies are already on racks", said)
      : t("keypad_all_copies", "%(tile)s: all %(copies)s copies are already on racks", said);
  };

  const el = (tag, props = {}, ...children) => {
    const node = document.createElement(tag);
    Object.entries(props).forEach(([key, value]) => {
      if (key === "className") node.className = value;
      else if (key === "hidden") node.hidden = value;
      else node.setAttribute(key.replace(/^aria([A-Z])/, (_, c) => `aria-${c.toLowerCase()}`), value);
    });
    node.append(...children);
    return node;
  };

  /* ---- The keypad: built once, moved under the rack it fills. ---- */
  const head = el("p", { className: "keypad-head", id: "keypad-head", ariaLive: "polite" });
  const chips = el("div", { className: "chips rack-chips" });
  const keys = el("div", { className: "keys" });
  const used = el("ul", { className: "used-up", id: "keypad-used" });
  const done = el("button", { type: "button", className: "secondary small" }, t("done", "Done"));
  const legend = el(
    "p",
    { className: "hint" },
    cards
      ? `${t("legend_cards", "♠ s spades · ♥ h hearts · ♦ d diamonds · ♣ c clubs · J joker.")} ${t("keypad_tap_card", "Tap a card to add it, a chosen card to take it off.")}`
      : `${t("legend_tiles", "k black · r red · b blue · o orange · J joker.")} ${t("keypad_tap_tile", "Tap a tile to add it, a chosen tile to take it off.")}`,
  );
  const keypad = el("div", { className: "keypad", id: "keypad", hidden: true, role: "group" });
  keypad.setAttribute("aria-labelledby", "keypad-head");
  keypad.append(head, chips, legend, keys, used, done);

  const keyFor = (id) => {
    const c = id === "j" ? null : colourOf(id);
    const n = id === "j" ? 0 : numberOf(id);
    const mark = c ? el("span", { className: "mark", ariaHidden: "true" }, cards ? c.symbol : c.letter) : "";
    const face = id === "j" ? "J" : cards ? FACES[n] || String(n) : String(n);
    const key = el(
      "button",
      { type: "button", className: `key${c ? ` c-${c.letter}` : " joker"}`, ariaLabel: nameOf(id) },
      mark,
      face,
    );
    key.dataset.tile = id;
    return key;
  };
  SHOWN.forEach((letter) => {
    const c = COLOURS.find((x) => x.letter === letter || x.suit === letter);
    for (let n = 1; n <= 13; n += 1) keys.append(keyFor(`${c.letter}${n}`));
    keys.append(el("span", { className: "gap" }));
  });
  keys.append(keyFor("j"));

  let open = null; // the rack input the keypad fills

  const toggles = racks.map((input) => {
    const name = playerOf(input);
    const toggle = el(
      "button",
      {
        type: "button",
        className: "secondary tiles-toggle",
        ariaLabel: cards
          ? t("keypad_cards_for", "Cards for %(name)s", { name })
          : t("keypad_tiles_for", "Tiles for %(name)s", { name }),
      },
      cards ? t("keypad_cards", "Cards") : t("keypad_tiles", "Tiles"),
    );
    toggle.setAttribute("aria-expanded", "false");
    toggle.setAttribute("aria-controls", "keypad");
    toggle.addEventListener("click", () => (open === input ? close() : show(input)));
    input.closest(".inline").append(toggle);
    return toggle;
  });

  const render = () => {
    if (!open) return;
    const inRack = tilesIn(open);
    const read = inRack.filter((tile) => tile.id);
    const value = read.reduce((sum, tile) => sum + valueOf(tile.id), 0);
    const said = { value: open.value.trim(), count: number(read.length), points: number(value) };
    let line;
    if (isNumber(open.value) && open.value.trim()) {
      line = cards
        ? t("keypad_entered_as_card", ": entered as %(value)s; a tap on a card replaces the number", said)
        : t("keypad_entered_as_tile", ": entered as %(value)s; a tap on a tile replaces the number", said);
    } else if (read.length === 1) {
      line = cards
        ? t("keypad_count_cards_one", ": %(count)s card · %(points)s points", said)
        : t("keypad_count_tiles_one", ": %(count)s tile · %(points)s points", said);
    } else {
      line = cards
        ? t("keypad_count_cards_other", ": %(count)s cards · %(points)s points", said)
        : t("keypad_count_tiles_other", ": %(count)s tiles · %(points)s points", said);
    }
    head.replaceChildren(el("strong", {}, playerOf(open)), line);
    chips.replaceChildren(
      ...inRack.map((tile, i) => {
        let label;
        if (tile.id) label = t("keypad_take_off", "Take %(tile)s off", { tile: nameOf(tile.id) });
        else if (cards) label = t("keypad_take_off_unread_card", "Take “%(text)s” off (not a card)", { text: tile.raw });
        else label = t("keypad_take_off_unread_tile", "Take “%(text)s” off (not a tile)", { text: tile.raw });
        const chip = el(
          "button",
          {
            type: "button",
            className: tile.id ? `chip tile ${tile.id === "j" ? "joker" : `c-${tile.id[0]}`}` : "chip bad",
            ariaLabel: label,
          },
          tile.id ? notation(tile.id) : `⚠ ${tile.raw}`,
          el("span", { ariaHidden: "true", className: "x" }, "×"),
        );
        chip.dataset.index = i;
        return chip;
      }),
    );
    const found = counts();
    const lines = [];
    keys.querySelectorAll(".key").forEach((key) => {
      const id = key.dataset.tile;
      const count = found[id] || 0;
      const full = count >= copies;
      key.disabled = full;
      if (full) {
        const reason = usedUp(id, count);
        const line = el("li", { id: `used-${id}` }, reason);
        if (count > copies) line.className = "error";
        lines.push(line);
        key.title = reason;
        key.setAttribute("aria-describedby", line.id);
      } else {
        key.removeAttribute("title");
        key.removeAttribute("aria-describedby");
      }
    });
    used.replaceChildren(...lines);
  };

  /* Write the rack back into its field and tell the page (the preview listens for input). */
  const write = (list) => {
    open.value = list.join(" ");
    open.dispatchEvent(new Event("input", { bubbles: true }));
  };

  keys.addEventListener("click", (event) => {
    const key = event.target.closest(".key");
    if (!key || key.disabled || !open) return;
    const kept = isNumber(open.value) ? [] : tokens(open.value).map((tile) => tile.raw);
    write([...kept, notation(key.dataset.tile)]);
  });
  chips.addEventListener("click", (event) => {
    const chip = event.target.closest(".chip");
    if (!chip || !open) return;
    const index = parseInt(chip.dataset.index, 10);
    const list = tokens(open.value).map((tile) => tile.raw);
    list.splice(index, 1);
    write(list);
    const next = chips.children[Math.min(index, chips.children.length - 1)];
    (next || done).focus();
  });

  const show = (input) => {
    open = input;
    input.closest(".seat").after(keypad);
    keypad.hidden = false;
    toggles.forEach((toggle, i) => toggle.setAttribute("aria-expanded", String(racks[i] === input)));
    if (document.activeElement && document.activeElement.tagName === "INPUT") {
      document.activeElement.blur(); // the phone's keyboard would cover the keys
    }
    render();
  };
  const close = () => {
    const toggle = toggles[racks.indexOf(open)];
    open = null;
    keypad.hidden = true;
    toggles.forEach((toggle) => toggle.setAttribute("aria-expanded", "false"));
    if (toggle) toggle.focus();
  };
  done.addEventListener("click", close);

  form.addEventListener("input", render);
  form.addEventListener("change", () => {
    if (open && open.disabled) close(); // the keypad's player was just picked as the winner
    render();
  });
})();
