/* Sending the rounds kept on this phone (offline.js fetches this once there are some): each is
   posted as its form would have been, oldest first; a round the server refused comes back on
   its form with what the server said, to check and save again; else the notice says how many
   rounds of this session wait. */
(() => {
  "use strict";
  const kept = window.ScorekeeperOffline;
  const { QUEUE, form, queue, write, here, sessionOf, say, notice, waitingText } = kept;
  /* Its words came with it, in the page's language (web/assets.py, on_demand), where t finds them. */
  const { t } = window.ScorekeeperText;

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
  kept.send = async () => {
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
    const path = here(form.action).pathname;
    const entry = queue().find((e) => e.refused && here(e.url).pathname === path);
    if (!entry) return false;
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
    return true;
  };

  if (!restore()) {
    const waiting = queue().filter((e) => !e.refused && e.session === sessionOf(form.action));
    if (waiting.length && !notice.textContent) say(waitingText(waiting.length));
  }
})();
