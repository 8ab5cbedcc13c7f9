// The page's entry point: route the URL hash to a view, one compact tool call at a time.

import { callTool } from "./api.js";
import { fill, h } from "./dom.js";
import { eventView } from "./event.js";
import { renderFiles } from "./files.js";
import { installKeys, resetSelection, selectFirst } from "./keys.js";
import { go, openLink, parseHash, sessionLink, turnLink, viewLink } from "./router.js";
import { renderSearch } from "./search.js";
import { loadSession, sessionView } from "./session.js";
import { renderSessions } from "./sessions.js";
import { loadTurn, turnView } from "./turn.js";
import { renderUsage } from "./usage.js";
import { errorBox, loading } from "./ui.js";

const root = document.getElementById("view");
let controller = null;

const TITLES = { search: "Search", sessions: "Sessions", files: "Files", usage: "Usage" };

async function renderObject(route, signal) {
  const cursor = route.params.get("cursor");
  fill(root, loading(route.view === "open" ? "the ID" : route.view));
  let envelope;
  try {
    if (route.view === "session") envelope = await loadSession(route.id, cursor, signal);
    else if (route.view === "turn") envelope = await loadTurn(route.id, cursor, signal);
    else envelope = await callTool("open", { id: route.id }, signal);
  } catch (error) {
    if (error?.name === "AbortError") return;
    document.title = "Error · Moraine";
    const reopen = cursor ? h("p", {}, "Cursors go stale when the session changes: ",
      h("a", { href: route.view === "session" ? sessionLink(route.id) : turnLink(route.id) }, "reopen from the first page"), ".") : null;
    fill(root, h("h1", { class: "view-title" }, "Cannot open ", h("code", { class: "bad-id" }, route.id || "(no ID)")),
      errorBox(error, [reopen, h("p", {}, h("a", { href: viewLink("search", {}) }, "Back to search"))]));
    return;
  }
  const kind = envelope.data.kind;
  if (route.view === "open" && kind !== "event") {
    // By the ID open reports (a harness's own session ID opens its session, shown under the Moraine ID).
    go(kind === "session" ? sessionLink(envelope.data.session.id) : turnLink(envelope.data.turn.id), true);
    return;
  }
  if (kind === "session") fill(root, ...sessionView(envelope, signal, cursor));
  else if (kind === "turn") fill(root, ...turnView(envelope, signal, cursor));
  else fill(root, ...eventView(envelope));
}

async function render() {
  controller?.abort();
  controller = new AbortController();
  const { signal } = controller;
  const route = parseHash();
  for (const tab of document.querySelectorAll(".tabs a")) {
    tab.classList.toggle("active", tab.dataset.tab === route.view);
  }
  resetSelection();
  root.setAttribute("aria-busy", "true");
  window.scrollTo(0, 0);
  if (TITLES[route.view]) document.title = `${TITLES[route.view]} · Moraine`;
  try {
    let outcome = null;
    if (route.view === "search") outcome = await renderSearch(root, route.params, signal);
    else if (route.view === "sessions") await renderSessions(root, route.params, signal);
    else if (route.view === "files") await renderFiles(root, route.params, signal);
    else if (route.view === "usage") await renderUsage(root, route.params, signal);
    else await renderObject(route, signal);
    if (signal.aborted) return;
    if (outcome === "select-first") selectFirst();
    if (!root.contains(document.activeElement)) root.focus({ preventScroll: true });
  } catch (error) {
    if (error?.name === "AbortError") return;
    fill(root, errorBox(error));
  }
  if (!signal.aborted) root.setAttribute("aria-busy", "false");
}

document.getElementById("goto").addEventListener("submit", (event) => {
  event.preventDefault();
  const input = document.getElementById("goto-id");
  const id = input.value.trim();
  if (id) { input.value = ""; input.blur(); go(openLink(id)); }
});
document.getElementById("help-button").addEventListener("click", () => document.getElementById("help").showModal());
window.addEventListener("hashchange", render);
installKeys();
render();
