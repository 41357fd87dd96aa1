/* The round entry in place: the round form (rounds/_entry.html) fetched as a fragment and put
   under the table on the session page, posted in the background to the same view, which
   answers with the new live table (swapped in by live.js: no page load) or with the form again
   and what is wrong. The same script switches the ending of a round form on the round page,
   keeping what was typed. Without it every link still opens the round page. Fetched by the
   session page when it is idle (live.js), which keeps the next round's went-out form here
   hidden and ready: a tap on a name opens it and focuses the first rack within the tap itself
   (Safari opens the keypad only so). A round's number in the table opens it here to change or
   delete; Cancel and Escape close a round, storing nothing. Each open, save and close is told
   to the page (scorekeeper:entry-opened, -saved, -closed). Also first in each round form's
   bundle (web/assets.py, BUNDLES): defined once. */
(() => {
  "use strict";
  if (window.ScorekeeperEntry || !window.fetch || !window.DOMParser) return;
  const HEADERS = { "X-Requested-With": "fetch" };
  const ENDING_KEY = "scorekeeper.last-ending";
  const SEND_MS = 8000; // a save that gets no answer in this long is kept on the phone
  const OPENS = "a[data-entry], #scores-table a"; // a new round, or a round of the table
  const words = new Set(); // the words scripts already run: once each
  const tell = (name, detail) => document.dispatchEvent(new CustomEvent(`scorekeeper:${name}`, { detail }));
  const box = () => document.getElementById("entry");
  const asFragment = (url) => {
    const made = new URL(url, location.href);
    made.searchParams.set("fragment", "1");
    return made.toString();
  };

  /* The round form's scripts, in order: each bundle runs again for each form it is given (each
     part finds the form of the moment); its words only once. */
  const load = (url, data) => new Promise((resolve, reject) => {
    const tag = Object.assign(document.createElement("script"), { src: url, async: false });
    Object.assign(tag.dataset, data);
    tag.onload = () => {
      tag.remove();
      resolve();
    };
    tag.onerror = () => {
      tag.remove();
      reject(new Error(url));
    };
    document.head.append(tag);
  });
  const run = async (fragment) => {
    const { scripts = "", probe = "", send = "" } = fragment.dataset;
    for (const url of scripts.split(" ").filter(Boolean)) {
      if (url.endsWith(".css")) {
        if (!document.querySelector(`link[href="${url}"]`)) {
          await new Promise((resolve) => {
            const link = Object.assign(document.createElement("link"), { rel: "stylesheet", href: url });
            link.onload = link.onerror = resolve;
            document.head.append(link);
          });
        }
      } else if (url.includes("/words/")) {
        if (words.has(url)) continue;
        await load(url, {});
        words.add(url);
      } else {
        await load(url, { probe, send });
      }
    }
  };

  /* What was typed that still applies to the ending switched to: the racks and tile counts to
     both endings with racks, the paper scores to theirs, who went out to its own. */
  const typed = (form) => Array.from(new FormData(form)).filter(
    ([name, value]) => typeof value === "string" && value !== "" && /^(rack|count|score)_\d+$|^winner$/.test(name),
  );
  const fill = (form, values, ending) => {
    values.forEach(([name, value]) => {
      if (name === "winner" && ending !== "went_out") return;
      const control = form.elements.namedItem(name);
      if (!control) return;
      if (control instanceof RadioNodeList) {
        control.forEach((option) => {
          option.checked = option.value === value;
        });
      } else if (!control.value) {
        control.value = value;
      }
    });
  };

  /* A visible way on by each rack (an iPhone's number pad has no Enter): "Next", and "Save"
     on the last rack typed (the winner's is not); out of the Tab order, which Enter is. */
  const onward = (form) => {
    const { t } = window.ScorekeeperText;
    const racks = () => Array.from(form.querySelectorAll('input[name^="rack_"]')).filter((input) => !input.disabled);
    const label = () => racks().forEach((input, i, all) => {
      input.parentNode.querySelector(".next-field").textContent = i === all.length - 1
        ? t("save", "Save")
        : t("next", "Next");
    });
    form.querySelectorAll('input[name^="rack_"]').forEach((input) => {
      const next = Object.assign(document.createElement("button"), { type: "button", className: "secondary next-field", tabIndex: -1 });
      next.addEventListener("mousedown", (event) => event.preventDefault()); // the focus stays in the rack
      next.addEventListener("click", () => {
        const all = racks();
        const after = all[all.indexOf(input) + 1];
        if (after) after.focus();
        else form.querySelector("#save").click();
      });
      input.parentNode.append(next);
    });
    label();
    form.addEventListener("change", label);
  };

  /* The field to type in next: the one at fault, else the one the server chose, else the
     first field of the ending (who went out, when not chosen yet; else the first empty rack). */
  const focusIn = (form, fault) => {
    const shown = (el) => !el.disabled && (el.getClientRects().length > 0 || el.type === "radio");
    const first = (css, test = () => true) => Array.from(form.querySelectorAll(css)).find((el) => shown(el) && test(el));
    const fields = 'input[name^="rack_"], input[name^="score_"]';
    const target = (fault && (first("[aria-invalid=true]") || first(".has-error input")))
      || first("input[data-autofocus]")
      || (!form.querySelector('input[name="winner"]:checked') && first('.pick:not([hidden]) input[name="winner"]'))
      || first(fields, (el) => !el.value)
      || first(fields);
    if (target) target.focus();
    (target && target.type === "radio" ? target.closest(".pick") : target || form).scrollIntoView({ block: "nearest" });
  };

  /* The table's names and Total rows, copied above the round being typed (in_place.css keeps
     them at the top of the screen); drawn again with each new table. */
  const strip = (holder) => {
    const table = document.querySelector("#scores-table table");
    const old = holder.querySelector(".entry-strip");
    const copy = document.createElement("div");
    copy.className = "entry-strip";
    copy.setAttribute("aria-hidden", "true");
    if (table && table.tHead && table.tFoot) {
      const small = document.createElement("table");
      small.className = table.className;
      small.append(table.tHead.cloneNode(true), table.tFoot.cloneNode(true));
      copy.append(small);
    }
    if (old) old.replaceWith(copy);
    else holder.prepend(copy);
  };

  /* A round now open in the holder: the scores kept in sight, and the page told. */
  const opened = (holder, fragment) => {
    holder.classList.add("entry-holder");
    holder.hidden = false;
    strip(holder);
    try {
      localStorage.setItem(ENDING_KEY, fragment.dataset.ending);
    } catch (error) {
      /* not remembered */
    }
    tell("entry-opened", { number: Number(fragment.dataset.number) });
  };

  /* Put a fragment where the entry goes; `values` carried over from the form it replaces. It
     is shown, and typed in, only once its scripts run: before, an Enter would post the round
     as a page. The field the server chose is focused here (focusIn), not by its autofocus,
     which WebKit may act on later, once typing has begun elsewhere. `ready`: kept hidden for
     the next tap on a name (nothing is put in place while a round is open). */
  const place = async (holder, html, { values = [], fault = false, ready = false } = {}) => {
    const doc = new DOMParser().parseFromString(html, "text/html");
    const fresh = doc.getElementById("entry-fragment");
    if (!fresh) return false;
    if (ready && !holder.hidden) return true;
    const adopted = document.importNode(fresh, true);
    adopted.querySelectorAll("[autofocus]").forEach((field) => {
      field.removeAttribute("autofocus");
      field.dataset.autofocus = "";
    });
    adopted.style.visibility = "hidden"; // in its place, but neither seen nor focusable yet
    const old = holder.querySelector("#entry-fragment");
    if (old) old.replaceWith(adopted);
    else holder.append(adopted);
    if (!ready) opened(holder, adopted);
    const form = adopted.querySelector("#round-form");
    fill(form, values, adopted.dataset.ending);
    try {
      await run(adopted);
      if (holder.id === "entry") onward(form);
    } finally {
      adopted.style.visibility = "";
    }
    form.dispatchEvent(new Event("change", { bubbles: true })); // the preview of what was carried
    if (ready) adopted.dataset.ready = "";
    else focusIn(form, fault);
    return true;
  };

  /* The next round's went-out form (a name's link under "Who went out?", without the name),
     fetched now and kept hidden in #entry while no round is open: a tap on a name then needs
     no fetch. None at the end of the evening. */
  const readyUrl = () => {
    const name = document.querySelector(".went-out a[data-entry]");
    if (!name) return null;
    const url = new URL(name.href);
    url.searchParams.delete("winner");
    return url;
  };
  let preparing = null; // while it is fetched and its scripts run: a tap then waits for it
  const fetchReady = () => {
    const holder = box();
    const url = readyUrl();
    if (preparing || !url || !holder || !holder.hidden || holder.querySelector("#entry-fragment")) return;
    preparing = fetch(asFragment(url), { credentials: "same-origin" })
      .then((response) => (response.ok && holder.isConnected ? response.text() : null))
      .then((html) => html && place(holder, html, { ready: true }))
      .catch(() => {
        /* a tap fetches it then */
      })
      .then(() => {
        preparing = null;
      });
  };
  /* After the frame that draws the new table: its fetch and scripts never delay that frame.
     A round opened meanwhile calls it off (two forms' scripts would run on one). */
  let scheduled = 0;
  const prepare = () => {
    const mine = ++scheduled;
    requestAnimationFrame(() => setTimeout(() => mine === scheduled && fetchReady()));
  };

  /* A tap that opens a new went-out round (a name, or Add round when went-out was the last
     ending) opens the form kept ready, within the tap: the name chosen, its rack hidden and the
     first other rack focused by round_went_out.js at once. False when none is ready. */
  const openReady = (holder, url) => {
    const fragment = holder.querySelector("#entry-fragment[data-ready]");
    const asked = new URL(url, location.href);
    const ending = asked.searchParams.get("ending") || "went_out";
    const ready = readyUrl();
    if (!fragment || !ready || !holder.hidden || ending !== "went_out" || asked.pathname !== ready.pathname) return false;
    const form = fragment.querySelector("#round-form");
    const seat = asked.searchParams.get("winner");
    const option = seat === null ? null : form.querySelector(`input[name="winner"][value="${CSS.escape(seat)}"]`);
    delete fragment.dataset.ready;
    opened(holder, fragment);
    if (option) {
      option.checked = true;
      option.dispatchEvent(new Event("change", { bubbles: true }));
    }
    focusIn(form, false);
    return true;
  };

  const open = async (holder, url, options) => {
    scheduled += 1;
    if (preparing) await preparing; // the ready form first in place, its scripts run: never two at once
    const response = await fetch(asFragment(url), { credentials: "same-origin" });
    if (!response.ok || !(await place(holder, await response.text(), options))) location.assign(url);
  };

  /* Close the round: nothing stored; the page told, and the next round's form made ready. */
  const close = (holder) => {
    holder.textContent = "";
    holder.hidden = true;
    delete holder.dataset.winner;
    tell("entry-closed");
    prepare();
  };
  const cancel = (holder) => {
    close(holder);
    const back = document.getElementById("add-round") || document.querySelector("#scores-table a");
    if (back) back.focus();
  };

  const post = (form, signal) => fetch(form.action, {
    method: "POST",
    body: new URLSearchParams(Array.from(new FormData(form)).filter(([, v]) => typeof v === "string")),
    headers: HEADERS,
    credentials: "same-origin",
    signal,
  });

  /* Save in place: the live table answers (swapped in), or the form again with its problems
     (kept typed, the field at fault focused). No answer at all: the caller keeps the round on
     the phone. Anything else (an expired page) is posted as a page, which says what to do. */
  const submit = async (form) => {
    const holder = form.closest(".entry-holder");
    const stop = new AbortController();
    const timer = setTimeout(() => stop.abort(), SEND_MS);
    let response;
    try {
      response = await post(form, stop.signal);
    } finally {
      clearTimeout(timer);
    }
    const html = await response.text();
    if (response.ok) {
      // Saved: the fields have nothing more to tell (taking away the one typed in would send
      // the form a change), and the focus leaves them now, before the new table is put in,
      // when it costs nothing to draw.
      form.addEventListener("change", (event) => event.stopImmediatePropagation(), true);
      if (form.contains(document.activeElement)) document.activeElement.blur();
    }
    if (response.ok && swapped(html)) {
      tell("entry-saved");
      close(holder);
      return;
    }
    if ([409, 422].includes(response.status) && (await place(holder, html, { fault: true }))) return;
    form.submit();
  };

  /* A link that opens a round (data-entry) opens it here; a tab of a form in place switches
     its ending, keeping what was typed. True when it did. */
  const follow = (link) => {
    const holder = link.matches(OPENS)
      ? document.querySelector("#entry")
      : link.closest(".entry-holder");
    if (!holder) return false;
    holder.classList.add("entry-holder");
    let url = link.href;
    if (link.hasAttribute("data-last-ending")) {
      let last = null;
      try {
        last = localStorage.getItem(ENDING_KEY);
      } catch (error) {
        /* the first ending */
      }
      if (last) {
        const made = new URL(url, location.href);
        made.searchParams.set("ending", last);
        url = made.toString();
      }
    }
    if (preparing) preparing.then(() => go(holder, link, url));
    else go(holder, link, url);
    return true;
  };
  const go = (holder, link, url) => {
    if (openReady(holder, url)) return;
    const form = holder.querySelector("#round-form");
    const values = form && !link.matches(OPENS) ? typed(form) : [];
    // Who went out stays chosen across the endings without one (back on went-out, it is).
    const winner = values.find(([name]) => name === "winner");
    if (link.matches(OPENS)) delete holder.dataset.winner;
    else if (winner) holder.dataset.winner = winner[1];
    else if (holder.dataset.winner) values.push(["winner", holder.dataset.winner]);
    open(holder, url, { values }).catch(() => location.assign(url));
  };

  /* Delete in place: the round's Delete asks once, here ("Delete round 3?"); Delete posts it in
     the background, the new table (its Undo the message) put in place like a save's. */
  const askDelete = (holder, yes) => {
    const ask = holder.querySelector("[data-delete-ask]");
    const link = holder.querySelector("a[data-delete]");
    if (!ask || !link) return false;
    ask.hidden = !yes;
    link.hidden = yes;
    (yes ? ask.querySelector("button") : link).focus();
    return true;
  };
  /* Delete and Undo are posted in the background too: the live table that answers is put in
     place (an Undo keeps a round being typed), else the form is posted as a page. */
  document.addEventListener("submit", (event) => {
    const form = event.target;
    if (event.defaultPrevented || !form.matches("#entry [data-delete-ask], #live form.undo")) return;
    event.preventDefault();
    if (form.dataset.sent) return;
    form.dataset.sent = "1";
    const holder = form.closest(".entry-holder");
    post(form)
      .then((response) => (response.ok ? response.text() : Promise.reject(new Error(String(response.status)))))
      .then((html) => {
        if (!swapped(html, !holder)) throw new Error("no table");
        if (holder) close(holder);
      })
      .catch(() => form.submit());
  });

  document.addEventListener("click", (event) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
    const holder = event.target.closest(".entry-holder");
    if (holder && event.target.closest("[data-cancel]")) return cancel(holder);
    if (holder && event.target.closest("[data-keep]")) return askDelete(holder, false);
    if (holder && event.target.closest("a[data-delete]") && askDelete(holder, true)) return event.preventDefault();
    const link = event.target.closest(`${OPENS}, .entry-holder nav.tabs a`);
    if (link && follow(link)) event.preventDefault();
    return undefined;
  });
  /* Escape closes the round open in place (the tile keypad, when open, takes its own). */
  document.addEventListener("keydown", (event) => {
    const holder = event.key === "Escape" && !event.defaultPrevented ? box() : null;
    if (holder && !holder.hidden && holder.classList.contains("entry-holder")) cancel(holder);
  });

  /* A tie on an empty pool, in place (round_pool_empty.js asks): the players tied are the
     choices of who takes the round, shown at once; the one chosen, or null. */
  const askWho = (form, tied) => {
    const pick = form.querySelector("[data-tie-pick]");
    if (!pick) return null;
    pick.hidden = !tied.length;
    let chosen = null;
    pick.querySelectorAll("input").forEach((option) => {
      const seat = tied.find((s) => String(s.seat) === option.value);
      option.disabled = !seat;
      option.checked = option.checked && !!seat;
      option.parentNode.hidden = !seat;
      if (option.checked) chosen = seat;
    });
    return chosen;
  };

  /* After each new table a poll puts in place (static/live.js asks): a new round (a key: an
     edit has none) typed in place follows a table that only lost rounds (none newer than the
     table it names): its number, version and title; a round added or changed since is for
     the server to ask about at Save (409). */
  const renumber = (live) => {
    const holder = live.querySelector("#entry");
    if (!holder) return;
    if (holder.hidden) {
      prepare();
      return;
    }
    strip(holder);
    const form = holder.querySelector("#round-form");
    if (!form || !live.querySelector(".went-out")) return;
    const { number, version, key } = form.elements;
    if (!key.value || Number(live.dataset.newest) > Number(version.value)) return;
    number.value = live.dataset.next;
    version.value = live.dataset.version;
    const title = live.querySelector("#entry-title");
    const roundOf = live.querySelector("#round-of");
    if (title && roundOf) title.textContent = roundOf.textContent;
  };

  /* After a change made on this phone: the changed round's row, the one message (its Undo)
     and, at the end of the evening, the winner brought on screen together (when they fit; else
     the winner or the row first), and the message focused where it is, for a screen reader. The
     winner's cheer moves only where motion is welcome (live.css). */
  const bringIntoView = (live) => {
    const message = live.querySelector("#change-message");
    const winner = live.querySelector(".announce");
    const rows = live.querySelectorAll("#scores-table tbody tr");
    const number = Math.min(Number(live.dataset.round) || rows.length, rows.length);
    const row = rows[number - 1];
    const parts = [winner, message, row].filter(Boolean).map((el) => el.getBoundingClientRect());
    if (message) message.focus({ preventScroll: true });
    if (!parts.length) return;
    const top = Math.min(...parts.map((r) => r.top));
    const bottom = Math.max(...parts.map((r) => r.bottom));
    const room = window.innerHeight;
    if (top >= 0 && bottom <= room) return;
    let by;
    if (bottom - top <= room) by = (top + bottom - room) / 2;
    else by = (winner || row).getBoundingClientRect().top - 8;
    window.scrollBy(0, by); // at once: a page still gliding would move the next tap's target
  };

  /* A table of this phone's own change put in place (live.js): what changed brought into view,
     the round being typed brought up to date. */
  const shown = (live) => {
    bringIntoView(live);
    renumber(live);
  };

  /* The table a change of this phone's answered with, put in place (live.js), and what changed
     brought into view; false when the answer holds no table. */
  const swapped = (html, typing) => {
    if (!window.ScorekeeperLive || !window.ScorekeeperLive.swap(html, typing)) return false;
    shown(document.getElementById("live"));
    return true;
  };

  window.ScorekeeperEntry = { submit, follow, askWho, renumber, open };

  /* The round page's fragment's parent takes the fragment of another ending. */
  const page = document.getElementById("entry-fragment");
  if (page && page.parentElement) page.parentElement.classList.add("entry-holder");
  prepare();
})();
