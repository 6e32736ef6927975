#!/usr/bin/env node
// Checks a tiny Szczerbak engine against dominokit's exported test vectors, from the vectors
// alone: no Python, no protocol, no dominokit. Node.js built-ins only (fs, path, crypto,
// assert). Run it from the repository root with
//
//     node docs/examples/check_szczerbak_vectors.js [conformance/vectors/szczerbak]
//
// It exits 0 when every vector passes, 1 with one line per failing vector otherwise.
// PLANT_BUG=parity plants a rule bug (the engine forgets the parity rule R-SZC-04), to see
// what a failure looks like. The rules (rule book, Szczerbak page; the same engine as
// docs/examples/szczerbak_engine.py):
// - 21 tiles without doubles, 10 each, the last one the widow [x|y], x facing player 0.
// - The player facing the widow's higher half starts; that half is the one open end.
// - On an end e != 0 a tile fits if one half is e and the other is 0 or of the other parity;
//   on a blank end any tile fits, either half touching. Pass only when nothing fits.
// - The hand ends by domino or when neither player can place (block); fewer pips win and
//   score the loser's pips minus their own. A match ends at 100 or more.
'use strict';

const assert = require('assert');
const crypto = require('crypto');
const fs = require('fs');
const path = require('path');

const VARIANT = 'szczerbak';
const HAND_SIZE = 10;
const TARGET = 100;
const ALL_TILES = [];
for (let a = 0; a < 7; a++) for (let b = a + 1; b < 7; b++) ALL_TILES.push(`${a}-${b}`);
const PLACEMENT = /^([0-6])-([0-6])@([LR])([0-6])$/;
const TILE = /^([0-6])-([0-6])$/;
const BUG = process.env.PLANT_BUG || '';

// ------------------------------------------------------------------------ the tiny engine

class Refusal extends Error {
  constructor(code, message, rule = null) {
    super(message);
    this.code = code;
    this.rule = rule;
  }
}

const text = (t) => `${t[0]}-${t[1]}`;
const pips = (hand) => hand.reduce((sum, [a, b]) => sum + a + b, 0);
const byTile = (x, y) => x[0] - y[0] || x[1] - y[1];

function parseTile(value) {
  const m = typeof value === 'string' ? TILE.exec(value) : null;
  if (!m || Number(m[1]) > Number(m[2])) throw new Refusal('bad_request', `not a tile: ${value}`);
  return [Number(m[1]), Number(m[2])];
}

class Hand {
  constructor(deal, inMatch = false) {
    if (typeof deal !== 'object' || deal === null) throw new Refusal('bad_request', 'no deal');
    const { hands, widow } = deal;
    if (!Array.isArray(hands) || hands.length !== 2) {
      throw new Refusal('bad_request', 'deal.hands must hold two hands');
    }
    this.hands = hands.map((h) => (Array.isArray(h) ? h.map(parseTile).sort(byTile) : []));
    if (this.hands.some((h) => h.length !== HAND_SIZE)) {
      throw new Refusal('bad_request', `hands must hold ${HAND_SIZE} tiles each`, 'R-SZC-01');
    }
    if ((deal.stock || []).length || (deal.out_of_play || []).length) {
      throw new Refusal('bad_request', 'Szczerbak has no stock', 'R-SZC-01');
    }
    if (deal.starter !== null && deal.starter !== undefined) {
      throw new Refusal('bad_request', 'the widow decides the starter',
        inMatch ? 'R-ALL-04' : 'R-SZC-01');
    }
    if (!Array.isArray(widow) || widow.length !== 2 || widow[0] === widow[1]
        || !widow.every((p) => Number.isInteger(p) && p >= 0 && p <= 6)) {
      throw new Refusal('bad_request', 'the widow must be two different pips', 'R-SZC-01');
    }
    const lo = Math.min(...widow);
    const hi = Math.max(...widow);
    const dealt = [...this.hands[0], ...this.hands[1], [lo, hi]].map(text).sort();
    if (dealt.join() !== [...ALL_TILES].sort().join()) {
      throw new Refusal('bad_request', 'the deal is not the 21 tiles without doubles', 'R-SZC-01');
    }
    this.widow = [widow[0], widow[1]];
    this.chain = [[lo, hi]];
    this.end = hi;
    this.starter = widow[0] > widow[1] ? 0 : 1;
    this.toMove = this.starter;
    this.passes = 0;
    this.lastPlaced = [null, null];
    this.result = null;
    this.checkEnd([]);
  }

  // [tile, touching half] for every tile of `player` that fits the open end.
  placements(player) {
    const out = [];
    for (const [a, b] of this.hands[player]) {
      if (this.end === 0) {
        out.push([[a, b], a], [[a, b], b]); // R-SZC-05: either half may touch a blank
      } else if (a === this.end || b === this.end) {
        const other = a === this.end ? b : a;
        const fits = BUG === 'parity' ? true : other === 0 || other % 2 !== this.end % 2;
        if (fits) out.push([[a, b], this.end]); // R-SZC-04
      }
    }
    return out;
  }

  legal() {
    if (this.toMove === null) return [];
    const moves = this.placements(this.toMove).map(([t, touch]) => `${text(t)}@R${touch}`);
    return moves.length ? moves.sort() : ['pass'];
  }

  apply(action) {
    if (typeof action !== 'string') throw new Refusal('bad_request', 'action must be a string');
    const m = PLACEMENT.exec(action);
    if (!['draw', 'pass', 'stop'].includes(action) && !m) {
      const t = TILE.exec(action);
      if (t && Number(t[1]) <= Number(t[2])) {
        throw new Refusal('illegal_action', 'the widow already opened the chain', 'R-SZC-02');
      }
      throw new Refusal('bad_request', `not an action in canonical notation: ${action}`);
    }
    if (m && (Number(m[1]) > Number(m[2]) || ![m[1], m[2]].includes(m[4]))) {
      throw new Refusal('bad_request', `not an action in canonical notation: ${action}`);
    }
    if (this.toMove === null) throw new Refusal('illegal_action', 'the hand is over', 'R-ALL-14');
    const player = this.toMove;
    if (action === 'draw') throw new Refusal('illegal_action', 'no drawing', 'R-SZC-01');
    if (action === 'stop') throw new Refusal('illegal_action', 'no extra tile', 'R-ALL-13');
    const events = [];
    if (action === 'pass') {
      if (this.placements(player).length) {
        throw new Refusal('illegal_action', 'a player who can place must place', 'R-SZC-06');
      }
      this.passes += 1;
      this.toMove = 1 - player;
      events.push({ type: 'pass', player });
      this.checkEnd(events);
      return events;
    }
    const tile = [Number(m[1]), Number(m[2])];
    const touch = Number(m[4]);
    const index = this.hands[player].findIndex((t) => text(t) === text(tile));
    if (index < 0) throw new Refusal('illegal_action', `${text(tile)} is not in the hand`, 'R-ALL-12');
    if (m[3] !== 'R') throw new Refusal('illegal_action', 'one end only', 'R-SZC-03');
    if (!this.placements(player).some(([t, h]) => text(t) === text(tile) && h === touch)) {
      throw new Refusal('illegal_action', `${action} does not fit the open ${this.end}`, 'R-SZC-04');
    }
    const other = touch === tile[0] ? tile[1] : tile[0];
    this.hands[player].splice(index, 1);
    this.chain.push([touch, other]);
    this.end = other;
    this.passes = 0;
    this.lastPlaced[player] = text(tile);
    this.toMove = 1 - player;
    events.push({ type: 'place', player, action });
    this.checkEnd(events);
    return events;
  }

  // End the hand by domino or block, checked after every action (R-ALL-10).
  checkEnd(events) {
    const empty = [0, 1].filter((p) => this.hands[p].length === 0);
    if (empty.length) {
      this.finish(empty[0], 'domino', events);
    } else if (!this.placements(0).length && !this.placements(1).length) {
      const left = [pips(this.hands[0]), pips(this.hands[1])];
      this.finish(left[0] === left[1] ? null : left[0] < left[1] ? 0 : 1, 'block', events);
    }
  }

  finish(winner, reason, events) {
    const left = [pips(this.hands[0]), pips(this.hands[1])];
    const points = [0, 0];
    const terms = [];
    if (winner !== null) {
      for (const [term, amount] of [['opponent_pips', left[1 - winner]], ['own_pips', -left[winner]]]) {
        if (amount) terms.push({ term, player: winner, points: amount, rule: 'R-SZC-07' });
      }
      points[winner] = left[1 - winner] - left[winner];
    }
    this.result = { winner, reason, points, pips: left, terms };
    this.toMove = null;
    events.push({ type: 'end', result: this.result });
  }

  toJSON() {
    return {
      variant: VARIANT, options: {},
      hands: this.hands.map((h) => h.map(text)), stock: [], out_of_play: [],
      table: { kind: 'chain', tiles: this.chain.map((t) => [...t]), left: null, right: this.end },
      starter: this.starter, to_move: this.toMove, turn: { draws: 0, extra: false },
      passes: this.passes, points: [0, 0], last_placed: [...this.lastPlaced],
      widow: [...this.widow], result: this.result,
    };
  }
}

class Match {
  constructor(firstStarter) {
    if (firstStarter !== 0 && firstStarter !== 1) throw new Refusal('bad_request', 'first_starter');
    this.firstStarter = firstStarter;
    this.handsPlayed = 0;
    this.totals = [0, 0];
    this.winner = null;
  }

  add(result) {
    this.handsPlayed += 1;
    this.totals = this.totals.map((t, p) => t + result.points[p]);
    const reached = [0, 1].filter((p) => this.totals[p] >= TARGET);
    if (reached.length) this.winner = reached.reduce((x, y) => (this.totals[y] > this.totals[x] ? y : x));
  }

  toJSON() {
    const finished = this.winner !== null;
    return {
      variant: VARIANT, options: {}, first_starter: this.firstStarter,
      hands_played: this.handsPlayed, totals: [...this.totals],
      next: finished ? null : { starter: null, hand_sizes: [10, 10] },
      winner: this.winner, finished,
    };
  }
}

// The protocol's verbs, as plain methods (an engine's own API would do as well).
class Engine {
  constructor() { this.hand = null; this.match = null; }

  checkVariant(req) {
    if (req.variant !== VARIANT) throw new Refusal('unsupported', `only ${VARIANT} is played here`);
    if (req.options && Object.keys(req.options).length) {
      throw new Refusal('unsupported', 'Szczerbak has no options');
    }
  }

  current() {
    if (this.hand === null) throw new Refusal('no_hand', 'no hand in progress');
    return this.hand;
  }

  new_hand(req) {
    this.checkVariant(req);
    this.hand = new Hand(req.deal || {});
    this.match = null;
    return this.hand.toJSON();
  }

  legal() { return this.current().legal(); }

  apply(req) {
    const hand = this.current();
    const events = hand.apply(req.action);
    if (this.match !== null && hand.result !== null) this.match.add(hand.result);
    return events;
  }

  state() { return this.current().toJSON(); }

  new_match(req) {
    this.checkVariant(req);
    this.match = new Match(req.first_starter);
    this.hand = null;
    return this.match.toJSON();
  }

  next_hand(req) {
    if (this.match === null) throw new Refusal('no_match', 'no match in progress');
    if (this.match.winner !== null) throw new Refusal('bad_request', 'the match is over');
    if (this.hand !== null && this.hand.result === null) {
      throw new Refusal('bad_request', 'the current hand has not ended');
    }
    const hand = new Hand(req.deal || {}, true);
    this.hand = hand;
    if (hand.result !== null) this.match.add(hand.result);
    return hand.toJSON();
  }

  match_state() {
    if (this.match === null) throw new Refusal('no_match', 'no match in progress');
    return this.match.toJSON();
  }

  // The answer to one raw line: a line that is not JSON gets an error with seq null.
  line(bytes) {
    try {
      const request = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
      if (typeof request !== 'object' || request === null || !Number.isInteger(request.seq)) {
        return { seq: null, error: { code: 'bad_request', message: 'no seq' } };
      }
      return { seq: request.seq, result: this.send(request) };
    } catch (error) {
      const code = error instanceof Refusal ? error.code : 'bad_request';
      return { seq: null, error: { code, message: error.message } };
    }
  }

  send(request) {
    const verb = { legal: 'legal', state: 'state', match_state: 'match_state' }[request.cmd];
    if (verb) return this[verb]();
    if (!['new_hand', 'apply', 'new_match', 'next_hand'].includes(request.cmd)) {
      throw new Refusal('unsupported', `unknown command ${request.cmd}`);
    }
    return this[request.cmd](request);
  }
}

// ------------------------------------------------------------------------ the vector runner

// A legal set as the vectors hold it: the sorted list, or a count and the sha256 of the
// sorted actions joined by "\n" (UTF-8, no final newline) when there are more than 40.
function checkLegal(what, want, got) {
  const sorted = [...new Set(got)].sort();
  if (want.actions) {
    const missing = want.actions.filter((a) => !sorted.includes(a));
    const extra = sorted.filter((a) => !want.actions.includes(a));
    if (missing.length || extra.length) {
      throw new Error(`${what}: legal set differs: missing [${missing}], extra [${extra}]`);
    }
    return;
  }
  const digest = crypto.createHash('sha256').update(sorted.join('\n'), 'utf8').digest('hex');
  if (sorted.length !== want.count || digest !== want.sha256) {
    throw new Error(`${what}: expected ${want.count} legal actions (sha256 ${want.sha256.slice(0, 12)}), `
      + `got ${sorted.length} (sha256 ${digest.slice(0, 12)})`);
  }
}

function same(what, want, got) {
  try {
    assert.deepStrictEqual(JSON.parse(JSON.stringify(got)), want);
  } catch (error) {
    throw new Error(`${what} differs: expected ${JSON.stringify(want)}, got ${JSON.stringify(got)}`);
  }
}

const withoutPhase = ({ phase, ...rest }) => rest;

function checkHand(v) {
  const engine = new Engine();
  same('start state', v.start, engine.new_hand(v));
  v.steps.forEach((step, i) => {
    checkLegal(`step ${i + 1}`, step.legal, engine.legal());
    same(`step ${i + 1}: events of ${step.action}`, step.events, engine.apply(step));
    same(`step ${i + 1}: state`, step.state, engine.state());
  });
  checkLegal('after the last step', v.final_legal, engine.legal());
  same('result', v.result, engine.state().result);
}

function snapshot(engine) {
  const out = {};
  for (const verb of ['state', 'match_state']) {
    try { out[verb] = engine[verb](); } catch (error) { out[verb] = { error: error.code }; }
  }
  return JSON.parse(JSON.stringify(out));
}

function checkRefusal(v) {
  const engine = new Engine();
  v.setup.forEach((request, i) => {
    try { engine.send(request); } catch (error) {
      throw new Error(`setup request ${i + 1} (${request.cmd}) was refused: ${error.message}`);
    }
  });
  const before = snapshot(engine);
  if (v.line_base64 !== undefined) {
    const reply = engine.line(Buffer.from(v.line_base64, 'base64'));
    if (reply.seq !== null || !reply.error || reply.error.code !== v.error.code) {
      throw new Error(`expected an error reply with seq null and code ${v.error.code}, got ${JSON.stringify(reply)}`);
    }
  } else {
    let refusal = null;
    try { engine.send(v.request); } catch (error) { refusal = error; }
    if (refusal === null) throw new Error(`accepted ${JSON.stringify(v.request)}; expected ${v.error.code}`);
    if (!(refusal instanceof Refusal)) throw refusal;
    if (refusal.code !== v.error.code) {
      throw new Error(`refused with code ${refusal.code}, expected ${v.error.code}`);
    }
    const needsRule = v.error.code === 'illegal_action' || v.error.rule !== null;
    if (needsRule && refusal.rule !== v.error.rule) {
      throw new Error(`refused citing ${refusal.rule}, expected ${v.error.rule}`);
    }
  }
  same('state and match_state after the refusal', before, snapshot(engine));
}

// Perft: sequences of `depth` actions; a sequence whose last action ends the hand counts
// but is not extended. Each node is reached by replaying its path from the deal.
function perft(v, path, depth) {
  const engine = new Engine();
  engine.new_hand(v);
  for (const action of [...v.actions, ...path]) engine.apply({ action });
  if (depth === 0 || engine.hand.result !== null) return 1;
  let total = 0;
  for (const action of engine.legal()) total += perft(v, [...path, action], depth - 1);
  return total;
}

function checkPerft(v) {
  for (const { depth, count, divide } of v.counts) {
    const engine = new Engine();
    engine.new_hand(v);
    for (const action of v.actions) engine.apply({ action });
    const got = {};
    for (const action of engine.legal()) got[action] = perft(v, [action], depth - 1);
    const total = Object.values(got).reduce((x, y) => x + y, 0);
    if (total !== count) throw new Error(`perft(${depth}) = ${total}, expected ${count}`);
    if (divide) same(`perft(${depth}) per first action`, divide, got);
  }
}

function checkMatch(v) {
  const engine = new Engine();
  same('match at the start', v.start, withoutPhase(engine.new_match(v)));
  v.hands.forEach((hand, i) => {
    same(`hand ${i + 1}: start state`, hand.start, engine.next_hand(hand));
    for (const action of hand.actions) engine.apply({ action });
    same(`hand ${i + 1}: match state after it`, hand.match, withoutPhase(engine.match_state()));
  });
}

const CHECKS = { hands: checkHand, refusals: checkRefusal, perft: checkPerft, matches: checkMatch };

function main() {
  const folder = process.argv[2]
    || path.join(__dirname, '..', '..', 'conformance', 'vectors', VARIANT);
  let passed = 0;
  const failures = [];
  for (const kind of Object.keys(CHECKS)) {
    const file = path.join(folder, `${kind}.json`);
    const data = JSON.parse(fs.readFileSync(file, 'utf8'));
    if (data.format_version !== 1 || data.variant !== VARIANT) {
      throw new Error(`${file}: not format 1 vectors of ${VARIANT}`);
    }
    for (const vector of data.vectors) {
      try {
        CHECKS[kind](vector);
        passed += 1;
      } catch (error) {
        failures.push(`FAIL ${kind}.json ${vector.id} (rules ${vector.rules.join(', ')}): ${error.message}`);
      }
    }
  }
  for (const line of failures) console.log(line);
  console.log(`${passed} passed, ${failures.length} failed`);
  process.exitCode = failures.length ? 1 : 0;
}

main();
