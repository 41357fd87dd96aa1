/* The table checker's keypad, fetched by checker.js at the first tap on a field's "Keypad"
   button: a tap adds a tile (or card) in notation to the field, whose text stays the truth;
   for the lists of sets, "New set" starts the next line. */
(() => {
  "use strict";
  const checker = window.ScorekeeperChecker;
  if (!checker) return;
  const { root, rulesForm, el, button, keypadFor } = checker;
  /* Its words came with it, in the page's language (web/assets.py, on_demand), where t finds
     them; the keys and the tiles' names are tile_keys.js's, fetched just before. */
  const { t } = window.ScorekeeperText;
  const tileKeys = window.ScorekeeperTileKeys;
  const { notation } = window.ScorekeeperTiles; // bundled with checker.js
  const playingCards = () =>
    rulesForm ? rulesForm.elements.played_with.value === "cards" : root.dataset.playedWith === "cards";
  const keypad = el("div", "keypad");
  keypad.id = "checker-keypad";
  keypad.hidden = true;
  keypad.setAttribute("role", "group");
  let open = null; // the field the keypad fills
  let openToggle = null;

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
    const keys = tileKeys.keys(cards);
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
    const legend = el("p", "hint", tileKeys.legend(cards));
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
    if (target.dataset.tile) add(notation(target.dataset.tile, playingCards()));
    else if (target.dataset.action === "line") {
      if (open.value.trim() && !open.value.endsWith("\n")) write(`${open.value.replace(/\s+$/, "")}\n`);
    } else if (target.dataset.action === "back") takeLast();
    else if (target.dataset.action === "done") closeKeypad();
  });
  root.querySelectorAll(".keypad-toggle").forEach((toggle) => toggle.setAttribute("aria-controls", keypad.id));
  // Cards or tiles chosen in the rules: the open keypad's keys follow (after checker.js's own).
  if (rulesForm) rulesForm.addEventListener("change", () => open && buildKeys());

  /* checker.js calls this at a tap on a field's button: open the keypad there, or close it. */
  window.ScorekeeperCheckerKeypad = (field, toggle) => (open === field ? closeKeypad() : openKeypad(field, toggle));
})();
