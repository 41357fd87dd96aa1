/* A new round typed in place on the session page (static/entry.js) is kept on this phone as a
   draft of its session (localStorage), from the first tap until it is saved or closed: Back, a
   reload, a visit to the table checker or a closed tab lose nothing. The session page fetches
   this (bundled after entry.js: web/assets.py, entry_in_place.js) at once when this phone
   keeps a draft of it (static/live.js), and opens the round again with what was typed. A draft
   the table has moved past (its round saved meanwhile, or rounds before it deleted) comes back
   on the round as it is now, saying why. The draft's key goes with it: a round whose Save was
   on its way when the page went is never stored twice. */
(() => {
  "use strict";
  const entry = window.ScorekeeperEntry;
  if (!entry || !entry.open || window.ScorekeeperDraft) return;
  window.ScorekeeperDraft = true;
  const DRAFTS = "scorekeeper.drafts"; // live.js looks for this session's path in it
  const QUEUE = "scorekeeper.offline-rounds"; // offline.js: rounds kept while the network is gone
  const USED = "scorekeeper.used-round-keys"; // offline.js: the keys of forms sent
  const KEEP_MS = 7 * 24 * 3600 * 1000; // a draft older than a week is forgotten
  const TYPED = /^(rack|count|score)_\d+$|^winner$/;
  const { t, number: formatted } = window.ScorekeeperText;
  const session = location.pathname;

  const read = (name, empty) => {
    try {
      return JSON.parse(localStorage.getItem(name)) || empty;
    } catch (error) {
      return empty;
    }
  };
  const write = (drafts) => {
    try {
      localStorage.setItem(DRAFTS, JSON.stringify(drafts));
    } catch (error) {
      /* private mode or a full phone: not kept */
    }
  };
  const drafts = () => {
    const all = read(DRAFTS, {});
    Object.keys(all).forEach((path) => {
      if (!(Date.now() - all[path].at < KEEP_MS)) delete all[path];
    });
    return all;
  };
  const forget = () => {
    const all = drafts();
    delete all[session];
    write(all);
  };
  /* Whether offline.js keeps the round of this key (it brings it back itself). */
  const queued = (key) => read(QUEUE, []).some((kept) => (kept.fields || []).some(([name, value]) => name === "key" && value === key));

  /* The new round's form open in place (it has a key; a change of a round has none). */
  const current = () => {
    const holder = document.getElementById("entry");
    const form = holder && !holder.hidden && holder.querySelector("#round-form");
    return form && form.elements.key && form.elements.key.value ? form : null;
  };

  /* Keep what the form holds (who went out, the racks, counts or scores typed), its round and
     table; nothing typed, or a round offline.js keeps, is no draft. */
  const keep = (form) => {
    const typed = Array.from(new FormData(form)).filter(([name, value]) => typeof value === "string" && value && TYPED.test(name));
    const { key, number, version } = form.elements;
    if (!typed.length || queued(key.value)) return forget();
    const { pathname, search } = new URL(form.action, location.href);
    const all = drafts();
    all[session] = {
      url: pathname + search,
      number: Number(number.value),
      version: version.value,
      key: key.value,
      fields: typed,
      at: Date.now(),
    };
    write(all);
  };

  /* Kept a moment after each key (and at once when the page goes). */
  let timer = null;
  const later = (form) => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      timer = null;
      keep(form);
    }, 300);
  };
  const soon = (event) => {
    const form = current();
    if (form && form.contains(event.target)) later(form);
  };
  const now = () => {
    const form = timer && current();
    clearTimeout(timer);
    timer = null;
    if (form) keep(form);
  };
  document.addEventListener("input", soon);
  document.addEventListener("change", soon);
  addEventListener("pagehide", now);
  document.addEventListener("visibilitychange", () => document.hidden && now());

  /* A Save keeps the draft as sent, the rack typed just before the Enter too; a round handed
     to offline.js (no network at once, or no answer: the form's own listener, before this,
     or the post failing) is offline.js's to keep and send, no draft. */
  document.addEventListener("submit", (event) => {
    const form = current();
    if (form !== event.target) return;
    clearTimeout(timer);
    timer = null;
    keep(form);
  });
  const submit = entry.submit;
  entry.submit = (form) => submit(form).catch((error) => {
    setTimeout(() => queued(form.elements.key.value) && forget());
    throw error;
  });

  /* Opened (a tap, another ending, or the form again with a problem): kept as it is, once what
     was carried over is in. Saved or closed: forgotten. A draft being brought back is told
     first, and takes its key and version again once the form's scripts have run (entry.js may
     tell of the opening before: offline.js then draws a new key for a key sent before). */
  let bringing = null;
  let typing = false;
  document.addEventListener("scorekeeper:entry-opened", () => {
    const form = current();
    const draft = bringing;
    typing = !!form;
    bringing = null;
    if (!form) return;
    if (draft) {
      const next = Number(form.elements.number.value);
      ours(form, draft, next);
      tell(form, draft, next);
      form.addEventListener("change", () => ours(form, draft, next), { once: true });
    }
    later(form);
  });
  const done = () => {
    clearTimeout(timer);
    timer = null;
    // After the frame that shows the new table, which it would otherwise delay.
    if (typing) requestAnimationFrame(() => setTimeout(forget));
    typing = false;
  };
  document.addEventListener("scorekeeper:entry-saved", done);
  document.addEventListener("scorekeeper:entry-closed", done);

  /* The draft on the round as the table is now: its own key (a Save sent before, if it landed,
     is that round again, never a second one); its table's version while its number is still
     the next one (the server asks at Save if rounds moved meanwhile), else the reason. */
  const ours = (form, draft, next) => {
    form.elements.key.value = draft.key;
    if (draft.number === next) form.elements.version.value = draft.version;
  };
  const tell = (form, draft, next) => {
    const then = formatted(draft.number);
    const notice = form.parentNode.querySelector("#offline-notice");
    let text;
    if (draft.number === next) {
      text = t("draft_kept", "Round %(number)s as you left it.", { number: then });
    } else if (draft.number > next) {
      text = t("draft_renumbered", "Rounds were deleted meanwhile, so your draft is round %(number)s now: check the table before saving.", { number: formatted(next) });
    } else if (read(USED, []).includes(draft.key)) {
      text = t("draft_sent", "Round %(number)s is in the table now; your draft is below to compare.", { number: then });
    } else {
      text = t("draft_taken", "Round %(number)s was saved on another phone meanwhile; your draft is below to compare.", { number: then });
    }
    notice.textContent = text;
    notice.hidden = false;
    notice.classList.toggle("flash-error", draft.number !== next);
  };

  /* This session's draft, opened again under the table, unless a round is open already or the
     evening is over (it waits for one more round). */
  const draft = drafts()[session];
  const holder = document.getElementById("entry");
  if (!draft || !holder || holder.classList.contains("entry-holder") || !document.querySelector(".went-out")) return;
  if (queued(draft.key)) return forget();
  bringing = draft;
  holder.classList.add("entry-holder");
  entry.open(holder, draft.url, { values: draft.fields }).catch(() => {
    bringing = null; // no network: the draft stays for the next visit
  });
})();
