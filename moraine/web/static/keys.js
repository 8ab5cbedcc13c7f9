// Keyboard navigation: j/k or arrows move through the rows of a view, Enter opens, e expands, u goes up.

import { go, viewLink } from "./router.js";

let selected = null;
let pendingG = false;

function rows() {
  return [...document.querySelectorAll("#view [data-row]")].filter((row) => row.offsetParent !== null);
}

/** Select `row` (focus it and scroll it into view). */
export function select(row) {
  selected?.classList.remove("selected");
  selected = row || null;
  if (!row) return;
  row.classList.add("selected");
  row.focus({ preventScroll: true });
  row.scrollIntoView({ block: "nearest" });
}

/** Forget the selection (a new view was rendered). */
export function resetSelection() {
  selected = null;
}

/** Select the first row of the view, if any. */
export function selectFirst() {
  select(rows()[0]);
}

function move(step) {
  const all = rows();
  if (!all.length) return false;
  const index = selected ? all.indexOf(selected) : -1;
  const next = index < 0 ? (step > 0 ? 0 : all.length - 1) : Math.min(all.length - 1, Math.max(0, index + step));
  select(all[next]);
  return true;
}

function press(key) {
  const target = document.querySelector(`#view [data-key="${key}"]`);
  if (target) target.click();
  return Boolean(target);
}

function activate(row) {
  row?.querySelector("a.primary")?.click();
}

function onKey(event) {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  if (document.getElementById("help")?.open) return;
  const target = event.target;
  if (target.matches?.("input, textarea, select, [contenteditable]")) {
    if (event.key === "Escape") target.blur();
    else if (event.key === "ArrowDown" && target.id === "q" && rows().length) {
      event.preventDefault();
      target.blur();
      move(1);
    }
    return;
  }
  if (pendingG) {
    pendingG = false;
    const where = { s: "sessions", f: "files", h: "search" }[event.key];
    if (where) { event.preventDefault(); go(viewLink(where, {})); }
    return;
  }
  const handled = (() => {
    switch (event.key) {
      case "/": {
        const box = document.getElementById("q") || document.getElementById("path");
        if (box) { box.focus(); box.select(); } else go(viewLink("search", {}));
        return true;
      }
      case "?": document.getElementById("help")?.showModal(); return true;
      case "j": case "ArrowDown": return move(1);
      case "k": case "ArrowUp": return move(-1);
      case "Enter":
        if (target.closest?.("a, button")) return false;
        if (selected && document.contains(selected)) { activate(selected); return true; }
        return false;
      case "e": {
        const toggle = selected?.querySelector("[data-toggle]");
        if (toggle) toggle.click();
        return Boolean(toggle);
      }
      case "u": return press("up");
      case "n": return press("next-page");
      case "p": return press("prev-page");
      case "]": return press("next");
      case "[": return press("prev");
      case "g": pendingG = true; return true;
      default: return false;
    }
  })();
  if (handled) event.preventDefault();
}

function onClick(event) {
  const row = event.target.closest?.("#view [data-row]");
  if (!row) return;
  const interactive = event.target.closest("a, button, input, select, summary, pre, .expansion");
  if (interactive && row.contains(interactive)) {
    if (!interactive.closest(".expansion") || interactive.closest("[data-row]") === row) select(row);
    return;
  }
  if (!window.getSelection()?.isCollapsed) return; // the reader is selecting text
  select(row);
  activate(row);
}

/** Install the keyboard and row-click handlers. */
export function installKeys() {
  document.addEventListener("keydown", onKey);
  document.getElementById("view").addEventListener("click", onClick);
}
