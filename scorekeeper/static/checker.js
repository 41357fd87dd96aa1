/* The table checker (templates/tools/check.html) with JavaScript: each form asks the JSON API
   (/api/v1/rules/set, /meld, /swap) and shows the verdict in place, without a reload, in the
   same words and markup as the page the server renders; the rules toggles apply at once.
   Without JavaScript (or when a request fails) the same forms POST to the page. */
(() => {
  "use strict";
  const root = document.getElementById("checker");
  if (!root) return;
  const sessionId = root.dataset.session ? parseInt(root.dataset.session, 10) : null;
  const rulesForm = document.getElementById("rules-form");
  const forms = Array.from(root.querySelectorAll("form[data-check]"));
  const MAX_SETS = 40;
  const MAX_LINE = 2000;
  const { t, number } = window.ScorekeeperText;
  const KINDS = { run: t("checker_kind_run", "run"), group: t("checker_kind_group", "group") };
  const kindOf = (kind) => KINDS[kind] || kind;
  const pointsOf = (points) => t("checker_points", "%(points)s points", { points: number(points) });

  const el = (tag, className, ...children) => {
    const node = document.createElement(tag);
    if (className) node.className = className;
    node.append(...children);
    return node;
  };
  const strong = (text) => el("strong", "", text);
  const linesOf = (text) => text.split(/\r?\n/).map((l) => l.trim()).filter(Boolean);
  /* The page's own refusals of a list of sets (as the server's), or null when it may be sent. */
  const linesProblem = (lines, empty) => {
    if (!lines.length) return empty;
    if (lines.length > MAX_SETS) {
      return t("checker_at_most_sets", "Check at most %(count)s sets at once.", { count: number(MAX_SETS) });
    }
    const long = lines.findIndex((line) => line.length > MAX_LINE);
    return long < 0 ? null : t("checker_line_too_long", "Line %(line)s is too long to be a set.", { line: number(long + 1) });
  };

  /* The colour class of a tile or card in notation: c-k, c-r, c-b, c-o (as the page's filter). */
  const tileClass = (code) => {
    const letter = code.slice(0, 1).toLowerCase();
    return `c-${{ s: "k", h: "r", c: "b", d: "o" }[letter] || letter}`;
  };
  const tileChips = (codes) =>
    el(
      "span",
      "tile-row",
      ...codes.flatMap((code, i) => [...(i ? [" "] : []), el("span", `tile ${tileClass(code)}`, code)]),
    );
  const capitalize = (text) => text.charAt(0).toUpperCase() + text.slice(1);
  const problemsBox = (messages) => {
    const box = el("div", "problems", ...messages.map((m) => el("p", "", m)));
    box.setAttribute("role", "alert");
    return box;
  };

  /* ---- The rules: the session's, or the toggles of a check without one. ---- */
  const meldField = rulesForm && rulesForm.elements.min_initial_meld;
  const context = () => {
    if (sessionId) return { session: sessionId };
    const f = rulesForm.elements;
    return {
      rules: {
        run_wrap: f.run_wrap.checked,
        jokers_retrievable: f.jokers_retrievable.checked,
        tile_sets: parseInt(f.tile_sets.value, 10),
        min_initial_meld: Number(meldField.value.trim()),
        played_with: f.played_with.value,
      },
    };
  };

  /* ---- Field errors, as the server shows them next to the field. ---- */
  const clearError = (field) => {
    const holder = field.closest(".row");
    const old = document.getElementById(`${field.id}-error`);
    if (old) old.remove();
    holder.classList.remove("has-error");
    field.removeAttribute("aria-invalid");
    const described = (field.getAttribute("aria-describedby") || "")
      .split(" ")
      .filter((id) => id && id !== `${field.id}-error`);
    if (described.length) field.setAttribute("aria-describedby", described.join(" "));
    else field.removeAttribute("aria-describedby");
  };
  const showError = (field, message) => {
    clearError(field);
    const holder = field.closest(".row");
    const error = el("p", "error", message);
    error.id = `${field.id}-error`;
    holder.append(error);
    holder.classList.add("has-error");
    field.setAttribute("aria-invalid", "true");
    const described = (field.getAttribute("aria-describedby") || "").split(" ").filter(Boolean);
    field.setAttribute("aria-describedby", [...described, error.id].join(" "));
  };

  /* ---- Asking the API: {status, body}; null when the answer is not the API's (fall back). ---- */
  const ask = async (url, body) => {
    const response = await fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      credentials: "same-origin",
      body: JSON.stringify(body),
    });
    const type = response.headers.get("Content-Type") || "";
    if (!type.startsWith("application/json") || ![200, 400, 404, 422].includes(response.status)) {
      throw new Error(`unexpected answer ${response.status}`);
    }
    return { status: response.status, body: await response.json() };
  };
  const messagesOf = (answer) => answer.body.errors.map((p) => p.message);

  /* ---- Verdicts, in the markup of the page's macros. ---- */
  const setVerdict = (line, answer) => {
    const box = el("div", "verdict");
    box.append(el("p", "entered", line));
    if (answer.status !== 200) {
      box.classList.add("bad");
      box.append(el("p", "verdict-line", strong(t("checker_cannot_check", "Cannot check")), ` — ${messagesOf(answer).join(" ")}`));
      return box;
    }
    const doc = answer.body;
    box.classList.add(doc.valid ? "ok" : "bad");
    if (!doc.valid) {
      box.append(el("p", "verdict-line", strong(t("checker_not_valid", "Not valid")), ` — ${doc.reason}`));
      return box;
    }
    const readings = doc.readings;
    const summary =
      readings.length === 1
        ? t("checker_one_reading", "a %(kind)s worth %(points)s points.", {
          kind: kindOf(readings[0].kind),
          points: number(readings[0].points),
        })
        : t("checker_readings", "%(count)s readings; the highest is worth %(points)s points.", {
          count: number(readings.length),
          points: number(doc.points),
        });
    box.append(
      el("p", "verdict-line", strong(t("checker_valid", "Valid")), ` — ${summary}`),
      el(
        "ul",
        "readings",
        ...readings.map((r) => el("li", "", `${capitalize(kindOf(r.kind))} `, tileChips(r.as), ` · ${pointsOf(r.points)}`)),
      ),
    );
    return box;
  };

  const best = (set) => set.readings.reduce((top, r) => (top && top.points >= r.points ? top : r), null);
  const meldVerdict = (doc, lines) => {
    const box = el("div", `verdict ${doc.valid ? "ok" : "bad"}`);
    let head;
    if (doc.valid) {
      const said = { points: number(doc.points), minimum: number(doc.minimum) };
      head = [
        strong(t("checker_meld_ok", "Makes the initial meld")),
        ` — ${t("checker_meld_points", "%(points)s points; the minimum is %(minimum)s.", said)}`,
      ];
    } else if (doc.sets.every((s) => s.valid)) {
      head = [strong(t("checker_not_enough", "Not enough")), ` — ${doc.reason}`];
    } else {
      head = [strong(t("checker_not_a_meld", "Not a valid meld")), ` — ${doc.reason}`];
    }
    box.append(el("p", "verdict-line", ...head));
    const list = el("ol", "meld-sets");
    doc.sets.forEach((set, i) => {
      const item = el("li", "", el("span", "entered", lines[i]), ": ");
      if (set.valid) {
        const top = best(set);
        item.append(`${kindOf(top.kind)} `, tileChips(top.as), ` · ${pointsOf(top.points)}`);
        if (set.readings.length > 1) {
          const count = number(set.readings.length);
          item.append(` ${t("checker_highest_of", "(the highest of %(count)s readings)", { count })}`);
        }
      } else {
        item.append(t("checker_set_not_valid", "not valid"));
      }
      list.append(item);
    });
    box.append(list);
    return box;
  };

  const swapVerdict = (doc, tile) => {
    const box = el("div", `verdict ${doc.allowed ? "ok" : "bad"}`);
    if (doc.allowed) {
      box.append(
        el(
          "p",
          "verdict-line",
          strong(t("checker_allowed", "Allowed")),
          ` — ${t("checker_may_take", "%(tile)s may take the joker's place.", { tile })}`,
        ),
        el("p", "reminder", strong(doc.reminder)),
      );
    } else {
      box.append(el("p", "verdict-line", strong(t("checker_not_allowed", "Not allowed")), ` — ${doc.reason}`));
    }
    if (doc.stands_for.length) {
      const replaced = t("checker_replaced_by", "The joker may be replaced by");
      box.append(el("p", "stands-for", `${replaced} `, tileChips(doc.stands_for)));
    }
    return box;
  };

  /* ---- The three checks. Each returns the nodes to show, or null when a field is wrong. ---- */
  const checks = {
    async set(form, rules) {
      const field = form.elements.sets;
      const lines = linesOf(field.value);
      const problem = linesProblem(lines, t("checker_type_set", "Type a set, like r5 b5 j."));
      if (problem) {
        showError(field, problem);
        return null;
      }
      const url = root.dataset.apiSet;
      const answers = await Promise.all(lines.map((line) => ask(url, { ...rules, tiles: line })));
      const nodes = lines.map((line, i) => setVerdict(line, answers[i]));
      if (lines.length > 1 && answers.every((a) => a.status === 200)) {
        // Sets on one table share the tiles: the meld route checks the supply across its sets.
        const together = await ask(root.dataset.apiMeld, { ...rules, sets: lines });
        if (together.status !== 200) nodes.push(problemsBox(messagesOf(together)));
      }
      return nodes;
    },
    async meld(form, rules) {
      const field = form.elements.meld;
      const lines = linesOf(field.value);
      const problem = linesProblem(lines, t("checker_type_meld", "Type the sets of the first play, like r10 b10 j."));
      if (problem) {
        showError(field, problem);
        return null;
      }
      const answer = await ask(root.dataset.apiMeld, { ...rules, sets: lines });
      return answer.status === 200 ? [meldVerdict(answer.body, lines)] : [problemsBox(messagesOf(answer))];
    },
    async swap(form, rules) {
      const setField = form.elements.swap_set;
      const tileField = form.elements.swap_tile;
      const set = setField.value.trim();
      const tile = tileField.value.trim();
      if (!set) showError(setField, t("checker_type_table_set", "Type the set on the table, like b3 b4 j."));
      else if (set.length > MAX_LINE) showError(setField, t("checker_set_too_long", "This is too long to be a set."));
      if (!tile) showError(tileField, t("checker_type_tile", "Type the tile from the rack, like b5."));
      if (!set || set.length > MAX_LINE || !tile) return null;
      const answer = await ask(root.dataset.apiSwap, { ...rules, set, tile });
      return answer.status === 200 ? [swapVerdict(answer.body, tile)] : [problemsBox(messagesOf(answer))];
    },
  };

  const verdictsOf = (form) => form.closest(".check-section").querySelector(".verdicts");
  const rulesReady = () => {
    if (sessionId) return true;
    clearError(meldField);
    if (!/^\d+$/.test(meldField.value.trim())) {
      showError(meldField, t("checker_whole_number", "Enter a whole number, like 30."));
      rulesForm.closest("details").open = true;
      return false;
    }
    return true;
  };

  const run = async (form) => {
    const kind = form.dataset.check;
    form.querySelectorAll("input, textarea").forEach((field) => {
      if (field.type !== "hidden") clearError(field);
    });
    const verdicts = verdictsOf(form);
    if (!rulesReady()) return;
    const button = form.querySelector('button[type="submit"]');
    button.disabled = true;
    try {
      const nodes = await checks[kind](form, context());
      if (nodes) {
        verdicts.replaceChildren(...nodes);
        verdicts.dataset.checked = "true";
      } else {
        verdicts.replaceChildren();
        delete verdicts.dataset.checked;
      }
    } catch (error) {
      form.submit(); // the server answers the same check (a network error, a sign-in...)
    } finally {
      button.disabled = false;
    }
  };

  forms.forEach((form) => {
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      run(form);
    });
    // A server-rendered verdict is re-asked when the rules change, as a fresh one would be.
    if (verdictsOf(form).children.length) verdictsOf(form).dataset.checked = "true";
  });

  /* ---- A keypad for the tile fields: a tap adds a tile (or card) in notation to the field,
     whose text stays the truth; for the lists, "New set" starts the next line. ---- */
  const COLOURS = [
    { letter: "k", suit: "s", symbol: "♠", name: t("colour_black", "black"), suitName: t("suit_spades", "spades") },
    { letter: "r", suit: "h", symbol: "♥", name: t("colour_red", "red"), suitName: t("suit_hearts", "hearts") },
    { letter: "b", suit: "c", symbol: "♣", name: t("colour_blue", "blue"), suitName: t("suit_clubs", "clubs") },
    { letter: "o", suit: "d", symbol: "♦", name: t("colour_orange", "orange"), suitName: t("suit_diamonds", "diamonds") },
  ];
  const FACES = { 1: "A", 11: "J", 12: "Q", 13: "K" };
  const playingCards = () =>
    rulesForm ? rulesForm.elements.played_with.value === "cards" : root.dataset.playedWith === "cards";
  const keypad = el("div", "keypad");
  keypad.id = "checker-keypad";
  keypad.hidden = true;
  keypad.setAttribute("role", "group");
  const keypadFor = (field) => t("checker_keypad_for", "Keypad for %(field)s", { field });
  let open = null; // the field the keypad fills
  let openToggle = null;

  const button = (text, className, label) => {
    const b = el("button", className, text);
    b.type = "button";
    if (label) b.setAttribute("aria-label", label);
    return b;
  };
  const write = (value) => {
    open.value = value;
    open.dispatchEvent(new Event("input", { bubbles: true }));
  };
  const add = (token) => {
    if (open.tagName !== "TEXTAREA" && open.dataset.keypad === "one") return write(token);
    const text = open.value.replace(/[ \t]+$/, "");
    return write(text && !text.endsWith("\n") ? `${text} ${token}` : `${text}${token}`);
  };
  const takeLast = () => {
    const text = open.value.replace(/\s+$/, "");
    const cut = Math.max(text.lastIndexOf(" "), text.lastIndexOf("\n"));
    write(cut < 0 ? "" : text.slice(0, text[cut] === "\n" ? cut + 1 : cut));
  };
  const buildKeys = () => {
    const cards = playingCards();
    const keys = el("div", "keys");
    const order = cards ? ["s", "h", "d", "c"] : ["k", "r", "b", "o"];
    order.forEach((letter) => {
      const c = COLOURS.find((x) => x.letter === letter || x.suit === letter);
      for (let n = 1; n <= 13; n += 1) {
        const face = cards ? FACES[n] || String(n) : String(n);
        const token = cards ? `${c.suit}${face}` : `${c.letter}${n}`;
        const label = cards
          ? t("card_name", "%(suit)s %(face)s", { suit: c.suitName, face })
          : t("tile_name", "%(colour)s %(number)s", { colour: c.name, number: n });
        const key = button("", `key c-${c.letter}`, label);
        const mark = el("span", "mark", cards ? c.symbol : c.letter);
        mark.setAttribute("aria-hidden", "true");
        key.append(mark, face);
        key.dataset.token = token;
        keys.append(key);
      }
      keys.append(el("span", "gap"));
    });
    const joker = button("J", "key joker", t("joker", "joker"));
    joker.dataset.token = "j";
    keys.append(joker);
    const actions = el("div", "keypad-actions");
    if (open.tagName === "TEXTAREA") {
      const next = button(t("checker_new_set", "New set"), "secondary small");
      next.dataset.action = "line";
      actions.append(next);
    }
    const back = button(`⌫ ${t("checker_take_last", "Take the last off")}`, "secondary small");
    back.dataset.action = "back";
    const done = button(t("done", "Done"), "secondary small");
    done.dataset.action = "done";
    actions.append(back, done);
    const legend = el(
      "p",
      "hint",
      cards
        ? t("legend_cards", "♠ s spades · ♥ h hearts · ♦ d diamonds · ♣ c clubs · J joker.")
        : t("legend_tiles", "k black · r red · b blue · o orange · J joker."),
    );
    keypad.replaceChildren(legend, keys, actions);
  };
  const closeKeypad = () => {
    const toggle = openToggle;
    keypad.hidden = true;
    if (toggle) toggle.setAttribute("aria-expanded", "false");
    open = null;
    openToggle = null;
    if (toggle) toggle.focus();
  };
  const openKeypad = (field, toggle) => {
    if (openToggle) openToggle.setAttribute("aria-expanded", "false");
    open = field;
    openToggle = toggle;
    buildKeys();
    keypad.setAttribute("aria-label", keypadFor(toggle.dataset.label));
    toggle.after(keypad);
    keypad.hidden = false;
    toggle.setAttribute("aria-expanded", "true");
    if (document.activeElement === field) field.blur(); // the phone's keyboard would cover it
  };
  keypad.addEventListener("click", (event) => {
    const target = event.target.closest("button");
    if (!target || !open) return;
    if (target.dataset.token) add(target.dataset.token);
    else if (target.dataset.action === "line") {
      if (open.value.trim() && !open.value.endsWith("\n")) write(`${open.value.replace(/\s+$/, "")}\n`);
    } else if (target.dataset.action === "back") takeLast();
    else if (target.dataset.action === "done") closeKeypad();
  });
  root.querySelectorAll("[data-keypad]").forEach((field) => {
    const label = root.querySelector(`label[for="${field.id}"]`);
    const toggle = button(t("checker_keypad", "Keypad"), "secondary small keypad-toggle");
    toggle.dataset.label = label.textContent.trim();
    toggle.setAttribute("aria-label", keypadFor(toggle.dataset.label));
    toggle.setAttribute("aria-expanded", "false");
    toggle.setAttribute("aria-controls", "checker-keypad");
    toggle.addEventListener("click", () => (open === field ? closeKeypad() : openKeypad(field, toggle)));
    field.closest(".row").append(toggle);
  });

  /* ---- Rules toggles: apply at once, keep the address (and the forms' POST) in step. ---- */
  if (rulesForm) {
    const apply = document.getElementById("apply-rules");
    apply.hidden = true;
    const summary = rulesForm.closest("details").querySelector("summary");
    const sayCardsOrTiles = (cards) => {
      root.querySelectorAll("[data-when]").forEach((node) => {
        node.hidden = node.dataset.when !== (cards ? "cards" : "tiles");
      });
      root.querySelectorAll("[data-placeholder-tiles]").forEach((field) => {
        field.placeholder = cards ? field.dataset.placeholderCards : field.dataset.placeholderTiles;
      });
      root.querySelectorAll("[data-label-tiles]").forEach((field) => {
        const label = root.querySelector(`label[for="${field.id}"]`);
        label.textContent = cards ? field.dataset.labelCards : field.dataset.labelTiles;
        const toggle = field.closest(".row").querySelector(".keypad-toggle");
        if (toggle) {
          toggle.dataset.label = label.textContent;
          toggle.setAttribute("aria-label", keypadFor(label.textContent));
        }
      });
    };
    rulesForm.addEventListener("submit", (event) => event.preventDefault());
    rulesForm.addEventListener("change", () => {
      if (!rulesReady()) return;
      const query = new URLSearchParams(new FormData(rulesForm)).toString();
      history.replaceState(null, "", `${location.pathname}?${query}`);
      forms.forEach((form) => {
        form.action = `${location.pathname}?${query}#${form.closest(".check-section").id}`;
      });
      summary.textContent = t("checker_rules_changed", "Rules: Standard, as changed here");
      const minimum = document.querySelector("#meld-minimum strong");
      if (minimum) minimum.textContent = meldField.value.trim();
      sayCardsOrTiles(rulesForm.elements.played_with.value === "cards");
      if (open) buildKeys();
      forms.forEach((form) => {
        if (verdictsOf(form).dataset.checked) run(form);
      });
    });
  }
})();
