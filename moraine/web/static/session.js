// Session view: metadata and traversal, then its turns one compact page at a time (open with limit, cursors).

import { callTool, PAGE } from "./api.js";
import { copyButton, count, h, time } from "./dom.js";
import { forgetButton } from "./forget.js";
import { previousOf, remember } from "./pages.js";
import { go, sessionLink, turnLink, viewLink } from "./router.js";
import { turnRow } from "./rows.js";
import { sessionUsage } from "./usage.js";
import {
  crumbs, emptyState, envelopeViewer, exportLinks, meta, originBadges, pager, searchWithin, sessionTitle, statusBadge, warningsBox,
} from "./ui.js";

/** Return the session view for the `data` of open(session, limit) or open(cursor). */
export function sessionView(envelope, signal, cursor) {
  const { session, turns, next_cursor: nextCursor, traversal } = envelope.data;
  const here = location.hash;
  const firstHref = sessionLink(session.id);
  let nextHref = null;
  if (nextCursor) {
    nextHref = sessionLink(session.id, { cursor: nextCursor });
    remember(nextHref, here);
  }
  // With no title, the first page names the session by its opening request, as list_sessions labels do.
  const opening = !cursor && turns[0]?.user_input?.text;
  const label = session.title || (opening ? opening.split("\n")[0].slice(0, 120) : null);
  document.title = `${label || "Session"} · Moraine`;
  const range = turns.length
    ? `Turns ${turns[0].ordinal}–${turns[turns.length - 1].ordinal} of ${count(session.turn_count)}`
    : `${count(session.turn_count)} turns`;
  return [
    crumbs([["Sessions", viewLink("sessions", {})], [label || `Untitled ${session.harness || ""} session`, null]]),
    h("header", { class: "object-head" },
      h("h1", {}, sessionTitle(session, label)),
      h("div", { class: "badges" }, originBadges(session), statusBadge(session.completed)),
      h("div", { class: "meta" },
        meta("Started", time(session.started_at)),
        meta("Updated", time(session.updated_at)),
        meta("Turns", count(session.turn_count)),
        meta("Events", count(session.event_count)),
        sessionUsage(session.id, signal),
        meta("ID", h("span", { class: "id" }, h("code", {}, session.id), copyButton(session.id))),
        session.native_id
          ? meta("Harness ID", h("span", { class: "id" }, h("code", {}, session.native_id), copyButton(session.native_id)))
          : null,
        session.resume_command
          ? meta("Resume", h("span", { class: "id resume" }, h("code", {}, session.resume_command),
            copyButton(session.resume_command, "Copy command")))
          : null),
      h("div", { class: "head-actions" },
        traversal.first_turn_id ? h("a", { class: "button", href: turnLink(traversal.first_turn_id) }, "First turn") : null,
        traversal.last_turn_id ? h("a", { class: "button", href: turnLink(traversal.last_turn_id) }, "Last turn") : null,
        traversal.previous_session_id
          ? h("a", { class: "button", href: sessionLink(traversal.previous_session_id), dataset: { key: "prev" } }, "← Previous session")
          : null,
        traversal.next_session_id
          ? h("a", { class: "button", href: sessionLink(traversal.next_session_id), dataset: { key: "next" } }, "Next session →")
          : null,
        searchWithin(session.id, "session", go, viewLink),
        exportLinks(session.id),
        forgetButton(session.id))),
    warningsBox(envelope.warnings),
    nextHref || cursor ? pager(range, cursor ? previousOf(here, firstHref) : null, nextHref) : null,
    turns.length
      ? h("section", { class: "turn-list", "aria-label": "Turns" }, turns.map((turn) => turnRow(turn, signal)))
      : emptyState("This session has no turns.", "Its trace holds no user-driven interaction yet."),
    pager(range, cursor ? previousOf(here, firstHref) : null, nextHref),
    envelopeViewer([envelope]),
  ];
}

/** Load the session page (first page by ID, later pages by cursor). */
export async function loadSession(id, cursor, signal) {
  return callTool("open", cursor ? { cursor } : { id, limit: PAGE.turns }, signal);
}
