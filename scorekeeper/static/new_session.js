/* New session page: names played before fill the next empty seat with one tap, Enter in a
   name moves to the next seat (in an empty seat, or the last, it starts the session), five or
   six names switch to two tile sets (and say so), picking a preset fills the rules, and the
   line above Start says every rule apart from the standard set as it changes. Without this
   script the datalist and "Use preset" do the same, the server switches the tile sets and
   says the rules, and Enter in any field starts the session. */
(() => {
  "use strict";
  const form = document.getElementById("new-session");
  if (!form) return;
  // Brought back from the back-forward cache (Back after a start): a new key, so the session
  // started now is a new one (the key of the form sent before names the session it made).
  window.addEventListener("pageshow", (event) => {
    const made = form.elements.namedItem("key");
    if (event.persisted && made) {
      made.value = Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
    }
  });
  const seats = Array.from(form.querySelectorAll(".player input"));
  const chips = document.getElementById("known-names-buttons");
  const key = (name) => name.trim().replace(/\s+/g, " ").toLowerCase();

  const refresh = () => {
    const taken = seats.map((input) => key(input.value));
    chips.querySelectorAll("button.chip").forEach((chip) => {
      chip.disabled = taken.includes(key(chip.dataset.name));
    });
  };

  // Enter in a seat with a name moves on to the next seat; in an empty seat (the one after
  // the last name) or the last seat it does what it does without this script: Start.
  const starts = (seat) => !seat.value.trim() || seat === seats[seats.length - 1];
  seats.forEach((seat, index) => {
    const hint = () => {
      seat.enterKeyHint = starts(seat) ? "go" : "next";
    };
    seat.addEventListener("focus", hint);
    seat.addEventListener("input", hint);
    seat.addEventListener("keydown", (event) => {
      if (event.key !== "Enter" || event.isComposing || event.altKey || event.ctrlKey) return;
      if (event.metaKey || event.shiftKey || starts(seat)) return;
      event.preventDefault();
      seats[index + 1].focus();
    });
  });

  /* ---- The tile sets the table needs, and the rules apart from the standard set. ---- */
  const { t } = window.ScorekeeperText;
  const tileSetsFor = JSON.parse(form.dataset.tileSetsFor);
  const tileSets = form.elements.namedItem("tile_sets");
  const setsSaid = document.getElementById("players-sets");
  const line = document.getElementById("rules-said");
  const seated = () => seats.filter((input) => input.value.trim()).length;
  const needed = () => tileSetsFor[Math.min(seated(), tileSetsFor.length - 1)];
  let before = null; // the tile sets set before the names switched them, while switched
  const fitTileSets = () => {
    if (!tileSets) return;
    const count = seated();
    if (Number(tileSets.value) < needed()) {
      before = tileSets.value;
      tileSets.value = String(needed());
    } else if (before !== null && Number(before) >= needed()) {
      tileSets.value = before; // fewer names again: the tile sets as they were
      before = null;
    }
    if (setsSaid) {
      setsSaid.textContent = needed() > 1 ? t("two_tile_sets", "%(count)s players: two tile sets.", { count: String(count) }) : "";
    }
  };
  // A setting's value as the form holds it, as the server's JSON writes it.
  const valueOf = (field) => {
    if (field.type === "checkbox") return field.checked;
    if (field.value.trim() === "") return null;
    return /^-?\d+$/.test(field.value.trim()) ? Number(field.value.trim()) : field.value;
  };
  const wordsOf = (field) => {
    const label = form.querySelector(`label[for="${field.id}"]`);
    const setting = label ? label.textContent.trim() : field.name;
    if (field.type === "checkbox" && field.checked) return setting;
    let value = line.dataset.off;
    if (field.tagName === "SELECT") value = field.options[field.selectedIndex].text;
    else if (field.type !== "checkbox" && field.value.trim()) value = field.value.trim();
    return t("rule_value", "%(setting)s: %(value)s", { setting, value });
  };
  const sayRules = () => {
    if (!line) return;
    // [setting, value] in the declaration's order, the tile sets those the table needs.
    const standard = Object.fromEntries(JSON.parse(line.dataset.standard));
    standard.tile_sets = needed();
    const carried = JSON.parse(line.dataset.carried);
    const differing = Object.keys(standard).filter((name) => {
      const field = form.elements.namedItem(name);
      return field && valueOf(field) !== standard[name];
    });
    const first = document.createElement("span");
    first.className = "first";
    const same = differing.every((name) => valueOf(form.elements.namedItem(name)) === carried[name]);
    first.textContent = same ? line.dataset.asCarried : line.dataset.changed;
    const parts = [first];
    differing.forEach((name, index) => {
      const field = form.elements.namedItem(name);
      const link = document.createElement("a");
      link.href = `#${field.id}`;
      link.dataset.rule = name;
      link.textContent = wordsOf(field);
      parts.push(index ? " · " : " ", link);
    });
    line.replaceChildren(...parts);
    line.hidden = !differing.length;
  };
  // A rule's link opens the rules folded around its field and puts the caret there.
  if (line) {
    line.addEventListener("click", (event) => {
      const link = event.target.closest("a[data-rule]");
      if (!link) return;
      const field = form.elements.namedItem(link.dataset.rule);
      if (!field) return;
      event.preventDefault();
      for (let fold = field.closest("details"); fold; fold = fold.parentElement.closest("details")) fold.open = true;
      field.focus();
      field.scrollIntoView({ block: "center" });
    });
  }
  form.addEventListener("input", () => {
    fitTileSets();
    sayRules();
  });
  form.addEventListener("change", () => {
    fitTileSets();
    sayRules();
  });
  fitTileSets();
  sayRules();

  if (chips) {
    chips.hidden = false;
    chips.addEventListener("click", (event) => {
      const chip = event.target.closest("button.chip");
      if (!chip || chip.disabled) return;
      const empty = seats.find((input) => !input.value.trim());
      if (!empty) return;
      empty.value = chip.dataset.name;
      refresh();
      fitTileSets();
      sayRules();
    });
    form.addEventListener("input", refresh);
    refresh();
  }

  const preset = form.elements.preset;
  const usePreset = document.getElementById("use-preset");
  if (preset && preset.dataset.presets) {
    const presets = JSON.parse(preset.dataset.presets);
    if (usePreset) usePreset.hidden = true;
    // What the preset changed is said under it, and each changed rule is tinted.
    const said = document.getElementById("preset-changes");
    preset.addEventListener("change", () => {
      const values = presets[preset.value];
      if (!values) return;
      const changed = [];
      form.querySelectorAll(".rules .changed").forEach((row) => row.classList.remove("changed"));
      for (const [name, value] of Object.entries(values)) {
        const field = form.elements[name];
        if (!field) continue;
        const before = field.type === "checkbox" ? field.checked : field.value;
        if (field.type === "checkbox") field.checked = Boolean(value);
        else field.value = value === null ? "" : String(value);
        if (before === (field.type === "checkbox" ? field.checked : field.value)) continue;
        const row = field.closest(".row");
        if (row) row.classList.add("changed");
        const label = form.querySelector(`label[for="${field.id}"]`);
        changed.push(label ? label.textContent.trim() : name);
      }
      if (!said) return;
      const name = preset.options[preset.selectedIndex].text;
      said.textContent = changed.length
        ? t("preset_changed", "%(preset)s changed: %(settings)s.", { preset: name, settings: changed.join("; ") })
        : t("preset_unchanged", "Nothing changed: the rules already were %(preset)s.", { preset: name });
      sayRules();
    });
  }
})();
