// Accessibility checks the page tests share.

// WCAG 2 contrast of every visible piece of text against the background it is drawn on: at
// least 4.5:1, or 3:1 for large text (24 px, or 18.66 px bold). Returns the texts that fall short,
// each with its ratio.
export async function lowContrastTexts(page) {
  return page.evaluate(() => {
    const parse = (c) => (c.match(/[\d.]+/g) || []).map(Number);
    const luminance = ([r, g, b]) => {
      const lin = (v) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
      return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
    };
    const background = (el) => {
      for (let e = el; e; e = e.parentElement) {
        const c = parse(getComputedStyle(e).backgroundColor);
        if (c.length === 3 || (c.length === 4 && c[3] > 0)) return c.slice(0, 3);
      }
      return [255, 255, 255];
    };
    const bad = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const el = node.parentElement;
      if (!node.textContent.trim() || !el.checkVisibility?.() || el.closest(".visually-hidden, button:disabled")) continue;
      const style = getComputedStyle(el);
      const fg = luminance(parse(style.color));
      const bg = luminance(background(el));
      const ratio = (Math.max(fg, bg) + 0.05) / (Math.min(fg, bg) + 0.05);
      const size = parseFloat(style.fontSize);
      const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
      if (ratio < (large ? 3 : 4.5)) bad.push(`${node.textContent.trim().slice(0, 30)} (${ratio.toFixed(2)})`);
    }
    return bad;
  });
}

// Whether the page scrolls sideways (WCAG 1.4.10, reflow): at a phone's width it must not.
export async function scrollsSideways(page) {
  return page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);
}

// The visible form controls and buttons without an accessible name (a <label>, aria-label,
// aria-labelledby or, for a button, its text), as "tag#id" strings.
export async function unnamedControls(page) {
  return page.evaluate(() =>
    [...document.querySelectorAll("input, select, textarea, button")]
      .filter((c) => c.checkVisibility() && c.type !== "hidden")
      .filter((c) => {
        const labelled = (c.getAttribute("aria-labelledby") || "")
          .split(/\s+/)
          .some((id) => id && document.getElementById(id)?.textContent.trim());
        const label = [...(c.labels || [])].some((l) => l.textContent.trim());
        const own = (c.getAttribute("aria-label") || "").trim() || (c.tagName === "BUTTON" && c.textContent.trim());
        return !(labelled || label || own);
      })
      .map((c) => `${c.tagName.toLowerCase()}#${c.id}`),
  );
}
