/* "Keep the screen on" on the session page: the Screen Wake Lock API, asked for again
   whenever the page comes back on screen (the browser lets go of it when hidden). The choice
   is remembered on this phone. Browsers without the API never show the button. Fetched on
   demand by live.js: at the first tap (which turned it on), or when this phone asked before.
   The button is a switch: its words stay, aria-pressed says (and static/live.css draws)
   whether the screen is kept on. */
(function () {
  "use strict";
  var KEY = "scorekeeper.awake";
  var button = document.getElementById("keep-awake");
  if (!button || !("wakeLock" in navigator)) return;
  // Why the phone refused, under the button (made here: most phones never need it).
  var hint = Object.assign(document.createElement("p"), { className: "hint", id: "keep-awake-hint", hidden: true });
  button.after(hint);

  var lock = null;
  var t = window.ScorekeeperText.t;

  function wanted() {
    try {
      return window.localStorage.getItem(KEY) === "on";
    } catch (e) {
      return false;
    }
  }

  function remember(on) {
    try {
      if (on) window.localStorage.setItem(KEY, "on");
      else window.localStorage.removeItem(KEY);
    } catch (e) {
      /* not remembered: this page still keeps it */
    }
  }

  function show(on, message) {
    button.setAttribute("aria-pressed", on ? "true" : "false");
    hint.textContent = message || "";
    hint.hidden = !message;
  }

  function acquire() {
    if (lock || document.hidden) return Promise.resolve();
    return navigator.wakeLock.request("screen").then(
      function (sentinel) {
        lock = sentinel;
        lock.addEventListener("release", function () { lock = null; });
        show(true);
      },
      function () {
        show(false, t("awake_refused", "This phone would not keep the screen on (battery saver?)."));
      }
    );
  }

  function release() {
    if (lock) lock.release();
    lock = null;
    show(false);
  }

  button.addEventListener("click", function () {
    var on = button.getAttribute("aria-pressed") !== "true";
    remember(on);
    if (on) {
      show(true);
      acquire();
    } else {
      release();
    }
  });

  document.addEventListener("visibilitychange", function () {
    if (!document.hidden && wanted()) acquire();
  });

  // Fetched by the tap that turned it on (live.js marks the button), or turned on before.
  var tapped = button.hasAttribute("data-tapped");
  if (tapped) remember(true);
  if (tapped || wanted()) {
    show(true);
    acquire();
  }
})();
