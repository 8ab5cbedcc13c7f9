// Search view: a query with harness/source/event-type filters; ranked hits with snippets and session titles, or
// (group=session) one line per session: its best hit and how many of the returned hits it holds.

import { callTool, PAGE } from "./api.js";
import { fill, h, highlight, time } from "./dom.js";
import { eventLink, go, openLink, sessionLink, turnLink, viewLink } from "./router.js";
import {
  DEFAULT_SEARCH_TYPES, EVENT_TYPES, SOURCES, harnessSelect, emptyState, envelopeViewer, errorBox, loading,
  originBadges, sessionTitle, statusBadge, typeBadge, typeLabel, typePhrase, warningsBox,
} from "./ui.js";

function readTypes(params) {
  const raw = params.get("types");
  if (!raw) return null;
  return raw.split(",").map((t) => t.trim()).filter(Boolean);
}

function hitRow(hit, query) {
  const { session, turn, event } = hit;
  return h("article", { class: "row hit", tabindex: "-1", dataset: { row: "", id: hit.id } },
    h("div", { class: "row-head" },
      h("span", { class: "rank", title: `score ${hit.score.toFixed(3)}` }, hit.rank),
      h("a", { class: "hit-title", href: sessionLink(hit.open.session_id) }, sessionTitle(session)),
      originBadges(session),
      h("span", { class: "spacer" }),
      time(event.timestamp)),
    h("a", { class: "primary snippet", href: eventLink(hit.open.event_id) },
      snippetText(hit.snippet, query)),
    h("div", { class: "row-foot" },
      typeBadge(event.type),
      h("a", { href: turnLink(hit.open.turn_id), class: "crumb" }, `Turn ${turn.ordinal}`),
      h("span", { class: "muted" }, ` · event ${event.ordinal} of ${turn.event_count}`),
      statusBadge(turn.completed),
      h("span", { class: "spacer" }),
      h("span", { class: "score", title: "relevance, comparable within this response only" },
        h("meter", { min: "0", max: "1", value: hit.score }), hit.score.toFixed(2))));
}

// The marker the server puts ahead of the snippet of a hit found by meaning alone (moraine/search/marks.py).
const MEANING_MATCH = "[meaning match] ";

/** Return a snippet's content: its text (cuts already marked by the server) and a label for a meaning match. */
function snippetText(snippet, query) {
  if (!snippet.text.startsWith(MEANING_MATCH)) return highlight(snippet.text, query);
  return [
    h("span", { class: "badge meaning", title: "found by meaning: none of your words is in it" }, "meaning match"),
    " ",
    snippet.text.slice(MEANING_MATCH.length),
  ];
}

/** Group ranked hits by session, in the order of each session's best hit: [{ best, count }]. */
export function groupBySession(hits) {
  const groups = new Map();
  for (const hit of hits) {
    const group = groups.get(hit.open.session_id);
    if (group) group.count += 1;
    else groups.set(hit.open.session_id, { best: hit, count: 1 });
  }
  return [...groups.values()];
}

function sessionHitRow({ best, count }, query) {
  const { session, turn, event } = best;
  return h("article", { class: "row hit session-hit", tabindex: "-1", dataset: { row: "", id: session.id } },
    h("div", { class: "row-head" },
      h("span", { class: "rank", title: `best hit: rank ${best.rank}` }, best.rank),
      h("a", { class: "primary hit-title", href: sessionLink(best.open.session_id) }, sessionTitle(session)),
      originBadges(session),
      h("span", { class: "spacer" }),
      h("span", { class: "hit-count", title: "matching events among the hits returned" },
        count === 1 ? "1 matching event" : `${count} matching events`),
      time(event.timestamp)),
    h("a", { class: "snippet", href: eventLink(best.open.event_id) },
      snippetText(best.snippet, query)),
    h("div", { class: "row-foot" },
      typeBadge(event.type),
      h("a", { href: turnLink(best.open.turn_id), class: "crumb" }, `Turn ${turn.ordinal}`),
      h("span", { class: "muted" }, ` · best of ${count}`)));
}

function groupToggle(params, grouped) {
  const link = (label, group, active) => h("a", {
    class: ["toggle", active ? "active" : null], href: viewLink("search", { ...Object.fromEntries(params), group }),
    "aria-current": active ? "true" : null,
  }, label);
  return h("span", { class: "group-toggle", role: "group", "aria-label": "Show" },
    link("Every hit", "", !grouped), link("One line per session", "session", grouped));
}

function filtersForm(params) {
  const q = params.get("q") || "";
  const harness = params.get("harness") || "";
  const source = params.get("source") || "";
  const within = params.get("within") || "";
  const types = readTypes(params) || DEFAULT_SEARCH_TYPES;

  const input = h("input", {
    id: "q", name: "q", type: "search", value: q, placeholder: "Search sessions: errors, file names, decisions…",
    autocomplete: "off", spellcheck: "false", "aria-label": "Search query",
  });
  const harnessFilter = harnessSelect(harness);
  const sourceInput = h("input", {
    name: "source", value: source, list: "source-names", placeholder: "Any source", "aria-label": "Source",
    autocomplete: "off", spellcheck: "false", class: "source-input",
  });
  const typeBoxes = EVENT_TYPES.map((type) => h("label", { class: "type-toggle" },
    h("input", { type: "checkbox", name: "types", value: type, checked: types.includes(type) }),
    h("span", { class: ["badge", "type", `type-${type}`] }, typeLabel(type))));

  const form = h("form", { class: "search-form", role: "search" },
    h("div", { class: "search-line" }, input, h("button", { type: "submit", class: "primary-button" }, "Search")),
    h("div", { class: "filters" },
      harnessFilter, sourceInput,
      h("datalist", { id: "source-names" }, SOURCES.map((name) => h("option", { value: name }))),
      h("span", { class: "type-toggles", role: "group", "aria-label": "Event types" }, typeBoxes)),
    within
      ? h("div", { class: "within" }, "Only inside ", h("a", { href: openLink(within) }, h("code", {}, within)), " ",
        h("a", { href: viewLink("search", { q, harness, source, types: params.get("types") }), class: "clear" }, "× everywhere"))
      : null);

  const submit = () => {
    const chosen = [...form.querySelectorAll("input[name=types]:checked")].map((box) => box.value);
    const isDefault = chosen.length === DEFAULT_SEARCH_TYPES.length && DEFAULT_SEARCH_TYPES.every((t) => chosen.includes(t));
    go(viewLink("search", {
      q: input.value.trim(), harness: harnessFilter.value, source: sourceInput.value.trim(), within,
      types: isDefault ? "" : chosen.join(","), group: params.get("group"),
    }));
  };
  form.addEventListener("submit", (event) => { event.preventDefault(); submit(); });
  for (const control of [harnessFilter, ...form.querySelectorAll("input[name=types]")]) {
    control.addEventListener("change", () => { if (input.value.trim()) submit(); });
  }
  sourceInput.addEventListener("change", () => { if (input.value.trim()) submit(); });
  return form;
}

function intro() {
  return h("section", { class: "intro" },
    h("h1", {}, "Search your agents' history"),
    h("p", {}, "Every indexed session from Codex, Claude Code, Cursor and the other harnesses. ",
      "Results are the same compact handles agents get from ", h("code", {}, "search_sessions"),
      "; open one to walk its turn and session."),
    h("ul", { class: "tips" },
      h("li", {}, h("kbd", {}, "/"), " search, ", h("kbd", {}, "j"), " ", h("kbd", {}, "k"), " move, ",
        h("kbd", {}, "Enter"), " open, ", h("kbd", {}, "u"), " up to the turn or session, ", h("kbd", {}, "?"), " all keys"),
      h("li", {}, "Default search covers user input and assistant responses; tick tool calls or outputs for raw evidence."),
      h("li", {}, "Browse by time in ", h("a", { href: viewLink("sessions", {}) }, "Sessions"),
        ", or see who touched a file in ", h("a", { href: viewLink("files", {}) }, "Files"), ".")));
}

/** Render the search view into `root`. */
export async function renderSearch(root, params, signal) {
  const form = filtersForm(params);
  const results = h("section", { class: "results", "aria-label": "Search results" });
  fill(root, form, results);
  const query = (params.get("q") || "").trim();
  if (!query) {
    results.append(intro());
    form.querySelector("#q").focus();
    return;
  }
  const args = { query, n_hits: PAGE.hits };
  for (const key of ["harness", "source"]) if (params.has(key)) args[key] = params.get(key);
  if (params.get("within")) args.within_id = params.get("within");
  const types = readTypes(params);
  if (types) args.event_types = types;

  results.append(loading("results"));
  let envelope;
  try {
    envelope = await callTool("search_sessions", args, signal);
  } catch (error) {
    if (error?.name === "AbortError") return;
    fill(results, errorBox(error));
    return;
  }
  const data = envelope.data;
  const grouped = params.get("group") === "session";
  const groups = grouped ? groupBySession(data.results) : null;
  const summary = h("p", { class: "result-summary" },
    data.result_count === 1 ? "1 hit" : `${data.result_count} hits`,
    groups ? ` in ${groups.length === 1 ? "1 session" : `${groups.length} sessions`}` : "",
    data.truncated ? " (more may exist: refine the query or filters)" : "",
    h("span", { class: "muted" }, ` · ${envelope.performance.elapsed_ms} ms`),
    h("span", { class: "spacer" }),
    groupToggle(params, grouped));
  const list = groups
    ? h("div", { class: "hit-list grouped" }, groups.map((group) => sessionHitRow(group, query)))
    : h("div", { class: "hit-list" }, data.results.map((hit) => hitRow(hit, query)));
  fill(results, 
    warningsBox(envelope.warnings),
    data.result_count
      ? [summary, list]
      : emptyState(`No hits for “${query}”.`,
        "Searched " + typePhrase(types || DEFAULT_SEARCH_TYPES)
        + (args.harness || args.source || args.within_id ? ", with the filters above" : "")
        + ". Try other words, more event types, or fewer filters."),
    envelopeViewer([envelope]));
  return data.result_count ? "select-first" : null;
}
