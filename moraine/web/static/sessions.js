// Sessions view: list_sessions over a time window, newest first, one cursor page at a time.

import { agentsPanel } from "./agents.js";
import { callTool, PAGE } from "./api.js";
import { fill, h, plural, time } from "./dom.js";
import { previousOf, remember } from "./pages.js";
import { go, sessionLink, viewLink } from "./router.js";
import {
  SOURCES, harnessSelect, emptyState, envelopeViewer, errorBox, loading, originBadges, pager, statusBadge, warningsBox,
} from "./ui.js";

const RANGES = [["24h", "24 hours", 1], ["7d", "7 days", 7], ["30d", "30 days", 30], ["1y", "1 year", 365], ["all", "Any time", null]];
const EPOCH = "2000-01-01T00:00:00Z";
const FAR = "2100-01-01T00:00:00Z";
const MODES = ["chat", "tool_calling", "web_search", "mcp_internal"];

function isoMinute(date) {
  return date.toISOString().replace(/:\d\d\.\d{3}Z$/, ":00Z");
}

/** Resolve the window of the URL: explicit from/to, else a preset relative to now (minute-aligned). */
function windowOf(params) {
  if (params.get("from") || params.get("to")) {
    return { start: params.get("from") || EPOCH, end: params.get("to") || FAR, range: "custom" };
  }
  const range = params.get("range") || "all";
  const preset = RANGES.find(([key]) => key === range);
  if (!preset || preset[2] === null) return { start: EPOCH, end: FAR, range: "all" };
  const now = new Date();
  const end = new Date(now.getTime() + 60000);
  return { start: isoMinute(new Date(now.getTime() - preset[2] * 86400000)), end: isoMinute(end), range };
}

function toLocalInput(iso) {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime()) || iso === EPOCH || iso === FAR) return "";
  const pad = (n) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

function controls(params, span) {
  const filters = {
    harness: params.get("harness") || "", source: params.get("source") || "", mode: params.get("mode") || "",
    sort: params.get("sort") || "",
  };
  const rangeLinks = RANGES.map(([key, label]) => h("a", {
    href: viewLink("sessions", { ...filters, range: key === "all" ? "" : key }),
    class: ["segment", span.range === key ? "active" : null], "aria-current": span.range === key ? "true" : null,
  }, label));
  const from = h("input", { type: "datetime-local", name: "from", value: toLocalInput(span.start), "aria-label": "From" });
  const to = h("input", { type: "datetime-local", name: "to", value: toLocalInput(span.end), "aria-label": "To" });
  const harness = harnessSelect(filters.harness);
  const source = h("input", { name: "source", value: filters.source, list: "session-sources", placeholder: "Any source",
    "aria-label": "Source", class: "source-input", autocomplete: "off" });
  const mode = h("select", { name: "mode", "aria-label": "Mode" }, h("option", { value: "" }, "Any mode"),
    MODES.map((name) => h("option", { value: name, selected: name === filters.mode }, name)));
  const sort = h("select", { name: "sort", "aria-label": "Order" },
    h("option", { value: "" }, "Newest first"), h("option", { value: "asc", selected: filters.sort === "asc" }, "Oldest first"));
  const form = h("form", { class: "filters session-filters" },
    h("div", { class: "segments", role: "group", "aria-label": "Time window" }, rangeLinks),
    h("span", { class: "custom-range" }, from, h("span", { class: "muted" }, "to"), to),
    harness, source, h("datalist", { id: "session-sources" }, SOURCES.map((name) => h("option", { value: name }))),
    mode, sort);
  const apply = () => {
    const next = { harness: harness.value, source: source.value.trim(), mode: mode.value, sort: sort.value };
    const fromDate = from.value ? new Date(from.value) : null;
    const toDate = to.value ? new Date(to.value) : null;
    if (fromDate || toDate) {
      next.from = fromDate ? fromDate.toISOString() : EPOCH;
      next.to = toDate ? toDate.toISOString() : FAR;
    } else if (span.range !== "all") {
      next.range = span.range;
    }
    go(viewLink("sessions", next));
  };
  for (const control of [from, to, harness, source, mode, sort]) control.addEventListener("change", apply);
  form.addEventListener("submit", (event) => { event.preventDefault(); apply(); });
  return form;
}

function sessionRow(entry) {
  const session = entry.session;
  return h("article", { class: "row session-row", tabindex: "-1", dataset: { row: "", id: entry.id } },
    h("div", { class: "row-head" },
      h("a", { class: "primary session-link", href: sessionLink(entry.open.session_id) },
        session.display_label || session.title || `Untitled ${session.harness} session`),
      h("span", { class: "spacer" }),
      time(session.updated_at)),
    h("div", { class: "row-foot" },
      originBadges(session),
      statusBadge(session.completed),
      session.mode ? h("span", { class: "chip" }, session.mode) : null,
      h("span", { class: "muted" }, `${plural(session.turn_count, "turn")} · ${plural(session.event_count, "event")} · started `),
      time(session.started_at)));
}

/** Render the session list into `root`. */
export async function renderSessions(root, params, signal) {
  const span = windowOf(params);
  const results = h("section", { class: "results", "aria-label": "Sessions" });
  const cursor = params.get("cursor");
  // The agents panel on the first page only: paging through the list never asks for the counts again.
  const agents = cursor ? null : agentsPanel(Object.fromEntries(params), signal);
  fill(root, h("h1", { class: "view-title" }, "Sessions"), agents, controls(params, span), results);
  const args = cursor
    ? { start_datetime: span.start, end_datetime: span.end, limit: PAGE.sessions, cursor }
    : { start_datetime: span.start, end_datetime: span.end, limit: PAGE.sessions };
  for (const key of ["harness", "source", "mode", "sort"]) if (params.get(key)) args[key] = params.get(key);

  results.append(loading("sessions"));
  let envelope;
  try {
    envelope = await callTool("list_sessions", args, signal);
  } catch (error) {
    if (error?.name === "AbortError") return;
    const first = new URLSearchParams(params);
    first.delete("cursor");
    fill(results, errorBox(error, cursor
      ? h("p", {}, h("a", { href: viewLink("sessions", Object.fromEntries(first)) }, "Start again from the first page"))
      : null));
    return;
  }
  const data = envelope.data;
  // Pages after the first carry the exact window, so their cursors stay bound to the same filter.
  const fixed = { ...Object.fromEntries(params), from: span.start, to: span.end, range: "" };
  const here = location.hash;
  let nextHref = null;
  if (data.next_cursor) {
    nextHref = viewLink("sessions", { ...fixed, cursor: data.next_cursor });
    remember(nextHref, here);
  }
  const firstHref = viewLink("sessions", { ...Object.fromEntries(params), cursor: "" });
  fill(results, 
    warningsBox(envelope.warnings),
    data.result_count
      ? [
        h("div", { class: "session-list" }, data.sessions.map(sessionRow)),
        pager(`${data.result_count} sessions on this page${data.truncated ? ", more on the next" : ""}`,
          cursor ? previousOf(here, firstHref) : null, nextHref),
      ]
      : emptyState("No sessions in this window.",
        span.range === "all" ? "Nothing is indexed yet, or the filters exclude everything. `moraine status` shows what is indexed."
          : "Widen the window (Any time) or clear the filters."),
    envelopeViewer([envelope]));
}
