// The sliding-puzzle picture game. The board lives here: moves, undo,
// timer and victory need no server. The server shuffles, solves, hints,
// stores pictures and saved games (see api.js for the calls).
//
// A board is a row-major array of tiles, 0 for the gap; the goal is
// 1 2 ... n-1 then the gap. A move is named by the direction the tile
// slides into the gap: U, D, L, R (as in package npuzzle).

import { api, notify, pictures, addPictureButton, addUpload, Clock, el, formatDuration, formatMS, groupDigits, pauseWhenHidden, search, plural, solverNote, onPageKey } from './api.js';
import { savesPanel } from './saves.js';
import { Job, pageJob } from './jobs.js';

const $ = (id) => document.getElementById(id);
const ui = {
  status: $('status'), board: $('board'), moves: $('moves'), time: $('time'),
  shuffle: $('shuffle'), restart: $('restart'), undo: $('undo'), hint: $('hint'),
  size: $('size'), custom: $('custom'), rows: $('rows'), cols: $('cols'), customGo: $('custom-go'),
  shuffleKind: $('shuffle-kind'), numbers: $('numbers'),
  pictures: $('pictures'), upload: $('upload'), camera: $('camera'), gapKind: $('gap-kind'),
  solver: $('solver'), auto: $('auto'), stop: $('stop'), solverNote: $('solver-note'),
  speed: $('speed'), speedOut: $('speed-out'),
  statStates: $('stat-states'), statTime: $('stat-time'), statLength: $('stat-length'),
  pdb: $('pdb'), pdbNote: $('pdb-note'), pdbBuild: $('pdb-build'),
};

const game = {
  rows: 3, cols: 3,
  tiles: [], // current board
  start: [], // the board as shuffled, for restart
  history: [], // moves since start
  picture: 'sunset',
  clock: new Clock(), // play time
  won: false,
  hintPlan: null, // {board, moves, optimal}: a solution from the current board
  playback: null, // {timer} while Auto plays a solution
  search: null, // AbortController while the server searches
  home: 8, // the gap's home cell: the last, or the first tile tapped
  picking: false, // the whole picture is shown; the next tap picks the gap
  job: new Job('tessera.npuzzle.job'), // Auto's search, a job on the server
};
const recommended = JSON.parse(ui.board.dataset.recommended || '{}');

const prefs = JSON.parse(localStorage.getItem('tessera.npuzzle') || '{}');
const savePrefs = () => localStorage.setItem('tessera.npuzzle', JSON.stringify({
  size: `${game.rows}x${game.cols}`, picture: game.picture, numbers: ui.numbers.checked,
  uniform: ui.shuffleKind.value === 'uniform', speed: ui.speed.value, solver: ui.solver.value, gap: ui.gapKind.value,
}));

// ---- board text and moves ------------------------------------------------

const line = (tiles, cols) => {
  const rows = [];
  for (let i = 0; i < tiles.length; i += cols) rows.push(tiles.slice(i, i + cols).join(' '));
  return rows.join('/');
};

function parseLine(text) {
  const rows = text.trim().split('/').map((r) => r.trim().split(/\s+/).map(Number));
  return { rows: rows.length, cols: rows[0].length, tiles: rows.flat() };
}

const blankOf = (tiles) => tiles.indexOf(0);
// homeOf is tile t's home cell when the gap's home is k: the tiles are
// numbered in reading order around the gap.
const homeOf = (t, k) => (t === 0 ? k : t - 1 < k ? t - 1 : t);
const isSolved = (tiles) => tiles.every((t, i) => homeOf(t, game.home) === i);
const inverse = { U: 'D', D: 'U', L: 'R', R: 'L' };
const direction = { U: 'up', D: 'down', L: 'left', R: 'right' };

// source returns the cell of the tile that move m slides into the gap, or
// -1 when there is none.
function source(tiles, m) {
  const b = blankOf(tiles);
  const r = Math.floor(b / game.cols), c = b % game.cols;
  switch (m) {
    case 'U': return r < game.rows - 1 ? b + game.cols : -1;
    case 'D': return r > 0 ? b - game.cols : -1;
    case 'L': return c < game.cols - 1 ? b + 1 : -1;
    case 'R': return c > 0 ? b - 1 : -1;
  }
  return -1;
}

// moveForCell returns the move that slides the tile at cell i, if it is
// next to the gap.
function moveForCell(i) {
  return ['U', 'D', 'L', 'R'].find((m) => source(game.tiles, m) === i);
}

// ---- drawing ---------------------------------------------------------------

const tileEls = []; // by tile number; 0 is the gap's tile, shown on victory

function pictureURL(id) {
  const b = ui.pictures.querySelector(`.pic[data-id="${CSS.escape(id)}"]`);
  return b ? b.dataset.url : `/pictures/${encodeURIComponent(id)}`;
}

// layout rebuilds the tiles for the current size and picture.
function layout() {
  const { rows, cols } = game;
  const m = Math.max(rows, cols);
  const n = rows * cols;
  const board = ui.board;
  board.style.setProperty('--rows', rows);
  board.style.setProperty('--cols', cols);
  board.style.setProperty('--m', m);
  board.style.setProperty('--picture', `url("${pictureURL(game.picture)}")`);
  // Tall boards are narrower, so that they fit the screen.
  board.style.width = `min(100%, ${(560 * cols) / m}px, ${(72 * cols) / rows}vh)`;
  board.replaceChildren();
  tileEls.length = 0;
  for (let t = 0; t < n; t++) {
    // Tile t's home cell; the gap's tile is the gap's home.
    const home = homeOf(t, game.home);
    const hr = Math.floor(home / cols), hc = home % cols;
    // The picture covers an m x m square centred on the board.
    const px = m === 1 ? 0 : (100 * (hc + (m - cols) / 2)) / (m - 1);
    const py = m === 1 ? 0 : (100 * (hr + (m - rows) / 2)) / (m - 1);
    const e = el('div', { class: t === 0 ? 'tile gap' : 'tile', 'data-n': String(t) });
    e.style.backgroundPosition = `${px}% ${py}%`;
    tileEls[t] = e;
    board.append(e);
  }
  draw();
}

// draw places the tiles and updates the counters and buttons.
function draw() {
  game.tiles.forEach((t, i) => {
    const e = tileEls[t];
    e.style.setProperty('--r', Math.floor(i / game.cols));
    e.style.setProperty('--c', i % game.cols);
  });
  ui.board.classList.toggle('solved', game.won || game.picking);
  ui.board.classList.toggle('picking', game.picking);
  ui.board.classList.toggle('numbers', ui.numbers.checked);
  ui.board.dataset.board = line(game.tiles, game.cols);
  ui.board.dataset.solved = String(game.won);
  ui.board.dataset.home = String(game.home);
  ui.moves.textContent = game.history.length;
  ui.undo.disabled = game.history.length === 0 || game.won || busy();
  ui.hint.disabled = game.won || game.picking || busy();
  ui.auto.disabled = game.won || game.picking || busy();
  ui.restart.disabled = busy();
  ui.stop.disabled = !busy();
  tick();
}

const page = { notify, draw }; // for search (api.js)

// ---- timer -----------------------------------------------------------------

function tick() {
  ui.time.textContent = formatDuration(game.clock.ms());
}
setInterval(tick, 250);
pauseWhenHidden(() => game.clock, () => game.history.length > 0 && !game.won);

// ---- playing ---------------------------------------------------------------

const busy = () => game.playback !== null || game.search !== null || game.job.running;

// play applies move m; by marks who moved (the player, or a solver's name).
function play(m, by = null) {
  const from = source(game.tiles, m);
  if (from < 0 || game.won) return false;
  const b = blankOf(game.tiles);
  [game.tiles[b], game.tiles[from]] = [game.tiles[from], 0];
  game.history.push(m);
  if (by === null) game.clock.start();
  // A hint plan stays good while its moves are followed.
  if (game.hintPlan && game.hintPlan.moves[0] === m) {
    game.hintPlan = { ...game.hintPlan, board: line(game.tiles, game.cols), moves: game.hintPlan.moves.slice(1) };
  } else {
    game.hintPlan = null;
  }
  clearHint();
  if (isSolved(game.tiles)) {
    game.won = true;
    game.clock.stop();
    const t = formatDuration(game.clock.ms());
    if (by) {
      notify(`Solved by ${by}: ${plural(game.history.length, 'move')} in all.`, 'victory');
    } else {
      notify(`Solved! ${plural(game.history.length, 'move')} in ${t}.`, 'victory');
    }
  } else if (by === null && !ui.status.classList.contains('busy')) {
    notify('');
  }
  draw();
  return true;
}

function userMove(m) {
  if (game.won) return;
  stopAuto();
  if (!play(m)) {
    notify(`No tile can slide ${direction[m]}.`);
  }
}

function undo() {
  if (busy() || game.won || game.history.length === 0) return;
  const m = game.history.pop();
  const from = source(game.tiles, inverse[m]);
  const b = blankOf(game.tiles);
  [game.tiles[b], game.tiles[from]] = [game.tiles[from], 0];
  game.hintPlan = null;
  clearHint();
  notify('Move taken back.');
  draw();
}

// shuffles counts the boards asked for and set: a shuffle's answer is
// used only when no board came or was asked for after it (a size change
// shuffles, and a press of Shuffle right after must not be overwritten
// by the first answer arriving last).
let shuffles = 0;

function setBoard(tiles, rows, cols, { history = [], elapsedMs = 0, home = rows * cols - 1 } = {}) {
  shuffles++;
  stopAuto();
  const resized = rows !== game.rows || cols !== game.cols || tileEls.length !== rows * cols || home !== game.home;
  Object.assign(game, {
    rows, cols, start: tiles.slice(), tiles: tiles.slice(), history: [],
    clock: new Clock(elapsedMs), won: false, hintPlan: null, home, picking: false,
  });
  for (const m of history) {
    const from = source(game.tiles, m);
    if (from < 0) throw new Error(`move ${m} is not possible`);
    const b = blankOf(game.tiles);
    [game.tiles[b], game.tiles[from]] = [game.tiles[from], 0];
    game.history.push(m);
  }
  game.won = isSolved(game.tiles) && history.length > 0;
  if (resized) layout();
  else draw();
  showDB();
}

async function shuffle() {
  const size = currentSize();
  if (!size) return;
  if (ui.gapKind.value === 'tap') {
    pickGap(size);
    return;
  }
  const [r, c] = size.split('x').map(Number);
  await shuffleWith(size, r * c - 1);
}

// pickGap shows the whole picture, as the source game does: the tile
// tapped next becomes the gap, and the board is shuffled from there.
function pickGap(size) {
  stopAuto();
  const [rows, cols] = size.split('x').map(Number);
  const n = rows * cols;
  const tiles = Array.from({ length: n }, (_, i) => (i === n - 1 ? 0 : i + 1));
  setBoard(tiles, rows, cols);
  game.picking = true;
  draw();
  notify('Tap the tile that becomes the gap.');
  resetStats();
}

async function shuffleWith(size, home) {
  const n = ++shuffles;
  try {
    const res = await api('POST', '/api/npuzzle/shuffle', { size, uniform: ui.shuffleKind.value === 'uniform', blank: home });
    if (n !== shuffles) return; // a later board replaced this one
    const b = parseLine(res.board);
    setBoard(b.tiles, b.rows, b.cols, { home: res.blank });
    const how = res.uniform ? 'uniformly random' : `${res.walk} random moves`;
    notify(`New ${res.size} board (${how}). Slide the tiles back into place.`);
    resetStats();
    savePrefs();
  } catch (e) {
    if (n === shuffles) notify(`Cannot shuffle: ${e.message}`, 'error');
  }
}

function restart() {
  if (busy() || game.picking) return;
  setBoard(game.start, game.rows, game.cols, { home: game.home });
  notify('Back to the shuffled board.');
}

// currentSize reads the size control, "ROWSxCOLS".
function currentSize() {
  if (ui.size.value !== 'custom') return ui.size.value;
  const r = Number(ui.rows.value), c = Number(ui.cols.value);
  const lo = Number(ui.rows.min), hi = Number(ui.rows.max);
  if (!(r >= lo && r <= hi && c >= lo && c <= hi)) {
    notify(`Rows and columns must be ${lo} to ${hi}.`, 'error');
    return null;
  }
  return `${r}x${c}`;
}

// ---- hints -----------------------------------------------------------------

function clearHint() {
  for (const e of ui.board.querySelectorAll('.tile.hint')) e.classList.remove('hint');
}

function showHint(plan, solverNote) {
  const m = plan.moves[0];
  const tile = game.tiles[source(game.tiles, m)];
  clearHint();
  void tileEls[tile].offsetWidth; // restart the animation
  tileEls[tile].classList.add('hint');
  const left = plan.moves.length;
  if (plan.optimal) {
    notify(`Hint: slide tile ${tile} ${direction[m]}. ${plural(left, 'move')} to go (shortest).`);
  } else {
    notify(`Hint: slide tile ${tile} ${direction[m]}. It starts a ${left}-move solution, not proven shortest${solverNote}.`, 'warn');
  }
}

async function hint() {
  if (game.won || busy()) return;
  const board = line(game.tiles, game.cols);
  if (game.hintPlan && game.hintPlan.board === board && game.hintPlan.moves.length > 0) {
    showHint(game.hintPlan, '');
    return;
  }
  const res = await search(game, page, { busy: 'Looking for a hint…', cancelled: 'Hint cancelled.', what: 'No hint' }, 'POST', '/api/npuzzle/hint', { board, blank: game.home });
  if (!res) return;
  if (!res.solved) {
    notify(res.message, 'warn');
    return;
  }
  game.hintPlan = { board, moves: res.moves.split(''), optimal: res.optimal };
  const note = res.optimal ? '' : ' (no shortest solution was found in time)';
  showHint(game.hintPlan, note);
}

// ---- auto ------------------------------------------------------------------

function resetStats() {
  ui.statStates.textContent = ui.statTime.textContent = ui.statLength.textContent = '–';
}

// showStats shows a solve's counts: a hint's answer (ms) or the
// catalogue's record of Auto's job (seconds).
function showStats(res) {
  ui.statStates.textContent = `${groupDigits(res.expanded)} expanded, ${groupDigits(res.generated)} generated`;
  ui.statTime.textContent = formatMS(res.ms ?? res.seconds * 1000);
  ui.statLength.textContent = res.solved ? `${plural(res.length, 'move')}${res.optimal ? ' (shortest)' : ' (not proven shortest)'}` : 'none';
}

// auto runs the chosen solver as a job and plays its solution; before is
// said before its messages (why an earlier solver gave way).
async function auto(before = '') {
  if (typeof before !== 'string') before = ''; // called as an event handler
  if (game.won || game.picking || busy()) return;
  const opt = ui.solver.selectedOptions[0];
  const name = opt.textContent;
  resetStats();
  const spec = { board: line(game.tiles, game.cols), solver: opt.value, blank: game.home };
  const memo = { board: spec.board, rows: game.rows, cols: game.cols, home: game.home, name, picture: game.picture };
  notify(`${before}Searching with ${name}…`, 'busy');
  await solving.run('npuzzle.solve', spec, memo);
}

// solving is the page's Auto, run as the catalogue's npuzzle.solve job on
// any worker (its spec: the board, the solver and the blank's home, which
// the server completes with the pattern database it names; its result:
// the catalogue's plain record, catalog.NpuzzleRecord).
const solving = pageJob(game.job, {
  draw,
  progress(p) {
    notify(p.message, 'busy');
    if (p.expanded) ui.statStates.textContent = `${groupDigits(p.expanded)} expanded, ${groupDigits(p.generated)} generated`;
    ui.statTime.textContent = formatMS(p.ms);
  },
  done: playAnswer,
});

// whyNot says for people why the record rec of the solver name has no
// solution: its time limit (stopped; the search's seconds, which end at
// the limit, written as Go writes a duration), or its error.
function whyNot(rec, name) {
  if (rec.stopped === 'time') {
    const r = Math.round(rec.seconds);
    const limit = r < 60 ? `${r}s` : `${Math.floor(r / 60)}m${r % 60}s`;
    return `${name} found no solution within its time limit of ${limit} (${groupDigits(rec.expanded)} states searched)`;
  }
  return `${name} found no solution: ${rec.error || 'no reason given'}`;
}

// playAnswer plays a finished job's solution (the catalogue's record), or
// says why there is none.
function playAnswer(res, name) {
  draw();
  showStats(res);
  if (dbs[`${game.rows}x${game.cols}`]) loadDBs(); // a solve may have loaded the database
  if (!res.solved) {
    const why = whyNot(res, name);
    if (res.stopped === 'time' && res.solver !== 'fast' && res.board === line(game.tiles, game.cols) && ui.solver.querySelector('option[value="fast"]')) {
      // the fast solver answers any board the page offers in about a second
      notify(`${why}. The fast solver takes over…`, 'warn');
      ui.solver.value = 'fast';
      describeSolver();
      ui.solverNote.textContent = `${why}: the fast solver took over. ${ui.solverNote.textContent}`;
      auto(`${why}. The fast solver takes over: `);
      return;
    }
    const fast = game.rows * game.cols > 16 && res.solver !== 'fast' ? '; the fast solver answers any board up to 10x10 in about a second' : '';
    notify(`${why}${fast}.`, 'warn');
    return;
  }
  if (res.board !== line(game.tiles, game.cols)) {
    notify('The board changed while the solver searched.', 'warn');
    return;
  }
  const proof = res.optimal ? 'shortest' : 'not proven shortest';
  const guide = res.partition ? ` with the pattern database ${res.partition}` : '';
  const note = res.note ? ` Note: ${res.note}.` : '';
  notify(`${name} found ${plural(res.length, 'move')}${guide} (${proof}). Playing them…${note}`);
  playSolution(res.moves.split(''), name);
}

// resumeJob finds the job of the last visit again: its board comes back
// and its search is followed to the end.
const resumeJob = () => solving.resume((m) => {
  const b = parseLine(m.board);
  setBoard(b.tiles, b.rows, b.cols, { home: m.home });
  syncSizeControl();
  if (m.picture) selectPicture(m.picture);
});

function playSolution(moves, name) {
  let i = 0;
  const step = () => {
    if (i >= moves.length || game.won) {
      stopAuto();
      return;
    }
    const delay = 1000 / Number(ui.speed.value);
    ui.board.style.setProperty('--slide', `${Math.min(110, delay * 0.8)}ms`);
    play(moves[i++], name);
    if (!game.won) notify(`${name}: move ${i} of ${moves.length}.`);
    game.playback.timer = setTimeout(step, delay);
  };
  game.playback = { timer: null };
  draw();
  step();
}

function stopAuto() {
  if (game.search) game.search.abort();
  if (game.job.running) game.job.cancel();
  if (game.playback) {
    clearTimeout(game.playback.timer);
    game.playback = null;
    ui.board.style.removeProperty('--slide');
    if (!game.won) notify('Auto stopped: your turn.');
    draw();
  }
}

// ---- pattern databases -----------------------------------------------------

// The server's pattern databases by board size (GET /api/npuzzle/pdb):
// where each stands. Where IDA* needs one (5x5), the menu offers IDA*
// only once it is there; building it is a job whose progress shows here.
const dbs = {};
const pdbJob = new Job('tessera.npuzzle.pdbjob');
const idaOption = () => ui.solver.querySelector('option[value="idastar"]');
const idaName = idaOption() ? idaOption().textContent : 'IDA*';
const dbUsable = (d) => d.state === 'ready' || d.state === 'on disk';

async function loadDBs() {
  try {
    const { databases } = await api('GET', '/api/npuzzle/pdb');
    for (const d of databases) dbs[d.size] = d;
  } catch {
    return; // the menu stays as it is
  }
  showDB();
}

// showDB shows the database of the board's size, if it has one, and sets
// the menu's IDA* entry by it.
function showDB() {
  const size = `${game.rows}x${game.cols}`;
  const d = dbs[size];
  const opt = idaOption();
  const blocked = Boolean(d && d.needed && !dbUsable(d));
  if (opt) {
    opt.disabled = blocked;
    opt.textContent = blocked ? `${idaName} (needs the database)` : idaName;
    if (blocked && ui.solver.value === 'idastar') {
      ui.solver.value = 'fast';
      describeSolver();
    }
  }
  ui.pdb.hidden = !d;
  if (!d) return;
  ui.pdb.dataset.state = d.state;
  let text = d.progress ? d.progress.message : d.message;
  if (d.error && d.state === 'absent') text += ` The last build failed: ${d.error}.`;
  if (blocked) text += ` Until it is built, IDA* is not offered on ${size} boards; the fast solver answers at once.`;
  ui.pdbNote.textContent = text;
  ui.pdbBuild.hidden = d.state !== 'absent';
  ui.pdbBuild.disabled = pdbJob.running;
  // the build starts only from this button: say what it costs here
  ui.pdbBuild.textContent = d.build_seconds ? `Build the database (about ${formatDuration(d.build_seconds * 1000)} here)` : 'Build the database';
  // a build under way (another tab's, another client's): follow it
  if (d.state === 'loading' && !pdbJob.running) buildDB(size);
}

// buildDB loads or builds the database of size as a job and follows it;
// a build already under way is joined, not started again.
async function buildDB(size) {
  if (pdbJob.running) return;
  let st;
  try {
    const running = pdbJob.start('npuzzle.pdb', { size }, { size }, (s) => showDBJob(size, s));
    ui.pdbBuild.disabled = true;
    st = await running;
  } catch (e) {
    pdbJob.forget();
    ui.pdbNote.textContent = `Cannot build the database: ${e.message}`;
    ui.pdbBuild.disabled = false;
    return;
  }
  finishDBJob(size, st);
}

function showDBJob(size, st) {
  if (st.state !== 'running' && st.state !== 'queued') return;
  dbs[size] = { ...dbs[size], state: 'loading', progress: st.progress || null };
  if (st.progress && `${game.rows}x${game.cols}` === size) {
    ui.pdbNote.textContent = st.progress.message;
    ui.pdb.dataset.state = 'loading';
  }
}

function finishDBJob(size, st) {
  if (!st) return;
  pdbJob.forget();
  if (st.state === 'done') {
    dbs[size] = st.result;
  } else {
    dbs[size] = { ...dbs[size], state: 'absent', progress: null, error: st.error || st.state };
  }
  showDB();
  if (`${game.rows}x${game.cols}` === size && st.state === 'done' && dbUsable(st.result) && !busy()) {
    notify(`${st.result.message} IDA* is offered on ${size} boards.`);
  }
}

async function resumeDBJob() {
  const m = pdbJob.saved();
  if (!m) return;
  try {
    await api('GET', `/api/jobs/${encodeURIComponent(m.id)}`);
  } catch {
    pdbJob.forget();
    return;
  }
  finishDBJob(m.size, await pdbJob.resume((s) => showDBJob(m.size, s)));
}

// ---- pictures --------------------------------------------------------------

function selectPicture(id) {
  game.picture = id;
  for (const b of ui.pictures.querySelectorAll('.pic')) b.setAttribute('aria-pressed', String(b.dataset.id === id));
  ui.board.style.setProperty('--picture', `url("${pictureURL(id)}")`);
  savePrefs();
}


async function loadPictures() {
  try {
    for (const p of await pictures()) addPictureButton(ui.pictures, p, true);
  } catch (e) {
    notify(`Cannot list the pictures: ${e.message}`, 'error');
  }
}

async function upload(file) {
  const p = await addUpload(ui.pictures, file, true);
  if (p) selectPicture(p.id);
}

async function deletePicture(id) {
  if (!confirm('Delete this uploaded picture?')) return;
  try {
    await api('DELETE', `/api/pictures/${encodeURIComponent(id)}`);
    ui.pictures.querySelector(`.pic[data-id="${CSS.escape(id)}"]`)?.remove();
    if (game.picture === id) selectPicture(ui.pictures.querySelector('.pic').dataset.id);
    notify('Picture deleted.');
  } catch (e) {
    notify(`Cannot delete the picture: ${e.message}`, 'error');
  }
}

// ---- saves -----------------------------------------------------------------

function getState() {
  return {
    start: line(game.start, game.cols),
    board: line(game.tiles, game.cols),
    history: game.history.join(''),
    picture: game.picture,
    elapsed_ms: Math.round(game.clock.ms()),
    blank: game.home,
  };
}

async function loadState(st) {
  const b = parseLine(st.start);
  setBoard(b.tiles, b.rows, b.cols, { history: st.history.split(''), elapsedMs: st.elapsed_ms, home: st.blank ?? b.rows * b.cols - 1 });
  syncSizeControl();
  selectPicture(st.picture);
  resetStats();
}

function syncSizeControl() {
  const s = `${game.rows}x${game.cols}`;
  if ([...ui.size.options].some((o) => o.value === s)) {
    ui.size.value = s;
    ui.custom.hidden = true;
  } else {
    ui.size.value = 'custom';
    ui.custom.hidden = false;
    ui.rows.value = game.rows;
    ui.cols.value = game.cols;
  }
}

// ---- wiring ----------------------------------------------------------------

ui.board.addEventListener('click', (ev) => {
  const t = ev.target.closest('.tile');
  if (!t) return;
  if (game.picking) {
    const home = game.tiles.indexOf(Number(t.dataset.n));
    shuffleWith(`${game.rows}x${game.cols}`, home);
    return;
  }
  if (game.won) return;
  const cell = game.tiles.indexOf(Number(t.dataset.n));
  const m = moveForCell(cell);
  if (m) {
    userMove(m);
  } else {
    t.classList.remove('nudge');
    void t.offsetWidth;
    t.classList.add('nudge');
  }
});

const arrowMoves = { ArrowUp: 'U', ArrowDown: 'D', ArrowLeft: 'L', ArrowRight: 'R' };
onPageKey('input, select, textarea', (ev) => {
  const m = arrowMoves[ev.key];
  if (m) {
    ev.preventDefault();
    userMove(m);
    return;
  }
  const action = { n: shuffle, r: restart, u: undo, h: hint, a: auto }[ev.key];
  if (action) {
    ev.preventDefault();
    action();
  }
});

ui.shuffle.addEventListener('click', shuffle);
ui.restart.addEventListener('click', restart);
ui.undo.addEventListener('click', undo);
ui.hint.addEventListener('click', hint);
ui.auto.addEventListener('click', () => auto());
ui.pdbBuild.addEventListener('click', () => buildDB(`${game.rows}x${game.cols}`));
ui.stop.addEventListener('click', stopAuto);
// pickSolver selects the solver that suits a size: the optimal one where
// it finishes, the fast one beyond.
function pickSolver(size) {
  ui.solver.value = recommended[size] || 'fast';
  describeSolver();
}
ui.size.addEventListener('change', () => {
  ui.custom.hidden = ui.size.value !== 'custom';
  if (ui.size.value !== 'custom') {
    pickSolver(ui.size.value);
    shuffle();
  }
});
ui.gapKind.addEventListener('change', () => {
  savePrefs();
  shuffle();
});
ui.customGo.addEventListener('click', () => {
  const size = currentSize();
  if (size) pickSolver(size);
  shuffle();
});
ui.shuffleKind.addEventListener('change', savePrefs);
ui.numbers.addEventListener('change', () => {
  draw();
  savePrefs();
});
ui.speed.addEventListener('input', () => {
  ui.speedOut.textContent = ui.speed.value;
  savePrefs();
});
const describeSolver = solverNote(ui.solver, ui.solverNote, { changed: savePrefs });
ui.pictures.addEventListener('click', (ev) => {
  const del = ev.target.closest('[data-delete]');
  if (del) {
    ev.stopPropagation();
    deletePicture(del.dataset.delete);
    return;
  }
  const b = ev.target.closest('.pic');
  if (b) selectPicture(b.dataset.id);
});
for (const input of [ui.upload, ui.camera]) {
  input.addEventListener('change', () => {
    if (input.files.length > 0) upload(input.files[0]);
    input.value = '';
  });
}

const saves = savesPanel({ kind: 'npuzzle', getState, loadState, notify });

// Start where the player left off: size, picture and settings from the
// last visit, and a fresh board.
(function init() {
  if (prefs.numbers) ui.numbers.checked = true;
  if (prefs.uniform) ui.shuffleKind.value = 'uniform';
  if (prefs.gap === 'tap') ui.gapKind.value = 'tap';
  if (prefs.speed) ui.speed.value = ui.speedOut.textContent = prefs.speed;
  if (prefs.solver && [...ui.solver.options].some((o) => o.value === prefs.solver)) ui.solver.value = prefs.solver;
  describeSolver();
  if (prefs.size) {
    const [r, c] = prefs.size.split('x').map(Number);
    game.rows = r;
    game.cols = c;
    syncSizeControl();
  }
  selectPicture(ui.pictures.querySelector(`.pic[data-id="${CSS.escape(prefs.picture || '')}"]`) ? prefs.picture : 'sunset');
  loadPictures().then(() => {
    if (prefs.picture && prefs.picture !== game.picture && ui.pictures.querySelector(`.pic[data-id="${CSS.escape(prefs.picture)}"]`)) {
      selectPicture(prefs.picture);
    }
  });
  resumeJob().then(async (found) => {
    if (!found && !(await saves.restore())) shuffle();
  });
  resumeDBJob().then(loadDBs);
})();
