// Full event content (fetched on demand with open(event)): text, tool calls and outputs, paths to follow.

import { h } from "./dom.js";
import { viewLink } from "./router.js";

const SHOWN_CHARS = 40000;
const KNOWN = new Set(["format", "text", "truncated", "tool_name", "arguments", "exit_code"]);
const PATH_KEY = /(^|_)(path|file|filename|file_path|notebook_path|absolute_path|old_path|new_path)$/i;

function longText(text, kind) {
  const pre = h("pre", { class: ["content-text", kind] });
  if (text.length <= SHOWN_CHARS) {
    pre.textContent = text;
    return pre;
  }
  pre.textContent = text.slice(0, SHOWN_CHARS);
  const more = h("button", { type: "button", class: "link-button" },
    `Show all ${text.length.toLocaleString()} characters`);
  more.addEventListener("click", () => { pre.textContent = text; more.remove(); });
  return h("div", {}, pre, more);
}

function pathsIn(value, found = new Set(), depth = 0) {
  if (depth > 4 || value === null || typeof value !== "object") return found;
  for (const [key, inner] of Object.entries(value)) {
    if (typeof inner === "string" && PATH_KEY.test(key) && inner.trim() && inner.length < 1024) found.add(inner);
    else pathsIn(inner, found, depth + 1);
  }
  return found;
}

/** Return the content block of an opened event (`data` of open(event)). */
export function renderContent(data) {
  const content = data.content || {};
  const parts = [];
  if (content.format === "tool_call" || content.format === "tool_response") {
    const head = [h("span", { class: "tool-name" }, content.tool_name || data.event?.tool_name || "tool")];
    if (typeof content.exit_code === "number") {
      head.push(h("span", { class: ["badge", content.exit_code === 0 ? "ok" : "fail"] }, `exit ${content.exit_code}`));
    }
    parts.push(h("div", { class: "content-head" }, head));
  }
  if (content.arguments !== undefined && content.arguments !== null) {
    const args = typeof content.arguments === "string" ? content.arguments : JSON.stringify(content.arguments, null, 2);
    parts.push(h("div", { class: "content-label" }, "Arguments"), longText(args, "arguments"));
    const paths = [...pathsIn(content.arguments)];
    if (paths.length) {
      parts.push(h("div", { class: "content-paths" }, "File attention: ",
        paths.map((path) => h("a", { href: viewLink("files", { path, scope: "all" }), class: "path-link" }, path))));
    }
  }
  if (typeof content.text === "string") {
    if (content.arguments !== undefined) parts.push(h("div", { class: "content-label" }, "Text"));
    parts.push(content.text ? longText(content.text, content.format) : h("p", { class: "muted" }, "(empty)"));
  }
  const extra = Object.entries(content).filter(([key]) => !KNOWN.has(key));
  if (extra.length) {
    parts.push(h("dl", { class: "content-extra" }, extra.map(([key, value]) => [
      h("dt", {}, key), h("dd", {}, typeof value === "string" ? value : JSON.stringify(value))])));
  }
  if (content.truncated) parts.push(h("p", { class: "notice" }, "The store reports this content as truncated."));
  return h("div", { class: "content" }, parts);
}
