/* The round entry in place: the round form (rounds/_entry.html) fetched as a fragment and put
   under the table on the session page, posted in the background to the same view, which
   answers with the new live table (swapped in by live.js: no page load) or with the form again
   and what is wrong. The same script switches the ending of a round form on the round page,
   keeping what was typed. Without it every link still opens the round page. Fetched by the
   session page at the first tap on a round (live.js), and first in each round form's bundle
   (web/assets.py, BUNDLES): defined once. */
(() => {
  "use strict";
  if (window.ScorekeeperEntry || !window.fetch || !window.DOMParser) return;
  const HEADERS = { "X-Requested-With": "fetch" };
  const ENDING_KEY = "scorekeeper.last-ending";
  const SEND_MS = 8000; // a save that gets no answer in this long is kept on the phone
  const words = new Set(); // the words scripts already run: once each
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

  /* The field to type in next: the one at fault, else the one the server chose, else the
     first field of the ending (who went out, when not chosen yet; else the first empty rack). */
  const focusIn = (form, fault) => {
    const shown = (el) => !el.disabled && (el.getClientRects().length > 0 || el.type === "radio");
    const first = (css, test = () => true) => Array.from(form.querySelectorAll(css)).find((el) => shown(el) && test(el));
    const fields = 'input[name^="rack_"], input[name^="score_"]';
    const target = (fault && (first("[aria-invalid=true]") || first(".has-error input")))
      || first("input[autofocus]")
      || (!form.querySelector('input[name="winner"]:checked') && first('.pick:not([hidden]) input[name="winner"]'))
      || first(fields, (el) => !el.value)
      || first(fields);
    if (target) target.focus();
    (target && target.type === "radio" ? target.closest(".pick") : target || form).scrollIntoView({ block: "nearest" });
  };

  /* Put a fragment where the entry goes; `values` carried over from the form it replaces. It
     is shown, and typed in, only once its scripts run: before, its field with autofocus would
     take the keys, and an Enter there post the round as a page. */
  const place = async (holder, html, { values = [], fault = false } = {}) => {
    const doc = new DOMParser().parseFromString(html, "text/html");
    const fresh = doc.getElementById("entry-fragment");
    if (!fresh) return false;
    const adopted = document.importNode(fresh, true);
    adopted.style.visibility = "hidden"; // in its place, but neither seen nor focusable yet
    const old = holder.querySelector("#entry-fragment");
    if (old) old.replaceWith(adopted);
    else holder.append(adopted);
    holder.hidden = false;
    const form = adopted.querySelector("#round-form");
    fill(form, values, adopted.dataset.ending);
    try {
      localStorage.setItem(ENDING_KEY, adopted.dataset.ending);
    } catch (error) {
      /* not remembered */
    }
    try {
      await run(adopted);
    } finally {
      adopted.style.visibility = "";
    }
    form.dispatchEvent(new Event("change", { bubbles: true })); // the preview of what was carried
    focusIn(form, fault);
    document.dispatchEvent(new CustomEvent("scorekeeper:entry-opened", { detail: { number: form.elements.number.value } }));
    return true;
  };

  const open = async (holder, url, options) => {
    const response = await fetch(asFragment(url), { credentials: "same-origin" });
    if (!response.ok || !(await place(holder, await response.text(), options))) location.assign(url);
  };

  const close = (holder) => {
    holder.textContent = "";
    holder.hidden = true;
  };

  /* Save in place: the live table answers (swapped in), or the form again with its problems
     (kept typed, the field at fault focused). No answer at all: the caller keeps the round on
     the phone. Anything else (an expired page) is posted as a page, which says what to do. */
  const submit = async (form) => {
    const holder = form.closest(".entry-holder");
    const stop = new AbortController();
    const timer = setTimeout(() => stop.abort(), SEND_MS);
    let response;
    try {
      response = await fetch(form.action, {
        method: "POST",
        body: new URLSearchParams(Array.from(new FormData(form)).filter(([, v]) => typeof v === "string")),
        headers: HEADERS,
        credentials: "same-origin",
        signal: stop.signal,
      });
    } finally {
      clearTimeout(timer);
    }
    const html = await response.text();
    if (response.ok && window.ScorekeeperLive && window.ScorekeeperLive.swap(html)) {
      close(holder);
      document.dispatchEvent(new CustomEvent("scorekeeper:entry-saved"));
      return;
    }
    if ([409, 422].includes(response.status) && (await place(holder, html, { fault: true }))) return;
    form.submit();
  };

  /* A link that opens a round (data-entry) opens it here; a tab of a form in place switches
     its ending, keeping what was typed. True when it did. */
  const follow = (link) => {
    const holder = link.hasAttribute("data-entry")
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
    const form = holder.querySelector("#round-form");
    const values = form && !link.hasAttribute("data-entry") ? typed(form) : [];
    open(holder, url, { values }).catch(() => location.assign(url));
    return true;
  };
  document.addEventListener("click", (event) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
    const link = event.target.closest("a[data-entry], .entry-holder nav.tabs a");
    if (link && follow(link)) event.preventDefault();
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
  const renumber = (live, fresh) => {
    const form = live.querySelector("#entry #round-form");
    if (!form || !fresh.querySelector(".went-out")) return;
    const { number, version, key } = form.elements;
    if (!key.value || Number(fresh.dataset.newest) > Number(version.value)) return;
    number.value = fresh.dataset.next;
    version.value = fresh.dataset.version;
    const title = live.querySelector("#entry-title");
    const roundOf = fresh.querySelector("#round-of");
    if (title && roundOf) title.textContent = roundOf.textContent;
  };

  window.ScorekeeperEntry = { submit, follow, askWho, renumber, open };

  /* The round page's fragment's parent takes the fragment of another ending. */
  const page = document.getElementById("entry-fragment");
  if (page && page.parentElement) page.parentElement.classList.add("entry-holder");
})();
