/* The session page's script: live on every phone at the table, and "Keep the screen on"
   (one file, so the page asks for one script).

   Keep the session page live on every phone at the table.

   Every 1.25 s (only while the page is visible) ask whether the session changed: GET
   /sessions/<id>/table with the ETag this part was drawn with, answered by a bodiless 304 when
   nothing did, else with the live part as the server draws it, which is swapped in with what
   changed ("Round 3 added"). Without this script the page still works: a reload shows the
   same. */
(function () {
  "use strict";
  var INTERVAL = 1250;
  var live = document.getElementById("live");
  var notice = document.getElementById("live-change");
  if (!live || !window.fetch || !window.DOMParser) return;

  var pollUrl = live.getAttribute("data-poll");
  var etag = live.getAttribute("data-etag");
  var version = Number(live.getAttribute("data-version"));
  var timer = null;
  var busy = false;
  var noticeTimer = null;
  var t = window.ScorekeeperText.t;

  function schedule(delay) {
    window.clearTimeout(timer);
    timer = null;
    if (!document.hidden) timer = window.setTimeout(poll, delay);
  }

  function poll() {
    if (busy || document.hidden) return;
    busy = true;
    fetch(pollUrl, {
      headers: { "If-None-Match": etag },
      cache: "no-store",
      credentials: "same-origin",
    })
      .then(function (response) {
        if (response.status === 304) return null;
        if (!response.ok) throw new Error("status " + response.status);
        return response.text().then(refresh);
      })
      .catch(function () {
        /* A Wi-Fi blip or a restart: ask again at the next tick. */
      })
      .then(function () {
        busy = false;
        schedule(INTERVAL);
      });
  }

  function parse(html) {
    return new DOMParser().parseFromString(html, "text/html").getElementById("live");
  }

  function refresh(html) {
    var fresh = parse(html);
    if (!fresh) return;
    var newEtag = fresh.getAttribute("data-etag") || etag;
    var newVersion = Number(fresh.getAttribute("data-version"));
    if (newEtag === etag) return;
    swap(fresh);
    etag = newEtag;
    if (newVersion !== version) tell(fresh.getAttribute("data-change"));
    version = newVersion;
  }

  /* The table this phone's own save answered with (static/entry.js): swapped in at once, its
     Undo the one message, so the next poll has nothing to tell. */
  /* Scripts fetched on demand, one after the other (a script's words come before it), then
     `done`; `failed` if one cannot be fetched. */
  function load(files, done, failed) {
    var list = files.split(" ");
    (function next() {
      if (!list.length) return done && done();
      var tag = document.createElement("script");
      tag.src = list.shift();
      tag.onload = next;
      tag.onerror = failed || null;
      document.head.appendChild(tag);
    })();
  }

  window.ScorekeeperLive = {
    load: load,
    swap: function (html) {
      var fresh = parse(html);
      if (!fresh) return false;
      swap(fresh, true);
      etag = fresh.getAttribute("data-etag") || etag;
      version = Number(fresh.getAttribute("data-version"));
      if (notice) notice.textContent = "";
      return true;
    },
  };

  /* The round being typed (#entry, static/entry.js) is moved into the new table's place for
     it, never drawn again: what was typed, and the focus, stay. `saved`: it was just sent. */
  function swap(fresh, saved) {
    var focused = document.activeElement;
    var focusKey = null;
    var entry = live.querySelector("#entry");
    var typing = entry && entry.contains(focused) ? focused : null;
    var caret = typing && typing.selectionStart !== undefined ? [typing.selectionStart, typing.selectionEnd] : null;
    if (focused && live.contains(focused) && !typing) {
      focusKey = focused.getAttribute("href") || focused.textContent;
    }
    var adopted = document.importNode(fresh, true);
    var place = adopted.querySelector("#entry");
    if (entry && !saved && entry.childElementCount) {
      if (place) place.parentNode.replaceChild(entry, place);
      else adopted.querySelector("#scores-table").after(entry);
    } else if (entry && place) {
      place.className = entry.className;
    }
    live.parentNode.replaceChild(adopted, live);
    live = adopted;
    if (typing) {
      typing.focus({ preventScroll: true });
      try {
        if (caret) typing.setSelectionRange(caret[0], caret[1]);
      } catch (e) {
        /* not a text field */
      }
    }
    if (focusKey !== null) {
      var same = Array.prototype.find.call(
        live.querySelectorAll("a, button"),
        function (el) { return (el.getAttribute("href") || el.textContent) === focusKey; }
      );
      if (same) same.focus();
    }
  }

  function tell(change) {
    if (!notice || !change) return;
    notice.textContent = t("live_change", "%(change)s.", { change: change });
    window.clearTimeout(noticeTimer);
    noticeTimer = window.setTimeout(function () { notice.textContent = ""; }, 20000);
  }

  /* The first tap on a round (data-entry) fetches the round entry in place (static/entry.js,
     named by #entry), which takes that tap and the next ones from there. */
  document.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest("a[data-entry]");
    var holder = document.getElementById("entry");
    if (!link || window.ScorekeeperEntry || !holder || event.button !== 0 || event.metaKey || event.ctrlKey) return;
    event.preventDefault();
    load(holder.getAttribute("data-script"), function () {
      if (!(window.ScorekeeperEntry && window.ScorekeeperEntry.follow(link))) location.assign(link.href);
    }, function () { location.assign(link.href); });
  });

  document.addEventListener("visibilitychange", function () {
    if (document.hidden) {
      window.clearTimeout(timer);
      timer = null;
    } else {
      schedule(0); // back on screen: look at once
    }
  });

  schedule(INTERVAL);
})();

/* "Keep the screen on": the button shows where the browser can keep a screen on; its script
   (static/awake.js, fetched on demand) comes at the first tap, or at once where this phone
   asked for it before (it is remembered). */
(function () {
  "use strict";
  var button = document.getElementById("keep-awake");
  if (!button || !("wakeLock" in navigator)) return;
  button.hidden = false;
  function fetchIt() {
    window.ScorekeeperLive.load(button.getAttribute("data-script"));
  }
  var asked = false;
  try {
    asked = window.localStorage.getItem("scorekeeper.awake") === "on";
  } catch (e) {
    /* storage blocked: wait for a tap */
  }
  if (asked) fetchIt();
  else button.addEventListener("click", function () { button.setAttribute("data-tapped", ""); fetchIt(); }, { once: true });
})();
