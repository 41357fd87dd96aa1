/* Round form, scores as on paper (after round.js): a ± by each score, for number pads without
   a minus, and the preview says whether the scores add up to 0 with one winner. */
(() => {
  "use strict";
  const round = window.ScorekeeperRound;
  if (!round) return;
  const { bonus, t, nameOf, andList, whole, signed, status } = round;
  const inputs = round.fields("score");

  inputs.forEach((input) => {
    const flip = round.button("±", "secondary sign", t("round_change_sign", "Change the sign of %(name)s's score", { name: nameOf(input) }));
    flip.addEventListener("click", () => {
      const value = input.value.trim().replace(/^[\u2212\u2013]/, "-");
      input.value = value.startsWith("-") ? value.slice(1) : `-${value.replace(/^\+/, "")}`;
      input.focus();
      round.update();
    });
    input.inputMode = "numeric";
    input.after(flip);
  });

  round.preview(() => {
    const missing = [];
    const plus = [];
    let sum = 0;
    let unread = false;
    inputs.forEach((input) => {
      if (!input.value.trim()) return missing.push(nameOf(input));
      const score = whole(input.value);
      if (score === null) unread = true;
      else {
        sum += score;
        if (score > 0) plus.push(nameOf(input));
      }
    });
    if (unread) return status(t("round_whole_number", "A score is a whole number, like -12 or 24."), false);
    if (missing.length === inputs.length) return status("");
    if (bonus) return status(missing.length ? round.stillToEnter(missing) : "");
    if (sum !== 0 && missing.length) {
      const said = { sum: signed(sum), names: andList(missing) };
      return status(t("round_sum_so_far", "Adds up to %(sum)s so far (still to enter: %(names)s).", said));
    }
    if (sum !== 0) {
      return status(t("round_sum_wrong", "Adds up to %(sum)s: someone counted a rack wrong.", { sum: signed(sum) }), false);
    }
    if (missing.length) {
      return status(t("round_zero_so_far", "Adds up to 0 so far; still to enter: %(names)s.", { names: andList(missing) }));
    }
    if (plus.length > 1) {
      const names = andList(plus);
      return status(t("round_all_plus", "%(names)s all score plus: only the winner scores plus.", { names }), false);
    }
    return status(t("round_adds_up", "Adds up to 0 ✓"), true);
  });
})();
