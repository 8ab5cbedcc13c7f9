// Forgetting a session from its view: a button, a confirmation, then POST /v1/daemon/forget. The daemon removes the
// session's rows from the store's files for good and keeps it out of later ingests (`moraine forget` does the same).

import { daemonFetch } from "./credential.js";
import { h } from "./dom.js";
import { go, viewLink } from "./router.js";

/** Ask the daemon to forget session `id` (exactly that one session); resolve to its answer or reject with why not. */
export async function forgetSession(id) {
  let response;
  try {
    response = await daemonFetch("/v1/daemon/forget", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ criteria: { ids: [id] }, expect: 1 }),
    });
  } catch {
    throw new Error("Cannot reach the Moraine daemon.");
  }
  const answer = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(answer.detail || `The daemon answered HTTP ${response.status}.`);
  return answer;
}

/** Return the "Forget…" control of a session view: nothing happens until the user confirms. */
export function forgetButton(id) {
  const status = h("span", { class: "forget-status", role: "status" });
  const button = h("button", {
    type: "button",
    class: "button danger forget",
    title: "Remove this session from the index for good (its trace file is not touched)",
    on: {
      click: async () => {
        const sure = window.confirm(
          "Forget this session for good?\n\nIts messages, tool calls and file touches are removed from Moraine's " +
          "store, and it is not indexed again when its trace file is read. The trace file itself is not touched.");
        if (!sure) return;
        button.disabled = true;
        status.textContent = "Forgetting… (up to a minute)";
        try {
          await forgetSession(id);
          status.textContent = "Forgotten.";
          go(viewLink("sessions", {}));
        } catch (exc) {
          status.textContent = `Not forgotten: ${exc.message}`;
          button.disabled = false;
        }
      },
    },
  }, "Forget…");
  return h("span", { class: "forget-control" }, button, status);
}
