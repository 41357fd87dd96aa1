/* The table checker (templates/tools/check.html) with JavaScript: each form is posted to the
   page in the background and its answer, the verdict and any field error as the server wrote
   them, is put in place without a reload; the rules toggles apply at once. Without JavaScript
   (or when a request fails) the same forms POST to the page, which answers the same. */
(() => {
  "use strict";
  const root = document.getElementById("checker");
  if (!root) return;
  const rulesForm = document.getElementById("rules-form"); // a check without a session
  const meldField = rulesForm && rulesForm.elements.min_initial_meld;
  const forms = Array.from(root.querySelectorAll("form[data-check]"));
  const { t } = window.ScorekeeperText;

  const el = (tag, className, ...children) => {
    const node = document.createElement(tag);
    if (className) node.className = className;
    node.append(...children);
    return node;
  };

  /* ---- Field errors, as the server shows them next to the field. ---- */
  const clearError = (field) => {
    const holder = field.closest(".row");
    const old = document.getElementById(`${field.id}-error`);
    if (old) old.remove();
    holder.classList.remove("has-error");
    field.removeAttribute("aria-invalid");
    const described = (field.getAttribute("aria-describedby") || "")
      .split(" ")
      .filter((id) => id && id !== `${field.id}-error`);
    if (described.length) field.setAttribute("aria-describedby", described.join(" "));
    else field.removeAttribute("aria-describedby");
  };
  const showError = (field, message) => {
    clearError(field);
    const holder = field.closest(".row");
    const error = el("p", "error", message);
    error.id = `${field.id}-error`;
    holder.append(error);
    holder.classList.add("has-error");
    field.setAttribute("aria-invalid", "true");
    const described = (field.getAttribute("aria-describedby") || "").split(" ").filter(Boolean);
    field.setAttribute("aria-describedby", [...described, error.id].join(" "));
  };

  const verdictsOf = (form) => form.closest(".check-section").querySelector(".verdicts");
  const rulesReady = () => {
    if (!rulesForm) return true;
    clearError(meldField);
    if (!/^\d+$/.test(meldField.value.trim())) {
      showError(meldField, t("checker_whole_number", "Enter a whole number, like 30."));
      rulesForm.closest("details").open = true;
      return false;
    }
    return true;
  };

  /* ---- A check: the form posted to the page (which keeps the rules in its address); its
     verdicts and the errors of its fields (and of the rules) are taken from the answer. ---- */
  const run = async (form) => {
    const fields = Array.from(form.querySelectorAll("input:not([type=hidden]), textarea"));
    fields.forEach(clearError);
    if (!rulesReady()) return;
    const verdicts = verdictsOf(form);
    const button = form.querySelector('button[type="submit"]');
    button.disabled = true;
    try {
      const response = await fetch(form.action, { method: "POST", body: new FormData(form), credentials: "same-origin" });
      // A check that finds a fault is answered 422; a redirect is the sign-in page.
      if (![200, 422].includes(response.status) || response.redirected) throw new Error(response.status);
      const page = new DOMParser().parseFromString(await response.text(), "text/html");
      const answered = page.getElementById(verdicts.id);
      if (!answered) throw new Error("no verdict");
      verdicts.replaceChildren(...answered.childNodes);
      if (verdicts.children.length) verdicts.dataset.checked = "true";
      else delete verdicts.dataset.checked;
      [...fields, ...(meldField ? [meldField] : [])].forEach((field) => {
        const error = page.getElementById(`${field.id}-error`);
        if (error) showError(field, error.textContent);
      });
      if (meldField && meldField.getAttribute("aria-invalid")) rulesForm.closest("details").open = true;
    } catch (error) {
      form.submit(); // the page answers the same check (a network error, a sign-in...)
    } finally {
      button.disabled = false;
    }
  };

  forms.forEach((form) => {
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      run(form);
    });
    // A server-rendered verdict is re-asked when the rules change, as a fresh one would be.
    if (verdictsOf(form).children.length) verdictsOf(form).dataset.checked = "true";
  });

  /* ---- A keypad for the tile fields (checker_keypad.js, with keypad.css: their URLs and
     words in #checker's data-keypad-files), fetched at the first tap on a field's button. ---- */
  const keypadFor = (field) => t("checker_keypad_for", "Keypad for %(field)s", { field });
  const button = (text, className, label) => {
    const b = el("button", className, text);
    b.type = "button";
    if (label) b.setAttribute("aria-label", label);
    return b;
  };
  window.ScorekeeperChecker = { root, rulesForm, el, button, keypadFor };
  root.querySelectorAll("[data-keypad]").forEach((field) => {
    const label = root.querySelector(`label[for="${field.id}"]`);
    const toggle = button(t("checker_keypad", "Keypad"), "secondary small keypad-toggle");
    toggle.dataset.label = label.textContent.trim();
    toggle.setAttribute("aria-label", keypadFor(toggle.dataset.label));
    toggle.setAttribute("aria-expanded", "false");
    toggle.addEventListener("click", () => {
      window.ScorekeeperFetchFiles(root.dataset.keypadFiles)
        .then(() => window.ScorekeeperCheckerKeypad(field, toggle), () => {}); // typing still works
    });
    field.closest(".row").append(toggle);
  });

  /* ---- Rules toggles: apply at once, keep the address (and the forms' POST) in step. ---- */
  if (rulesForm) {
    const apply = document.getElementById("apply-rules");
    apply.hidden = true;
    const summary = rulesForm.closest("details").querySelector("summary");
    const sayCardsOrTiles = (cards) => {
      root.querySelectorAll("[data-when]").forEach((node) => {
        node.hidden = node.dataset.when !== (cards ? "cards" : "tiles");
      });
      root.querySelectorAll("[data-placeholder-tiles]").forEach((field) => {
        field.placeholder = cards ? field.dataset.placeholderCards : field.dataset.placeholderTiles;
      });
      root.querySelectorAll("[data-label-tiles]").forEach((field) => {
        const label = root.querySelector(`label[for="${field.id}"]`);
        label.textContent = cards ? field.dataset.labelCards : field.dataset.labelTiles;
        const toggle = field.closest(".row").querySelector(".keypad-toggle");
        if (toggle) {
          toggle.dataset.label = label.textContent;
          toggle.setAttribute("aria-label", keypadFor(label.textContent));
        }
      });
    };
    rulesForm.addEventListener("submit", (event) => event.preventDefault());
    rulesForm.addEventListener("change", () => {
      if (!rulesReady()) return;
      const query = new URLSearchParams(new FormData(rulesForm)).toString();
      history.replaceState(null, "", `${location.pathname}?${query}`);
      forms.forEach((form) => {
        form.action = `${location.pathname}?${query}#${form.closest(".check-section").id}`;
      });
      summary.textContent = t("checker_rules_changed", "Rules: Standard, as changed here");
      const minimum = document.querySelector("#meld-minimum strong");
      if (minimum) minimum.textContent = meldField.value.trim();
      sayCardsOrTiles(rulesForm.elements.played_with.value === "cards");
      forms.forEach((form) => {
        if (verdictsOf(form).dataset.checked) run(form);
      });
    });
  }
})();
