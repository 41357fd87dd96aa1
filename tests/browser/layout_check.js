async (allowed) => {
  // The layout check of tests/browser/test_layout.py, run in the page as one evaluate: the
  // problems of the screen, each "selector \"its text\": what". `allowed` is the test's
  // ALLOWED for this screen: [selector, kind] pairs, kind "cut" or "over".
  await document.fonts.ready;
  const problems = [];
  const describe = (el) => {
    let name = el.tagName.toLowerCase();
    if (el.id) name += "#" + el.id;
    const classes = typeof el.className === "string" ? el.className.trim() : "";
    if (classes) name += "." + classes.split(/\s+/).join(".");
    const text = (el.textContent || el.value || "").trim().replace(/\s+/g, " ").slice(0, 30);
    return `${name}${text ? ` "${text}"` : ""}`;
  };
  const say = (el, what) => problems.push(`${describe(el)}: ${what}`);
  const isAllowed = (el, kind) => allowed.some(([selector, k]) => k === kind && el.closest(selector));
  const root = document.documentElement;
  if (root.scrollWidth > root.clientWidth) {
    say(root, `sideways scroll: ${root.scrollWidth} px wide on a ${root.clientWidth} px screen`);
  }
  // Shown to the eye: laid out, not hidden, not see-through, not the 1 px of .visually-hidden.
  const shown = (el) => {
    if (!el.checkVisibility({ opacityProperty: true, visibilityProperty: true })) return false;
    const box = el.getBoundingClientRect();
    if (box.width <= 1 || box.height <= 1) return false;
    for (let node = el; node; node = node.parentElement) {
      const style = getComputedStyle(node);
      if (style.clipPath !== "none" || node.getBoundingClientRect().width <= 1) return false;
    }
    return true;
  };
  // Text wider than its box: an element that clips (overflow hidden or clip, or an ellipsis)
  // whose content is wider than it, and any element whose own text runs out of its border box.
  const all = Array.from(document.body.querySelectorAll("*")).filter(shown);
  all.forEach((el) => {
    const style = getComputedStyle(el);
    const clips = ["hidden", "clip"].includes(style.overflowX) || style.textOverflow === "ellipsis";
    // A text field's value scrolls inside it, as it does on every phone: not cut.
    const field = el.matches("input, textarea, select");
    if (clips && !field && el.scrollWidth > el.clientWidth + 1 && !isAllowed(el, "cut")) {
      say(el, `text cut: ${el.scrollWidth} px of content in ${el.clientWidth} px`);
      return;
    }
    const box = el.getBoundingClientRect();
    for (const node of el.childNodes) {
      if (node.nodeType !== Node.TEXT_NODE || !node.textContent.trim()) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      const text = range.getBoundingClientRect();
      const out = Math.max(box.left - text.left, text.right - box.right);
      if (out > 1 && !isAllowed(el, "cut")) {
        say(el, `text out of its box: ${Math.round(out)} px past its edge (${Math.round(text.width)} px of text in ${Math.round(box.width)} px)`);
        break;
      }
    }
  });
  // Two controls on top of each other (neither inside the other), and a badge over its
  // neighbour's text.
  const CONTROLS = "button, a[href], input:not([type=hidden]), select, textarea, label, summary, output, .mark, .chip, .key";
  const controls = Array.from(document.querySelectorAll(CONTROLS)).filter(shown);
  const boxes = controls.map((el) => el.getBoundingClientRect());
  const over = (a, b) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > 1
    && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 1;
  for (let i = 0; i < controls.length; i += 1) {
    for (let j = i + 1; j < controls.length; j += 1) {
      const [a, b] = [controls[i], controls[j]];
      if (a.contains(b) || b.contains(a) || !over(boxes[i], boxes[j])) continue;
      if (isAllowed(a, "over") || isAllowed(b, "over")) continue;
      say(a, `on top of ${describe(b)}`);
    }
  }
  controls.filter((el) => el.matches(".mark, .chip, .key > *")).forEach((badge) => {
    const parent = badge.parentElement;
    const box = badge.getBoundingClientRect();
    for (const node of parent.childNodes) {
      if (node.nodeType !== Node.TEXT_NODE || !node.textContent.trim()) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      if (over(range.getBoundingClientRect(), box) && !isAllowed(badge, "over")) {
        say(parent, `text under its badge "${badge.textContent.trim()}"`);
      }
    }
  });
  return problems;
}
