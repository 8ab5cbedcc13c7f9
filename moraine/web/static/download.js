// Transcript downloads (GET /v1/export/<id>): fetched with the tab's token, then saved from memory. Following the
// link itself would be a navigation, which cannot carry the token (only a cookie could, and a cookie of 127.0.0.1
// goes to every local port).

import { daemonFetch } from "./credential.js";

const FILENAME = /filename="([^"]+)"/;
const KEEP_URL_MS = 60_000; // the saved file's object URL outlives the click, whatever the browser does with it

/** Fetch `path` and hand the browser its body as a file; reject with the daemon's reason when it refuses. */
export async function download(path) {
  let response;
  try {
    response = await daemonFetch(path);
  } catch {
    throw new Error("Cannot reach the Moraine daemon.");
  }
  if (!response.ok) {
    const answer = await response.json().catch(() => ({}));
    throw new Error(answer?.error?.message || answer?.detail || `The daemon answered HTTP ${response.status}.`);
  }
  const name = FILENAME.exec(response.headers.get("content-disposition") || "")?.[1] || "moraine-export";
  const url = URL.createObjectURL(await response.blob());
  const save = document.createElement("a");
  save.href = url;
  save.download = name;
  document.body.append(save);
  save.click();
  save.remove();
  setTimeout(() => URL.revokeObjectURL(url), KEEP_URL_MS);
}
