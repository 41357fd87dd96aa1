/* New session page: names played before fill the next empty seat with one tap, Enter in a
   name moves to the next seat (in an empty seat, or the last, it starts the session), and
   picking a preset fills the rules. Without this script the datalist and "Use preset" do the
   same, and Enter in any field starts the session. */
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

  if (chips) {
    chips.hidden = false;
    chips.addEventListener("click", (event) => {
      const chip = event.target.closest("button.chip");
      if (!chip || chip.disabled) return;
      const empty = seats.find((input) => !input.value.trim());
      if (!empty) return;
      empty.value = chip.dataset.name;
      refresh();
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
    const { t } = window.ScorekeeperText;
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
    });
  }
})();
