// The page's only data source: the HTTP facade (POST /v1/tools/<tool>), the same envelopes agents get.

import { daemonFetch, pageToken } from "./credential.js";

/** Page sizes: every request asks for one compact page, never a whole session or turn. */
export const PAGE = Object.freeze({ hits: 20, sessions: 25, turns: 20, events: 25, touches: 25 });

const MAX_REFRESH_RETRIES = 3;

/** An error envelope from a tool: code, message and details as the agent would see them. */
export class ToolError extends Error {
  constructor(envelope) {
    super(envelope.error.message);
    this.envelope = envelope;
    this.code = envelope.error.code;
    this.details = envelope.error.details || {};
  }
}

/** The daemon could not be reached or did not answer with an envelope. */
export class TransportError extends Error {}

function wait(ms, signal) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => { clearTimeout(timer); reject(signal.reason); }, { once: true });
  });
}

/** Call `tool` with `args`; resolve to the success envelope, reject with ToolError or TransportError. */
export async function callTool(tool, args, signal) {
  for (let attempt = 0; ; attempt += 1) {
    let response;
    try {
      response = await daemonFetch(`/v1/tools/${encodeURIComponent(tool)}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(args),
        signal,
      });
    } catch (exc) {
      if (exc?.name === "AbortError") throw exc;
      throw new TransportError("Cannot reach the Moraine daemon. Is `moraine serve` still running?");
    }
    if (response.status === 401) {
      throw new TransportError(pageToken()
        ? "This tab's login has ended (a day passed, the daemon restarted or the install's secret was replaced): " +
          "run `moraine web` to open a logged-in page."
        : "This tab is not logged in: run `moraine web`, which opens a logged-in page.");
    }
    let envelope;
    try {
      envelope = await response.json();
    } catch {
      throw new TransportError(`The daemon answered HTTP ${response.status} without a JSON envelope.`);
    }
    const error = envelope?.error;
    if (error) {
      // The read model is publishing an ingest update: the contract says wait retry_after_ms and retry.
      const details = error.details || {};
      if (details.retryable && details.retry_after_ms > 0 && attempt < MAX_REFRESH_RETRIES) {
        await wait(Math.min(details.retry_after_ms, 5000), signal);
        continue;
      }
      throw new ToolError(envelope);
    }
    if (!response.ok || !envelope?.data) {
      // The daemon's gate refuses with {"detail"}: e.g. 401 once the install's secret was replaced.
      const detail = typeof envelope?.detail === "string" ? ` ${envelope.detail}` : " with no data.";
      throw new TransportError(`The daemon answered HTTP ${response.status}${detail}`);
    }
    return envelope;
  }
}
