// Runs Material's own search worker (the minified bundle a built site serves, as the build mends it) on a built
// site's search_index.json, outside a browser, so a test can score every query it likes in one process.
// Usage: node material_search.js <worker.min.js> <search_index.json>  (queries: a JSON list on stdin)
// Prints a JSON list, one item per query: {words, groups}. words: the query's words as Material's
// parser keeps them; groups: the result groups in the order the search box lists them, each
// {page, docs}: the page's matching sections best first, each {location, score, terms}, where terms
// maps each query word to whether the section matched it (false: the card shows it as "Missing").
"use strict";
const fs = require("fs");

const [workerPath, indexPath] = process.argv.slice(2);
let handler = null;
const replies = [];
// The worker only needs the few globals a dedicated worker has.
globalThis.self = globalThis;
globalThis.addEventListener = (type, fn) => { if (type === "message") handler = fn; };
globalThis.postMessage = (message) => replies.push(message);
(0, eval)(fs.readFileSync(workerPath, "utf8"));
// Record the query as Material hands it to lunr (cut into words, each a prefix or +required), to
// tell which texts the search box cannot tell apart. This only observes; it changes nothing.
let asked = null;
const search = self.lunr.Index.prototype.search;
self.lunr.Index.prototype.search = function (query) { asked = query; return search.call(this, query); };

// The message types of the worker's protocol (SearchMessageType in Material's source).
const SETUP = 0, READY = 1, QUERY = 2, RESULT = 3;

async function ask(type, data) {
  replies.length = 0;
  await handler({ data: { type, data } });
  return replies[0];
}

(async () => {
  const index = JSON.parse(fs.readFileSync(indexPath, "utf8"));
  index.options = index.options || { suggest: false };
  if ((await ask(SETUP, index)).type !== READY) throw new Error("the search worker did not start");
  const queries = JSON.parse(fs.readFileSync(0, "utf8"));
  const out = [];
  for (const query of queries) {
    asked = null;
    const reply = await ask(QUERY, query);
    if (reply.type !== RESULT) throw new Error(`no result for ${JSON.stringify(query)}`);
    out.push({
      words: asked === null ? [] : asked.split(" ").filter(Boolean).map((w) => w.replace(/^[+-]/, "").replace(/\*$/, "")),
      groups: reply.data.items.map((group) => ({
        page: group[0].location.split("#")[0],
        docs: group.map(({ location, score, terms }) => ({ location, score, terms })),
      })),
    });
  }
  process.stdout.write(JSON.stringify(out));
})().catch((err) => { console.error(String(err && err.stack || err)); process.exit(1); });
