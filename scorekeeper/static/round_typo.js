/* The typo question (fetched by round.js when an entry first looks like a typing error): each
   flagged entry asked in the numbers typed ("Bo: 190 on the rack, more than 180. Right?", the
   limit from the session's typo threshold), and one tap to say yes, which also saves the round
   when nothing else is missing. */
(() => {
  "use strict";
  const { t, number } = window.ScorekeeperText;
  const answered = new WeakSet(); // the forms whose yes already saves

  window.ScorekeeperTypo = (round, inputs) => {
    const { form, nameOf, whole, rack } = round;
    const box = form.querySelector("#typo-confirm");
    const yes = box.querySelector("input");
    const limit = -parseInt(form.dataset.typoThreshold, 10);
    const asked = inputs.map((input) => {
      const player = nameOf(input);
      if (input.name[0] === "r") {
        const typed = rack(input.value).value;
        return [typed, t("round_typo_rack", "%(player)s: %(rack)s on the rack, more than %(limit)s. Right?", { player, rack: number(typed), limit: number(limit) })];
      }
      const typed = whole(input.value);
      return [typed, t("round_typo_paper", "%(player)s: %(value)s on paper, below %(threshold)s. Right?", { player, value: number(typed), threshold: number(-limit) })];
    });
    const questions = box.querySelector("#typo-questions");
    if (questions.textContent !== asked.map(([, text]) => `⚠ ${text}`).join("")) {
      questions.replaceChildren(
        ...asked.map(([, text]) => {
          const line = document.createElement("p");
          const mark = Object.assign(document.createElement("span"), { textContent: "⚠" });
          mark.setAttribute("aria-hidden", "true");
          line.append(mark, ` ${text}`);
          return line;
        }),
      );
    }
    box.querySelector("label").textContent = asked.length === 1
      ? t("round_typo_yes", "Yes, %(number)s is right", { number: number(asked[0][0]) })
      : t("round_typo_yes_all", "Yes, they are right");
    if (answered.has(form)) return;
    answered.add(form);
    /* Yes saves when the round adds up (the preview's green line; a paper round with a winner
       bonus has none, complete) and only ticks otherwise. */
    yes.addEventListener("change", () => {
      const preview = form.querySelector("#preview");
      if (yes.checked && (preview.classList.contains("ok") || !preview.textContent)) form.requestSubmit(form.querySelector("#save"));
    });
  };
})();
