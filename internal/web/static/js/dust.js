// The dust game of the source blog: click any cluster of one colour (even a
// single cell), the cells above fall, every row closes up toward the
// middle, and the fewest clicks that clear the board wins. The board lives
// here: clicks, undo and the timer need no server. The server deals boards,
// solves, hints, proves the optimum and keeps saved games; it also replays
// every saved game, so a rule this file got wrong could not be saved.
//
// A board is grid[y][x]: x the column from the left, y the row from the
// bottom (as in package samegame), a colour letter or '.' for empty. Its
// text form lists the rows top first, separated by '/'.

import { api, notify, Clock, formatDuration, formatMS, groupDigits, pauseWhenHidden, playLine, search, solverNote } from './api.js';
import { savesPanel } from './saves.js';

const $ = (id) => document.getElementById(id);
const ui = {
  status: $('status'), board: $('board'), clicks: $('clicks'), optimum: $('optimum'), time: $('time'),
  deal: $('deal'), restart: $('restart'), undo: $('undo'), hint: $('hint'), certainty: $('certainty'),
  certNote: $('cert-note'),
  solver: $('solver'), auto: $('auto'), stop: $('stop'), solverNote: $('solver-note'),
  speed: $('speed'), speedOut: $('speed-out'),
  statNodes: $('stat-nodes'), statTime: $('stat-time'), statLength: $('stat-length'),
  seedForm: $('seed-form'), seed: $('seed'),
};
const COLS = Number(ui.board.dataset.cols);
const ROWS = Number(ui.board.dataset.rows);
const NAMES = { G: 'green', O: 'orange', R: 'red', Y: 'yellow', B: 'blue' };
const EMPTY = '.';

const game = {
  grid: [], // current board
  start: '', // the board as dealt, text
  seed: null, // the deal's seed, when the server dealt it
  history: [], // clicks since start: [x, y]
  past: [], // the boards before each click, for undo
  clock: new Clock(), // play time
  won: false,
  optimum: null, // {clicks, optimal, start}: the exact solver's answer for the dealt board
  hintPlan: null, // {board, moves, optimal}: a solution from the current board
  playback: null, // {timer} while Auto plays a solution
  search: null, // AbortController while the server searches
  proof: null, // {start, controller, promise}: the background proof of the dealt board
  certainty: false, // the certainty board is shown
  cert: null, // {board, cells, best}: the network's certainty board of a board
  certFor: null, // the board whose certainty board is being fetched
};

const prefs = JSON.parse(localStorage.getItem('tessera.dust') || '{}');
const savePrefs = () => localStorage.setItem('tessera.dust', JSON.stringify({
  speed: ui.speed.value, solver: ui.solver.value, certainty: game.certainty,
}));

// ---- board text and rules ----------------------------------------------------

function parseLine(text) {
  const rows = text.trim().split('/');
  if (rows.length !== ROWS || rows.some((r) => r.length !== COLS)) {
    throw new Error(`not a ${COLS}x${ROWS} board: ${text}`);
  }
  const grid = [];
  for (let y = 0; y < ROWS; y++) grid.push(rows[ROWS - 1 - y].split(''));
  return grid;
}

const line = (grid) => grid.slice().reverse().map((r) => r.join('')).join('/');
const copy = (grid) => grid.map((r) => r.slice());
const isEmpty = (grid) => grid[0].every((c) => c === EMPTY);

// cluster returns the cells [x, y] of the 4-connected one-colour cluster
// holding (x, y), or [] for an empty cell.
function cluster(grid, x, y) {
  const c = grid[y][x];
  if (c === EMPTY) return [];
  const seen = new Set([y * COLS + x]);
  const todo = [[x, y]];
  const cells = [];
  while (todo.length > 0) {
    const [cx, cy] = todo.pop();
    cells.push([cx, cy]);
    for (const [nx, ny] of [[cx - 1, cy], [cx + 1, cy], [cx, cy - 1], [cx, cy + 1]]) {
      if (nx < 0 || ny < 0 || nx >= COLS || ny >= ROWS || grid[ny][nx] !== c || seen.has(ny * COLS + nx)) continue;
      seen.add(ny * COLS + nx);
      todo.push([nx, ny]);
    }
  }
  return cells;
}

// click removes the cluster at (x, y), lets the cells fall, and packs every
// row toward the middle: columns left of the middle close up to the right,
// the others to the left (the blog's contract()). It returns the new grid.
function click(grid, x, y) {
  const g = copy(grid);
  for (const [cx, cy] of cluster(grid, x, y)) g[cy][cx] = EMPTY;
  for (let cx = 0; cx < COLS; cx++) {
    const col = [];
    for (let cy = 0; cy < ROWS; cy++) if (g[cy][cx] !== EMPTY) col.push(g[cy][cx]);
    for (let cy = 0; cy < ROWS; cy++) g[cy][cx] = cy < col.length ? col[cy] : EMPTY;
  }
  const mid = Math.floor(COLS / 2);
  for (let cy = 0; cy < ROWS; cy++) {
    const left = g[cy].slice(0, mid).filter((c) => c !== EMPTY);
    const right = g[cy].slice(mid).filter((c) => c !== EMPTY);
    g[cy] = [...Array(mid - left.length).fill(EMPTY), ...left, ...right, ...Array(COLS - mid - right.length).fill(EMPTY)];
  }
  return g;
}

// ---- drawing -------------------------------------------------------------------

const cellEls = []; // by y * COLS + x

function layout() {
  ui.board.replaceChildren();
  for (let r = 0; r < ROWS; r++) {
    for (let x = 0; x < COLS; x++) {
      const y = ROWS - 1 - r; // the grid lists the top row first
      const e = document.createElement('div');
      e.className = 'cell';
      e.dataset.x = x;
      e.dataset.y = y;
      cellEls[y * COLS + x] = e;
      ui.board.append(e);
    }
  }
}

function draw() {
  for (let y = 0; y < ROWS; y++) {
    for (let x = 0; x < COLS; x++) {
      const e = cellEls[y * COLS + x];
      const c = game.grid[y] ? game.grid[y][x] : EMPTY;
      if (c === EMPTY) {
        delete e.dataset.c;
        e.removeAttribute('title');
      } else {
        e.dataset.c = c;
        e.title = `${NAMES[c] || c} (${x},${y})`;
      }
    }
  }
  drawCertainty();
  ui.board.classList.toggle('solved', game.won);
  ui.board.dataset.board = game.grid.length ? line(game.grid) : '';
  ui.board.dataset.solved = String(game.won);
  ui.clicks.textContent = game.history.length;
  // Not proven: the best found, so the fewest is at most that.
  ui.optimum.textContent = game.optimum ? `${game.optimum.optimal ? '' : '≤ '}${game.optimum.clicks}` : '…';
  ui.optimum.title = !game.optimum ? 'the exact solver is proving the fewest clicks of the dealt board'
    : game.optimum.optimal ? 'the fewest clicks that clear the dealt board, proven by the exact solver'
      : 'the best found: the exact solver could not prove it the fewest within its time'; 
  ui.undo.disabled = game.history.length === 0 || game.won || busy();
  ui.hint.disabled = game.won || busy();
  ui.auto.disabled = game.won || busy();
  ui.restart.disabled = busy();
  ui.stop.disabled = !busy();
  tick();
}

// ---- the certainty board ---------------------------------------------------------

// drawCertainty shows, when it is on, the source blog's certainty board:
// each cell coloured (dark red to bright green, relative to the board's
// best) and marked with the shipped network's probability, in percent,
// that its cluster is the click to make. The colour is a CSS variable set
// through the CSSOM, which the page's content security policy allows.
function drawCertainty() {
  const board = game.grid.length ? line(game.grid) : '';
  const cert = game.certainty && game.cert && game.cert.board === board ? game.cert : null;
  ui.board.classList.toggle('certainty', cert !== null);
  ui.board.dataset.certainty = cert ? board : '';
  for (let y = 0; y < ROWS; y++) {
    for (let x = 0; x < COLS; x++) {
      const e = cellEls[y * COLS + x];
      const v = cert ? cert.cells[y * COLS + x] : -1;
      if (v < 0) {
        delete e.dataset.cert;
        e.style.removeProperty('--cert');
        continue;
      }
      e.dataset.cert = String(Math.min(Math.round(v * 100), 99)).padStart(2, '0');
      e.style.setProperty('--cert', (cert.best > 0 ? v / cert.best : 0).toFixed(3));
    }
  }
  if (game.certainty && !cert && board !== '' && !isEmpty(game.grid)) fetchCertainty(board);
}

async function fetchCertainty(board) {
  if (game.certFor === board) return;
  game.certFor = board;
  try {
    const res = await api('POST', '/api/dust/certainty', { board });
    if (game.certFor !== board) return;
    game.cert = { board: res.board, cells: res.cells, best: res.best };
    draw();
  } catch (e) {
    if (game.certFor !== board) return;
    game.certainty = false;
    notify(`No certainty board: ${e.message}`, 'error');
    draw();
  } finally {
    if (game.certFor === board) game.certFor = null;
  }
}

function toggleCertainty() {
  game.certainty = !game.certainty;
  ui.certainty.setAttribute('aria-pressed', String(game.certainty));
  ui.certNote.hidden = !game.certainty;
  savePrefs();
  draw();
}

const page = { notify, draw }; // for search (api.js)

function lift(cells) {
  for (const e of ui.board.querySelectorAll('.cell.lift')) e.classList.remove('lift');
  for (const [x, y] of cells) cellEls[y * COLS + x].classList.add('lift');
}

function clearHint() {
  for (const e of ui.board.querySelectorAll('.cell.hint')) e.classList.remove('hint');
}

// ---- timer -----------------------------------------------------------------------

function tick() {
  ui.time.textContent = formatDuration(game.clock.ms());
}
setInterval(tick, 250);

// ---- playing ---------------------------------------------------------------------

const busy = () => game.playback !== null || game.search !== null;

// play clicks (x, y); by names who clicked (null: the player). It returns
// false when the cell is empty.
function play(x, y, by = null) {
  if (game.won || game.grid[y][x] === EMPTY) return false;
  game.past.push(game.grid);
  game.grid = click(game.grid, x, y);
  game.history.push([x, y]);
  if (by === null) game.clock.start();
  // A hint plan stays good while its clicks are followed (a click names its
  // whole cluster, so compare the boards, not the cells).
  if (game.hintPlan && game.hintPlan.moves.length > 0) {
    const [hx, hy] = game.hintPlan.moves[0];
    const planned = click(game.past[game.past.length - 1], hx, hy);
    const board = line(game.grid);
    game.hintPlan = line(planned) === board ? { ...game.hintPlan, board, moves: game.hintPlan.moves.slice(1) } : null;
  }
  clearHint();
  lift([]);
  if (isEmpty(game.grid)) {
    game.won = true;
    game.clock.stop();
    notify(victoryMessage(by), 'victory');
  } else if (by === null && !ui.status.classList.contains('busy')) {
    notify('');
  }
  draw();
  return true;
}

// victoryMessage tells how the board was cleared: by the player, by a
// solver from the start, or by the player's clicks and then a solver's
// (whose share is its own: the player's clicks are what cost any extra).
function victoryMessage(by) {
  const n = game.history.length;
  const mine = by ? game.autoFrom : n;
  let who = `Cleared: ${n} clicks in ${formatDuration(game.clock.ms())}`;
  if (by && mine === 0) who = `Cleared by ${by}: ${n} clicks`;
  if (by && mine > 0) who = `Cleared: your ${mine} clicks, then ${by}'s ${n - mine}, ${n} in all`;
  const opt = game.optimum;
  if (!opt || opt.start !== game.start) return `${who}. (The fewest from the dealt board is still being computed.)`;
  if (!opt.optimal) return `${who}. The best solution found from the dealt board has ${opt.clicks} (not proven the fewest).`;
  if (n === opt.clicks) return `${who}: the fewest possible!`;
  const extra = `${n - opt.clicks} more than the fewest from the dealt board, ${opt.clicks}`;
  return by && mine > 0 ? `${who}: ${extra} (your clicks left no shorter way).` : `${who}: ${extra}.`;
}

function undo() {
  if (busy() || game.won || game.history.length === 0) return;
  game.grid = game.past.pop();
  game.history.pop();
  game.hintPlan = null;
  clearHint();
  notify('Click taken back.');
  draw();
}

// setBoard starts the game on the board text start, replaying history.
function setBoard(start, { history = [], elapsedMs = 0, seed = null } = {}) {
  stopAuto();
  Object.assign(game, {
    grid: parseLine(start), start: line(parseLine(start)), seed, history: [], past: [],
    clock: new Clock(elapsedMs), won: false, hintPlan: null,
  });
  for (const [x, y] of history) {
    if (game.grid[y] === undefined || game.grid[y][x] === undefined || game.grid[y][x] === EMPTY) {
      throw new Error(`click ${x},${y} is on an empty cell`);
    }
    game.past.push(game.grid);
    game.grid = click(game.grid, x, y);
    game.history.push([x, y]);
  }
  game.won = isEmpty(game.grid) && history.length > 0;
  if (!game.optimum || game.optimum.start !== game.start) {
    game.optimum = null;
    proveOptimum(game.start);
  }
  draw();
}

// proveOptimum asks the exact solver for the fewest clicks of the dealt
// board, in the background, for the end-of-game comparison.
// A proof still running for another board is given up (its solver slot
// freed); the page's Auto on the dealt board waits for it (game.proof).
function proveOptimum(start) {
  if (game.proof) game.proof.controller.abort();
  const controller = new AbortController();
  const promise = runProof(start, controller.signal).finally(() => {
    if (game.proof && game.proof.controller === controller) game.proof = null;
  });
  game.proof = { start, controller, promise };
}

async function runProof(start, signal) {
  try {
    const res = await api('POST', '/api/dust/solve', { board: start, solver: 'exact', timeout_ms: 30000 }, { signal });
    if (game.start !== start || !res.cleared) return;
    game.optimum = { clicks: res.clicks, optimal: res.optimal, start, moves: parseMoves(res.moves) };
    if (game.won) notify(victoryMessage(null), 'victory');
    draw();
  } catch {
    // Leave the counter at "…": the comparison is a bonus.
  }
}

async function deal(seed = null) {
  try {
    const res = await api('POST', '/api/dust/deal', seed === null ? {} : { seed });
    setBoard(res.board, { seed: res.seed });
    ui.seed.value = String(res.seed);
    notify('New board. Clear it in as few clicks as you can.');
    resetStats();
  } catch (e) {
    notify(`Cannot deal: ${e.message}`, 'error');
  }
}

function restart() {
  if (busy()) return;
  setBoard(game.start, { seed: game.seed });
  notify('Back to the dealt board.');
}

// ---- hints -------------------------------------------------------------------------

const parseMoves = (text) => (text.trim() === '' ? [] : text.trim().split(/\s+/).map((m) => m.split(',').map(Number)));

function showHint(plan) {
  const [x, y] = plan.moves[0];
  const cells = cluster(game.grid, x, y);
  clearHint();
  for (const [cx, cy] of cells) {
    const e = cellEls[cy * COLS + cx];
    void e.offsetWidth; // restart the animation
    e.classList.add('hint');
  }
  const name = NAMES[game.grid[y][x]] || game.grid[y][x];
  const what = `the ${cells.length}-cell ${name} cluster`;
  if (plan.optimal) {
    notify(`Hint: click ${what}. ${plan.moves.length} clicks to go (the fewest).`);
  } else {
    notify(`Hint: click ${what}. It starts a ${plan.moves.length}-click solution, not proven the fewest.`, 'warn');
  }
}

// provenHint is the next click of the proven line when the player has
// followed it so far: the hint then agrees with the "Fewest" counter.
function provenHint() {
  const opt = game.optimum;
  if (!opt || !opt.optimal || opt.start !== game.start || !opt.moves) return null;
  const h = game.history;
  if (h.length >= opt.moves.length || h.some(([x, y], i) => x !== opt.moves[i][0] || y !== opt.moves[i][1])) return null;
  return { board: line(game.grid), moves: opt.moves.slice(h.length), optimal: true };
}

async function hint() {
  if (game.won || busy()) return;
  const board = line(game.grid);
  const proven = provenHint();
  if (proven) {
    game.hintPlan = proven;
    showHint(proven);
    return;
  }
  if (game.hintPlan && game.hintPlan.board === board && game.hintPlan.moves.length > 0) {
    showHint(game.hintPlan);
    return;
  }
  const res = await search(game, page, { busy: 'Looking for a hint…', cancelled: 'Hint cancelled.', what: 'No hint' }, 'POST', '/api/dust/hint', { board });
  if (!res) return;
  if (!res.cleared) {
    notify(res.message, 'warn');
    return;
  }
  game.hintPlan = { board, moves: parseMoves(res.moves), optimal: res.optimal };
  showHint(game.hintPlan);
}

// ---- auto ----------------------------------------------------------------------------

function resetStats() {
  ui.statNodes.textContent = ui.statTime.textContent = ui.statLength.textContent = '–';
}

function showStats(res) {
  const playouts = res.playouts ? `, ${groupDigits(res.playouts)} playouts` : '';
  if (res.reused) {
    // A proof found earlier for this board: nothing was searched now.
    ui.statNodes.textContent = `answer reused (${groupDigits(res.nodes)} nodes when first found)`;
    ui.statTime.textContent = `answer reused (first found in ${formatMS(res.ms)})`;
  } else {
    ui.statNodes.textContent = `${groupDigits(res.nodes)}${playouts}`;
    ui.statTime.textContent = formatMS(res.ms);
  }
  ui.statLength.textContent = res.cleared ? `${res.clicks} clicks${res.optimal ? ' (the fewest)' : ' (not proven the fewest)'}` : 'none';
}

async function auto() {
  if (game.won || busy()) return;
  const opt = ui.solver.selectedOptions[0];
  const name = opt.textContent;
  resetStats();
  const board = line(game.grid);
  const proves = opt.dataset.optimal === 'true';
  if (opt.value === 'exact' && game.proof && game.proof.start === board) {
    // The background proof is this very search: wait for it, then the
    // server answers from its proof (answer reused).
    notify(`Searching with ${name}…`, 'busy');
    await game.proof.promise;
  }
  // A proving solver gets the most time a request may have, as the
  // background proof does: a loaded server is slow.
  const body = proves ? { board, solver: opt.value, timeout_ms: 30000 } : { board, solver: opt.value };
  const res = await search(game, page, { busy: `Searching with ${name}…`, cancelled: 'Search stopped.', what: 'Auto failed' },
    'POST', '/api/dust/solve', body);
  if (!res) return;
  showStats(res);
  if (!res.cleared) {
    notify(`${res.error || `${name} found no solution`}.`, 'warn');
    return;
  }
  const proof = res.optimal ? 'the fewest from here' : 'not proven the fewest';
  notify(`${name} found ${res.clicks} clicks (${proof}). Playing them…`);
  game.autoFrom = game.history.length;
  playSolution(parseMoves(res.moves), name);
}

// playSolution plays a solution's clicks, each cluster lifted for half a
// step before it is cleared.
function playSolution(moves, name) {
  playLine(game, moves, {
    phases: [
      ([x, y]) => lift(cluster(game.grid, x, y)),
      ([x, y], n) => {
        play(x, y, name);
        if (!game.won) notify(`${name}: click ${n} of ${moves.length}.`);
      },
    ],
    wait: () => 1000 / Number(ui.speed.value),
    over: () => game.won,
    draw,
    end: stopAuto,
  });
}

function stopAuto() {
  if (game.search) game.search.abort();
  if (game.playback) {
    clearTimeout(game.playback.timer);
    game.playback = null;
    lift([]);
    if (!game.won) notify('Auto stopped: your turn.');
    draw();
  }
}

// ---- events ----------------------------------------------------------------------------

ui.board.addEventListener('click', (ev) => {
  const e = ev.target.closest('.cell');
  if (!e || game.won) return;
  stopAuto();
  play(Number(e.dataset.x), Number(e.dataset.y));
});
ui.board.addEventListener('pointerover', (ev) => {
  const e = ev.target.closest('.cell');
  if (!e || busy() || game.won) return;
  lift(cluster(game.grid, Number(e.dataset.x), Number(e.dataset.y)));
});
ui.board.addEventListener('pointerleave', () => lift([]));

ui.deal.addEventListener('click', () => deal());
ui.restart.addEventListener('click', restart);
ui.undo.addEventListener('click', undo);
ui.hint.addEventListener('click', hint);
ui.certainty.addEventListener('click', toggleCertainty);
ui.auto.addEventListener('click', auto);
ui.stop.addEventListener('click', stopAuto);
ui.seedForm.addEventListener('submit', (ev) => {
  ev.preventDefault();
  const s = ui.seed.value.trim();
  if (!/^[0-9]+$/.test(s)) {
    notify('A seed is a whole number.', 'error');
    return;
  }
  deal(s); // a string: a browser's numbers keep 53 bits
});
const describeSolver = solverNote(ui.solver, ui.solverNote, { changed: savePrefs });
ui.speed.addEventListener('input', () => {
  ui.speedOut.textContent = ui.speed.value;
  savePrefs();
});
document.addEventListener('keydown', (ev) => {
  if (ev.target.closest('input, select, textarea') || ev.ctrlKey || ev.metaKey || ev.altKey) return;
  const k = ev.key.toLowerCase();
  const act = { n: () => deal(), r: restart, u: undo, h: hint, a: auto, c: toggleCertainty }[k];
  if (act) {
    ev.preventDefault();
    act();
  }
});
pauseWhenHidden(() => game.clock, () => game.history.length > 0 && !game.won);

const saves = savesPanel({
  kind: 'dust', notify,
  getState: () => ({
    start: game.start, board: line(game.grid), history: game.history.map(([x, y]) => `${x},${y}`).join(' '),
    seed: game.seed ?? '0', elapsed_ms: Math.round(game.clock.ms()),
  }),
  loadState: async (st) => {
    setBoard(st.start, { history: parseMoves(st.history), elapsedMs: st.elapsed_ms, seed: st.seed && String(st.seed) !== '0' ? String(st.seed) : null });
    resetStats();
  },
});

// ---- start -------------------------------------------------------------------------------

if (prefs.speed) ui.speed.value = prefs.speed;
if (prefs.certainty) {
  game.certainty = true;
  ui.certainty.setAttribute('aria-pressed', 'true');
  ui.certNote.hidden = false;
}
ui.speedOut.textContent = ui.speed.value;
if (prefs.solver && ui.solver.querySelector(`option[value="${CSS.escape(prefs.solver)}"]`)) ui.solver.value = prefs.solver;
describeSolver();
layout();
saves.restore().then((kept) => { if (!kept) deal(); });
