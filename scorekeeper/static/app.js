/* What every page runs, loaded in <head> before the page is drawn: the colour theme (so a dark
   page never flashes white), the words and numbers of the page's language for the other
   scripts, and the service worker. One file, so a page asks for one script, not three. */

/* Colour theme: follows the system unless this phone chose light or dark (kept in
   localStorage); it sets data-theme="light" or "dark" on <html>, which app.css reads. */
(function () {
  "use strict";
  var KEY = "scorekeeper.theme";
  var CHOICES = ["system", "light", "dark"];
  var root = document.documentElement;

  function stored() {
    try {
      var value = window.localStorage.getItem(KEY);
      return CHOICES.indexOf(value) >= 0 ? value : "system";
    } catch (e) {
      return "system"; // storage blocked: follow the system
    }
  }

  // "system" is resolved here, and again whenever the phone switches (app.css has one dark
  // block, under data-theme="dark").
  var night = window.matchMedia ? window.matchMedia("(prefers-color-scheme:dark)") : null;
  function apply(choice) {
    if (choice === "system") choice = night && night.matches ? "dark" : "light";
    root.setAttribute("data-theme", choice);
  }
  if (night && night.addEventListener) {
    night.addEventListener("change", function () {
      if (stored() === "system") apply("system");
    });
  }

  apply(stored());

  /* The header's theme button: each tap the next of the three, its name saying which. */
  function show() {
    var button = document.getElementById("theme-toggle");
    if (!button) return;
    button.hidden = false;
    var names = button.querySelectorAll("[data-theme-name]");
    for (var i = 0; i < names.length; i++) names[i].hidden = names[i].getAttribute("data-theme-name") !== stored();
  }

  document.addEventListener("DOMContentLoaded", function () {
    var button = document.getElementById("theme-toggle");
    if (!button) return;
    show();
    button.addEventListener("click", function () {
      var choice = CHOICES[(CHOICES.indexOf(stored()) + 1) % 3];
      try {
        window.localStorage.setItem(KEY, choice);
      } catch (e) {
        /* not remembered, but still applied to this page */
      }
      apply(choice);
      show();
    });
  });

  // Another tab of this app changed the theme: follow it.
  window.addEventListener("storage", function (event) {
    if (event.key !== KEY) return;
    apply(stored());
    show();
  });
})();

/* Words and numbers in the page's language, for every script of the app (the one t(), and tn()
   for a plural): the
   #js-messages block at the end of the page (translated on the server, see web/js_messages.py;
   only the words the page's scripts use), then the words a script fetched on demand brought
   along (window.ScorekeeperWords, web/assets.py), else the fallback each call carries (the
   English in the source; none as served, web/assets.py `without_fallbacks`); %(name)s
   placeholders filled from params. The block is read at the first call, once the
   page's deferred scripts run and the whole page is there. */
(function () {
  "use strict";
  var MESSAGES = null;

  function messages() {
    if (MESSAGES !== null) return MESSAGES;
    var holder = document.getElementById("js-messages");
    if (!holder) return {}; // not read yet: the fallback this time
    MESSAGES = JSON.parse(holder.textContent || "{}");
    return MESSAGES;
  }

  function fill(text, params) {
    return text.replace(/%\((\w+)\)s/g, function (all, name) {
      return params && name in params ? String(params[name]) : all;
    });
  }

  function t(key, fallback, params) {
    var words = window.ScorekeeperWords || {};
    var found = messages()[key] || words[key];
    return fill(typeof found === "string" ? found : fallback, params);
  }

  /* A plural: the page's language's form for n (the block holds every form of its language by
     plural category, "one", "few", "many", "other": Polish has three), else English's. */
  function category(n) {
    try {
      return new Intl.PluralRules(document.documentElement.lang || undefined).select(n);
    } catch (error) {
      return n === 1 ? "one" : "other"; // an old browser: right for English and most others
    }
  }

  function tn(key, one, other, n, params) {
    var words = window.ScorekeeperWords || {};
    var forms = messages()[key] || words[key];
    if (forms && typeof forms === "object") return fill(forms[category(n)] || forms.other, params);
    return fill(n === 1 ? one : other, params);
  }

  function formatter(options) {
    try {
      return new Intl.NumberFormat(document.documentElement.lang || undefined, options);
    } catch (error) {
      return new Intl.NumberFormat(undefined, options); // an unknown lang: the phone's own
    }
  }

  var numbers = formatter();
  window.ScorekeeperText = {
    t: t,
    tn: tn,
    formatter: formatter,
    number: function (n) {
      return numbers.format(n);
    },
  };
})();

/* Register the service worker (data-service-worker of this script's tag, /sw.js): it keeps
   the app shell and the last good copy of each page on this phone, so an open session
   survives a Wi-Fi blip. Browsers allow service workers only over https or on localhost;
   elsewhere the app works as before without one. */
(function () {
  "use strict";
  var script = document.currentScript;
  if (!script || !("serviceWorker" in navigator) || !window.isSecureContext) return;
  var url = script.dataset.serviceWorker;
  window.addEventListener("load", function () {
    navigator.serviceWorker.register(url).catch(function () {
      return undefined;
    });
  });
})();
