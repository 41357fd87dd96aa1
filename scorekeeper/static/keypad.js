/* Tile keypad of the round form, fetched by round.js at the first tap on a rack's "Tiles"
   button: keys for every tile (or card); a tap adds it to that rack's field in notation
   (r7 k13 j), a tap on a chip takes it off. Keys run out as the copies do, counted across all
   racks of the round. It opens scrolled to show its rack and every key, even on a small
   phone; Done moves on to the next rack. The text field stays the truth: typing there works
   too, and the server checks everything again. round.js reads the racks (with tiles.js) for
   both. */
(() => {
  "use strict";
  const { form, racks, nameOf: playerOf, whole } = window.ScorekeeperRound;
  const sets = parseInt(form.dataset.tileSets, 10) || 1;
  const cards = form.dataset.playedWith === "cards";
  const copies = 2 * sets;
  /* Its words came with it, in the page's language (web/assets.py, on_demand), where t finds
     them; the keys and the tiles' names are tile_keys.js's, fetched just before. */
  const { t, tn, number } = window.ScorekeeperText;
  const tileKeys = window.ScorekeeperTileKeys;
  const { notation, otherNotation, tilesOf, valueOf: costOf } = window.ScorekeeperTiles;
  const penalty = parseInt(form.dataset.jokerPenalty, 10) || 0;
  const valueOf = (id) => costOf(id, penalty);
  const nameOf = (id) => tileKeys.nameOf(id, cards);
  /* A rack's tiles and their values, read by tiles.js, fetched just before the keypad: not by
     round.js, which may not have it yet (its fetch is its own) and would read a blank rack as
     one unread tile. A number is a rack value: no tiles. */
  const tilesIn = (input) => (whole(input.value) === null ? tilesOf(input.value, cards) : []);

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
        ? tn("keypad_too_many_one_set", "%(tile)s: entered %(count)s time; a single set has %(copies)s", "%(tile)s: entered %(count)s times; a single set has %(copies)s", count, said)
        : tn("keypad_too_many_two_sets", "%(tile)s: entered %(count)s time; two sets have %(copies)s", "%(tile)s: entered %(count)s times; two sets have %(copies)s", count, said);
    }
    if (id === "j") {
      return copies === 2
        ? t("keypad_both_jokers", "%(tile)s: both jokers are already on racks", said)
        : tn("keypad_all_jokers", "%(tile)s: the %(copies)s joker is already on a rack", "%(tile)s: all %(copies)s jokers are already on racks", copies, said);
    }
    return copies === 2
      ? t("keypad_both_copies", "%(tile)s: both copies are already on racks", said)
      : tn("keypad_all_copies", "%(tile)s: the %(copies)s copy is already on a rack", "%(tile)s: all %(copies)s copies are already on racks", copies, said);
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
  const keys = tileKeys.keys(cards);
  const used = el("ul", { className: "used-up", id: "keypad-used" });
  const done = el("button", { type: "button", className: "secondary small" }, t("done", "Done"));
  const tap = cards
    ? t("keypad_tap_card", "Tap a card to add it, a chosen card to take it off.")
    : t("keypad_tap_tile", "Tap a tile to add it, a chosen tile to take it off.");
  const legend = el("p", { className: "hint" }, `${tileKeys.legend(cards)} ${tap}`);
  const keypad = el("div", { className: "keypad", id: "keypad", hidden: true, role: "group" });
  keypad.setAttribute("aria-labelledby", "keypad-head");
  // The legend under the keys: the rack's field, its tiles and all the keys fit a small phone.
  keypad.append(head, chips, keys, legend, used, done);

  let open = null; // the rack input the keypad fills

  /* The "Tiles" buttons round.js put by each rack now control the keypad. */
  const toggles = racks.map((input) => {
    const toggle = input.closest(".inline").querySelector(".tiles-toggle");
    toggle.setAttribute("aria-controls", "keypad");
    return toggle;
  });

  const render = () => {
    if (!open) return;
    const inRack = tilesIn(open);
    const read = inRack.filter((tile) => tile.id);
    const value = read.reduce((sum, tile) => sum + valueOf(tile.id), 0);
    const said = { value: open.value.trim(), count: number(read.length), points: number(value) };
    let line;
    if (whole(open.value) !== null) {
      line = cards
        ? t("keypad_entered_as_card", ": entered as %(value)s; a tap on a card replaces the number", said)
        : t("keypad_entered_as_tile", ": entered as %(value)s; a tap on a tile replaces the number", said);
    } else {
      line = cards
        ? tn("keypad_count_cards", ": %(count)s card · %(points)s points", ": %(count)s cards · %(points)s points", read.length, said)
        : tn("keypad_count_tiles", ": %(count)s tile · %(points)s points", ": %(count)s tiles · %(points)s points", read.length, said);
    }
    head.replaceChildren(el("strong", {}, playerOf(open)), line);
    chips.replaceChildren(
      ...inRack.map((tile, i) => {
        let label;
        if (tile.id) label = t("keypad_take_off", "Take %(tile)s off", { tile: nameOf(tile.id) });
        else if (otherNotation(tile.raw, cards)) {
          label = cards
            ? t("keypad_take_off_a_tile", "Take “%(text)s” off (a tile: this session is played with cards)", { text: tile.raw })
            : t("keypad_take_off_a_card", "Take “%(text)s” off (a card: this session is played with tiles)", { text: tile.raw });
        } else if (cards) label = t("keypad_take_off_unread_card", "Take “%(text)s” off (not a card)", { text: tile.raw });
        else label = t("keypad_take_off_unread_tile", "Take “%(text)s” off (not a tile)", { text: tile.raw });
        const chip = el(
          "button",
          {
            type: "button",
            // No template inside a template: the minifier (web/assets.py) would misread it.
            className: !tile.id ? "chip bad" : tile.id === "j" ? "chip tile joker" : `chip tile c-${tile.id[0]}`,
            ariaLabel: label,
          },
          tile.id ? notation(tile.id, cards) : `⚠ ${tile.raw}`,
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
    const kept = tilesIn(open).map((tile) => tile.raw);
    write([...kept, notation(key.dataset.tile, cards)]);
  });
  chips.addEventListener("click", (event) => {
    const chip = event.target.closest(".chip");
    if (!chip || !open) return;
    const index = parseInt(chip.dataset.index, 10);
    const list = tilesIn(open).map((tile) => tile.raw);
    list.splice(index, 1);
    write(list);
    const next = chips.children[Math.min(index, chips.children.length - 1)];
    (next || done).focus();
  });

  /* Scroll the least that shows the rack's field and every key under it: with its label
     and Done too when the screen has room for them (a small phone may not). */
  const reveal = (input) => {
    const room = window.innerHeight;
    const top = (node) => node.getBoundingClientRect().top;
    const bottom = (node) => node.getBoundingClientRect().bottom;
    const seat = input.closest(".seat");
    const spans = [
      [top(seat), bottom(done)],
      [top(seat), bottom(keys)],
      [top(input), bottom(keys)],
    ];
    const [from, to] = spans.find(([a, b]) => b - a <= room) || spans[2];
    let by = 0;
    if (from < 0 || to - from > room) by = Math.floor(from);
    else if (to > room) by = Math.ceil(to - room);
    if (by) window.scrollBy(0, by);
  };

  const show = (input) => {
    open = input;
    input.closest(".seat").after(keypad);
    keypad.hidden = false;
    toggles.forEach((toggle, i) => toggle.setAttribute("aria-expanded", String(racks[i] === input)));
    if (document.activeElement && document.activeElement.tagName === "INPUT") {
      document.activeElement.blur(); // the phone's keyboard would cover the keys
    }
    render();
    reveal(input);
  };
  /* Closed by its rack's button, the focus goes back there; by Done, on to the next rack (as
     Enter does), or to Save after the last one. */
  const close = (onward) => {
    const at = racks.indexOf(open);
    open = null;
    keypad.hidden = true;
    toggles.forEach((toggle) => toggle.setAttribute("aria-expanded", "false"));
    const next = onward
      ? racks.slice(at + 1).find((input) => !input.disabled && input.offsetParent !== null)
        || form.querySelector("#save")
      : toggles[at];
    if (next) next.focus();
  };
  done.addEventListener("click", () => close(true));
  /* round.js calls this at a tap on a rack's button: open the keypad there, or close it. */
  window.ScorekeeperKeypad = (input) => (open === input ? close(false) : show(input));

  form.addEventListener("input", render);
  form.addEventListener("change", () => {
    if (open && open.disabled) close(false); // the keypad's player was just picked as the winner
    render();
  });
})();
