// The page's credential: a token the daemon handed this tab at login (/auth, then login.js), kept in the tab's
// sessionStorage and sent as `Authorization: Bearer` with every request the page makes. Never a cookie: a browser
// sends the cookies of 127.0.0.1 to every port, so any other local server it visits would receive one; no other
// origin (another port is one) can read this tab's storage. A reload keeps it; a new tab of the page borrows the
// token of an open, logged-in tab of the same page (a BroadcastChannel, which only this origin's pages share), or
// logs in through `moraine web`; the daemon's restart or a replaced secret ends it.

const KEY = "moraine.page-token";
const RENEWED = "moraine-page-token"; // the response header carrying a renewed token

const CHANNEL = "moraine-page-token";
const BORROW_MS = 1000; // how long a new tab waits for another tab's answer before going on without a token

let held = null; // when the browser refuses storage: this document only
let borrowing = null; // the one request to other tabs this document makes

const channel = typeof BroadcastChannel === "function" ? new BroadcastChannel(CHANNEL) : null;
channel?.addEventListener("message", ({ data }) => {
  const token = data === "ask" ? pageToken() : null;
  if (token) channel.postMessage({ token });
});

/** Return this tab's token, or null when it never logged in. */
export function pageToken() {
  try {
    return sessionStorage.getItem(KEY) ?? held;
  } catch {
    return held;
  }
}

/** Keep `token` as this tab's credential. */
export function keepToken(token) {
  held = token;
  try {
    sessionStorage.setItem(KEY, token);
  } catch {
    // storage refused (a private mode, a policy): the token lives as long as this document
  }
}

/** Resolve to this tab's token, or to one an open, logged-in tab of this page hands over; null when none does. */
function tokenOrBorrowed() {
  const own = pageToken();
  if (own || !channel) return Promise.resolve(own);
  borrowing ??= new Promise((resolve) => {
    const take = ({ data }) => {
      if (typeof data?.token !== "string") return;
      clearTimeout(timer);
      channel.removeEventListener("message", take);
      keepToken(data.token);
      resolve(data.token);
    };
    const timer = setTimeout(() => { channel.removeEventListener("message", take); resolve(null); }, BORROW_MS);
    channel.addEventListener("message", take);
    channel.postMessage("ask");
  });
  return borrowing.then((token) => pageToken() ?? token);
}

/** `fetch` a daemon path with this tab's token and never a cookie; keep the renewed token the daemon answers with. */
export async function daemonFetch(path, init = {}) {
  const headers = new Headers(init.headers || {});
  const token = await tokenOrBorrowed();
  if (token) headers.set("authorization", `Bearer ${token}`);
  const response = await fetch(path, { ...init, headers, credentials: "omit", cache: "no-store" });
  const renewed = response.headers.get(RENEWED);
  if (renewed) keepToken(renewed);
  return response;
}
