// Files view: file_attention for a path: which sessions touched it, across checkouts, and where to drill in.

import { callTool, PAGE } from "./api.js";
import { count, fill, h, time } from "./dom.js";
import { eventLink, go, sessionLink, turnLink, viewLink } from "./router.js";
import { SOURCES, chips, emptyState, envelopeViewer, errorBox, loading, meta, harnessSelect, originBadges, warningsBox } from "./ui.js";

function form(params) {
  const value = (name, fallback = "") => params.get(name) || fallback;
  const path = h("input", { id: "path", name: "path", type: "text", value: value("path"), spellcheck: "false",
    autocomplete: "off", placeholder: "A file path: src/app.py or /home/me/project/src/app.py", "aria-label": "File path" });
  const scope = h("select", { name: "scope", "aria-label": "Scope" },
    h("option", { value: "all", selected: value("scope", "all") === "all" }, "All projects"),
    h("option", { value: "project", selected: value("scope") === "project" }, "Launch project"));
  const granularity = h("select", { name: "granularity", "aria-label": "Granularity" },
    h("option", { value: "sessions", selected: value("granularity", "sessions") === "sessions" }, "By session"),
    h("option", { value: "events", selected: value("granularity") === "events" }, "Every touch"));
  const harness = harnessSelect(value("harness"));
  const source = h("input", { name: "source", value: value("source"), list: "file-sources", placeholder: "Any source",
    "aria-label": "Source", class: "source-input", autocomplete: "off" });
  const tool = h("input", { name: "tool", value: value("tool"), placeholder: "Any tool", "aria-label": "Tool", class: "source-input" });
  const mutations = h("input", { type: "checkbox", name: "mutations", checked: value("mutations") === "1" });
  const element = h("form", { class: "search-form", role: "search" },
    h("div", { class: "search-line" }, path, h("button", { type: "submit", class: "primary-button" }, "Show attention")),
    h("div", { class: "filters" }, scope, granularity, harness, source,
      h("datalist", { id: "file-sources" }, SOURCES.map((name) => h("option", { value: name }))), tool,
      h("label", { class: "check" }, mutations, " Changes only")));
  const submit = () => go(viewLink("files", {
    path: path.value.trim(), scope: scope.value, granularity: granularity.value, harness: harness.value,
    tool: tool.value.trim(), mutations: mutations.checked ? "1" : "", source: source.value.trim(),
  }));
  element.addEventListener("submit", (event) => { event.preventDefault(); submit(); });
  for (const control of [scope, granularity, harness, source, tool, mutations]) {
    control.addEventListener("change", () => { if (path.value.trim()) submit(); });
  }
  return element;
}

function links(open) {
  return h("span", { class: "row-links" },
    open.event_id ? h("a", { class: "primary", href: eventLink(open.event_id) }, "Event") : null,
    open.turn_id ? h("a", { href: turnLink(open.turn_id) }, "Turn") : null,
    h("a", { href: sessionLink(open.session_id) }, "Session"));
}

function sessionRow(entry) {
  const s = entry.session;
  return h("article", { class: "row touch-row", tabindex: "-1", dataset: { row: "", id: entry.id } },
    h("div", { class: "row-head" },
      h("a", { class: "session-link", href: sessionLink(entry.open.session_id) }, h("code", {}, s.id)),
      originBadges(s), h("span", { class: "spacer" }), links(entry.open)),
    h("div", { class: "row-foot" },
      h("span", {}, `${count(s.touch_count)} touch${s.touch_count === 1 ? "" : "es"} · `, time(s.first_touch), " → ", time(s.last_touch)),
      chips(s.tools, "tool"), chips(s.match_kinds, "etype"),
      s.worktree_roots?.length ? h("span", { class: "muted root" }, s.worktree_roots.join(", ")) : null));
}

function eventRow(entry) {
  const e = entry.event;
  return h("article", { class: "row touch-row", tabindex: "-1", dataset: { row: "", id: entry.id } },
    h("div", { class: "row-head" },
      h("span", { class: "tool-name" }, e.tool_name || "tool"),
      h("span", { class: "chip" }, e.phase), h("span", { class: "chip etype" }, e.match_kind),
      originBadges(e), h("span", { class: "spacer" }), time(e.timestamp), links(entry.open)),
    e.action_preview ? h("pre", { class: "preview" }, e.action_preview) : null,
    h("div", { class: "row-foot muted" }, e.turn !== null && e.turn !== undefined ? `turn ${e.turn} · ` : "", e.worktree_root || "(unknown root)"));
}

/** Render the file attention view into `root`. */
export async function renderFiles(root, params, signal) {
  const results = h("section", { class: "results", "aria-label": "File attention" });
  fill(root, h("h1", { class: "view-title" }, "File attention"), form(params), results);
  const path = params.get("path") || "";
  if (!path) {
    results.append(emptyState("Which sessions touched a file?",
      "Enter a path: agents' reads, edits and shell commands on it are found across the main checkout and its worktrees."));
    root.querySelector("#path").focus();
    return;
  }
  const args = { path, scope: params.get("scope") || "all", granularity: params.get("granularity") || "sessions", limit: PAGE.touches };
  for (const key of ["harness", "source", "tool"]) if (params.get(key)) args[key] = params.get(key);
  if (params.get("mutations") === "1") args.mutations_only = true;
  results.append(loading("file attention"));
  let envelope;
  try {
    envelope = await callTool("file_attention", args, signal);
  } catch (error) {
    if (error?.name === "AbortError") return;
    fill(results, errorBox(error));
    return;
  }
  const data = envelope.data;
  const sum = data.summary;
  const rows = data.granularity === "events" ? data.events : data.sessions;
  fill(results, 
    warningsBox(envelope.warnings),
    h("header", { class: "object-head" },
      h("h2", { class: "path-title" }, h("code", {}, data.tail)),
      h("div", { class: "meta" },
        meta("Touches", count(sum.total_touches)), meta("Sessions", count(sum.distinct_sessions)),
        meta("Roots", `${count(sum.distinct_roots)} (${count(sum.distinct_known_roots)} known)`),
        meta("First", time(sum.first_touch)), meta("Last", time(sum.last_touch)),
        data.stripped_root ? meta("Stripped root", h("code", {}, data.stripped_root)) : null),
      sum.ambiguous ? h("p", { class: "notice" }, "Ambiguous: touches come from more than one root, or from roots Moraine cannot prove.") : null),
    data.roots.length
      ? h("table", { class: "roots" }, h("thead", {}, h("tr", {}, h("th", {}, "Worktree root"), h("th", {}, "Touches"), h("th", {}, "Sessions"))),
        h("tbody", {}, data.roots.map((r) => h("tr", {}, h("td", {}, h("code", {}, r.root)), h("td", {}, count(r.touch_count)), h("td", {}, count(r.session_count))))))
      : null,
    rows.length
      ? h("section", { class: "touch-list" }, rows.map(data.granularity === "events" ? eventRow : sessionRow))
      : emptyState(`No recorded tool call touched “${data.tail}”.`,
        args.scope === "project" ? "Scope is the daemon's launch project; try All projects, or an absolute path." : "Check the path, or widen the filters."),
    data.truncated ? h("p", { class: "notice" }, `Showing the first ${data.result_count}; narrow the filters to see the rest.`) : null,
    envelopeViewer([envelope]));
}
