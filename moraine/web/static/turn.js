// Turn view: its summary and traversal, then its events one compact page at a time (open with limit, cursors).

import { callTool, PAGE } from "./api.js";
import { copyButton, count, duration, h, time } from "./dom.js";
import { previousOf, remember } from "./pages.js";
import { eventLink, go, sessionLink, turnLink, viewLink } from "./router.js";
import { eventRow } from "./rows.js";
import {
  chips, crumbs, emptyState, envelopeViewer, exportLinks, meta, originBadges, pager, searchWithin, siblings, statusBadge, warningsBox,
} from "./ui.js";

function said(who, part, missing) {
  if (!part) return h("div", { class: "said none" }, h("span", { class: "who" }, who), h("p", { class: "muted" }, missing));
  return h("div", { class: ["said", who === "User" ? "user" : "assistant"] },
    h("a", { class: "who", href: eventLink(part.event_id), title: "Open the full event" }, who),
    h("p", {}, part.text, part.truncated ? "…" : ""));
}

/** Return the turn view for open(turn, limit) or open(cursor). */
export function turnView(envelope, signal, cursor) {
  const { turn, session, summary, events, next_cursor: nextCursor, traversal } = envelope.data;
  const here = location.hash;
  const firstHref = turnLink(turn.id);
  let nextHref = null;
  if (nextCursor) {
    nextHref = turnLink(turn.id, { cursor: nextCursor });
    remember(nextHref, here);
  }
  const sessionHref = sessionLink(traversal.session_id || turn.session_id);
  const sessionLabel = session?.title || `Untitled ${session?.harness || ""} session`.replace("  ", " ");
  document.title = `Turn ${turn.ordinal} · ${sessionLabel} · Moraine`;
  const took = duration(turn.started_at, turn.updated_at);
  const range = events.length
    ? `Events ${events[0].ordinal}–${events[events.length - 1].ordinal} of ${count(turn.event_count)}`
    : `${count(turn.event_count)} events`;
  return [
    crumbs([["Sessions", viewLink("sessions", {})], [sessionLabel, sessionHref], [`Turn ${turn.ordinal}`, null]], sessionHref),
    h("header", { class: "object-head" },
      h("h1", {}, `Turn ${turn.ordinal}`, h("span", { class: "of" }, " of ", h("a", { href: sessionHref }, sessionLabel))),
      h("div", { class: "badges" }, originBadges(session), statusBadge(turn.completed)),
      h("div", { class: "meta" },
        meta("Started", time(turn.started_at)),
        meta("Took", took || "—"),
        meta("Events", count(turn.event_count)),
        meta("ID", h("span", { class: "id" }, h("code", {}, turn.id), copyButton(turn.id)))),
      h("div", { class: "head-actions" },
        siblings("turn", traversal.previous_turn_id ? turnLink(traversal.previous_turn_id) : null,
          traversal.next_turn_id ? turnLink(traversal.next_turn_id) : null),
        searchWithin(turn.id, "turn", go, viewLink),
        exportLinks(turn.id))),
    h("section", { class: "turn-summary", "aria-label": "Summary" },
      said("User", summary.user_input, "No user input recorded."),
      said("Assistant", summary.final_response, turn.completed ? "No final response." : "No final response yet."),
      h("div", { class: "summary-chips" },
        summary.tools_called.length ? [h("span", { class: "meta-label" }, "Tools"), chips(summary.tools_called, "tool")] : null,
        h("span", { class: "meta-label" }, "Event types"), chips(summary.event_types, "etype"))),
    warningsBox(envelope.warnings),
    h("h2", { class: "section-title" }, "Events"),
    nextHref || cursor ? pager(range, cursor ? previousOf(here, firstHref) : null, nextHref) : null,
    events.length
      ? h("section", { class: "event-list", "aria-label": "Events" }, events.map((event) => eventRow(event, signal)))
      : emptyState("No events on this page."),
    pager(range, cursor ? previousOf(here, firstHref) : null, nextHref),
    envelopeViewer([envelope]),
  ];
}

/** Load the turn page (first page by ID, later pages by cursor). */
export async function loadTurn(id, cursor, signal) {
  return callTool("open", cursor ? { cursor } : { id, limit: PAGE.events }, signal);
}
