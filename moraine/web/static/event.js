// Event view: full metadata and content (open(event)), with its parent turn and session and its neighbours.

import { renderContent } from "./content.js";
import { copyButton, h, time } from "./dom.js";
import { eventLink, sessionLink, turnLink, viewLink } from "./router.js";
import { crumbs, envelopeViewer, meta, originBadges, siblings, statusBadge, typeBadge, warningsBox } from "./ui.js";

/** Return the event view for open(event). */
export function eventView(envelope) {
  const { event, session, turn, traversal } = envelope.data;
  const sessionHref = sessionLink(traversal.session_id || event.session_id);
  const turnHref = turnLink(traversal.turn_id || event.turn_id);
  const sessionLabel = session?.title || `Untitled ${session?.harness || ""} session`.replace("  ", " ");
  document.title = `Event ${event.ordinal} · Turn ${turn?.ordinal ?? "?"} · Moraine`;
  return [
    crumbs([["Sessions", viewLink("sessions", {})], [sessionLabel, sessionHref],
      [`Turn ${turn?.ordinal ?? "?"}`, turnHref], [`Event ${event.ordinal}`, null]], turnHref),
    h("header", { class: "object-head" },
      h("h1", {}, typeBadge(event.type), " ", event.tool_name ? h("span", { class: "tool-name big" }, event.tool_name) : null,
        h("span", { class: "of" }, ` event ${event.ordinal} of `, h("a", { href: turnHref }, `turn ${turn?.ordinal ?? "?"}`))),
      h("div", { class: "badges" }, originBadges(session),
        event.terminal ? h("span", { class: "badge terminal" }, "terminal") : null,
        turn ? statusBadge(turn.completed) : null),
      h("div", { class: "meta" },
        meta("Time", time(event.timestamp)),
        event.model ? meta("Model", event.model) : null,
        event.originating_model && event.originating_model !== event.model ? meta("Originating model", event.originating_model) : null,
        meta("ID", h("span", { class: "id" }, h("code", {}, event.id), copyButton(event.id)))),
      h("div", { class: "head-actions" },
        siblings("event", traversal.previous_event_id ? eventLink(traversal.previous_event_id) : null,
          traversal.next_event_id ? eventLink(traversal.next_event_id) : null),
        traversal.previous_turn_id ? h("a", { class: "button", href: turnLink(traversal.previous_turn_id) }, "↑ Previous turn") : null,
        traversal.next_turn_id ? h("a", { class: "button", href: turnLink(traversal.next_turn_id) }, "↓ Next turn") : null)),
    warningsBox(envelope.warnings),
    h("section", { class: "event-content", "aria-label": "Content" }, renderContent(envelope.data)),
    envelopeViewer([envelope]),
  ];
}
