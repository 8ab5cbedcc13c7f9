// Shared pieces of every view: badges, error and empty states, warnings, pagers, the raw envelope.

import { ToolError } from "./api.js";
import { h, time } from "./dom.js";
import { download } from "./download.js";
import { HARNESSES, HARNESS_LABELS } from "./harnesses.js";

export const EVENT_TYPES = [
  "user_input", "assistant_response", "reasoning", "tool_call", "tool_response", "compaction", "system", "runtime",
];
export const DEFAULT_SEARCH_TYPES = ["user_input", "assistant_response"];
// Every registered harness and standard source, written by the server from its harness registry.
export { SOURCES } from "./harnesses.js";

const TYPE_LABELS = {
  user_input: "User", assistant_response: "Assistant", reasoning: "Reasoning", tool_call: "Tool call",
  tool_response: "Tool output", compaction: "Compaction", system: "System", runtime: "Runtime", unknown: "Unknown",
};

const HINTS = {
  invalid_id: "Moraine IDs look like session:…, turn:… or event:… and come from search, the session list or open; "
    + "a harness's own session ID (what claude --resume or codex resume takes) opens its session too.",
  not_found: "The ID is well-formed, but nothing in the index has it (deleted, or the index was rebuilt).",
  unsupported_event_type: "Pick event types from the filter list.",
  busy: "The daemon is busy with other calls. Try again in a moment.",
  resource_exhausted: "The query hit a store limit. Narrow it with filters or a smaller window.",
  backend_failure: "The store did not answer. Check `moraine status`.",
  cancelled: "The call was cancelled before it finished.",
  deadline_exceeded: "The call ran past its deadline.",
};

const TYPE_PHRASES = {
  user_input: "user input", assistant_response: "assistant responses", reasoning: "reasoning", tool_call: "tool calls",
  tool_response: "tool output", compaction: "compactions", system: "system events", runtime: "runtime events",
};

/** Return event types as a phrase: "user input and assistant responses". */
export function typePhrase(types) {
  const words = types.map((type) => TYPE_PHRASES[type] || type);
  return words.length > 1 ? `${words.slice(0, -1).join(", ")} and ${words[words.length - 1]}` : words.join("");
}

/** Return the display label of an event type. */
export function typeLabel(type) {
  return TYPE_LABELS[type] || type;
}

/** Return a coloured badge for an event type. */
export function typeBadge(type) {
  return h("span", { class: ["badge", "type", `type-${type}`], title: type }, typeLabel(type));
}

/** Return a harness's display name ("Gemini CLI" for gemini-cli); an unknown value as it is. */
export function harnessLabel(name) {
  return HARNESS_LABELS[name] || name;
}

/** Return the harness filter: "Any harness", then every registered harness by display name. */
export function harnessSelect(selected) {
  const byLabel = [...HARNESSES].sort((a, b) => harnessLabel(a).localeCompare(harnessLabel(b)));
  return h("select", { name: "harness", "aria-label": "Harness" }, h("option", { value: "" }, "Any harness"),
    byLabel.map((name) => h("option", { value: name, selected: name === selected }, harnessLabel(name))));
}

/** Return the harness and source badges of a session. */
export function originBadges(session) {
  if (!session) return null;
  return [
    session.harness ? h("span", { class: "badge harness", title: "harness" }, session.harness) : null,
    session.source && session.source !== session.harness
      ? h("span", { class: "badge source", title: "source" }, session.source)
      : null,
  ];
}

/** Return a completed / in-progress badge (the one wording the CLI and exports use too). */
export function statusBadge(completed) {
  return completed
    ? h("span", { class: "badge done", title: "reached a terminal event" }, "completed")
    : h("span", { class: "badge live", title: "still running: no end of turn recorded yet" }, "in progress");
}

/** Return the transcript download links of a session or turn (GET /v1/export/<id>, the `moraine export` files):
 * fetched with the tab's token, never followed as plain links. */
export function exportLinks(id) {
  const status = h("span", { class: "export-status", role: "status" });
  const link = (format, label) => {
    const href = `/v1/export/${encodeURIComponent(id)}?format=${format}`;
    const save = (event) => {
      event.preventDefault();
      status.textContent = "";
      download(href).catch((exc) => { status.textContent = `Not exported: ${exc.message}`; });
    };
    return h("a", {
      class: "button export", href, title: `Download a readable transcript (${label}; tool calls folded)`,
      dataset: { format }, on: { click: save },
    }, `Export ${label}`);
  };
  return h("span", { class: "exports" }, link("md", "Markdown"), link("html", "HTML"), status);
}

/** Return a session's heading text, or a muted placeholder naming its harness and start. */
export function sessionTitle(session, fallback) {
  if (session?.title) return h("span", { class: "title-text" }, session.title);
  if (fallback) return h("span", { class: "title-text" }, fallback);
  return h("span", { class: "title-text untitled" }, `Untitled ${session?.harness || ""} session`.replace("  ", " "),
    session?.started_at ? [" · ", time(session.started_at)] : null);
}

/** Return the "loading" placeholder. */
export function loading(what) {
  return h("div", { class: "loading", role: "status" }, h("span", { class: "spinner", "aria-hidden": "true" }), `Loading ${what}…`);
}

/** Return the box explaining a failed call: an error envelope shows its code, message and details. */
export function errorBox(error, actions) {
  if (error instanceof ToolError) {
    const details = Object.entries(error.details || {});
    return h("div", { class: "error-box", role: "alert", "data-code": error.code },
      h("div", { class: "error-head" },
        h("code", { class: "error-code" }, error.code),
        h("span", { class: "error-message" }, error.message)),
      HINTS[error.code] ? h("p", { class: "error-hint" }, HINTS[error.code]) : null,
      details.length
        ? h("dl", { class: "error-details" }, details.map(([key, value]) => [
          h("dt", {}, key), h("dd", {}, typeof value === "string" ? value : JSON.stringify(value))]))
        : null,
      actions || null,
      envelopeViewer([error.envelope]));
  }
  return h("div", { class: "error-box", role: "alert", "data-code": "transport" },
    h("div", { class: "error-head" }, h("code", { class: "error-code" }, "unreachable"),
      h("span", { class: "error-message" }, error?.message || String(error))),
    actions || null);
}

/** Return an empty state: a title and a line of advice. */
export function emptyState(title, advice) {
  return h("div", { class: "empty", role: "status" }, h("p", { class: "empty-title" }, title),
    advice ? h("p", { class: "empty-advice" }, advice) : null);
}

/** Return the tool's warnings, if any. */
export function warningsBox(warnings) {
  if (!warnings?.length) return null;
  return h("ul", { class: "warnings", "aria-label": "Warnings" }, warnings.map((w) => h("li", {}, w)));
}

/** Return a collapsed view of the raw envelopes behind a view (rendered only when opened). */
export function envelopeViewer(envelopes) {
  const pre = h("pre", { class: "json" });
  const details = h("details", { class: "envelope" },
    h("summary", {}, "Response envelope", envelopes.length > 1 ? "s" : "", " (exactly what agents get)"), pre);
  details.addEventListener("toggle", () => {
    if (details.open && !pre.textContent) {
      pre.textContent = envelopes.map((e) => JSON.stringify(e, null, 2)).join("\n\n");
    }
  });
  return details;
}

/** Return a pager: a range caption, and previous/next links (keys p / n). */
export function pager(caption, previousHref, nextHref) {
  return h("nav", { class: "pager", "aria-label": "Pages" },
    previousHref
      ? h("a", { class: "button", href: previousHref, dataset: { key: "prev-page" }, rel: "prev" }, "‹ Previous")
      : h("span", { class: "button disabled", "aria-disabled": "true" }, "‹ Previous"),
    h("span", { class: "pager-caption" }, caption),
    nextHref
      ? h("a", { class: "button", href: nextHref, dataset: { key: "next-page" }, rel: "next" }, "Next ›")
      : h("span", { class: "button disabled", "aria-disabled": "true" }, "Next ›"));
}

/** Return a labelled meta item ("Started  Apr 29, 18:00"). */
export function meta(label, value) {
  return h("div", { class: "meta-item" }, h("span", { class: "meta-label" }, label), h("span", { class: "meta-value" }, value));
}

/** Return a timestamp range "start → end". */
export function timeRange(start, end) {
  return h("span", { class: "range" }, time(start), " → ", time(end, true));
}

/** Return chips for a list of names (tools, event types). */
export function chips(names, kind) {
  if (!names?.length) return null;
  return h("span", { class: "chips" }, names.map((name) => h("span", { class: ["chip", kind] }, name)));
}

/** Return a breadcrumb trail: items are [label, href] (the last is the current page); `upHref` is key u. */
export function crumbs(items, upHref) {
  return h("nav", { class: "crumbs", "aria-label": "Breadcrumbs" }, items.map(([label, href], i) => [
    i ? h("span", { class: "crumb-sep", "aria-hidden": "true" }, "›") : null,
    href
      ? h("a", { href, dataset: href === upHref ? { key: "up" } : {} }, label)
      : h("span", { class: "crumb-current", "aria-current": "page" }, label),
  ]));
}

/** Return previous/next sibling links (keys [ and ]) with a noun ("turn", "event"). */
export function siblings(noun, previousHref, nextHref) {
  return h("nav", { class: "siblings", "aria-label": `Adjacent ${noun}s` },
    previousHref
      ? h("a", { class: "button", href: previousHref, dataset: { key: "prev" } }, `← Previous ${noun}`)
      : h("span", { class: "button disabled", "aria-disabled": "true" }, `← Previous ${noun}`),
    nextHref
      ? h("a", { class: "button", href: nextHref, dataset: { key: "next" } }, `Next ${noun} →`)
      : h("span", { class: "button disabled", "aria-disabled": "true" }, `Next ${noun} →`));
}

/** Return a small form that searches inside a session or turn. */
export function searchWithin(id, noun, go, viewLink) {
  const input = h("input", { type: "search", name: "q", placeholder: `Search in this ${noun}…`, "aria-label": `Search in this ${noun}`,
    autocomplete: "off", spellcheck: "false" });
  const form = h("form", { class: "within-form", role: "search" }, input,
    h("button", { type: "submit", class: "button" }, "Search"));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    if (input.value.trim()) go(viewLink("search", { q: input.value.trim(), within: id }));
  });
  return form;
}
