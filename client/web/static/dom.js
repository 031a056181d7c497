// A small helper to build DOM nodes without markup strings (the pages run under a strict CSP and
// never put server text into innerHTML).
//
//   el("td", {class: "number", dataset: {player: "a"}}, "12")
export function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "dataset") Object.assign(node.dataset, value);
    else if (key.startsWith("on") && typeof value === "function") node.addEventListener(key.slice(2), value);
    else if (key in node && typeof value !== "string") node[key] = value;
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

export function clear(node) {
  node.replaceChildren();
  return node;
}

// Replaces the children of `node` (arrays are flattened, empty values left out).
export function setChildren(node, ...children) {
  node.replaceChildren(...children.flat(Infinity).filter((c) => c !== null && c !== undefined && c !== false));
  return node;
}

// Shows `text` in a message element (role=status or alert set in the page), or hides it.
export function say(node, text, kind = "ok") {
  node.hidden = !text;
  node.textContent = text || "";
  node.className = `message ${kind}`;
}

// A person's name as the pages show it: isolated from the text around it (<bdi>, whose direction
// is its own text's: a right-to-left name, or one carrying a direction override such as U+202E,
// cannot reorder the words or names that follow it) and free to wrap anywhere (common.css
// `.person`), so that one long unbroken name cannot widen a table or push its columns away.
export function person(name, attributes = {}) {
  const classes = ["person", attributes.class].filter(Boolean).join(" ");
  return el("bdi", { ...attributes, class: classes }, name);
}

// Several names in a row, each isolated on its own: "Eva, Petr, Jana" as nodes.
export function people(names, separator = ", ") {
  return names.flatMap((name, i) => (i === 0 ? [person(name)] : [separator, person(name)]));
}
