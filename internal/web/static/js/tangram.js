// Tangram: drag the seven tans onto a figure, turn them by 45 degrees and
// flip them; the server checks the tiling exactly. Coordinates are exact
// as in package tangram: a number is (a + b√2)/2 with integers a and b,
// a point [xa, xb, ya, yb]. A tan is placed as the server's tans
// (GET /api/tangram/figures) turned by its orientation o (45-degree turns
// in bits 0-2, a mirror image x -> -x first when bit 3 is set) about its
// first vertex and moved by t. A dropped tan snaps exactly: one of its
// vertices onto the nearest vertex of the figure or of another tan, when
// one is near; else onto the half-unit grid.

import { api, notify, Clock, el, formatDuration, formatMS, pauseWhenHidden, plural, solverNote, onPageKey } from './api.js';
import { savesPanel } from './saves.js';
import { Job, pageJob } from './jobs.js';

const $ = (id) => document.getElementById(id);
const ui = {
  status: $('status'), board: $('board'), figureName: $('figure-name'), moves: $('moves'), time: $('time'),
  turnLeft: $('turn-left'), turnRight: $('turn-right'), flip: $('flip'), restart: $('restart'), auto: $('auto'),
  category: $('category'), figures: $('figures'),
  ownText: $('own-text'), ownUse: $('own-use'), ownFile: $('own-file'), draw: $('draw'), drawUse: $('draw-use'),
  solver: $('solver'), stop: $('stop'), solverNote: $('solver-note'),
  statSolved: $('stat-solved'), statWork: $('stat-work'), statTime: $('stat-time'),
  stripBox: $('strip-box'), strip: $('strip'), stripCaption: $('strip-caption'),
};
const SVG = 'http://www.w3.org/2000/svg';
const R2 = Math.SQRT2;
const COLOURS = ['#e6194b', '#3cb44b', '#0082c8', '#f58230', '#911eb4', '#ffe119', '#46f0f0'];
const SNAP = 0.35; // world units: a dropped tan's vertex this near another vertex snaps onto it
const reduced = matchMedia('(prefers-reduced-motion: reduce)').matches;

const game = {
  tans: [], // [{name, shape: [point]}]
  figures: [],
  figure: null, // {name, category, source, silhouette}
  pieces: [], // [{t: point, o}]
  moves: 0,
  clock: new Clock(),
  chosen: -1,
  filled: false,
  ghost: null, // poses of an Algorithm 2 iterate shown over the board: [{x, y, o}]
  drawing: null, // the corners tapped in draw mode: [[x, y]] integers
  world: null, // {x0, y0, x1, y1}
  checkSeq: 0,
  laying: null, // the timer laying a solution piece by piece
  job: new Job('tessera.tangram.job'),
};

// ---- exact arithmetic ---------------------------------------------------

const num = (a, b) => (a + b * R2) / 2;
const fx = (p) => num(p[0], p[1]);
const fy = (p) => num(p[2], p[3]);
const add = (p, q) => p.map((v, i) => v + q[i]);
const sub = (p, q) => p.map((v, i) => v - q[i]);
// divR2 divides (a + b√2)/2 by √2: (b + (a/2)√2)/2, exact for even a.
const divR2 = (a, b) => [b, a / 2];

// oriented turns shape as o says about its first vertex (tangram.Polygon.Oriented).
function oriented(shape, o) {
  const p0 = shape[0];
  const out = shape.map((p) => {
    let v = sub(p, p0);
    if (o & 8) v = [-v[0], -v[1], v[2], v[3]];
    let t = o & 7;
    for (; t >= 2; t -= 2) v = [-v[2], -v[3], v[0], v[1]];
    if (t === 1) {
      const d = [v[0] - v[2], v[1] - v[3]];
      const s = [v[0] + v[2], v[1] + v[3]];
      v = [...divR2(...d), ...divR2(...s)];
    }
    return add(p0, v);
  });
  if (o & 8) return [out[0], ...out.slice(1).reverse()];
  return out;
}

const placed = (k, pl = game.pieces[k]) => oriented(game.tans[k].shape, pl.o).map((v) => add(v, pl.t));
const floats = (pg) => pg.map((p) => [fx(p), fy(p)]);
const centroid = (pts) => pts.reduce(([x, y], [u, v]) => [x + u / pts.length, y + v / pts.length], [0, 0]);
const gridPoint = (x, y) => [Math.round(2 * x), 0, Math.round(2 * y), 0];

function bbox(pts) {
  const xs = pts.map((p) => p[0]);
  const ys = pts.map((p) => p[1]);
  return { x0: Math.min(...xs), y0: Math.min(...ys), x1: Math.max(...xs), y1: Math.max(...ys) };
}

// ---- layout ---------------------------------------------------------------

// trayPieces lays the tans unturned in rows below the figure, centred
// under it, at exact points of the half-unit grid.
function trayPieces(fig) {
  const b = bbox(floats(fig.silhouette));
  const width = Math.max(b.x1 - b.x0, 6.7);
  const left = Math.floor((b.x0 + b.x1) / 2 - width / 2);
  let x = left;
  let top = Math.floor(b.y0) - 1;
  let rowH = 0;
  return game.tans.map((tan) => {
    const s = bbox(floats(tan.shape));
    const w = s.x1 - s.x0;
    const h = s.y1 - s.y0;
    if (x + w > left + width + 0.01 && rowH > 0) {
      x = left;
      top -= rowH + 0.5;
      rowH = 0;
    }
    const t = gridPoint(Math.ceil(2 * (x - s.x0)) / 2, Math.floor(2 * (top - s.y1)) / 2);
    x += w + 0.5;
    rowH = Math.max(rowH, h);
    return { t, o: 0 };
  });
}

// worldBox is what the board shows: the figure, the tray and every tan.
function worldBox() {
  const pts = floats(game.figure.silhouette);
  for (const pl of trayPieces(game.figure).map((p, k) => placed(k, p))) pts.push(...floats(pl));
  const b = bbox(pts);
  const m = 0.4;
  return { x0: b.x0 - m, y0: b.y0 - m, x1: b.x1 + m, y1: b.y1 + m };
}

// ---- drawing --------------------------------------------------------------

function svg(tag, attrs = {}) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  return e;
}
const pointsAttr = (pts) => pts.map(([x, y]) => `${x.toFixed(4)},${y.toFixed(4)}`).join(' ');

let root = null; // the board's content, flipped so that y points up
const tanEls = [];

function draw() {
  const w = game.world;
  ui.board.setAttribute('viewBox', `${w.x0} ${-w.y1} ${w.x1 - w.x0} ${w.y1 - w.y0}`);
  ui.board.style.setProperty('--ar', String((w.x1 - w.x0) / (w.y1 - w.y0))); // the board hugs the figure and the tray
  root = svg('g', { transform: 'scale(1,-1)' });
  root.append(svg('polygon', { class: 'silhouette', points: pointsAttr(floats(game.figure.silhouette)) }));
  if (game.drawing) drawGrid(root);
  tanEls.length = 0;
  const order = game.tans.map((_, k) => k).filter((k) => k !== game.chosen);
  if (game.chosen >= 0) order.push(game.chosen); // the chosen tan on top
  for (const k of order) {
    const pts = game.ghost ? ghostPoints(k) : floats(placed(k));
    const e = svg('polygon', {
      class: `tan${k === game.chosen ? ' chosen' : ''}${game.ghost ? ' ghost' : ''}`,
      points: pointsAttr(pts), fill: COLOURS[k % COLOURS.length], 'data-k': k, 'data-name': game.tans[k].name,
    });
    tanEls[k] = e;
    root.append(e);
  }
  ui.board.replaceChildren(root);
  ui.board.dataset.filled = String(game.filled);
  ui.board.dataset.pieces = JSON.stringify(game.pieces);
  ui.figureName.textContent = game.figure.name;
  ui.moves.textContent = game.moves;
  const busy = game.job.running;
  ui.auto.disabled = busy;
  ui.stop.disabled = !busy;
  for (const b of [ui.turnLeft, ui.turnRight, ui.flip]) b.disabled = busy || game.chosen < 0;
  ui.restart.disabled = busy;
  ui.drawUse.disabled = !game.drawing || game.drawing.length < 3;
  for (const f of ui.figures.children) f.setAttribute('aria-pressed', String(f.dataset.name === game.figure.name));
}
setInterval(() => { ui.time.textContent = formatDuration(game.clock.ms()); }, 250);
pauseWhenHidden(() => game.clock, () => game.moves > 0 && !game.filled);

function ghostPoints(k) {
  const g = game.ghost[k];
  return floats(oriented(game.tans[k].shape, g.o)).map(([x, y]) => [x + g.x, y + g.y]);
}

// ---- playing --------------------------------------------------------------

// check asks the server whether the tans fill the figure; only the answer
// to the latest question counts.
// quiet: a board just dealt or loaded, whose status is said already,
// unless it is filled.
async function check(quiet = false) {
  const seq = ++game.checkSeq;
  let res;
  try {
    res = await api('POST', '/api/tangram/check', { silhouette: game.figure.silhouette, pieces: game.pieces });
  } catch (e) {
    notify(`Cannot check: ${e.message}`, 'error');
    return;
  }
  if (seq !== game.checkSeq) return;
  game.filled = res.filled;
  if (res.filled) {
    game.clock.stop();
    notify(`Filled! The seven tans make ${game.figure.name}: ${plural(game.moves, 'move')} in ${formatDuration(game.clock.ms())}.`, 'victory');
  } else if (!quiet) {
    const on = onFigure();
    notify(`${on} of 7 tans on the figure${on === 7 ? `: ${res.message}` : ''}.`);
  }
  draw();
}

// onFigure counts the tans whose centre lies inside the figure's box.
function onFigure() {
  const b = bbox(floats(game.figure.silhouette));
  return game.pieces.filter((_, k) => {
    const [x, y] = centroid(floats(placed(k)));
    return x > b.x0 && x < b.x1 && y > b.y0 && y < b.y1;
  }).length;
}

function moved() {
  game.moves++;
  game.clock.start();
  game.filled = false;
  draw();
  check();
}

// snapped returns tan k's exact translation for orientation o near the
// float translation (x, y): a vertex onto the nearest vertex of the
// figure or another tan within SNAP, else onto the half-unit grid.
function snapped(k, o, x, y) {
  const shape = oriented(game.tans[k].shape, o);
  const anchors = [...game.figure.silhouette];
  game.pieces.forEach((_, j) => { if (j !== k) anchors.push(...placed(j)); });
  let best = null;
  let bestD = SNAP;
  for (const v of shape) {
    const vx = fx(v) + x;
    const vy = fy(v) + y;
    for (const a of anchors) {
      const d = Math.hypot(fx(a) - vx, fy(a) - vy);
      if (d < bestD) {
        bestD = d;
        best = sub(a, v);
      }
    }
  }
  return best || gridPoint(x, y);
}

// clampT keeps a tan's float translation within the board.
function clampT(k, o, x, y) {
  const s = bbox(floats(oriented(game.tans[k].shape, o)));
  const w = game.world;
  return [Math.min(Math.max(x, w.x0 - s.x0), w.x1 - s.x1), Math.min(Math.max(y, w.y0 - s.y0), w.y1 - s.y1)];
}

function moveTo(k, x, y) {
  const pl = game.pieces[k];
  [x, y] = clampT(k, pl.o, x, y);
  game.pieces[k] = { t: snapped(k, pl.o, x, y), o: pl.o };
  moved();
}

// turn turns tan k by 45° steps (dir 1 counter-clockwise) about its centre.
function reorient(k, o) {
  if (k < 0 || busy()) return;
  const [cx, cy] = centroid(floats(placed(k)));
  const [nx, ny] = centroid(floats(oriented(game.tans[k].shape, o)));
  let [x, y] = clampT(k, o, cx - nx, cy - ny);
  game.pieces[k] = { t: snapped(k, o, x, y), o };
  moved();
}
const turn = (k, dir) => reorient(k, (game.pieces[k].o & 8) | ((game.pieces[k].o + dir + 8) & 7));
// flip mirrors tan k (x -> -x) in place: the turn is mirrored too.
const flip = (k) => reorient(k, (game.pieces[k].o ^ 8) & 8 | ((8 - (game.pieces[k].o & 7)) & 7));

const busy = () => game.job.running || game.laying !== null;

function choose(k) {
  game.chosen = k;
  draw();
}

// ---- pointer: drag a tan, tap to turn it; in draw mode, tap corners ----

function worldAt(ev) {
  const pt = ui.board.createSVGPoint();
  pt.x = ev.clientX;
  pt.y = ev.clientY;
  const p = pt.matrixTransform(ui.board.getScreenCTM().inverse());
  return [p.x, -p.y];
}

let drag = null;
ui.board.addEventListener('pointerdown', (ev) => {
  if (game.drawing) {
    const [x, y] = worldAt(ev);
    game.drawing.push([Math.round(x), Math.round(y)]);
    draw();
    return;
  }
  const k = Number(ev.target.dataset?.k ?? -1);
  if (ev.target.dataset?.k === undefined || busy() || game.ghost) return;
  ev.preventDefault(); // no scrolling or text selection; the keys go to the board
  ui.board.focus({ preventScroll: true });
  ui.board.setPointerCapture(ev.pointerId);
  game.chosen = k;
  draw();
  drag = { k, id: ev.pointerId, start: worldAt(ev), d: [0, 0], el: tanEls[k] };
});
ui.board.addEventListener('pointermove', (ev) => {
  if (!drag || ev.pointerId !== drag.id) return;
  const [x, y] = worldAt(ev);
  drag.d = [x - drag.start[0], y - drag.start[1]];
  drag.el.setAttribute('transform', `translate(${drag.d[0]},${drag.d[1]})`);
});
function endDrag(ev) {
  if (!drag || ev.pointerId !== drag.id) return;
  const { k, d } = drag;
  drag = null;
  if (Math.hypot(d[0], d[1]) < 0.12) {
    turn(k, 1); // a tap turns
    return;
  }
  const pl = game.pieces[k];
  moveTo(k, fx(pl.t) + d[0], fy(pl.t) + d[1]);
}
ui.board.addEventListener('pointerup', endDrag);
ui.board.addEventListener('pointercancel', (ev) => {
  if (drag && ev.pointerId === drag.id) {
    drag = null;
    draw();
  }
});

function drawGrid(g) {
  const w = game.world;
  const grid = svg('g', { class: 'grid' });
  for (let x = Math.ceil(w.x0); x <= w.x1; x++) {
    for (let y = Math.ceil(w.y0); y <= w.y1; y++) grid.append(svg('circle', { cx: x, cy: y, r: 0.05 }));
  }
  g.append(grid);
  if (game.drawing.length > 0) {
    g.append(svg('polygon', { class: 'drawing', points: pointsAttr(game.drawing) }));
    for (const [x, y] of game.drawing) g.append(svg('circle', { class: 'drawing-pt', cx: x, cy: y, r: 0.1 }));
  }
}

// The arrows move the chosen tan by half a unit, exactly; Enter snaps it.
const arrows = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] };
function nudge(k, [dx, dy]) {
  const pl = game.pieces[k];
  game.pieces[k] = { t: add(pl.t, [dx, 0, dy, 0]), o: pl.o };
  moved();
}

onPageKey('input, select, textarea, button, a', (ev) => {
  if (!game.figure) return;
  const k = game.chosen;
  if (ev.key === 'r' && k >= 0) turn(k, 1);
  else if (ev.key === 'R' && k >= 0) turn(k, -1);
  else if (ev.key === 'f' && k >= 0) flip(k);
  else if (ev.key === ']' || ev.key === '[') choose(k < 0 ? 0 : (k + (ev.key === '[' ? 6 : 1)) % 7);
  else if (arrows[ev.key] && k >= 0 && !busy()) nudge(k, arrows[ev.key]);
  else if (ev.key === 'Enter' && k >= 0 && !busy()) moveTo(k, fx(game.pieces[k].t), fy(game.pieces[k].t));
  else if (ev.key === 'a') auto();
  else return;
  ev.preventDefault();
});

// ---- figures --------------------------------------------------------------

// newGame puts figure on the board with the tans in the tray, or as
// pieces says (a saved game).
function newGame(figure, pieces = null, moves = 0, elapsed = 0) {
  stopLaying();
  game.figure = figure;
  game.pieces = pieces ? pieces.map((p) => ({ t: p.t.slice(), o: p.o })) : trayPieces(figure);
  game.moves = moves;
  game.clock = new Clock(elapsed);
  game.chosen = -1;
  game.filled = false;
  game.ghost = null;
  game.world = worldBox();
  ui.stripBox.hidden = true;
  draw();
  if (!pieces) notify(`New figure: ${figure.name}. Drag the seven tans onto it.`);
  return check(true);
}

function thumbnail(f) {
  const pts = floats(f.silhouette);
  const b = bbox(pts);
  const s = Math.max(b.x1 - b.x0, b.y1 - b.y0);
  const icon = svg('svg', { viewBox: `${b.x0 - 0.2} ${-b.y1 - 0.2} ${s + 0.4} ${s + 0.4}`, 'aria-hidden': 'true' });
  const g = svg('g', { transform: 'scale(1,-1)' });
  g.append(svg('polygon', { points: pointsAttr(pts) }));
  icon.append(g);
  return el('button', { type: 'button', class: 'tg-fig', role: 'listitem', 'data-name': f.name, title: f.source || f.name,
    onclick: () => newGame(f) }, icon, f.name);
}

function showCategory() {
  ui.figures.replaceChildren(...game.figures.filter((f) => f.category === ui.category.value).map(thumbnail));
  if (game.figure) draw();
}

async function ownFigure(body) {
  try {
    const { traced, ...f } = await api('POST', '/api/tangram/figure', body);
    game.drawing = null;
    ui.draw.setAttribute('aria-pressed', 'false');
    await newGame(f);
    if (traced) {
      const how = traced.snapped ? 'every corner snapped to the tans\' lattice'
        : `snapped with faults: ${traced.faults.join('; ')}`;
      notify(`Traced your picture (turned by ${traced.rotation_degrees.toFixed(1)}°, ${traced.frame} lattice): ${how}. Drag the seven tans onto it.`,
        traced.snapped ? '' : 'warn');
    }
  } catch (e) {
    notify(`Cannot use that figure: ${e.message}`, 'error');
  }
}

// ---- Auto -----------------------------------------------------------------

function stopLaying() {
  if (game.laying !== null) clearTimeout(game.laying);
  game.laying = null;
}

// layPieces puts the solution's tans on the board one at a time, lowest first.
function layPieces(pieces, done) {
  const order = pieces.map((_, k) => k).sort((a, b) => {
    const ca = centroid(floats(placed(a, pieces[a])));
    const cb = centroid(floats(placed(b, pieces[b])));
    return ca[1] - cb[1] || ca[0] - cb[0];
  });
  let i = 0;
  const next = () => {
    if (i === order.length) {
      game.laying = null;
      done();
      return;
    }
    const k = order[i++];
    game.pieces[k] = { t: pieces[k].t.slice(), o: pieces[k].o };
    game.chosen = k;
    game.moves++;
    draw();
    game.laying = setTimeout(next, reduced ? 60 : 450);
  };
  game.laying = setTimeout(next, 0);
}

function showStats(r) {
  ui.statSolved.textContent = r.solved ? 'yes' : r.error ? `no (${r.error})` : 'no';
  ui.statWork.textContent = r.algo === 'sdp' ? plural(r.iterations, 'SDP') : plural(r.nodes || 0, 'node');
  ui.statTime.textContent = formatMS(r.seconds * 1000);
}

const solving = pageJob(game.job, {
  draw,
  reset() {
    game.ghost = null;
  },
  progress(p, name) {
    const its = p.iterates || [];
    if (its.length === 0) return;
    const it = its[its.length - 1];
    game.ghost = it.poses;
    draw();
    notify(`${name}: SDP ${it.iteration}, objective ${it.objective.toFixed(4)} (${formatMS(it.ms)})…`, 'busy');
  },
  done(res, name) {
    game.ghost = null;
    showStats(res);
    if (res.strip) {
      ui.strip.src = res.strip;
      ui.stripBox.hidden = false;
      ui.stripCaption.textContent = `The ${plural(res.iterates.length, 'iterate')} of Algorithm 2, one arrangement per SDP, left to right (scroll sideways; as tessera tangram solve -snapshots draws them).`;
    }
    if (!res.solved || !res.pieces) {
      draw();
      notify(`${name}: not solved${res.error ? ` (${res.error})` : ''}.`, 'warn');
      return;
    }
    notify(`${name} solved it in ${formatMS(res.seconds * 1000)}: laying the tans one by one…`, 'busy');
    layPieces(res.pieces, () => check());
  },
});

function figureRef() {
  const known = game.figures.some((f) => f.name === game.figure.name && f.category !== 'yours');
  return known && game.figure.category !== 'yours' ? { figure: game.figure.name } : { silhouette: game.figure.silhouette };
}

async function auto() {
  if (busy() || !game.figure) return;
  const opt = ui.solver.selectedOptions[0];
  const name = opt.textContent;
  const spec = { ref: figureRef(), solver: opt.value, options: { seed: '1' }, budget: {} };
  ui.stripBox.hidden = true;
  notify(`${name}: solving…`, 'busy');
  await solving.run('tangram.solve', spec, { figure: game.figure, name });
}

// ---- wiring ---------------------------------------------------------------

ui.turnLeft.addEventListener('click', () => turn(game.chosen, 1));
ui.turnRight.addEventListener('click', () => turn(game.chosen, -1));
ui.flip.addEventListener('click', () => flip(game.chosen));
ui.restart.addEventListener('click', () => {
  newGame(game.figure);
  notify('Every tan back in the tray.');
});
ui.auto.addEventListener('click', auto);
ui.stop.addEventListener('click', () => game.job.cancel());
ui.category.addEventListener('change', showCategory);
ui.ownUse.addEventListener('click', () => ownFigure({ text: ui.ownText.value }));
ui.ownFile.addEventListener('change', async () => {
  const file = ui.ownFile.files[0];
  if (!file) return;
  const name = file.name.replace(/\.[a-z]+$/i, '').slice(0, 64);
  if (/^image\//.test(file.type) || /\.(png|jpe?g|gif|svg)$/i.test(file.name)) {
    if (file.size > 4 << 20) {
      notify('That picture is over 4 MiB.', 'error');
      return;
    }
    const picture = await new Promise((resolve, reject) => {
      const r = new FileReader();
      r.onload = () => resolve(r.result);
      r.onerror = () => reject(r.error);
      r.readAsDataURL(file);
    });
    notify('Tracing your picture…', 'busy');
    await ownFigure({ picture, name });
    return;
  }
  if (file.size > 64 << 10) {
    notify('That file is over 64 KiB: a figure is one silhouette line.', 'error');
    return;
  }
  await ownFigure({ text: await file.text(), name });
});
ui.draw.addEventListener('click', () => {
  game.drawing = game.drawing ? null : [];
  ui.draw.setAttribute('aria-pressed', String(game.drawing !== null));
  if (game.drawing) ui.board.scrollIntoView({ block: 'nearest' });
  if (game.drawing) notify('Tap the corners of your figure on the grid, in order; then Use drawing. Draw again to leave.');
  draw();
});
ui.drawUse.addEventListener('click', () => {
  const pts = game.drawing.map(([x, y]) => [2 * x, 0, 2 * y, 0]);
  ownFigure({ silhouette: pts, name: 'your drawing' });
});
const describeSolver = solverNote(ui.solver, ui.solverNote, {
  more: (id) => (id === 'sdp' ? '. Translation only: the tans come turned as the figure\'s known solution has them.'
    + ' With the turns hidden (the augmented puzzle of the paper\'s section 6.3) Algorithm 2 solves two-tan figures and the'
    + ' four-piece T, but none of the seven-tan figures measured, so the page gives it the turns.' : ''),
});

const saves = savesPanel({
  kind: 'tangram', notify,
  getState: () => ({ figure: game.figure, pieces: game.pieces, moves: game.moves, elapsed_ms: Math.round(game.clock.ms()) }),
  loadState: async (st) => {
    if (!st || !st.figure || !Array.isArray(st.pieces) || st.pieces.length !== game.tans.length) throw new Error('not a tangram game');
    await newGame(st.figure, st.pieces, st.moves || 0, st.elapsed_ms || 0);
  },
});

(async function init() {
  describeSolver();
  try {
    const { figures, pieces } = await api('GET', '/api/tangram/figures');
    game.tans = pieces;
    game.figures = figures;
  } catch (e) {
    notify(`Cannot list the figures: ${e.message}`, 'error');
    return;
  }
  const cats = [...new Set(game.figures.map((f) => f.category))];
  ui.category.replaceChildren(...cats.map((c) => el('option', { value: c }, c)));
  showCategory();
  const resumed = await solving.resume(async (m) => { await newGame(m.figure); });
  if (!resumed && !(await saves.restore())) await newGame(game.figures[0]);
})();
