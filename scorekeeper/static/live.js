/* The session page's script: live on every phone at the table, and "Keep the screen on"
   (one file, so the page asks for one script).

   Every 1.25 s (only while the page is visible) ask whether the session changed: GET
   /sessions/<id>/table with the ETag this part was drawn with, answered by a bodiless 304 when
   nothing did, else with the live part as the server draws it, which is swapped in with what
   changed ("Round 3 added"). Without this script the page still works: a reload shows the
   same. A poll sent to sign in (the gate's redirect: a restore or "sign out every phone" made
   this phone's cookie worthless) or answered 404 (the session removed, or a restore replaced
   the scores) loads the page again, which the server answers with the sign-in page (back here
   after) or the page saying the session is gone; a 503 (a restore under way) waits the
   Retry-After and asks again, saying nothing. */
(() => {
  "use strict";
  const INTERVAL = 1250;
  const live = document.getElementById("live");
  const notice = document.getElementById("live-change");
  if (!live || !window.fetch) return;

  const pollUrl = live.dataset.poll;
  let etag = live.dataset.etag;
  let version = Number(live.dataset.version);
  let timer = null;
  let busy = false;
  let stopped = false; // sent to sign in, or the session is gone: the page loads again
  let noticeTimer = null;
  const { t } = window.ScorekeeperText;

  const schedule = (delay) => {
    clearTimeout(timer);
    timer = document.hidden || stopped ? null : setTimeout(poll, delay);
  };

  const poll = () => {
    if (busy || document.hidden) return;
    busy = true;
    let delay = INTERVAL;
    fetch(pollUrl, {
      headers: { "If-None-Match": etag },
      cache: "no-store",
      credentials: "same-origin",
      redirect: "manual",
    })
      .then((response) => {
        if (response.status === 304) return null;
        if (response.type === "opaqueredirect" || response.status === 404) {
          stopped = true;
          return location.reload();
        }
        if (response.status === 503) {
          const wait = Number(response.headers.get("Retry-After"));
          delay = Math.min(Math.max(wait * 1000 || INTERVAL, INTERVAL), 60000);
          return null;
        }
        if (!response.ok) throw new Error(`status ${response.status}`);
        return response.text().then(refresh);
      })
      .catch(() => {
        /* A Wi-Fi blip or a restart: ask again at the next tick. */
      })
      .then(() => {
        busy = false;
        if (!stopped) schedule(delay);
      });
  };

  /* The live part of an answer, parsed once in this document (a template's content: no second
     document to copy it from), ready to put in place; null if the answer holds none. */
  const parse = (html) => {
    const holder = document.createElement("template");
    holder.innerHTML = html;
    return holder.content.getElementById("live");
  };

  const refresh = (html) => {
    const fresh = parse(html);
    if (!fresh || (fresh.dataset.etag || etag) === etag) return;
    const before = version;
    swap(fresh);
    if (window.ScorekeeperEntry) window.ScorekeeperEntry.renumber(live);
    if (version !== before) tell(live.dataset.change);
  };

  /* Scripts fetched on demand, one after the other (a script's words come before it): the
     promise of their running. Each is fetched and run once, whoever asks (again after a
     failure). */
  const asked = {};
  const script = (src, files) =>
    new Promise((ok, fail) => {
      const tag = document.createElement("script");
      tag.src = src;
      tag.onload = ok;
      tag.onerror = () => {
        delete asked[files];
        fail();
      };
      document.head.append(tag);
    });
  const load = (files) =>
    (asked[files] = asked[files] || files.split(" ").reduce((before, src) => before.then(() => script(src, files)), Promise.resolve()));

  /* The table this phone's own change answered with (a save, a delete, an Undo: static/
     entry.js): swapped in at once, its Undo the one message, so the next poll has nothing to
     tell (entry.js then brings what changed into view). */
  const mine = (html, typing) => {
    const fresh = parse(html);
    if (!fresh) return false;
    swap(fresh, !typing);
    if (notice) notice.textContent = "";
    return true;
  };
  window.ScorekeeperLive = { load, swap: mine };

  /* The new live part put over the old one node by node: what is the same stays as it was
     (its layout, its focus), only what changed is drawn again. A child is matched by its tag
     and id; an old child with an id the new part lacks goes. An image of another address is
     a new image (a changed src would fetch at once the chart drawing that is not shown, which
     lazy loading otherwise leaves). `keep`: the id of a part left as it is. */
  const same = (old, fresh) => old.nodeName === fresh.nodeName && old.id === fresh.id
    && (old.nodeName !== "IMG" || old.getAttribute("src") === fresh.getAttribute("src"));
  const drop = (node) => {
    const next = node.nextSibling;
    node.remove();
    return next;
  };
  const morph = (old, fresh, keep) => {
    Array.from(old.attributes, ({ name }) => fresh.hasAttribute(name) || old.removeAttribute(name));
    Array.from(fresh.attributes, ({ name, value }) => old.getAttribute(name) === value || old.setAttribute(name, value));
    const ids = new Set(Array.from(fresh.children, (child) => child.id));
    let at = old.firstChild;
    for (const child of Array.from(fresh.childNodes)) {
      while (at && at.id && !ids.has(at.id)) at = drop(at);
      if (!at || !same(at, child)) {
        old.insertBefore(child, at);
        continue;
      }
      if (at.id !== keep && !at.isEqualNode(child)) {
        if (at.attributes) morph(at, child, keep);
        else at.data = child.data;
      }
      at = at.nextSibling;
    }
    while (at) at = drop(at);
  };

  /* The round being typed (#entry, static/entry.js) is left as it is, never drawn again: what
     was typed, and the focus, stay. `saved`: it was just sent. */
  const swap = (fresh, saved) => {
    const entry = live.querySelector("#entry");
    const place = fresh.querySelector("#entry");
    const typing = entry && place && !saved && entry.childElementCount && !entry.hidden;
    if (entry && place && !typing) place.className = entry.className;
    morph(live, fresh, typing ? "entry" : null);
    etag = live.dataset.etag || etag;
    version = Number(live.dataset.version);
  };

  const tell = (change) => {
    if (!notice || !change) return;
    notice.textContent = t("live_change", "%(change)s.", { change });
    clearTimeout(noticeTimer);
    noticeTimer = setTimeout(() => {
      notice.textContent = "";
    }, 20000);
  };

  /* The first tap on a round (data-entry) fetches the round entry in place (static/entry.js,
     named by #entry), which takes that tap and the next ones from there. */
  document.addEventListener("click", (event) => {
    const link = event.target.closest("a[data-entry], #scores-table a");
    const holder = document.getElementById("entry");
    if (!link || window.ScorekeeperEntry || !holder || event.button !== 0 || event.metaKey || event.ctrlKey) return;
    event.preventDefault();
    const page = () => location.assign(link.href);
    load(holder.dataset.script).then(() => (window.ScorekeeperEntry && window.ScorekeeperEntry.follow(link)) || page(), page);
  });

  /* The round entry's script fetched when the page is idle: the next round's form made ready,
     so that a tap on a name needs no fetch, and a round typed here and not saved brought back
     (a draft: static/draft.js, bundled with the entry). */
  const holder = document.getElementById("entry");
  if (holder) (window.requestIdleCallback || setTimeout)(() => load(holder.dataset.script).catch(() => {}));

  // Hidden: no more polls; back on screen: look at once.
  document.addEventListener("visibilitychange", () => schedule(0));

  schedule(INTERVAL);
})();

/* "Keep the screen on": the button shows where the browser can keep a screen on; its script
   (static/awake.js, fetched on demand) comes at the first tap, or at once where this phone
   asked for it before (it is remembered). */
(() => {
  "use strict";
  const button = document.getElementById("keep-awake");
  if (!button || !("wakeLock" in navigator)) return;
  button.hidden = false;
  const fetchIt = () => window.ScorekeeperLive.load(button.dataset.script).catch(() => {});
  let asked = false;
  try {
    asked = localStorage.getItem("scorekeeper.awake") === "on";
  } catch (error) {
    /* storage blocked: wait for a tap */
  }
  if (asked) fetchIt();
  else {
    button.addEventListener("click", () => {
      button.dataset.tapped = "";
      fetchIt();
    }, { once: true });
  }
})();
