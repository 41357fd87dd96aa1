/* Names in a sentence, in the page's language: "Ann, Bo and Cy", "Tomek i Zosia". The
   browser's Intl.ListFormat, in the locale whose CLDR patterns the server's lists use too
   (web/text.py, LIST_LOCALES: the app's English is British, without the serial comma), handed
   to the page as the message list_locale; tests/browser/test_lists_browser.py holds the two
   together in every language. Bundled with the scripts that say one (web/assets.py, BUNDLES):
   the round form and the turn clock. */
window.ScorekeeperAndList = (names) => {
  const { t } = window.ScorekeeperText;
  try {
    return new Intl.ListFormat(t("list_locale")).format(names);
  } catch (error) {
    return names.join(", "); // a browser without Intl.ListFormat (before 2021)
  }
};
