/* Round form, the pool ran out (after round.js): the lowest rack takes the round (or the
   fewest tiles, as the session plays), ties are named, and each player's score is shown. */
(() => {
  "use strict";
  const round = window.ScorekeeperRound;
  if (!round) return;
  const { form, racks, bonus, t, nameOf, andList, whole, rack, signed, show, status } = round;
  const fewest = "fewestTiles" in form.dataset; // the session's rule: the fewest tiles win

  const narrow = (list, key) => {
    if (list.some((s) => key(s) === null)) return list;
    const low = Math.min(...list.map(key));
    return list.filter((s) => key(s) === low);
  };
  const byValue = (s) => s.entry.value;
  const byCount = (s) => s.count;

  /* In place a tie asks at once who takes the round, among the tied only: static/entry.js,
     which placed the form (the round page asks after Save); the one chosen, or none. */
  const askWho = (tied) => window.ScorekeeperEntry && window.ScorekeeperEntry.askWho(form, tied);

  round.preview(() => {
    const counts = round.fields("count");
    const seats = racks.map((input, seat) => {
      const entry = rack(input.value);
      const typed = counts[seat] ? whole(counts[seat].value) : null;
      return { seat, name: nameOf(input), entry, count: entry && entry.count !== null ? entry.count : typed };
    });
    racks.forEach((_, seat) => show(seat, ""));
    const missing = seats.filter((s) => s.entry === null).map((s) => s.name);
    if (missing.length) return status(round.stillToEnter(missing));
    if (seats.some((s) => Number.isNaN(s.entry.value))) {
      return status(t("round_unreadable", "Some tiles are not readable yet."), false);
    }
    if (fewest && seats.some((s) => s.count === null)) {
      return status(t("round_enter_counts", "Enter every player's tile count."));
    }
    const candidates = fewest ? narrow(narrow(seats, byCount), byValue) : narrow(narrow(seats, byValue), byCount);
    const chosen = askWho(candidates.length > 1 ? candidates : []);
    if (candidates.length > 1 && !chosen) {
      const names = andList(candidates.map((s) => s.name));
      return status(t("round_tie", "%(names)s tie: enter tile counts, or save and say who takes it.", { names }));
    }
    const winner = chosen || candidates[0];
    let sum = 0;
    seats.forEach((s) => {
      if (s === winner) return;
      const loss = fewest ? s.entry.value : s.entry.value - winner.entry.value;
      sum += loss;
      show(s.seat, signed(-loss));
    });
    const won = bonus ?? sum;
    show(winner.seat, signed(won));
    return status(t("round_takes", "%(name)s takes the round: %(points)s.", { name: winner.name, points: signed(won) }), true);
  });
})();
