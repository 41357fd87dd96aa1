/* Names in a sentence, in the page's language: "Ann, Bo and Cy" (list_and). Bundled with the
   scripts that say one (web/assets.py, BUNDLES): the round form and the turn clock. */
window.ScorekeeperAndList = (names) => {
  const { t } = window.ScorekeeperText;
  if (names.length < 2) return names.join("");
  return t("list_and", "%(items)s and %(last)s", { items: names.slice(0, -1).join(", "), last: names.at(-1) });
};
