/* Colour theme: follows the system unless this phone chose light or dark (kept in
   localStorage). Loaded in <head>, before the page is drawn, so a dark page never flashes
   white: it sets data-theme on <html>, which theme.css reads. */
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

  function apply(choice) {
    if (choice === "system") {
      root.removeAttribute("data-theme");
    } else {
      root.setAttribute("data-theme", choice);
    }
  }

  apply(stored());

  document.addEventListener("DOMContentLoaded", function () {
    var box = document.getElementById("theme-choice");
    var select = document.getElementById("theme-select");
    if (!box || !select) return;
    select.value = stored();
    box.hidden = false;
    select.addEventListener("change", function () {
      var choice = CHOICES.indexOf(select.value) >= 0 ? select.value : "system";
      try {
        window.localStorage.setItem(KEY, choice);
      } catch (e) {
        /* not remembered, but still applied to this page */
      }
      apply(choice);
    });
  });

  // Another tab of this app changed the theme: follow it.
  window.addEventListener("storage", function (event) {
    if (event.key !== KEY) return;
    apply(stored());
    var select = document.getElementById("theme-select");
    if (select) select.value = stored();
  });
})();
