// The login landing (GET /auth answers a page holding the tab's token): keep it, then open the page, leaving the
// landing out of the tab's history (its one-time link is spent anyway).

import { keepToken } from "./credential.js";

const carrier = document.querySelector('meta[name="moraine-page-token"]');
if (carrier?.content) keepToken(carrier.content);
carrier?.remove();
location.replace("/");
