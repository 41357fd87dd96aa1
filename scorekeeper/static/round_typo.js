/* The typo question of a round form (fetched by round.js where the form has its box: in place
   at once, on the round page once the server asked). An entry below the session's typo
   threshold (the rules' test: a rack as minus its value, a paper score as it is) marks its
   field and is asked at once, in the numbers typed ("Bo: 190 on the rack, more than 180.
   Right?"); fixed, the question goes. One tap says yes, and saves the round when nothing else
   is missing. The server asks the same before it keeps such an entry. */
(() => {
  "use strict";
  const { t, number } = window.ScorekeeperText;

  window.ScorekeeperTypo = (round) => {
    const { form, fields, nameOf, whole, rack } = round;
    const box = form.querySelector("#typo-confirm");
    const questions = box.querySelector("#typo-questions");
    const yes = box.querySelector("input");
    const threshold = parseInt(form.dataset.typoThreshold, 10);

    /* What each flagged entry is asked, with the number typed. */
    const question = (input) => {
      const player = nameOf(input);
      if (input.name[0] === "r") {
        const typed = rack(input.value).value;
        const said = { player, rack: number(typed), limit: number(-threshold) };
        return [typed, t("round_typo_rack", "%(player)s: %(rack)s on the rack, more than %(limit)s. Right?", said)];
      }
      const typed = whole(input.value);
      const said = { player, value: number(typed), threshold: number(threshold) };
      return [typed, t("round_typo_paper", "%(player)s: %(value)s on paper, below %(threshold)s. Right?", said)];
    };

    const ask = () => {
      const flagged = [...fields("rack"), ...fields("score")].filter((input) => {
        const value = input.name[0] === "r" ? -(rack(input.value) || {}).value : whole(input.value);
        const low = value < threshold && !input.disabled;
        input.closest(".seat").classList.toggle("flagged", low);
        return low;
      });
      box.hidden = !flagged.length;
      if (!flagged.length) {
        yes.checked = false;
        return;
      }
      const asked = flagged.map(question);
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
      // Written only when it changes: a tap on the label that blurs a rack (a change, so asked
      // again) must find its words where it pressed them, or WebKit drops the tap.
      const label = box.querySelector("label");
      const said = asked.length === 1
        ? t("round_typo_yes", "Yes, %(number)s is right", { number: number(asked[0][0]) })
        : t("round_typo_yes_all", "Yes, they are right");
      if (label.textContent !== said) label.textContent = said;
    };

    /* Yes saves when the round adds up (the preview's green line; a complete paper round with
       a winner bonus has none) and only ticks otherwise. */
    yes.addEventListener("change", () => {
      const preview = form.querySelector("#preview");
      if (yes.checked && (preview.classList.contains("ok") || !preview.textContent)) {
        form.querySelector("#save").click();
      }
    });
    form.addEventListener("input", ask);
    form.addEventListener("change", ask);
    ask();
  };
})();
