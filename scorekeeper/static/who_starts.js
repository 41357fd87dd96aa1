/* Who starts (the who-starts page and the turn clock's): each player draws a tile and the
   highest starts, a tie for the highest drawing again; worked out here, the same reading as
   the server's, so it works offline. "Draw for us" draws each tile on the phone. The player
   who starts is announced to the page as a "scorekeeper:starter" event (its seat). */
(() => {
  "use strict";
  const drawForm = document.getElementById("draw-form");
  if (!drawForm) return;
  const players = JSON.parse(drawForm.dataset.players);
  const result = document.getElementById("draw-result");
  const orderLine = document.getElementById("draw-order");
  const { t, number } = window.ScorekeeperText;
  const andList = window.ScorekeeperAndList; // lists.js, bundled before

  const drawFields = () => Array.from(drawForm.querySelectorAll("input[data-seat]"));
  const showError = (input, text) => {
    const row = input.closest(".row");
    row.classList.add("has-error");
    input.setAttribute("aria-invalid", "true");
    const error = document.createElement("p");
    error.className = "error";
    error.id = `${input.id}-error`;
    error.textContent = text;
    input.setAttribute("aria-describedby", error.id);
    row.append(error);
  };
  const clearErrors = () => {
    drawForm.querySelectorAll(".error").forEach((e) => e.remove());
    drawForm.querySelectorAll(".has-error").forEach((e) => e.classList.remove("has-error"));
    drawFields().forEach((input) => {
      input.removeAttribute("aria-invalid");
      input.removeAttribute("aria-describedby");
    });
  };
  // A tile's number, 1 to 13, as even a drawn tile would be.
  const drawTile = () => 1 + (crypto.getRandomValues(new Uint32Array(1))[0] % 13);

  drawForm.addEventListener("submit", (event) => {
    event.preventDefault();
    clearErrors();
    const drawing = drawFields().filter((input) => !input.disabled);
    if (event.submitter && event.submitter.name === "draw") {
      drawing.forEach((input) => {
        input.value = String(drawTile());
      });
    }
    const drawn = [];
    drawing.forEach((input) => {
      const name = players[parseInt(input.dataset.seat, 10)];
      const text = input.value.trim();
      const drew = /^\d+$/.test(text) ? parseInt(text, 10) : NaN;
      if (!text) showError(input, t("clock_enter_number", "%(name)s: enter the number of the tile drawn.", { name }));
      else if (!(drew >= 1 && drew <= 13)) {
        showError(input, t("clock_number_range", "%(name)s: a drawn tile is numbered 1 to 13.", { name }));
      } else drawn.push({ input, seat: parseInt(input.dataset.seat, 10), number: drew });
    });
    if (drawn.length < drawing.length) {
      const first = drawForm.querySelector("[aria-invalid='true']");
      if (first) first.focus();
      return;
    }
    const highest = Math.max(...drawn.map((d) => d.number));
    const top = drawn.filter((d) => d.number === highest);
    result.hidden = false;
    if (top.length === 1) {
      const starter = top[0].seat;
      const order = players.slice(starter).concat(players.slice(0, starter));
      result.textContent = t("clock_starts", "%(name)s starts (drew %(number)s).", {
        name: players[starter],
        number: number(highest),
      });
      result.classList.add("ok");
      orderLine.hidden = false;
      orderLine.textContent = t("clock_then", "Then %(names)s, in seating order.", { names: andList(order.slice(1)) });
      drawForm.dispatchEvent(new CustomEvent("scorekeeper:starter", { bubbles: true, detail: { seat: starter } }));
      return;
    }
    const names = top.map((d) => players[d.seat]);
    result.classList.remove("ok");
    const said = { names: andList(names), number: number(highest) };
    result.textContent = top.length === 2
      ? t("clock_draw_again_both", "%(names)s draw again (both drew %(number)s).", said)
      : t("clock_draw_again_all", "%(names)s draw again (all drew %(number)s).", said);
    orderLine.hidden = true;
    drawForm.dispatchEvent(new CustomEvent("scorekeeper:starter", { bubbles: true, detail: { seat: null } }));
    drawFields().forEach((input) => {
      const tied = top.some((d) => d.input === input);
      input.disabled = !tied;
      input.closest(".row").classList.toggle("out", !tied);
      if (tied) input.value = "";
    });
    drawForm.querySelector("input[name='drawing']").value = top.map((d) => d.seat).join(",");
    if (event.submitter && event.submitter.name === "draw") event.submitter.focus();
    else top[0].input.focus();
  });
  /* Enter moves to the next player's number. */
  drawForm.addEventListener("keydown", (event) => {
    if (event.key !== "Enter" || !event.target.dataset.seat) return;
    const open = drawFields().filter((input) => !input.disabled);
    const next = open[open.indexOf(event.target) + 1];
    if (next) {
      event.preventDefault();
      next.focus();
    }
  });
})();
