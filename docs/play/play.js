// The play pages' glue: load Pyodide and the engine bundle (both vendored into the built
// site), call dominokit.rulebook.playroom, and put what it returns into the page. Every rule,
// every legal action, every refusal and every score comes from the Python reference; the
// table is the SVG the rule book's own diagram code draws. Nothing here decides a rule.
(function () {
  "use strict";
  const root = document.getElementById("dk-play");
  if (!root) return;
  const cfg = root.dataset;
  const L = JSON.parse(cfg.labels || "{}");
  const siteRoot = cfg.siteRoot || "./";
  const langRoot = cfg.langRoot || siteRoot;
  let call = null;  // set once the engine answers
  let selected = "";
  let pending = "";  // the first clicked cell of a two-click board placement
  let view = null;

  function el(tag, attrs, text) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function part(name) {
    let node = root.querySelector(".dk-" + name);
    if (!node) { node = el("div", { class: "dk-" + name }); root.appendChild(node); }
    return node;
  }

  function hashRequest() {
    const out = {};
    const params = new URLSearchParams(location.hash.replace(/^#/, ""));
    const options = {};
    for (const [k, v] of params) {
      if (k.startsWith("o.")) options[k.slice(2)] = v;
      else if (k === "moves") out.moves = v ? v.split(",") : [];
      else out[k] = v;
    }
    out.options = options;
    return out;
  }

  // The engine runs in a worker (engine-worker.js), so the page never freezes while Pyodide
  // starts or the engine thinks. A book opened from file:// cannot start a worker: there the
  // same engine runs on the page's thread (engine-file.js, loaded only then) behind the same
  // message interface. Calls are queued: each click is answered in order, and the root's
  // data-version counts the answers (tests wait for it to move after a click).
  let worker = null;
  let queue = Promise.resolve();
  let serial = 0;
  let version = 0;

  function rpc(op, args) {
    const id = ++serial;
    const answer = () => new Promise((resolve, reject) => {
      const listen = (event) => {
        if (event.data.id !== id) return;
        worker.removeEventListener("message", listen);
        if (event.data.ok) resolve(JSON.parse(event.data.result));
        else reject(new Error(event.data.error));
      };
      worker.addEventListener("message", listen);
      worker.postMessage({ id, op, args });
    });
    root.dataset.busy = "true";
    queue = queue.then(answer).then((v) => { render(v); return v; })
      .finally(() => { root.dataset.busy = "false"; });
    return queue;
  }

  async function boot() {
    root.dataset.state = "loading";
    part("status").textContent = L.loading;
    const started = performance.now();
    worker = await startEngine();
    worker.addEventListener("error", (event) => fail(event.message || "worker failed"));
    const request = Object.assign({ variant: cfg.variant, lang: cfg.lang, mode: cfg.mode,
      trace: cfg.trace }, cfg.mode === "trace" ? {} : hashRequest());
    if (cfg.mode !== "trace") request.mode = "play";
    await rpc("start", [request]);
    call = true;
    root.dataset.bootMs = String(Math.round(performance.now() - started));
    root.dataset.readyMs = String(Math.round(performance.now()));  // since navigation start
    part("status").textContent = "";
    root.dataset.state = "ready";
  }

  function startEngine() {
    if (location.protocol !== "file:") {
      return Promise.resolve(new Worker(siteRoot + "play/engine-worker.js"));
    }
    const playURL = new URL(siteRoot + "play/", location.href).href;
    return new Promise((resolve, reject) => {
      const script = el("script", { src: playURL + "engine-file.js" });
      script.onload = () => self.dkFileEngine(playURL).then(resolve, reject);
      script.onerror = () => reject(new Error("could not load " + script.src));
      document.head.appendChild(script);
    });
  }

  function act(verb, kind, value) {
    rpc("call", [verb, kind || "", value || "", selected || ""]).catch((err) => {
      part("status").textContent = String(err);
      root.dataset.state = "error";
    });
  }

  function render(v) {
    view = v;
    root.dataset.version = String(++version);
    root.dataset.legalCount = String(v.legal_count);
    root.dataset.legal = JSON.stringify(v.legal);
    root.dataset.toMove = v.to_move === null ? "" : String(v.to_move);
    root.dataset.points = JSON.stringify(v.state.points);
    root.dataset.over = v.result ? "true" : "false";
    if (v.result) root.dataset.scores = JSON.stringify(v.result.points);
    else delete root.dataset.scores;
    if (cfg.mode === "trace") {
      root.dataset.hand = String(v.hand);
      root.dataset.step = String(v.step);
      root.dataset.events = JSON.stringify(v.events);
      root.dataset.atEnd = v.at_end ? "true" : "false";
    }
    if (cfg.mode !== "trace") renderForm(v);
    renderTurn(v);
    part("table").innerHTML = v.svg;
    renderHands(v);
    renderActions(v);
    renderRefusal(v);
    renderResult(v);
    renderLog(v);
    if (cfg.mode === "trace") renderStepper(v);
  }

  function renderForm(v) {
    const form = part("form");
    if (form.dataset.done) return;
    form.dataset.done = "1";
    const fields = [];
    const seed = el("input", { type: "number", name: "seed", value: String(v.seed), min: "0" });
    fields.push([L.seed, seed]);
    for (const spec of v.option_specs) {
      const select = el("select", { name: "o." + spec.name, title: spec.words });
      spec.values.forEach((value, i) => {
        const option = el("option", { value: String(value) }, spec.value_labels[i]);
        if (String(value) === String(v.options[spec.name])) option.selected = true;
        select.appendChild(option);
      });
      fields.push([spec.label, select]);
    }
    const opponent = el("select", { name: "opponent" });
    for (const name of ["first", "random"]) {
      const option = el("option", { value: name }, L["opponent_" + name]);
      if (name === v.opponent) option.selected = true;
      opponent.appendChild(option);
    }
    fields.push([L.opponent, opponent]);
    const seat = el("select", { name: "seat" });
    for (const name of ["0", "1", "both"]) {
      const option = el("option", { value: name }, L["seat_" + name]);
      if (name === v.seat) option.selected = true;
      seat.appendChild(option);
    }
    fields.push([L.seat, seat]);
    for (const [label, input] of fields) {
      const wrap = el("label", { class: "dk-field" }, label + " ");
      wrap.appendChild(input);
      form.appendChild(wrap);
    }
    const deal = el("button", { type: "button", class: "md-button dk-deal" }, L.deal);
    deal.addEventListener("click", () => {
      const params = new URLSearchParams();
      for (const input of form.querySelectorAll("input, select")) params.set(input.name, input.value);
      location.hash = params.toString();
      location.reload();
    });
    form.appendChild(deal);
  }

  function shareLink(v) {
    const params = new URLSearchParams();
    params.set("seed", String(v.seed));
    for (const [k, value] of Object.entries(v.options)) params.set("o." + k, String(value));
    params.set("opponent", v.opponent);
    params.set("seat", v.seat);
    if (v.link_moves.length) params.set("moves", v.link_moves.join(","));
    return location.pathname + "#" + params.toString();
  }

  function renderTurn(v) {
    const turn = part("turn");
    turn.textContent = "";
    if (v.result) turn.textContent = L.over;
    else turn.textContent = (v.yours && cfg.mode !== "trace" ? L.your_turn : L.their_turn)
      .replace("{p}", v.to_move);
    if (cfg.mode !== "trace") {
      const link = el("a", { class: "dk-share", href: shareLink(v) }, L.share);
      turn.append(" · ", link);
    }
  }

  function renderHands(v) {
    const hands = part("hands");
    hands.textContent = "";
    v.hands.forEach((hand, player) => {
      const row = el("div", { class: "dk-hand", "data-player": String(player) });
      row.appendChild(el("span", { class: "dk-hand-label" }, L.hand.replace("{p}", player) + " "));
      const mine = v.seat === "both" || v.seat === String(player);
      const open = mine || cfg.mode === "trace" || v.result;
      for (const t of hand) {
        if (!open) { row.appendChild(el("span", { class: "dk-hidden-tile" }, "▮")); continue; }
        const button = el("button", { type: "button", class: "dk-hand-tile", "data-tile": t.tile,
          title: t.tile });
        if (t.tile === selected && mine) button.classList.add("dk-selected");
        if (mine && v.legal.some((a) => a === t.tile || a.startsWith(t.tile + "@"))) {
          button.classList.add("dk-playable");
        }
        button.innerHTML = t.svg;
        if (!mine || cfg.mode === "trace") button.disabled = true;
        row.appendChild(button);
      }
      hands.appendChild(row);
    });
  }

  function renderActions(v) {
    const box = part("actions");
    box.textContent = "";
    box.appendChild(el("span", { class: "dk-actions-label" }, L.legal + " (" + v.legal_count + "): "));
    const shown = v.legal.length > 200 && selected ? v.legal.filter((a) => a.startsWith(selected + "@")) : v.legal;
    for (const a of shown.slice(0, 400)) {
      const button = el("button", { type: "button", class: "dk-action dk-legal", "data-action": a }, a);
      if (cfg.mode === "trace") button.disabled = true;
      box.appendChild(button);
    }
    if (cfg.mode === "trace") return;
    const fixed = el("div", { class: "dk-fixed" });
    for (const verb of ["draw", "pass", "stop"]) {
      const button = el("button", { type: "button", class: "md-button dk-verb", "data-action": verb },
        L[verb]);
      if (v.legal.includes(verb)) button.classList.add("dk-legal-verb");
      fixed.appendChild(button);
    }
    const undo = el("button", { type: "button", class: "md-button dk-undo" }, L.undo);
    undo.disabled = !v.can_undo;
    fixed.appendChild(undo);
    box.appendChild(fixed);
  }

  function ruleLink(rule) {
    const a = el("a", { href: langRoot + rule.href, class: "dk-rule-link" }, rule.id);
    return a;
  }

  function renderRefusal(v) {
    const box = part("refusal");
    box.textContent = "";
    if (!v.refusal) return;
    const r = v.refusal;
    box.appendChild(el("strong", {}, L.illegal.replace("{a}", r.action) + " "));
    if (r.rule) {
      box.appendChild(ruleLink(r.rule));
      box.appendChild(el("span", { class: "dk-rule-title" }, " " + r.rule.title + ": "));
      box.appendChild(el("span", { class: "dk-rule-words" }, r.rule.words));
    } else {
      box.appendChild(el("span", {}, r.message === "not_your_turn" ? L.not_your_turn : r.message));
    }
  }

  function renderResult(v) {
    const box = part("result");
    box.textContent = "";
    if (!v.result) return;
    const res = v.result;
    const who = res.winner === null ? L.nobody : L.winner.replace("{p}", res.winner);
    box.appendChild(el("p", {}, who + " (" + (L["reason_" + res.reason] || res.reason) + "). " +
      L.points + ": " + res.points.join(" : ")));
    const table = el("table", { class: "dk-terms" });
    const head = el("tr");
    for (const h of [L.term, L.player, L.points, L.rule]) head.appendChild(el("th", {}, h));
    table.appendChild(head);
    for (const term of res.terms) {
      const row = el("tr");
      row.appendChild(el("td", {}, term.term));
      row.appendChild(el("td", {}, "P" + term.player));
      row.appendChild(el("td", {}, String(term.points)));
      const cell = el("td");
      cell.appendChild(ruleLink(term.rule_info));
      cell.appendChild(document.createTextNode(" " + term.rule_info.title));
      row.appendChild(cell);
      table.appendChild(row);
    }
    box.appendChild(table);
  }

  function eventText(e) {
    let text = "P" + e.player + " ";
    if (e.type === "place") text += e.action + (e.points ? " +" + e.points : "");
    else if (e.type === "draw") text += L.draw + " " + (e.tile || "");
    else if (e.type === "lake") text += L.lake + " +" + e.points;
    else if (e.type === "end") text = L.over;
    else text += L[e.type] || e.type;
    return text;
  }

  function renderLog(v) {
    const log = part("log");
    log.textContent = "";
    const list = el("ol", {});
    for (const m of v.moves) {
      list.appendChild(el("li", {}, m.events.map(eventText).join("; ")));
    }
    log.appendChild(list);
  }

  function renderStepper(v) {
    const box = part("stepper");
    box.textContent = "";
    const back = el("button", { type: "button", class: "md-button dk-back" }, "◀ " + L.back);
    back.disabled = v.at_start;
    const forward = el("button", { type: "button", class: "md-button dk-forward" }, L.forward + " ▶");
    forward.disabled = v.at_end;
    box.append(back, " ", forward, " ",
      L.step.replace("{h}", v.hand + 1).replace("{hs}", v.hands_total)
        .replace("{s}", v.step).replace("{ss}", v.steps_total), " · ");
    const params = new URLSearchParams({ trace: cfg.trace, hand: String(v.hand), step: String(v.step) });
    box.appendChild(el("a", { class: "dk-position-link", href: cfg.playPage + "#" + params }, L.open_here));
    if (v.events.length) box.appendChild(el("div", { class: "dk-events" }, v.events.map(eventText).join("; ")));
  }

  root.addEventListener("click", (event) => {
    if (!call) return;
    const target = event.target.closest("[data-action], [data-tile], [data-end], [data-cell], .dk-undo, .dk-back, .dk-forward");
    if (!target || target.disabled) return;
    if ((target.dataset.end || target.dataset.cell) && !selected) {
      part("refusal").textContent = L.pick_tile;
      return;
    }
    if (target.dataset.cell) {
      if (!pending) { pending = target.dataset.cell; target.classList.add("dk-pending"); return; }
      const cells = pending + "+" + target.dataset.cell;
      pending = "";
      act("click", "cells", cells);
      selected = "";
      return;
    }
    pending = "";
    if (target.classList.contains("dk-forward")) act("forward");
    else if (target.classList.contains("dk-back")) act("back");
    else if (target.classList.contains("dk-undo")) { selected = ""; act("undo"); }
    else if (target.dataset.tile) { selected = selected === target.dataset.tile ? "" : target.dataset.tile; act("view"); }
    else if (target.dataset.end) { act("click", "end", target.dataset.end); selected = ""; }
    else if (target.dataset.action) { act("click", "action", target.dataset.action); selected = ""; }
  });

  if (cfg.mode === "trace") {
    const start = el("button", { type: "button", class: "md-button md-button--primary dk-start" }, L.start);
    start.addEventListener("click", () => { start.remove(); boot().catch(fail); });
    root.appendChild(start);
  } else {
    boot().catch(fail);
  }

  function fail(err) {
    root.dataset.state = "error";
    part("status").textContent = L.failed + " " + String(err);
  }
})();
