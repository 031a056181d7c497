// The pages' language: which one (cs, it, ru or en), its catalog (static/locale/{lang}.json, a
// flat object key → ICU MessageFormat pattern, the server's syntax) and the texts rendered from
// it with the browser's Intl: plural categories by Intl.PluralRules, numbers by
// Intl.NumberFormat, lists by Intl.ListFormat, times by Intl.DateTimeFormat. No language rule is
// written here by hand.
//
// The language of a page (chooseLanguage): the visitor's choice (the switcher, kept in
// localStorage as "tallyd.lang"), else the tournament's locale when it is one of ours, else
// English; the tournaments list (no tournament) follows the browser's languages instead.
// Without the network, the tournament's locale is the one the page kept on the device (the
// caller's `keptLocale`: i18n.js reads no device store itself).
//
//   await startI18n({ tournament: "brno-2026" });   // once, before the page renders
//   t("board.round", { round: 3 })                  // "Kolo 3"
//
// Static HTML is translated by attributes: data-i18n="key" (the element's text; children marked
// data-i18n-arg="name" are kept and put where {name} is), data-i18n-attr="aria-label:common.language"
// (attribute:key pairs, separated by ";").
// The module touches no DOM until startI18n(), so node imports it in tests (useCatalog, t).

export const LANGUAGES = [
  { code: "cs", name: "Čeština" },
  { code: "it", name: "Italiano" },
  { code: "ru", name: "Русский" },
  { code: "en", name: "English" },
];
export const STORAGE_KEY = "tallyd.lang";
const DEFAULT_LANGUAGE = "en";

let current = { lang: DEFAULT_LANGUAGE, catalog: {} };

// ---- choosing ---------------------------------------------------------------------------------

// Our language of a tag or locale ("cs", "cs-CZ", "ru_RU.UTF-8" → "cs", "ru"), or null.
export function languageOf(tag) {
  if (typeof tag !== "string") return null;
  const primary = tag.trim().toLowerCase().split(/[-_.@]/)[0];
  return LANGUAGES.some((l) => l.code === primary) ? primary : null;
}

// stored: the visitor's choice (or null); tournamentLocale: the tournament's `locale` ("" when
// it has none); browser: navigator.languages, used only when the page has no tournament.
export function chooseLanguage({ stored = null, hasTournament = false, tournamentLocale = "", browser = [] } = {}) {
  const chosen = languageOf(stored);
  if (chosen) return chosen;
  if (hasTournament) return languageOf(tournamentLocale) || DEFAULT_LANGUAGE;
  for (const tag of browser) {
    const lang = languageOf(tag);
    if (lang) return lang;
  }
  return DEFAULT_LANGUAGE;
}

// ---- the catalog in use -----------------------------------------------------------------------

export function useCatalog(lang, catalog) {
  current = { lang, catalog: catalog || {} };
  formatters.clear();
}

export function language() {
  return current.lang;
}

// The text of `key` with `args`; the key itself when the catalog lacks it (a test catches that).
export function t(key, args = {}) {
  return tParts(key, args).join("");
}

// As t(), but arguments may be DOM nodes (a link, a <code>): an array of strings and nodes.
export function tParts(key, args = {}) {
  const pattern = current.catalog[key];
  if (typeof pattern !== "string") return [key];
  return formatMessage(pattern, args, current.lang);
}

// ---- numbers, lists, times (Intl, in the page's language) -------------------------------------

const formatters = new Map();
function cached(kind, options, make) {
  const id = `${kind}|${current.lang}|${JSON.stringify(options)}`;
  if (!formatters.has(id)) formatters.set(id, make());
  return formatters.get(id);
}

export function formatNumber(n, options = {}, lang = current.lang) {
  if (lang !== current.lang) return new Intl.NumberFormat(lang, options).format(n);
  return cached("number", options, () => new Intl.NumberFormat(lang, options)).format(n);
}

// "Eva, Petr and Jana" / "Eva, Petr a Jana".
export function formatList(items, type = "conjunction") {
  return cached("list", type, () => new Intl.ListFormat(current.lang, { type })).format(items.map(String));
}

export function formatDateTime(date, options) {
  return cached("date", options, () => new Intl.DateTimeFormat(current.lang, options)).format(date);
}

// ---- ICU MessageFormat: the part of it the catalogs use ---------------------------------------
//
// {name}; {n, number} (also integer, percent); {n, plural, =0 {…} one {# …} few {…} other {…}}
// with offset:N; {x, select, a {…} other {…}}; {n, selectordinal, …}. Apostrophes as ICU reads
// them: '' is one apostrophe, and ' before { } # | starts a quoted literal up to the next '.

const parsed = new Map();

export function formatMessage(pattern, args, lang) {
  if (!parsed.has(pattern)) parsed.set(pattern, parse(pattern));
  const out = [];
  render(parsed.get(pattern), args || {}, lang, null, out);
  // Adjacent strings joined: a text with no node arguments is one string.
  const joined = [];
  for (const part of out) {
    if (typeof part === "string" && typeof joined[joined.length - 1] === "string") joined[joined.length - 1] += part;
    else joined.push(part);
  }
  return joined.length ? joined : [""];
}

// The argument names a pattern uses (for the catalogs' test), e.g. ["count", "tables"].
export function argumentNames(pattern) {
  const names = new Set();
  const walk = (parts) => {
    for (const part of parts) {
      if (typeof part !== "object" || part.type === "pound") continue;
      names.add(part.name);
      if (part.options) Object.values(part.options).forEach(walk);
    }
  };
  walk(parse(pattern));
  return [...names].sort();
}

// Every plural of a pattern: [{name, keys}] (for the catalogs' test: all categories covered).
export function pluralsOf(pattern) {
  const found = [];
  const walk = (parts) => {
    for (const part of parts) {
      if (typeof part !== "object" || !part.options) continue;
      if (part.type === "plural") found.push({ name: part.name, keys: Object.keys(part.options) });
      Object.values(part.options).forEach(walk);
    }
  };
  walk(parse(pattern));
  return found;
}

export function parse(pattern) {
  const parser = new Parser(pattern);
  const parts = parser.message(false);
  if (parser.i < pattern.length) parser.fail("an unmatched }");
  return parts;
}

class Parser {
  constructor(text) {
    this.s = text;
    this.i = 0;
  }

  fail(what) {
    throw new SyntaxError(`MessageFormat: ${what} at ${this.i} in ${JSON.stringify(this.s)}`);
  }

  // Text and arguments up to an unmatched "}" or the end. In a plural's branch '#' is its number.
  message(inPlural) {
    const s = this.s;
    const parts = [];
    let text = "";
    const flush = () => {
      if (text) parts.push(text);
      text = "";
    };
    while (this.i < s.length) {
      const c = s[this.i];
      if (c === "'") {
        const next = s[this.i + 1];
        if (next === "'") {
          text += "'";
          this.i += 2;
        } else if (next === "{" || next === "}" || next === "|" || (inPlural && next === "#")) {
          this.i++;
          while (this.i < s.length) {
            if (s[this.i] === "'") {
              if (s[this.i + 1] === "'") {
                text += "'";
                this.i += 2;
                continue;
              }
              this.i++;
              break;
            }
            text += s[this.i++];
          }
        } else {
          text += "'";
          this.i++;
        }
      } else if (c === "{") {
        flush();
        parts.push(this.argument(inPlural));
      } else if (c === "}") {
        break;
      } else if (c === "#" && inPlural) {
        flush();
        parts.push({ type: "pound" });
        this.i++;
      } else {
        text += c;
        this.i++;
      }
    }
    flush();
    return parts;
  }

  space() {
    while (this.i < this.s.length && /\s/.test(this.s[this.i])) this.i++;
  }

  word() {
    this.space();
    const start = this.i;
    while (this.i < this.s.length && !/[\s,{}]/.test(this.s[this.i])) this.i++;
    if (this.i === start) this.fail("a name expected");
    return this.s.slice(start, this.i);
  }

  expect(c) {
    this.space();
    if (this.s[this.i] !== c) this.fail(`"${c}" expected`);
    this.i++;
  }

  argument(inPlural) {
    this.i++; // "{"
    const name = this.word();
    this.space();
    if (this.s[this.i] === "}") {
      this.i++;
      return { type: "arg", name };
    }
    this.expect(",");
    const type = this.word();
    if (type === "plural" || type === "selectordinal" || type === "select") {
      this.expect(",");
      this.space();
      let offset = 0;
      if (type !== "select" && this.s.startsWith("offset:", this.i)) {
        this.i += "offset:".length;
        offset = Number(this.word());
      }
      const options = {};
      for (this.space(); this.s[this.i] !== "}"; this.space()) {
        if (this.i >= this.s.length) this.fail("an unclosed argument");
        const key = this.word();
        this.expect("{");
        options[key] = this.message(inPlural || type !== "select");
        this.expect("}");
      }
      this.i++;
      if (!options.other) this.fail(`"${name}" has no "other" branch`);
      return { type, name, offset, options };
    }
    let style = "";
    this.space();
    if (this.s[this.i] === ",") {
      this.i++;
      const end = this.s.indexOf("}", this.i);
      if (end < 0) this.fail("an unclosed argument");
      style = this.s.slice(this.i, end).trim();
      this.i = end;
    }
    this.expect("}");
    if (type !== "number") this.fail(`the argument type "${type}" is not supported (format it before)`);
    return { type, name, style };
  }
}

const NUMBER_STYLES = {
  "": {},
  integer: { maximumFractionDigits: 0 },
  percent: { style: "percent" },
};

function render(parts, args, lang, pound, out) {
  for (const part of parts) {
    if (typeof part === "string") {
      out.push(part);
    } else if (part.type === "pound") {
      out.push(pound === null ? "#" : formatNumber(pound, {}, lang));
    } else if (!(part.name in args)) {
      out.push(`{${part.name}}`); // a caller's mistake, visible rather than hidden
    } else if (part.type === "arg") {
      const value = args[part.name];
      if (typeof value === "number") out.push(formatNumber(value, {}, lang));
      else if (Array.isArray(value)) out.push(formatList(value));
      else out.push(typeof value === "string" ? value : value === null || value === undefined ? "" : value);
    } else if (part.type === "number") {
      out.push(formatNumber(Number(args[part.name]), NUMBER_STYLES[part.style] || {}, lang));
    } else if (part.type === "select") {
      const value = String(args[part.name]);
      const branch = value !== "other" && Object.hasOwn(part.options, value) ? part.options[value] : part.options.other;
      render(branch, args, lang, pound, out);
    } else {
      const n = Number(args[part.name]);
      const exact = part.options[`=${n}`];
      const rules = new Intl.PluralRules(lang, { type: part.type === "selectordinal" ? "ordinal" : "cardinal" });
      const branch = exact || part.options[rules.select(n - part.offset)] || part.options.other;
      render(branch, args, lang, n - part.offset, out);
    }
  }
}

// ---- the page ---------------------------------------------------------------------------------

function storedChoice() {
  try {
    return localStorage.getItem(STORAGE_KEY);
  } catch {
    return null; // storage refused (a privacy setting): no remembered choice
  }
}

// The tournament's locale as the server says ("" when it has none or the read is refused), or
// null when the server cannot be reached.
async function tournamentLocale(id, token) {
  const headers = { Accept: "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  let response;
  try {
    response = await fetch(`/v1/tournaments/${encodeURIComponent(id)}`, { headers });
  } catch {
    return null; // no connection
  }
  if (response.status === 401 && token) return tournamentLocale(id, null); // a revoked token
  if (!response.ok) return "";
  try {
    return (await response.json()).locale || "";
  } catch {
    return "";
  }
}

// The tournament's locale: the server's, else (no connection) the one kept on the device.
async function localeOf(tournament, token, keptLocale) {
  const locale = await tournamentLocale(tournament, token);
  if (locale !== null || !keptLocale) return locale || "";
  try {
    return (await keptLocale()) || "";
  } catch {
    return "";
  }
}

async function loadCatalog(lang) {
  const response = await fetch(`/static/locale/${lang}.json`);
  if (!response.ok) throw new Error(`the ${lang} catalog: ${response.status}`);
  return response.json();
}

// Chooses the page's language, loads its catalog, translates the static HTML and fills the
// switcher (#languages). `tournament`: the page's tournament id, or null (the tournaments list);
// `token`: a judge's, for a server whose reads are not public; `keptLocale`: an async function
// answering the tournament's locale as this device last read it (offline-cache.js), asked only
// when the server cannot be reached — a page reloaded offline keeps the tournament's language.
export async function startI18n({ tournament = null, token = null, keptLocale = null } = {}) {
  const stored = storedChoice();
  const lang = chooseLanguage({
    stored,
    hasTournament: Boolean(tournament),
    tournamentLocale: !languageOf(stored) && tournament ? await localeOf(tournament, token, keptLocale) : "",
    browser: navigator.languages || [navigator.language],
  });
  let catalog = null;
  try {
    catalog = await loadCatalog(lang);
    useCatalog(lang, catalog);
  } catch {
    // Without its catalog the page stays in the HTML's English, with English texts around it.
    if (lang !== DEFAULT_LANGUAGE) {
      try {
        useCatalog(DEFAULT_LANGUAGE, await loadCatalog(DEFAULT_LANGUAGE));
      } catch {
        useCatalog(DEFAULT_LANGUAGE, {});
      }
    }
  }
  translateDocument(document);
  renderSwitcher(document.getElementById("languages"));
  return current.lang;
}

export function translateDocument(doc) {
  doc.documentElement.lang = current.lang;
  for (const node of doc.querySelectorAll("[data-i18n]")) {
    const key = node.dataset.i18n;
    if (!(key in current.catalog)) continue;
    const kept = {};
    for (const child of node.querySelectorAll("[data-i18n-arg]")) kept[child.dataset.i18nArg] = child;
    node.replaceChildren(...tParts(key, kept));
  }
  for (const node of doc.querySelectorAll("[data-i18n-attr]")) {
    for (const pair of node.dataset.i18nAttr.split(";")) {
      const [attribute, key] = pair.split(":").map((s) => s.trim());
      if (attribute && key in current.catalog) node.setAttribute(attribute, t(key));
    }
  }
}

// The switcher: one button per language, each in its own name and language; the page's is
// pressed. A choice is remembered and the page reloaded (the server's texts come again, in it).
function renderSwitcher(nav) {
  if (!nav) return;
  const buttons = LANGUAGES.map(({ code, name }) => {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "language";
    button.lang = code;
    button.textContent = name;
    button.dataset.lang = code;
    button.setAttribute("aria-pressed", String(code === current.lang));
    button.addEventListener("click", () => {
      try {
        localStorage.setItem(STORAGE_KEY, code);
      } catch {
        return; // nowhere to remember it
      }
      if (code !== current.lang) window.location.reload();
    });
    return button;
  });
  nav.replaceChildren(...buttons);
}
