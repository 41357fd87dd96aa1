/* New session page: names played before fill the next empty seat with one tap, and picking
   a preset fills the rules. Without this script the datalist and "Use preset" do the same. */
(() => {
  "use strict";
  const form = document.getElementById("new-session");
  if (!form) return;
  const seats = Array.from(form.querySelectorAll(".player input"));
  const chips = document.getElementById("known-names-buttons");
  const key = (name) => name.trim().replace(/\s+/g, " ").toLowerCase();

  const refresh = () => {
    const taken = seats.map((input) => key(input.value));
    chips.querySelectorAll("button.chip").forEach((chip) => {
      chip.disabled = taken.includes(key(chip.dataset.name));
    });
  };

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
    preset.addEventListener("change", () => {
      const values = presets[preset.value];
      if (!values) return;
      for (const [name, value] of Object.entries(values)) {
        const field = form.elements[name];
        if (!field) continue;
        if (field.type === "checkbox") field.checked = Boolean(value);
        else field.value = value === null ? "" : String(value);
      }
    });
  }
})();
