/* Round form: a live preview of the derived scores and the zero-sum status, Enter moves to
   the next player, the winner's rack hides, a ± per paper score, and Save submits once.
   It only helps typing: the server checks everything again and its answer is the truth. */
(() => {
  "use strict";
  const form = document.getElementById("round-form");
  if (!form) return;
  const ending = form.dataset.ending;
  const jokerPenalty = parseInt(form.dataset.jokerPenalty, 10) || 0;
  const bonus = form.dataset.winnerBonus ? parseInt(form.dataset.winnerBonus, 10) : null;
  const fewest = form.dataset.emptyPool === "fewest_tiles";
  const preview = document.getElementById("preview");
  const save = document.getElementById("save");
  const saveText = save.textContent;
  const { t, formatter, number } = window.ScorekeeperText;
  const signs = formatter({ signDisplay: "exceptZero" });

  const JOKERS = ["j", "joker", "*", "jkr"];
  const FACES = { a: 1, j: 11, q: 12, k: 13 };
  const COLOURS = ["k", "r", "b", "o", "s", "h", "c", "d", "♠", "♥", "♣", "♦", "black", "red",
    "blue", "orange", "spade", "spades", "heart", "hearts", "club", "clubs", "diamond", "diamonds"];
  const SUITS = ["s", "h", "c", "d", "♠", "♥", "♣", "♦", "spade", "spades", "heart", "hearts", "club",
    "clubs", "diamond", "diamonds"]; // only cards have faces (A, J, Q, K)
  const TILE = /^([a-z]+|[♠♥♦♣])(\d+|[ajqk])$/;

  const fields = (kind) => Array.from(form.querySelectorAll(`input[data-kind="${kind}"]`));
  const nameOf = (input) => form.querySelector(`label[for="${input.id}"]`).textContent.replace("⚠", "").trim();
  const signed = (n) => signs.format(n);
  const andList = (names) =>
    names.length < 2
      ? names.join("")
      : t("list_and", "%(items)s and %(last)s", { items: names.slice(0, -1).join(", "), last: names.at(-1) });

  /* A whole number as phones type it (a typographic minus, stray spaces), or null. */
  const whole = (text) => {
    const cleaned = text.replace(/[\u2212\u2013]/g, "-").replace(/\s+/g, "");
    return /^[+-]?\d+$/.test(cleaned) ? parseInt(cleaned, 10) : null;
  };

  /* {value, count} of a rack typed as a number or as tiles; null when blank, NaN when unread. */
  const rack = (text) => {
    if (!text.trim()) return null;
    const number = whole(text);
    if (number !== null) return { value: number, count: null };
    const chunks = text.trim().toLowerCase().split(/[\s,;]+/).filter(Boolean);
    let value = 0;
    let count = 0;
    for (let i = 0; i < chunks.length; i += 1) {
      let token = chunks[i];
      if (COLOURS.includes(token) && !JOKERS.includes(token) && i + 1 < chunks.length) {
        i += 1;
        token += chunks[i];
      }
      count += 1;
      if (JOKERS.includes(token)) {
        value += jokerPenalty;
        continue;
      }
      const match = TILE.exec(token);
      if (!match || !COLOURS.includes(match[1])) return { value: NaN, count: null };
      const face = /\d/.test(match[2]) ? parseInt(match[2], 10) : FACES[match[2]];
      const faceOfCard = !/\d/.test(match[2]);
      if (!(face >= 1 && face <= 13) || match[2].startsWith("0") || (faceOfCard && !SUITS.includes(match[1]))) {
        return { value: NaN, count: null };
      }
      value += face;
    }
    return { value, count };
  };

  const show = (seat, text) => {
    const out = form.querySelector(`output[data-preview-seat="${seat}"]`);
    if (out) out.textContent = text;
  };

  const stillToEnter = (names) => t("round_still_to_enter", "Still to enter: %(names)s.", { names: andList(names) });

  const status = (text, good) => {
    preview.hidden = !text;
    preview.textContent = text;
    preview.classList.toggle("ok", good === true);
    preview.classList.toggle("bad", good === false);
  };

  const winnerSeat = () => {
    const checked = form.querySelector('input[name="winner"]:checked');
    return checked ? parseInt(checked.value, 10) : null;
  };

  const wentOut = () => {
    const winner = winnerSeat();
    const inputs = fields("rack");
    const missing = [];
    let sum = 0;
    let unread = false;
    inputs.forEach((input, seat) => {
      if (seat === winner) return;
      const entry = rack(input.value);
      if (entry === null) missing.push(nameOf(input));
      else if (Number.isNaN(entry.value)) unread = true;
      else sum += entry.value;
      show(seat, entry && !Number.isNaN(entry.value) ? signed(-entry.value) : "");
    });
    if (winner === null) return status(t("round_tap_winner", "Tap who went out."));
    const won = bonus ?? sum;
    show(winner, missing.length || unread ? "" : signed(won));
    if (unread) return status(t("round_unreadable", "Some tiles are not readable yet."), false);
    if (missing.length) return status(stillToEnter(missing));
    const said = { name: nameOf(inputs[winner]), points: signed(won) };
    return status(
      bonus ? t("round_winner_bonus", "%(name)s %(points)s (bonus).", said) : t("round_winner_sum", "%(name)s %(points)s: adds up to 0.", said),
      true,
    );
  };

  const poolEmpty = () => {
    const inputs = fields("rack");
    const counts = fields("count");
    const seats = inputs.map((input, seat) => {
      const entry = rack(input.value);
      const typed = counts[seat] ? whole(counts[seat].value) : null;
      return { seat, name: nameOf(input), entry, count: entry && entry.count !== null ? entry.count : typed };
    });
    inputs.forEach((_, seat) => show(seat, ""));
    const missing = seats.filter((s) => s.entry === null).map((s) => s.name);
    if (missing.length) return status(stillToEnter(missing));
    if (seats.some((s) => Number.isNaN(s.entry.value))) {
      return status(t("round_unreadable", "Some tiles are not readable yet."), false);
    }
    const narrow = (list, key) => {
      if (list.some((s) => key(s) === null)) return list;
      const low = Math.min(...list.map(key));
      return list.filter((s) => key(s) === low);
    };
    const byValue = (s) => s.entry.value;
    const byCount = (s) => s.count;
    if (fewest && seats.some((s) => s.count === null)) {
      return status(t("round_enter_counts", "Enter every player's tile count."));
    }
    const candidates = fewest ? narrow(narrow(seats, byCount), byValue) : narrow(narrow(seats, byValue), byCount);
    if (candidates.length > 1) {
      const names = andList(candidates.map((s) => s.name));
      return status(t("round_tie", "%(names)s tie: enter tile counts, or save and say who takes it.", { names }));
    }
    const winner = candidates[0];
    let sum = 0;
    seats.forEach((s) => {
      if (s === winner) return;
      const loss = fewest ? s.entry.value : s.entry.value - winner.entry.value;
      sum += loss;
      show(s.seat, signed(-loss));
    });
    const won = bonus ?? sum;
    show(winner.seat, signed(won));
    return status(t("round_takes", "%(name)s takes the round: %(points)s.", { name: winner.name, points: signed(won) }), true);
  };

  const paper = () => {
    const inputs = fields("score");
    const missing = [];
    const plus = [];
    let sum = 0;
    let unread = false;
    inputs.forEach((input) => {
      if (!input.value.trim()) return missing.push(nameOf(input));
      const score = whole(input.value);
      if (score === null) unread = true;
      else {
        sum += score;
        if (score > 0) plus.push(nameOf(input));
      }
    });
    if (unread) return status(t("round_whole_number", "A score is a whole number, like -12 or 24."), false);
    if (missing.length === inputs.length) return status("");
    if (bonus) return status(missing.length ? stillToEnter(missing) : "");
    if (sum !== 0 && missing.length) {
      const said = { sum: signed(sum), names: andList(missing) };
      return status(t("round_sum_so_far", "Adds up to %(sum)s so far (still to enter: %(names)s).", said));
    }
    if (sum !== 0) {
      return status(t("round_sum_wrong", "Adds up to %(sum)s: someone counted a rack wrong.", { sum: signed(sum) }), false);
    }
    if (missing.length) {
      return status(t("round_zero_so_far", "Adds up to 0 so far; still to enter: %(names)s.", { names: andList(missing) }));
    }
    if (plus.length > 1) {
      const names = andList(plus);
      return status(t("round_all_plus", "%(names)s all score plus: only the winner scores plus.", { names }), false);
    }
    return status(t("round_adds_up", "Adds up to 0 ✓"), true);
  };

  const update = { went_out: wentOut, pool_empty: poolEmpty, scores: paper }[ending] || (() => {});

  /* The winner's rack is empty: hide it (and send nothing for it). */
  const hideWinnerRack = () => {
    if (ending !== "went_out") return;
    const winner = winnerSeat();
    fields("rack").forEach((input, seat) => {
      const row = input.closest(".seat");
      row.hidden = seat === winner;
      input.disabled = seat === winner;
    });
    const visible = fields("rack").filter((input) => !input.disabled);
    visible.forEach((input, i) => {
      input.enterKeyHint = i === visible.length - 1 ? "done" : "next";
    });
  };

  form.addEventListener("change", (event) => {
    if (event.target.name === "winner") {
      hideWinnerRack();
      const first = fields("rack").find((input) => !input.disabled && !input.value);
      if (first) first.focus();
    }
    update();
  });
  form.addEventListener("input", update);

  /* Enter moves to the next player's field; on the last one it saves. */
  form.addEventListener("keydown", (event) => {
    const input = event.target;
    if (event.key !== "Enter" || !input.dataset || !input.dataset.kind) return;
    const group = fields(input.dataset.kind).filter((f) => !f.disabled && f.offsetParent !== null);
    const next = group[group.indexOf(input) + 1];
    if (next) {
      event.preventDefault();
      next.focus();
    }
  });

  /* Paper scores: phone number pads often lack a minus, so each score gets a ± button. */
  fields("score").forEach((input) => {
    const flip = document.createElement("button");
    flip.type = "button";
    flip.className = "secondary sign";
    flip.textContent = "±";
    flip.setAttribute("aria-label", t("round_change_sign", "Change the sign of %(name)s's score", { name: nameOf(input) }));
    flip.addEventListener("click", () => {
      const value = input.value.trim().replace(/^[\u2212\u2013]/, "-");
      input.value = value.startsWith("-") ? value.slice(1) : `-${value.replace(/^\+/, "")}`;
      input.focus();
      update();
    });
    input.inputMode = "numeric";
    input.after(flip);
  });

  /* Racks typed as tiles need letters: a switch from the number pad to the keyboard. */
  const racks = fields("rack");
  const hint = form.querySelector(".racks .hint");
  if (racks.length && hint) {
    const keyboard = document.createElement("button");
    keyboard.type = "button";
    keyboard.className = "secondary small";
    const lettersAtFirst = racks[0].inputMode === "text"; // the server opened the letters
    const typeNumbers = t("round_type_numbers", "Type numbers (123)");
    const typeTiles = t("round_type_tiles", "Type tiles (abc)");
    keyboard.textContent = lettersAtFirst ? typeNumbers : typeTiles;
    keyboard.setAttribute("aria-pressed", String(lettersAtFirst));
    keyboard.addEventListener("click", () => {
      const letters = keyboard.getAttribute("aria-pressed") !== "true";
      keyboard.setAttribute("aria-pressed", String(letters));
      racks.forEach((input) => {
        input.inputMode = letters ? "text" : "numeric";
      });
      keyboard.textContent = letters ? typeNumbers : typeTiles;
    });
    hint.after(keyboard);
  }

  /* Save once: a second tap while the first is on its way does nothing. */
  form.addEventListener("submit", (event) => {
    if (form.dataset.sent) {
      event.preventDefault();
      return;
    }
    form.dataset.sent = "1";
    setTimeout(() => {
      save.disabled = true;
      save.textContent = t("round_saving", "Saving…");
    }, 0);
  });
  window.addEventListener("pageshow", () => {
    delete form.dataset.sent;
    save.disabled = false;
    save.textContent = saveText;
  });

  hideWinnerRack();
  update();
})();
