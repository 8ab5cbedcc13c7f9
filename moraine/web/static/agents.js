// "Agents on this machine": the agents whose folders exist here, with their session counts (GET /v1/daemon/agents,
// what `moraine status` lists). Shown on the Sessions view only; the daemon counts at most every half minute.

import { daemonFetch } from "./credential.js";
import { count, fill, h } from "./dom.js";
import { viewLink } from "./router.js";

/** Fetch the agents found; resolve to the daemon's answer, or null when this server does not report them. */
async function fetchAgents(signal) {
  const response = await daemonFetch("/v1/daemon/agents", { signal });
  if (response.status === 404) return null;
  const answer = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(answer.detail || `The daemon answered HTTP ${response.status}.`);
  return answer;
}

function agentLink(agent, filters) {
  const active = filters.harness === agent.harness;
  const none = agent.sessions === 0;
  const title = none
    ? `${agent.locations.join(", ")} exists, but no session was read from it: \`moraine doctor\` says why`
    : agent.locations.join(", ");
  return h("a", {
    class: ["agent", active ? "active" : null, none ? "none" : null],
    href: viewLink("sessions", { ...filters, harness: active ? "" : agent.harness, cursor: "" }),
    title, "aria-current": active ? "true" : null, dataset: { harness: agent.harness },
  },
  h("span", { class: "agent-name" }, agent.display_name),
  h("span", { class: "agent-count", "aria-label": `${agent.sessions} sessions` }, count(agent.sessions)),
  agent.enabled ? null : h("span", { class: "muted agent-off" }, "off"));
}

/** Return the panel; it fills itself in when the daemon answers (the session list does not wait for it). */
export function agentsPanel(filters, signal) {
  const list = h("div", { class: "agent-list" }, h("span", { class: "muted" }, "Looking for agents…"));
  const panel = h("section", { class: "agents-panel", "aria-label": "Agents on this machine" },
    h("h2", { title: "Agents whose folders exist here, with the sessions indexed from them (any time)" },
      "Agents on this machine"), list);
  fetchAgents(signal).then((answer) => {
    if (answer === null) { panel.remove(); return; }
    const agents = answer.agents || [];
    fill(list, agents.length
      ? agents.map((agent) => agentLink(agent, filters))
      : h("span", { class: "muted" }, "No known agent's folder exists here. `moraine status` lists where each agent writes."));
  }).catch((error) => {
    if (error?.name === "AbortError") return;
    fill(list, h("span", { class: "muted" }, `Cannot list the agents: ${error.message}`));
  });
  return panel;
}
