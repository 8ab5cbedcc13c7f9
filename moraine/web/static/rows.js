// Rows of turns and events, expandable in place: a turn into a page of events, an event into its content.

import { callTool, PAGE } from "./api.js";
import { renderContent } from "./content.js";
import { count, duration, fill, h, time } from "./dom.js";
import { eventLink, turnLink } from "./router.js";
import { chips, errorBox, loading, statusBadge, typeBadge } from "./ui.js";

function toggle(row, label, load) {
  const expansion = h("div", { class: "expansion", hidden: true });
  let loaded = false;
  const button = h("button", { type: "button", class: "toggle", "aria-expanded": "false", dataset: { toggle: "" } },
    h("span", { class: "caret", "aria-hidden": "true" }, "▸"), " ", label);
  button.addEventListener("click", async (event) => {
    event.stopPropagation();
    const open = button.getAttribute("aria-expanded") !== "true";
    button.setAttribute("aria-expanded", String(open));
    expansion.hidden = !open;
    row.classList.toggle("expanded", open);
    if (open && !loaded) {
      loaded = true;
      fill(expansion, loading("…"));
      try {
        await load(expansion);
      } catch (error) {
        loaded = false;
        fill(expansion, errorBox(error));
      }
    }
  });
  return { button, expansion };
}

/** Return a row for an event summary (from a turn page); its content loads on demand. */
export function eventRow(event, signal) {
  const row = h("article", { class: "row event-row", tabindex: "-1", dataset: { row: "", id: event.id } });
  const { button, expansion } = toggle(row, "Content", async (target) => {
    const envelope = await callTool("open", { id: event.id }, signal);
    fill(target, renderContent(envelope.data));
  });
  row.append(
    h("div", { class: "row-head" },
      h("span", { class: "ordinal", title: "event ordinal in its turn" }, `#${event.ordinal}`),
      typeBadge(event.type),
      event.tool_name ? h("span", { class: "tool-name" }, event.tool_name) : null,
      h("a", { class: ["primary", "summary", event.summary ? null : "muted"], href: eventLink(event.id) },
        event.summary || "(no text)", event.truncated ? "…" : ""),
      event.terminal ? h("span", { class: "badge terminal", title: "ends the turn" }, "terminal") : null,
      time(event.timestamp),
      button),
    expansion);
  return row;
}

/** Append one page of a turn's events (open with limit, then cursors) to `list`, with a "more" button. */
export async function loadEventPage(list, args, signal, total) {
  const envelope = await callTool("open", args, signal);
  const data = envelope.data;
  list.querySelector(":scope > .more")?.remove();
  for (const event of data.events) list.append(eventRow(event, signal));
  if (data.next_cursor) {
    const shown = list.querySelectorAll(":scope > .event-row").length;
    const more = h("button", { type: "button", class: "more link-button" },
      `Load ${PAGE.events} more events (${count(shown)} of ${count(total)} shown)`);
    more.addEventListener("click", async () => {
      more.disabled = true;
      try {
        await loadEventPage(list, { cursor: data.next_cursor }, signal, total);
      } catch (error) {
        more.replaceWith(errorBox(error));
      }
    });
    list.append(more);
  }
  return envelope;
}

/** Return a row for a turn summary (from a session page); its events expand in place, one page at a time. */
export function turnRow(turn, signal) {
  const row = h("article", { class: "row turn-row", tabindex: "-1", dataset: { row: "", id: turn.id } });
  const { button, expansion } = toggle(row, `Events (${count(turn.event_count)})`, async (target) => {
    const list = h("div", { class: "event-list nested" });
    fill(target, list);
    await loadEventPage(list, { id: turn.id, limit: PAGE.events }, signal, turn.event_count);
  });
  const took = duration(turn.started_at, turn.updated_at);
  row.append(
    h("div", { class: "row-head" },
      h("a", { class: "primary turn-link", href: turnLink(turn.id) }, `Turn ${turn.ordinal}`),
      statusBadge(turn.completed),
      h("span", { class: "muted" }, time(turn.started_at), took ? ` · ${took}` : ""),
      h("span", { class: "spacer" }),
      chips(turn.tools_called, "tool"),
      button),
    turn.user_input
      ? h("div", { class: "said user" }, h("span", { class: "who" }, "User"),
        h("p", {}, turn.user_input.text, turn.user_input.truncated ? "…" : ""))
      : null,
    turn.final_response
      ? h("div", { class: "said assistant" }, h("span", { class: "who" }, "Assistant"),
        h("p", {}, turn.final_response.text, turn.final_response.truncated ? "…" : ""))
      : h("div", { class: "said none" }, h("span", { class: "who" }, "Assistant"),
        h("p", { class: "muted" }, turn.completed ? "No final response." : "No final response yet.")),
    expansion);
  return row;
}
