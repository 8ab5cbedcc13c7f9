// Usage view: what the agents' model calls cost (GET /v1/daemon/usage, what `moraine usage` prints): spend per day
// as bars stacked by model or agent (uPlot, served from the package), and beneath it the same figures as a table.
//   #/usage?range=30d | from=…&to=…, &harness=…&project=…&stack=model|harness

import { daemonFetch } from "./credential.js";
import { count, fill, h } from "./dom.js";
import { go, viewLink } from "./router.js";
import { emptyState, errorBox, harnessLabel, harnessSelect, loading } from "./ui.js";
import uPlot from "./uPlot.esm.js";

const RANGES = [["7d", "7 days", 7], ["30d", "30 days", 30], ["90d", "90 days", 90], ["1y", "1 year", 365], ["all", "Any time", null]];
const STACKS = [["model", "By model"], ["harness", "By agent"]];
const KINDS = [["input", "Input"], ["output", "Output"], ["cache_write", "Cache write"], ["cache_read", "Cache read"]];
// Ten hues that stay apart on the light and the dark background (the page's theme, app.css).
const PALETTE = ["#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#8c9aa3"];
const DAY = 86400;

/** Fetch a usage summary; `fields` become the query string (arrays repeat their key). */
export async function fetchUsage(fields, signal) {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(fields)) {
    for (const one of Array.isArray(value) ? value : [value]) if (one) query.append(key, one);
  }
  const response = await daemonFetch(`/v1/daemon/usage?${query}`, { signal });
  const answer = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(answer.detail || `The daemon answered HTTP ${response.status}.`);
  return answer;
}

/** Return "$1,234.56", "$0.0042" for small sums, or "unpriced" (never $0 for tokens the price table does not know). */
export function money(row) {
  if (row.cost_usd === null) return "unpriced";
  const digits = row.cost_usd !== 0 && Math.abs(row.cost_usd) < 1 ? 4 : 2;
  const shown = `$${row.cost_usd.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits })}`;
  return row.unpriced_tokens ? `${shown} + unpriced` : shown;
}

function windowOf(params) {
  if (params.get("from") || params.get("to")) return { start: params.get("from") || "", end: params.get("to") || "", range: "custom" };
  const range = params.get("range") || "30d";
  const preset = RANGES.find(([key]) => key === range) || RANGES[1];
  if (preset[2] === null) return { start: "", end: "", range: "all" };
  const now = new Date();
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) - (preset[2] - 1) * DAY * 1000);
  return { start: start.toISOString(), end: "", range: preset[0] };
}

function controls(params, span, stack) {
  const filters = { harness: params.get("harness") || "", project: params.get("project") || "", stack };
  const rangeLinks = RANGES.map(([key, label]) => h("a", {
    href: viewLink("usage", { ...filters, range: key }), class: ["segment", span.range === key ? "active" : null],
    "aria-current": span.range === key ? "true" : null,
  }, label));
  const stackLinks = STACKS.map(([key, label]) => h("a", {
    href: viewLink("usage", { ...Object.fromEntries(params), stack: key }), class: ["segment", stack === key ? "active" : null],
    "aria-current": stack === key ? "true" : null, dataset: { stack: key },
  }, label));
  const harness = harnessSelect(filters.harness);
  const project = h("input", { name: "project", value: filters.project, placeholder: "Any project", "aria-label": "Project",
    class: "source-input", autocomplete: "off", spellcheck: "false" });
  const form = h("form", { class: "filters usage-filters" },
    h("div", { class: "segments", role: "group", "aria-label": "Time window" }, rangeLinks),
    h("div", { class: "segments", role: "group", "aria-label": "Stack bars" }, stackLinks),
    harness, project);
  const apply = () => go(viewLink("usage", { ...Object.fromEntries(params), harness: harness.value, project: project.value.trim() }));
  harness.addEventListener("change", apply);
  project.addEventListener("change", apply);
  form.addEventListener("submit", (event) => { event.preventDefault(); apply(); });
  return form;
}

function stackLabel(stack, value) {
  if (stack === "harness") return harnessLabel(value);
  return value || "(no model recorded)";
}

/** Return the chart's data: one x per day from the first to the last, one cumulative series per stacked value. */
function chartData(summary, stack) {
  const days = [...new Set(summary.rows.map((row) => row.key.day))].sort();
  if (!days.length) return null;
  const first = Date.parse(`${days[0]}T00:00:00Z`) / 1000;
  const last = Date.parse(`${days[days.length - 1]}T00:00:00Z`) / 1000;
  const xs = [];
  for (let t = first; t <= last; t += DAY) xs.push(t);
  const index = new Map(xs.map((t, i) => [new Date(t * 1000).toISOString().slice(0, 10), i]));
  const spend = new Map();
  for (const row of summary.rows) {
    const values = spend.get(row.key[stack]) || new Array(xs.length).fill(0);
    values[index.get(row.key.day)] += row.cost_usd || 0;
    spend.set(row.key[stack], values);
  }
  // Biggest spender at the bottom of each bar; uPlot draws series in order, so the tallest (cumulative) goes first.
  const keys = [...spend.keys()].sort((a, b) => sum(spend.get(b)) - sum(spend.get(a)));
  const raw = keys.map((key) => spend.get(key));
  const stacked = raw.map((_, i) => xs.map((__, j) => raw.slice(0, i + 1).reduce((acc, values) => acc + values[j], 0)));
  return { xs, keys, raw, stacked: stacked.reverse(), order: keys.map((_, i) => keys.length - 1 - i) };
}

function sum(values) {
  return values.reduce((a, b) => a + b, 0);
}

function cssVar(name) {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim();
}

function drawChart(target, data, stack) {
  const ink = cssVar("--ink-2");
  const grid = cssVar("--line");
  const axis = { stroke: ink, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1 } };
  const bars = uPlot.paths.bars({ size: [0.7, 48] });
  const series = [{ value: (u, t) => (t === null ? "" : new Date(t * 1000).toISOString().slice(0, 10)) }];
  data.order.forEach((keyIndex) => {
    const color = PALETTE[keyIndex % PALETTE.length];
    series.push({
      label: stackLabel(stack, data.keys[keyIndex]), fill: color, stroke: color, width: 0, paths: bars, points: { show: false },
      value: (u, v, si, i) => (i === null ? "" : `$${data.raw[keyIndex][i].toFixed(2)}`),
    });
  });
  const width = Math.max(320, target.clientWidth || 720);
  const options = {
    width, height: 280, series, legend: { live: true },
    scales: { x: { time: true, range: (u, min, max) => [min - DAY / 2, max + DAY / 2] }, y: { range: (u, min, max) => [0, max > 0 ? max * 1.08 : 1] } },
    axes: [{ ...axis, space: 60 }, { ...axis, size: 64, values: (u, ticks) => ticks.map((v) => `$${v.toLocaleString("en-US", { maximumFractionDigits: 2 })}`) }],
    cursor: { points: { show: false } },
  };
  return new uPlot(options, [data.xs, ...data.stacked], target);
}

function table(summary, stack) {
  const head = h("tr", {}, h("th", {}, "Day"), h("th", {}, stack === "harness" ? "Agent" : "Model"),
    KINDS.map(([, label]) => h("th", { class: "num" }, label)), h("th", { class: "num" }, "Cost"));
  const line = (cells, row, attrs) => h("tr", attrs, cells,
    KINDS.map(([kind]) => h("td", { class: "num", dataset: { kind } }, count(row.tokens[kind]))),
    h("td", { class: ["num", row.cost_usd === null ? "muted" : null], dataset: { kind: "cost" } }, money(row)));
  const rows = [...summary.rows].reverse().map((row) => line(
    [h("td", {}, row.key.day), h("td", {}, stackLabel(stack, row.key[stack]))], row,
    { dataset: { day: row.key.day, key: row.key[stack] } }));
  const total = line([h("th", { colspan: "2" }, "Total")], summary.total, { class: "total", dataset: { total: "" } });
  return h("table", { class: "roots usage-table" }, h("thead", {}, head), h("tbody", {}, rows), h("tfoot", {}, total));
}

/** Return the `moraine usage` command that prints this view's figures. */
function cliCommand(params, span, stack) {
  const words = ["moraine usage --by day", `--by ${stack}`];
  if (span.start) words.push(`--since ${span.start}`);
  if (span.end) words.push(`--until ${span.end}`);
  for (const key of ["harness", "project"]) if (params.get(key)) words.push(`--${key} '${params.get(key).replaceAll("'", "'\\''")}'`);
  return words.join(" ");
}

/** Render the Usage view into `root`. */
export async function renderUsage(root, params, signal) {
  const stack = params.get("stack") === "harness" ? "harness" : "model";
  const span = windowOf(params);
  const results = h("section", { class: "results", "aria-label": "Usage" }, loading("usage"));
  fill(root, h("h1", { class: "view-title" }, "Usage"), controls(params, span, stack), results);
  let summary;
  try {
    summary = await fetchUsage({
      start: span.start, end: span.end, by: ["day", stack], harness: params.get("harness"), project: params.get("project"),
    }, signal);
  } catch (error) {
    if (error?.name === "AbortError") return;
    fill(results, errorBox(error));
    return;
  }
  if (!summary.rows.length) {
    fill(results, emptyState("No token usage in this window.", "Widen the window (Any time) or clear the filters. `moraine status` shows what is indexed."));
    return;
  }
  const data = chartData(summary, stack);
  const chart = h("div", { class: "usage-chart", role: "img", "aria-label": `Spend per day, stacked by ${stack === "harness" ? "agent" : "model"}` });
  const total = summary.total;
  const unpriced = total.unpriced_models.length
    ? h("p", { class: "muted usage-note" }, `Unpriced (not in the price table): ${total.unpriced_models.join(", ")}, ${count(total.unpriced_tokens)} tokens; their cost is not in the bars.`)
    : null;
  fill(results,
    h("p", { class: "usage-summary" }, h("strong", { dataset: { totalCost: "" } }, money(total)), ` · ${count(total.tokens.total)} tokens in ${count(total.calls)} model calls`),
    chart, unpriced, table(summary, stack),
    h("p", { class: "muted usage-note" }, `Prices: ${summary.prices.name} ${summary.prices.version} (${summary.prices.table}), per model and day. The same figures: `,
      h("code", {}, cliCommand(params, span, stack))));
  drawChart(chart, data, stack);
}

/** Return a session's tokens and cost as meta items, filled in when the daemon answers (the view does not wait). */
export function sessionUsage(id, signal) {
  const box = h("div", { class: "meta-item session-usage" }, h("span", { class: "meta-label" }, "Tokens"),
    h("span", { class: "meta-value muted" }, "…"));
  fetchUsage({ session: id, by: ["model"] }, signal).then((summary) => {
    const total = summary.total;
    const value = box.querySelector(".meta-value");
    value.classList.remove("muted");
    if (!summary.rows.length) { fill(value, h("span", { class: "muted" }, "not recorded")); return; }
    fill(value, KINDS.map(([kind, label]) => `${label.toLowerCase()} ${count(total.tokens[kind])}`).join(" · "), " · ",
      h("strong", { dataset: { sessionCost: "" } }, money(total)));
  }).catch((error) => {
    if (error?.name === "AbortError") return;
    box.remove();
  });
  return box;
}
