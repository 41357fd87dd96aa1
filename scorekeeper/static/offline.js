/* A round typed while the network is gone is kept on this phone (localStorage) and sent when
   the network is back. Its idempotency key (a hidden field of the round form) means that a
   round sent twice, or sent after all, is stored once. Without JavaScript the form posts as
   usual; with it, Save first checks that the server answers, and keeps the round if not. */
(() => {
  "use strict";
  const QUEUE = "scorekeeper.offline-rounds";
  const USED = "scorekeeper.used-round-keys";
  const KEEP_MS = 7 * 24 * 3600 * 1000; // a round kept longer than a week is forgotten
  const PROBE_MS = 4000;
  const RETRY_MS = 15000;
  const { t, number } = window.ScorekeeperText;
  const SAVED = t("offline_saved", "Saved on this phone; it will be sent when the network is back.");
  const savedAndWaiting = (count) =>
    `${SAVED} ${t("offline_waiting", "%(count)s rounds are waiting on this phone.", { count: number(count) })}`;

  const script = document.currentScript;
  const probeUrl = (script && script.dataset.probe) || "/healthz";
  const form = document.getElementById("round-form");

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
  const recent = (entry) => Date.now() - (entry.savedAt || 0) < KEEP_MS;
  const queue = () => read(QUEUE).filter(recent);
  const field = (entry, name) => (entry.fields.find(([key]) => key === name) || [])[1];

  /* The notice under the page's heading: a live region made before anything is said in it. */
  const notice = document.createElement("p");
  notice.id = "offline-notice";
  notice.className = "flash offline-notice";
  notice.setAttribute("role", "status");
  notice.hidden = true;
  const heading = document.querySelector("main h1");
  if (heading) heading.after(notice);
  else document.querySelector("main")?.prepend(notice);
  const say = (text) => {
    notice.textContent = text;
    notice.hidden = !text;
  };

  const freshKey = () =>
    Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");

  const remember = (key) => {
    if (!key) return;
    write(USED, [key, ...read(USED).filter((k) => k !== key)].slice(0, 100));
  };

  /* Whether the server answers at all (Wi-Fi can be "on" with no way through). */
  const serverAnswers = async () => {
    const stop = new AbortController();
    const timer = setTimeout(() => stop.abort(), PROBE_MS);
    try {
      const response = await fetch(probeUrl, { cache: "no-store", signal: stop.signal });
      return response.ok;
    } catch (error) {
      return false;
    } finally {
      clearTimeout(timer);
    }
  };

  /* Keep a round: one entry per key (saving the same form again replaces it), and a second
     new round typed offline for the same session is numbered after the first. */
  const keep = (entry) => {
    const others = queue().filter((e) => e.id !== entry.id);
    if (entry.number !== null) {
      const waiting = others.filter((e) => e.session === entry.session && e.number !== null && !e.refused);
      const highest = Math.max(0, ...waiting.map((e) => e.number));
      if (highest >= entry.number) {
        entry.number = highest + 1;
        entry.fields = entry.fields.map(([k, v]) => [k, k === "number" ? String(entry.number) : v]);
      }
    }
    if (!write(QUEUE, [...others, entry])) {
      say(t(
        "offline_not_kept",
        "This phone could not keep the round: the network is gone. Keep the page open and save again later.",
      ));
      return;
    }
    const waiting = others.filter((e) => !e.refused).length + 1;
    say(waiting > 1 ? savedAndWaiting(waiting) : SAVED);
  };

  const entryOf = (target) => {
    const fields = Array.from(new FormData(target).entries()).filter(([, v]) => typeof v === "string");
    const url = here(target.action).pathname + here(target.action).search;
    const key = fields.find(([k]) => k === "key");
    const number = fields.find(([k]) => k === "number");
    return {
      id: key && key[1] ? `key:${key[1]}` : `url:${here(target.action).pathname}`,
      url,
      session: sessionOf(url),
      fields,
      number: number && /^\d+$/.test(number[1]) ? parseInt(number[1], 10) : null,
      savedAt: Date.now(),
    };
  };

  /* What the server said was wrong, read from the page it answered with. */
  const problemsOf = async (response) => {
    try {
      const page = new DOMParser().parseFromString(await response.text(), "text/html");
      const text = (nodes) => Array.from(nodes)
        .filter((p) => !p.querySelector("a.button")) // "Back to the sessions" says nothing
        .map((p) => p.textContent.replace(/\s+/g, " ").trim())
        .filter(Boolean);
      const said = text(page.querySelectorAll(".problems p, p.error"));
      // An error page (a 400 for an expired form, a 404) says it in its plain paragraphs.
      return (said.length ? said : text(page.querySelectorAll("main > p:not(.back)"))).slice(0, 4);
    } catch (error) {
      return [];
    }
  };

  let sending = false;

  /* Send every kept round, oldest first; then show the session the last one went to. */
  const send = async () => {
    if (sending || !navigator.onLine) return;
    const pending = queue().filter((e) => !e.refused);
    if (!pending.length) return;
    sending = true;
    let landedOn = null;
    try {
      for (const entry of pending) {
        let response;
        try {
          response = await fetch(entry.url, {
            method: "POST",
            body: new URLSearchParams(entry.fields),
            credentials: "same-origin",
            redirect: "follow",
          });
        } catch (error) {
          return; // still no network: the next "online", page load or retry sends it
        }
        const landed = here(response.url).pathname;
        if (response.ok && response.redirected && landed === entry.session) {
          write(QUEUE, queue().filter((e) => e.id !== entry.id)); // stored (or stored before)
          landedOn = entry.session;
          continue;
        }
        if (response.redirected || response.status >= 500) {
          // Signed out meanwhile, or the server is in trouble: nothing is lost, try later.
          say(response.redirected
            ? t("offline_sign_in", "Sign in again to send the rounds kept on this phone.")
            : t("offline_server_trouble", "The server could not take the rounds kept on this phone yet; they stay here."));
          return;
        }
        // Refused (a rule, a clash with a round saved meanwhile): nothing was stored. Bring
        // what was typed back on a fresh copy of its form (the round's number and version as
        // they are now), with what the server said.
        const problems = await problemsOf(response);
        write(QUEUE, queue().map((e) => (e.id === entry.id ? { ...e, refused: problems } : e)));
        location.assign(entry.url);
        return;
      }
    } finally {
      sending = false;
    }
    if (landedOn) location.assign(landedOn);
  };

  /* A kept round the server refused comes back on its form, to check and save again. */
  const restore = () => {
    if (!form) return;
    const path = here(form.action).pathname;
    const entry = queue().find((e) => e.refused && here(e.url).pathname === path);
    if (!entry) return;
    const skip = ["csrf_token", "key", "number", "version", "ending"];
    entry.fields.forEach(([name, value]) => {
      if (skip.includes(name)) return;
      const control = form.elements.namedItem(name);
      if (!control) return;
      if (control instanceof RadioNodeList) {
        control.forEach((option) => {
          option.checked = option.value === value;
        });
      } else if (control.type === "checkbox") {
        control.checked = true;
      } else {
        control.value = value;
      }
    });
    const winner = form.querySelector('input[name="winner"]:checked');
    (winner || form).dispatchEvent(new Event("change", { bubbles: true }));
    say(entry.refused.length
      ? t(
        "offline_refused_because",
        "This round was typed while the network was gone and was not saved: %(problems)s Check it and save again.",
        { problems: entry.refused.join(" ") },
      )
      : t("offline_refused", "This round was typed while the network was gone and was not saved: Check it and save again."));
    notice.classList.add("flash-error");
  };

  if (form) {
    const save = form.querySelector('button[type="submit"]');
    const saveText = save ? save.textContent : "";
    const key = form.elements.namedItem("key");
    // A page shown from this phone's cache may carry a key already used: never reuse one.
    const usedKeys = new Set([...read(USED), ...queue().map((e) => field(e, "key"))]);
    if (key && key.value && usedKeys.has(key.value)) key.value = freshKey();

    form.addEventListener("submit", (event) => {
      if (event.defaultPrevented) return; // a second tap while the first is on its way
      event.preventDefault();
      const entry = entryOf(form);
      remember(field(entry, "key"));
      const path = here(form.action).pathname;
      write(QUEUE, queue().filter((e) => !(e.refused && here(e.url).pathname === path)));
      const kept = () => {
        keep(entry);
        // round.js shows "Saving…" after a tap: the round is kept, so Save works again (saving
        // the same form again replaces the kept round: its key is the same).
        setTimeout(() => {
          delete form.dataset.sent;
          if (save) {
            save.disabled = false;
            save.textContent = saveText;
          }
        }, 0);
      };
      if (!navigator.onLine) {
        kept();
        return;
      }
      serverAnswers().then((up) => (up ? form.submit() : kept()));
    });
    restore();
  }

  const waiting = queue().filter((e) => !e.refused && (!form || e.session === sessionOf(form.action)));
  if (waiting.length && !notice.textContent) {
    say(waiting.length === 1 ? SAVED : savedAndWaiting(waiting.length));
  }
  window.addEventListener("online", send);
  setInterval(send, RETRY_MS);
  send();
})();
