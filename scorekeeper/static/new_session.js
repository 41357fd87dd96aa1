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
