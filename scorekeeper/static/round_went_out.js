/* Round form, someone went out (after round.js): the winner's rack hides, the others' racks
   give the winner's score, and the preview says whether the round adds up. */
(() => {
  "use strict";
  const round = window.ScorekeeperRound;
  if (!round) return;
  const { form, racks, bonus, t, nameOf, rack, signed, show, status } = round;
  const winnerSeat = () => {
    const checked = form.querySelector('input[name="winner"]:checked');
    return checked ? parseInt(checked.value, 10) : null;
  };

  /* The winner's rack is empty: hide it (and send nothing for it); Enter's key says "done" on
     the last rack shown. */
  const hideWinnerRack = () => {
    const winner = winnerSeat();
    racks.forEach((input, seat) => {
      input.closest(".seat").hidden = seat === winner;
      input.disabled = seat === winner;
    });
    round.enterKeys();
  };
  /* A tap on a name moves on to the first rack still to type. WebKitGTK focuses a label's radio
     after the click the label passes on to it (Chromium before it, Safari not at all), which
     would take that focus away again: the rack chosen in this tap takes it back. */
  let chosen = null;
  form.addEventListener("change", (event) => {
    if (event.target.name !== "winner") return;
    hideWinnerRack();
    const first = racks.find((input) => !input.disabled && !input.value);
    if (!first) return;
    first.focus();
    chosen = first;
    setTimeout(() => {
      chosen = null;
    }, 0);
  });
  form.addEventListener("focusin", (event) => {
    if (chosen && event.target.name === "winner") chosen.focus();
  });
  hideWinnerRack();

  round.preview(() => {
    const winner = winnerSeat();
    const missing = [];
    let sum = 0;
    let unread = false;
    racks.forEach((input, seat) => {
      if (seat === winner) return;
      const entry = rack(input.value);
      if (entry === null) missing.push(nameOf(input));
      else if (Number.isNaN(entry.value)) unread = true;
      else sum += entry.value;
      show(seat, entry && !Number.isNaN(entry.value) ? signed(-entry.value) : "");
    });
    if (winner === null) return status(t("round_tap_winner", "Tap who went out."));
    const won = bonus ?? sum;
    show(winner, missing.length || unread ? "" : signed(won));
    if (unread) return status(t("round_unreadable", "Some tiles are not readable yet."), false);
    if (missing.length) return status(round.stillToEnter(missing));
    const said = { name: nameOf(racks[winner]), points: signed(won) };
    return status(
      bonus ? t("round_winner_bonus", "%(name)s %(points)s (bonus).", said) : t("round_winner_sum", "%(name)s %(points)s: adds up to 0.", said),
      true,
    );
  });
})();
