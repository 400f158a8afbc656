// Prints the keys lunr (inside a search worker) gives two automaton states of different shape, whose ids are set so
// that lunr 2.3's keys (final flag, then each edge's character and its target's id) run together: {"1" -> #234} and
// {"1" -> #2, "3" -> #4}. Usage: node token_keys.js <worker.min.js>; prints a JSON list of the two keys.
"use strict";
const fs = require("fs");
globalThis.self = globalThis;
globalThis.addEventListener = () => {};
globalThis.postMessage = () => {};
(0, eval)(fs.readFileSync(process.argv[2], "utf8"));
const { TokenSet } = self.lunr;
const state = (id) => { TokenSet._nextId = id; return new TokenSet(); };
const one = state(1), two = state(3);
one.edges = { 1: state(234) };
two.edges = { 1: state(2), 3: state(4) };
process.stdout.write(JSON.stringify([one.toString(), two.toString()]));
