/* What every page runs, loaded in <head> before the page is drawn: the colour theme (so a dark
   page never flashes white), the words and numbers of the page's language for the other
   scripts, and the service worker. One file, so a page asks for one script, not three. */

/* Colour theme: follows the system unless this phone chose light or dark (kept in
   localStorage); it sets data-theme="light" or "dark" on <html>, which app.css reads. */
(() => {
  "use strict";
  const KEY = "scorekeeper.theme";
  const CHOICES = ["system", "light", "dark"];
  const stored = () => {
    try {
      const value = localStorage.getItem(KEY);
      return CHOICES.includes(value) ? value : "system";
    } catch (error) {
      return "system"; // storage blocked: follow the system
    }
  };

  // "system" is resolved here, and again whenever the phone switches (app.css has one dark
  // block, under data-theme="dark").
  const night = window.matchMedia && matchMedia("(prefers-color-scheme:dark)");
  const apply = (choice) => {
    const dark = choice === "system" ? night && night.matches : choice === "dark";
    document.documentElement.dataset.theme = dark ? "dark" : "light";
  };
  if (night && night.addEventListener) {
    night.addEventListener("change", () => stored() === "system" && apply("system"));
  }
  apply(stored());

  /* The header's theme button: each tap the next of the three, its name saying which. */
  const show = () => {
    const button = document.getElementById("theme-toggle");
    if (!button) return null;
    button.hidden = false;
    button.querySelectorAll("[data-theme-name]").forEach((name) => {
      name.hidden = name.dataset.themeName !== stored();
    });
    return button;
  };
  document.addEventListener("DOMContentLoaded", () => {
    const button = show();
    if (!button) return;
    button.addEventListener("click", () => {
      const choice = CHOICES[(CHOICES.indexOf(stored()) + 1) % 3];
      try {
        localStorage.setItem(KEY, choice);
      } catch (error) {
        /* not remembered, but still applied to this page */
      }
      apply(choice);
      show();
    });
  });
})();

/* Words and numbers in the page's language, for every script of the app (the one t(), and tn()
   for a plural): the #js-messages block at the end of the page (translated on the server, see
   web/script_words.py; only the words the page's scripts use), then the words a script fetched
   on demand brought along (window.ScorekeeperWords, web/assets.py), else the fallback each call
   carries (the English in the source; none as served, web/assets.py `without_fallbacks`);
   %(name)s placeholders filled from params. The block is read at the first call, once the
   page's deferred scripts run and the whole page is there. */
(() => {
  "use strict";
  let messages = null;
  const found = (key) => {
    if (messages === null) {
      const holder = document.getElementById("js-messages");
      if (!holder) return (window.ScorekeeperWords || {})[key]; // not read yet
      messages = JSON.parse(holder.textContent || "{}");
    }
    return messages[key] || (window.ScorekeeperWords || {})[key];
  };
  const fill = (text, params) =>
    text.replace(/%\((\w+)\)s/g, (all, name) => (params && name in params ? String(params[name]) : all));
  const lang = () => document.documentElement.lang || undefined;

  const t = (key, fallback, params) => {
    const text = found(key);
    return fill(typeof text === "string" ? text : fallback, params);
  };

  /* A plural: the page's language's form for n (the block holds every form of its language by
     plural category, "one", "few", "many", "other": Polish has three), else English's. */
  const category = (n) => {
    try {
      return new Intl.PluralRules(lang()).select(n);
    } catch (error) {
      return n === 1 ? "one" : "other"; // an old browser: right for English and most others
    }
  };
  const tn = (key, one, other, n, params) => {
    const forms = found(key);
    if (forms && typeof forms === "object") return fill(forms[category(n)] || forms.other, params);
    return fill(n === 1 ? one : other, params);
  };

  const formatter = (options) => {
    try {
      return new Intl.NumberFormat(lang(), options);
    } catch (error) {
      return new Intl.NumberFormat(undefined, options); // an unknown lang: the phone's own
    }
  };
  const numbers = formatter();
  window.ScorekeeperText = { t, tn, formatter, number: (n) => numbers.format(n) };
})();

/* Register the service worker (data-sw of this script's tag, /sw.js?lang=…, the
   page's language: a page in another language installs the worker with its words): it keeps
   the app shell and the last good copy of each page on this phone, so an open session
   survives a Wi-Fi blip. Browsers allow service workers only over https or on localhost;
   elsewhere the app works as before without one. */
(() => {
  "use strict";
  const script = document.currentScript;
  if (!script || !("serviceWorker" in navigator) || !window.isSecureContext) return;
  const url = script.dataset.sw;
  window.addEventListener("load", () => navigator.serviceWorker.register(url).catch(() => undefined));
})();
