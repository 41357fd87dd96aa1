/* Words and numbers in the page's language, for every script of the app: the #js-messages
   block of base.html (translated on the server, see web/js_messages.py) with the English
   fallback each call carries; %(name)s placeholders filled from params. Loaded (deferred)
   before the page's own scripts. */
(function () {
  "use strict";
  var holder = document.getElementById("js-messages");
  var MESSAGES = JSON.parse((holder && holder.textContent) || "{}");

  function t(key, fallback, params) {
    return (MESSAGES[key] || fallback).replace(/%\((\w+)\)s/g, function (all, name) {
      return params && name in params ? String(params[name]) : all;
    });
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
    formatter: formatter,
    number: function (n) {
      return numbers.format(n);
    },
  };
})();
