// Hash routing: every view is a shareable URL built from the tools' opaque IDs and the view's filters.
//   #/search?q=…&harness=…&source=…&types=a,b&within=<id>
//   #/sessions?range=7d | from=…&to=…, &harness=…&source=…&mode=…&sort=asc&cursor=…
//   #/session/<id>[?cursor=…], #/turn/<id>[?cursor=…], #/event/<id>   (the kind comes from the field that
//   supplied the ID, e.g. open.turn_id; IDs are never parsed)
//   #/open/<id>                     (any ID, e.g. pasted: opened once, then shown by the kind the tool reports)
//   #/files?path=…&scope=…&granularity=…&harness=…&source=…&tool=…&mutations=1
//   #/usage?range=30d | from=…&to=…, &harness=…&project=…&stack=model|harness

/** Parse location.hash into {view, id, params}. */
export function parseHash(hash = location.hash) {
  const body = hash.replace(/^#\/?/, "");
  const q = body.indexOf("?");
  const path = q < 0 ? body : body.slice(0, q);
  const params = new URLSearchParams(q < 0 ? "" : body.slice(q + 1));
  const slash = path.indexOf("/");
  if (slash > 0 && ["open", "session", "turn", "event"].includes(path.slice(0, slash))) {
    let id = path.slice(slash + 1);
    try { id = decodeURIComponent(id); } catch { /* keep the raw text: the tool will say it is malformed */ }
    return { view: path.slice(0, slash), id, params };
  }
  const view = ["search", "sessions", "files", "usage"].includes(path) ? path : "search";
  return { view, id: null, params };
}

function query(params) {
  const clean = new URLSearchParams();
  for (const [key, value] of Object.entries(params || {})) {
    if (value !== null && value !== undefined && value !== "" && value !== false) clean.set(key, String(value));
  }
  const text = clean.toString();
  return text ? `?${text}` : "";
}

/** Return the URL of a view with its parameters (empty values are left out). */
export function viewLink(view, params) {
  return `#/${view}${query(params)}`;
}

function idLink(kind, id, params) {
  return `#/${kind}/${encodeURIComponent(id).replace(/%3A/gi, ":")}${query(params)}`;
}

/** Return the URL of any ID (its kind is learnt from open). */
export function openLink(id) {
  return idLink("open", id);
}

/** Return the URL of a session page (optionally a continuation cursor). */
export function sessionLink(id, params) {
  return idLink("session", id, params);
}

/** Return the URL of a turn page (optionally a continuation cursor). */
export function turnLink(id, params) {
  return idLink("turn", id, params);
}

/** Return the URL of an event. */
export function eventLink(id) {
  return idLink("event", id);
}

/** Navigate to `url` (a hash link); `replace` keeps it out of the history. */
export function go(url, replace = false) {
  if (location.hash === url) window.dispatchEvent(new HashChangeEvent("hashchange"));
  else if (replace) {
    history.replaceState(null, "", url);
    window.dispatchEvent(new HashChangeEvent("hashchange"));
  } else location.hash = url;
}
