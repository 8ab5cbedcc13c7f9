// DOM building without markup strings: every piece of data becomes a text node, never HTML.

const SAFE_HREF = /^(#|\/(?!\/))/;

/** Create an element: props set attributes/properties, `on` binds listeners, children are nodes or text. */
export function h(tag, props, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(props || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "on") {
      for (const [event, handler] of Object.entries(value)) el.addEventListener(event, handler);
    } else if (key === "class") {
      el.className = Array.isArray(value) ? value.filter(Boolean).join(" ") : value;
    } else if (key === "dataset") {
      Object.assign(el.dataset, value);
    } else if (key === "href") {
      if (!SAFE_HREF.test(value)) throw new Error(`refusing a link outside the page: ${value}`);
      el.setAttribute("href", value);
    } else if (key === "value" || key === "checked" || key === "selected") {
      el[key] = value;
    } else {
      el.setAttribute(key, value === true ? "" : String(value));
    }
  }
  append(el, children);
  return el;
}

/** Append children (nested arrays, nodes, strings, numbers; null and false are skipped). */
export function append(el, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

/** Replace the children of `el` (same rules as append: nested arrays, text, null skipped). */
export function fill(el, ...children) {
  el.replaceChildren();
  return append(el, children);
}

const sameYear = new Date().getUTCFullYear();
const clock = { hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23" };
const longFormat = new Intl.DateTimeFormat(undefined, { year: "numeric", month: "short", day: "numeric", ...clock });
const shortFormat = new Intl.DateTimeFormat(undefined, { month: "short", day: "numeric", ...clock });
const clockFormat = new Intl.DateTimeFormat(undefined, clock);

/** Return "1 turn" / "3 turns". */
export function plural(n, noun) {
  return `${count(n)} ${noun}${n === 1 ? "" : "s"}`;
}

/** Return a <time> showing `iso` in local time (the exact UTC value on hover), or a dash when null. */
export function time(iso, clockOnly = false) {
  if (!iso) return h("span", { class: "muted" }, "—");
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return h("span", {}, iso);
  const format = clockOnly ? clockFormat : date.getFullYear() === sameYear ? shortFormat : longFormat;
  return h("time", { datetime: iso, title: iso }, format.format(date));
}

/** Return a short human duration between two RFC 3339 timestamps ("4 s", "3 min", "2 h 5 min"). */
export function duration(startIso, endIso) {
  if (!startIso || !endIso) return null;
  const seconds = Math.max(0, Math.round((new Date(endIso) - new Date(startIso)) / 1000));
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** Format an integer with thousands separators. */
export function count(n) {
  return typeof n === "number" ? n.toLocaleString() : "—";
}

/** Return `text` with the query's words wrapped in <mark>, as nodes. */
export function highlight(text, query) {
  const words = (query || "").split(/[^\p{L}\p{N}_]+/u).filter((w) => w.length > 1);
  if (!words.length || !text) return [text || ""];
  const pattern = new RegExp(`(${words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|")})`, "giu");
  return text.split(pattern).map((part, i) => (i % 2 ? h("mark", {}, part) : part));
}

/** Copy `text` to the clipboard, flashing `button`'s label. */
export function copyButton(text, label = "Copy ID") {
  const button = h("button", { type: "button", class: "copy", title: `Copy ${text}` }, label);
  button.addEventListener("click", async (event) => {
    event.stopPropagation();
    try {
      await navigator.clipboard.writeText(text);
      button.textContent = "Copied";
    } catch {
      button.textContent = "Copy failed";
    }
    setTimeout(() => { button.textContent = label; }, 1200);
  });
  return button;
}
