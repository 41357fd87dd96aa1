/* A round typed while the network is gone is kept on this phone (localStorage) and sent when
   the network is back. Its idempotency key (a hidden field of the round form) means that a
   round sent twice, or sent after all, is stored once. Without JavaScript the form posts as
   usual; with it, Save first checks that the server answers, and keeps the round if not.
   Part of the round form, after round.js (web/assets.py, BUNDLES); sending the kept rounds is
   offline_send.js, fetched once there are some (data-send: its words and itself). */
(() => {
  "use strict";
  const round = window.ScorekeeperRound;
  if (!round) return;
  const { form, t } = round;
  const { tn, number: formatted } = window.ScorekeeperText;
  const QUEUE = "scorekeeper.offline-rounds";
  const USED = "scorekeeper.used-round-keys";
  const KEEP_MS = 7 * 24 * 3600 * 1000; // a round kept longer than a week is forgotten
  const { probe = "/healthz", send: sendScript } = (document.currentScript || {}).dataset || {};

  const read = (name) => {
    try {
      const value = JSON.parse(localStorage.getItem(name) || "[]");
      return Array.isArray(value) ? value : [];
    } catch (error) {
      return [];
    }
  };
  const write = (name, value) => {
    try {
      localStorage.setItem(name, JSON.stringify(value));
      return true;
    } catch (error) {
      return false; // private mode or a full phone
    }
  };
  const here = (url) => new URL(url, location.href);
  const sessionOf = (url) => here(url).pathname.replace(/\/rounds\/.*$/, "");
  const queue = () => read(QUEUE).filter((entry) => Date.now() - (entry.savedAt || 0) < KEEP_MS);
  const field = (entry, name) => (entry.fields.find(([key]) => key === name) || [])[1];

  /* The notice under the page's heading (a live region, there before it speaks). */
  const notice = document.getElementById("offline-notice");
  const say = (text) => {
    notice.textContent = text;
    notice.hidden = !text;
  };
  /* What the notice says of the rounds kept for this session. */
  const SAVED = t("offline_saved", "Saved on this phone; it will be sent when the network is back.");
  const waitingText = (count) => (count > 1
    ? SAVED + " " + tn("offline_waiting", "%(count)s round is waiting on this phone.", "%(count)s rounds are waiting on this phone.", count, { count: formatted(count) })
    : SAVED);

  /* Whether the server answers at all (Wi-Fi can be "on" with no way through) within 4 s. */
  const serverAnswers = () => {
    const stop = new AbortController();
    const timer = setTimeout(() => stop.abort(), 4000);
    return fetch(probe, { cache: "no-store", signal: stop.signal })
      .then((response) => response.ok, () => false)
      .finally(() => clearTimeout(timer));
  };

  /* The round as the form would post it, under its key (or its address, lacking one). */
  const entryOf = () => {
    const fields = Array.from(new FormData(form)).filter(([, v]) => typeof v === "string");
    const { pathname, search } = here(form.action);
    const key = field({ fields }, "key");
    const number = field({ fields }, "number");
    return {
      id: key ? `key:${key}` : `url:${pathname}`,
      url: pathname + search,
      session: sessionOf(pathname),
      fields,
      number: /^\d+$/.test(number) ? parseInt(number, 10) : null,
      savedAt: Date.now(),
    };
  };

  /* Keep a round: one entry per key (saving the same form again replaces it), and a second
     new round typed offline for the same session is numbered after the first. round.js takes
     no second tap once one is sent ("Saving…" if it is slow): the round is kept, so Save works again. */
  const keep = (entry) => {
    const others = queue().filter((e) => e.id !== entry.id && !e.refused);
    const highest = Math.max(0, ...others.filter((e) => e.session === entry.session).map((e) => e.number));
    if (entry.number !== null && highest >= entry.number) {
      entry.number = highest + 1;
      // Its table will have the kept round before it: it names only its number.
      entry.fields = entry.fields
        .filter(([name]) => name !== "version")
        .map(([name, value]) => [name, name === "number" ? String(entry.number) : value]);
    }
    say(write(QUEUE, [...queue().filter((e) => e.id !== entry.id), entry])
      ? waitingText(others.length + 1)
      : t("offline_not_kept", "This phone could not keep the round: the network is gone. Keep the page open and save again later."));
    setTimeout(round.saveAgain, 0);
  };

  // A page shown from this phone's cache (or its back-forward cache: Back after a save) may
  // carry a key already used: never reuse one (the server refuses it: key_reused).
  const key = form.elements.namedItem("key");
  const freshKey = (shown) => {
    if (key && (shown ? shown.persisted : [...read(USED), ...queue().map((e) => field(e, "key"))].includes(key.value))) {
      key.value = Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
    }
  };
  freshKey();
  addEventListener("pageshow", freshKey);

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const entry = entryOf();
    const keepIt = () => keep(entry);
    // In place on the session page (static/entry.js): posted in the background at once (the
    // keeping below is done while it travels); no answer at all means no network, and the
    // round is kept.
    const inPlace = navigator.onLine && window.ScorekeeperEntry && form.closest("#entry");
    const sent = inPlace ? window.ScorekeeperEntry.submit(form) : null;
    const used = field(entry, "key");
    if (used) write(USED, [used, ...read(USED).filter((k) => k !== used)].slice(0, 100));
    const path = here(form.action).pathname;
    write(QUEUE, queue().filter((e) => !(e.refused && here(e.url).pathname === path)));
    if (sent) sent.catch(keepIt);
    else if (!navigator.onLine) keepIt();
    else serverAnswers().then((up) => (up ? form.submit() : keepIt()));
  });

  /* offline_send.js reads what it needs here. When rounds are kept on this phone it says so at
     once (and brings back a refused one), then sends them once the network is back (or at a
     page load, or now and then). */
  const kept = { QUEUE, form, queue, write, here, sessionOf, say, notice, waitingText };
  window.ScorekeeperOffline = kept;
  const sender = () => round.fetchFiles(sendScript);
  if (queue().length) sender().catch(() => {});
  const send = () => {
    if (navigator.onLine && queue().some((e) => !e.refused)) sender().then(() => kept.send(), () => {});
  };
  // One timer per page (every 15 s), whatever the number of forms the page has held (each
  // round entered in place on the session page runs this again): it sends with the latest
  // form's means.
  window.ScorekeeperOfflineTick = send;
  if (!window.ScorekeeperOfflineTimer) {
    const tick = () => window.ScorekeeperOfflineTick();
    window.addEventListener("online", tick);
    window.ScorekeeperOfflineTimer = setInterval(tick, 15000);
  }
  send();
})();
