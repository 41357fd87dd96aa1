/* Round form: what every ending shares. The live preview line (worked out by the ending's own
   script, round_<ending>.js, which comes after this one in the same file with offline.js:
   web/assets.py, BUNDLES) and the score by each field, racks read from tile notation, Enter
   moves to the next player (its key says so), a "Tap tiles" button by each rack that fetches the
   tile keypad (keypad.js) at its first tap, and Save submits once. It only helps typing: the
   server checks everything again and its answer is the truth. */
(() => {
  "use strict";
  const form = document.getElementById("round-form");
  if (!form) return;
  const { jokerPenalty, winnerBonus, playedWith, keypad, tiles: tilesScript } = form.dataset;
  const penalty = parseInt(jokerPenalty, 10) || 0;
  const save = document.getElementById("save");
  const saveText = save.textContent;
  const preview = document.getElementById("preview");
  const { t, formatter } = window.ScorekeeperText;
  const signs = formatter({ signDisplay: "exceptZero" });
  const andList = window.ScorekeeperAndList; // lists.js, bundled before
  const fetchFiles = window.ScorekeeperFetchFiles; // fetch_files.js, bundled before

  /* A seat's fields of a kind (rack, count, score): the inputs named rack_0, rack_1... */
  const KINDS = ["rack", "count", "score"];
  const fields = (kind) => Array.from(form.querySelectorAll(`input[name^="${kind}_"]`));
  // A player's name: the label's own text, after its marks (a typo's ⚠, the seat's initials).
  const nameOf = (input) => input.labels[0].lastChild.textContent.trim();
  /* A button of the page's own, not one that saves. */
  const button = (text, className, label) => {
    const made = Object.assign(document.createElement("button"), { type: "button", className, textContent: text });
    if (label) made.setAttribute("aria-label", label);
    return made;
  };
  /* Where a rack's or a paper score's score is shown, beside its field, by seat. */
  const outputs = Array.from(form.querySelectorAll(".inline > input"), (input) => {
    const out = Object.assign(document.createElement("output"), { className: "derived" });
    out.dataset.previewSeat = input.name.split("_")[1];
    out.setAttribute("for", input.id);
    input.after(out);
    return out;
  });

  /* A whole number as phones type it (a typographic minus, stray spaces), or null. */
  const whole = (text) => {
    const cleaned = text.replace(/[\u2212\u2013]/g, "-").replace(/\s+/g, "");
    return /^[+-]?\d+$/.test(cleaned) ? parseInt(cleaned, 10) : null;
  };

  /* A rack's tiles as typed, each read ({raw, id}: tiles.js reads the notation as the server
     does, fetched at the first rack typed as tiles: unread until then). A number is a rack
     value, not tiles: none. The scores as on paper read no racks. */
  let notation = window.ScorekeeperTiles;
  let fetching = false;
  const tilesOf = (text) => {
    if (whole(text) !== null) return [];
    if (notation) return notation.tilesOf(text, playedWith === "cards");
    if (tilesScript && !fetching) {
      fetching = fetchFiles(tilesScript).then(() => {
        notation = window.ScorekeeperTiles;
        changed();
      }, () => {
        fetching = false;
      });
    }
    return [{ raw: text, id: null }];
  };
  const valueOf = (id) => notation.valueOf(id, penalty);
  /* {value, count} of a rack typed as a number or as tiles; null when blank, NaN when unread. */
  const rack = (text) => {
    if (!text.trim()) return null;
    const number = whole(text);
    if (number !== null) return { value: number, count: null };
    const tiles = tilesOf(text);
    if (tiles.some((tile) => !tile.id)) return { value: NaN, count: null };
    return { value: tiles.reduce((sum, tile) => sum + valueOf(tile.id), 0), count: tiles.length };
  };

  /* Enter's key says "next" on each field but the last shown of its kind, "done" there. */
  const enterKeys = () => KINDS.forEach((kind) => {
    const shown = fields(kind).filter((input) => !input.disabled);
    shown.forEach((input, i) => {
      input.enterKeyHint = i === shown.length - 1 ? "done" : "next";
    });
  });
  enterKeys();

  /* The ending's script says how the round stands: status(text, good) on the preview line,
     show(seat, text) by a player's field. */
  const round = {
    form,
    racks: fields("rack"),
    bonus: winnerBonus ? parseInt(winnerBonus, 10) : null,
    t,
    button,
    fields,
    nameOf,
    andList,
    whole,
    tilesOf,
    valueOf,
    rack,
    enterKeys,
    fetchFiles,
    signed: (n) => signs.format(n),
    show: (seat, text) => {
      if (outputs[seat]) outputs[seat].textContent = text;
    },
    /* Silent while a box of the server's stands in the form: one voice per problem. */
    status: (text, good) => {
      preview.hidden = !text || !!form.querySelector(".problems");
      preview.textContent = text;
      preview.classList.toggle("ok", good === true);
      preview.classList.toggle("bad", good === false);
    },
    stillToEnter: (names) => t("round_still_to_enter", "Still to enter: %(names)s.", { names: andList(names) }),
    update: () => {},
    /* The preview of the ending, worked out at once and after every change. */
    preview: (work) => {
      round.update = work;
      changed();
    },
  };
  window.ScorekeeperRound = round;

  /* The server's word on the values goes at their first change (a field's event, not the
     form's own, which entry.js sends when it places a form): the preview speaks from then on
     (silent while a box of the server's stands), and the server checks again at Save. */
  const changed = (event) => {
    if (event && event.target !== form) {
      form.querySelectorAll(".problems, .error, .has-error").forEach((said) => {
        if (said.classList.contains("has-error")) said.classList.remove("has-error");
        else said.remove();
      });
    }
    round.update();
  };
  form.addEventListener("change", changed);
  form.addEventListener("input", changed);
  /* An entry below the typo threshold is asked of where the form has the question's box: in
     place at once, on the round page once the server asked (round_typo.js, fetched then). */
  if (document.getElementById("typo-confirm")) {
    fetchFiles(form.dataset.typo).then(() => window.ScorekeeperTypo(round), () => {});
  }

  /* Enter moves to the next player's field shown; on the last one it taps Save (asking where
     fields are laid out only of those after this one: none on the last, whose Enter saves at
     once). */
  form.addEventListener("keydown", (event) => {
    const input = event.target;
    const kind = (input.name || "").split("_")[0];
    if (event.key !== "Enter" || !KINDS.includes(kind)) return;
    const group = fields(kind).filter((f) => !f.disabled);
    const next = group.slice(group.indexOf(input) + 1).find((f) => f.offsetParent !== null);
    event.preventDefault();
    if (next) next.focus();
    else save.click();
  });

  /* Racks typed as tiles need letters: a switch from the number pad to the keyboard, which
     shows how tiles are written in letters (the notation's <details>, open) under it. */
  const { racks } = round;
  const hint = form.querySelector(".racks details");
  if (racks.length && hint) {
    const keyboard = button("", "secondary small");
    const letters = (on) => {
      keyboard.textContent = on ? t("round_type_numbers", "Type numbers (123)") : t("round_type_tiles", "Type letters (abc)");
      keyboard.setAttribute("aria-pressed", String(on));
      hint.hidden = !on;
      hint.open = on;
    };
    letters(racks[0].inputMode === "text"); // the server opened the letters
    keyboard.addEventListener("click", () => {
      const on = keyboard.getAttribute("aria-pressed") !== "true";
      letters(on);
      racks.forEach((input) => {
        input.inputMode = on ? "text" : "numeric";
      });
    });
    hint.before(keyboard);
  }

  /* The tile keypad (data-keypad) opens under a rack at a tap on its "Tap tiles" button. */
  if (keypad) {
    const cards = playedWith === "cards";
    racks.forEach((input) => {
      const name = nameOf(input);
      const toggle = cards
        ? button(t("keypad_cards", "Tap cards"), "secondary tiles-toggle", t("keypad_cards_for", "Tap cards for %(name)s", { name }))
        : button(t("keypad_tiles", "Tap tiles"), "secondary tiles-toggle", t("keypad_tiles_for", "Tap tiles for %(name)s", { name }));
      toggle.setAttribute("aria-expanded", "false");
      toggle.addEventListener("click", () => {
        // Meanwhile the tiles can still be typed in the field.
        fetchFiles(`${tilesScript} ${keypad}`).then(() => window.ScorekeeperKeypad(input), () => {});
      });
      input.parentNode.append(toggle);
    });
  }

  /* Another ending keeps what was typed: its tab fetches the round entry (static/entry.js, on
     the session page there already), which swaps in that ending's form with the values. */
  const fragment = form.parentNode;
  fragment.querySelector(".tabs").addEventListener("click", (event) => {
    const link = event.target.closest("a");
    if (!link || window.ScorekeeperEntry) return;
    event.preventDefault();
    const page = () => location.assign(link.href);
    fetchFiles(fragment.dataset.entryScript).then(() => window.ScorekeeperEntry.follow(link) || page(), page);
  });

  /* Save, once: a second tap while the first is on its way does nothing. It sends the form's
     submit event without the browser's submission around it, which lays the page out before
     the round is even sent (milliseconds on a slow phone); when no script takes the event,
     the form posts as a page. "Saving…" shows only when no answer came in 400 ms: a quick
     save draws nothing before the new table, whose frame a repaint of the form would
     otherwise delay. */
  save.addEventListener("click", (event) => {
    event.preventDefault();
    if (form.dataset.sent) return;
    form.dataset.sent = "1";
    setTimeout(() => {
      if (!form.dataset.sent) return;
      save.disabled = true;
      save.textContent = t("round_saving", "Saving…");
    }, 400);
    if (form.dispatchEvent(new Event("submit", { bubbles: true, cancelable: true }))) form.submit();
  });
  round.saveAgain = () => {
    delete form.dataset.sent;
    save.disabled = false;
    save.textContent = saveText;
  };
  if (!form.closest("#entry")) window.addEventListener("pageshow", round.saveAgain);
})();
