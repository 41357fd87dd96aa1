/* Names in a sentence, in the page's language: "Ann, Bo and Cy", "Tomek i Zosia" (the
   language's own list patterns, CLDR's through Babel on the server: web/js_messages.py). Bundled
   with the scripts that say one (web/assets.py, BUNDLES): the round form and the turn clock. */
window.ScorekeeperAndList = (names) => {
  const { t } = window.ScorekeeperText;
  if (names.length < 2) return names.join("");
  if (names.length === 2) {
    return t("list_two", "%(first)s and %(second)s", { first: names[0], second: names[1] });
  }
  let joined = t("list_end", "%(first)s and %(second)s", { first: names.at(-2), second: names.at(-1) });
  for (let i = names.length - 3; i > 0; i -= 1) {
    joined = t("list_middle", "%(first)s, %(second)s", { first: names[i], second: joined });
  }
  return t("list_start", "%(first)s, %(second)s", { first: names[0], second: joined });
};
