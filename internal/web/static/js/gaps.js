// Jigsaws with gaps (Alphazzle). The server cuts a picture's middle square
// into grid x grid patches with gaps between them and shuffles them; the
// person places them on the empty board (drag, tap then tap, or keys) and
// the full board is scored against the picture. Auto runs a gap solver as
// a job; MCTS reports every placement: the page shows, over the empty
// cells, the policy's probability of each (its heat) and the visits of its
// child, with the value network's estimate, and afterwards every placement
// of the chosen attempt can be stepped through.
//
// game.cells[p] is the cell of patch p (-1: in the tray), game.at[c] the
// patch in cell c (-1: empty); cells count row by row from the top left.

import { api, notify, pictures, addPictureButton, addUpload, Clock, el, formatDuration, formatMS, groupDigits, pauseWhenHidden, plural, solverNote, onPageKey } from './api.js';
import { savesPanel } from './saves.js';
import { Job, pageJob } from './jobs.js';

const $ = (id) => document.getElementById(id);
const ui = {
  status: $('status'), board: $('board'), tray: $('tray'), placed: $('placed'), cells: $('cells'), time: $('time'),
  newBtn: $('new'), clear: $('clear'), grid: $('grid'), seed: $('seed'), pictures: $('pictures'),
  upload: $('upload'), camera: $('camera'),
  solver: $('solver'), auto: $('auto'), stop: $('stop'), solverNote: $('solver-note'),
  reward: $('reward'), pace: $('pace'), sims: $('sims'), attempts: $('attempts'),
  statPatch: $('stat-patch'), statValue: $('stat-value'), statVisits: $('stat-visits'), statAnswer: $('stat-answer'),
  statTime: $('stat-time'), attemptList: $('attempt-list'),
  viewBar: $('view-bar'), viewStep: $('view-step'), viewPrev: $('view-prev'), viewNext: $('view-next'),
  viewClose: $('view-close'), viewNote: $('view-note'),
};

const game = {
  puzzle: null, // the answer of /api/gaps/new: {puzzle, name, grid, patch, gap, patches}
  picture: 'parrots', // a photograph: what the networks learned on
  cells: [],
  at: [],
  selected: -1, // the patch picked up, or -1
  cursor: { board: 0, tray: 0 },
  moves: 0,
  clock: new Clock(),
  score: null, // the full board's score
  job: new Job('tessera.gaps.job'),
  // view is the search shown instead of the person's board: the
  // placements (steps), the one shown (index; steps.length: the answer),
  // the answer's cells, the result; live while the job runs.
  view: null,
};

const STORE = 'tessera.gaps.puzzle';
const prefs = JSON.parse(localStorage.getItem('tessera.gaps') || '{}');
const savePrefs = () => localStorage.setItem('tessera.gaps', JSON.stringify({
  grid: ui.grid.value, seed: ui.seed.value, picture: game.picture, solver: ui.solver.value, reward: ui.reward.value,
  pace: ui.pace.value, sims: ui.sims.value, attempts: ui.attempts.value,
}));

const n = () => (game.puzzle ? game.puzzle.grid * game.puzzle.grid : 0);
const busy = () => game.job.running;

// remember keeps the puzzle and the person's board for a reload.
function remember() {
  if (!game.puzzle) return;
  try {
    localStorage.setItem(STORE, JSON.stringify({ puzzle: game.puzzle.puzzle, name: game.puzzle.name, cells: game.cells,
      elapsed_ms: Math.round(game.clock.ms()), moves: game.moves }));
  } catch {
    // full storage: the board is not kept over a reload
  }
}

// ---- drawing ---------------------------------------------------------------

function patchEl(p) {
  const e = el('div', { class: 'patch', 'data-p': String(p), title: `patch ${p}` });
  e.style.setProperty('--p', p);
  e.style.setProperty('--n', n());
  return e;
}

// shown returns the cells the board shows: the person's, or the search's.
function shown() {
  const v = game.view;
  if (!v) return game.cells;
  if (v.index < v.steps.length) return v.steps[v.index].before;
  return v.final || game.cells.map(() => -1);
}

function draw() {
  const N = n();
  const g = game.puzzle ? game.puzzle.grid : 3;
  ui.board.style.setProperty('--g', g);
  ui.board.style.setProperty('--sheet', game.puzzle ? `url("${game.puzzle.patches}")` : 'none');
  ui.tray.style.setProperty('--sheet', game.puzzle ? `url("${game.puzzle.patches}")` : 'none');
  const cells = shown();
  const at = Array(N).fill(-1);
  cells.forEach((c, p) => { if (c >= 0) at[c] = p; });
  const v = game.view;
  const step = v && v.index < v.steps.length ? v.steps[v.index] : null;
  const heat = new Map();
  if (step) {
    const top = Math.max(...step.priors, 1e-9);
    step.moves.forEach((c, j) => heat.set(c, { prior: step.priors[j], visits: step.visits[j], value: step.values[j], a: 0.12 + 0.72 * step.priors[j] / top }));
  }
  const board = [];
  for (let c = 0; c < N; c++) {
    const cell = el('div', { class: 'cell', 'data-i': String(c) });
    if (at[c] >= 0) {
      const pe = patchEl(at[c]);
      if (!v && at[c] === game.selected) pe.classList.add('selected');
      cell.append(pe);
    } else {
      cell.append(el('div', { class: 'slot' }));
    }
    const h = heat.get(c);
    if (h) {
      const he = el('div', { class: 'heat', title: `P ${h.prior.toFixed(3)}, ${h.visits} visits, mean value ${h.value.toFixed(3)}` },
        el('span', {}, `${Math.round(h.prior * 100)}%`), el('span', { class: 'v' }, `n ${h.visits}`));
      he.style.setProperty('--a', h.a.toFixed(3));
      cell.append(he);
      if (c === step.cell) cell.classList.add('chosen');
    }
    if (!v && document.activeElement === ui.board && c === game.cursor.board) cell.classList.add('cursor');
    board.push(cell);
  }
  ui.board.replaceChildren(...board);
  ui.board.dataset.cells = cells.join(' ');
  ui.board.classList.toggle('viewing', v !== null);
  ui.board.classList.toggle('solved', !v && game.score !== null && game.score.perfect);

  const tray = [];
  const left = [];
  for (let p = 0; p < N; p++) if (cells[p] < 0) left.push(p);
  game.cursor.tray = Math.min(game.cursor.tray, Math.max(0, left.length - 1));
  left.forEach((p, i) => {
    const pe = patchEl(p);
    if (!v && p === game.selected) pe.classList.add('selected');
    if (step && p === step.patch) pe.classList.add('placing');
    if (!v && document.activeElement === ui.tray && i === game.cursor.tray) pe.classList.add('cursor');
    tray.push(pe);
  });
  ui.tray.replaceChildren(...tray);

  const placed = cells.filter((c) => c >= 0).length;
  ui.placed.textContent = placed;
  ui.cells.textContent = N;
  ui.time.textContent = formatDuration(game.clock.ms());
  ui.auto.disabled = busy() || !game.puzzle;
  ui.stop.disabled = !busy();
  ui.newBtn.disabled = busy();
  ui.clear.disabled = busy() || v !== null;
  drawView();
}
setInterval(() => { ui.time.textContent = formatDuration(game.clock.ms()); }, 250);
pauseWhenHidden(() => game.clock, () => game.cells.some((c) => c >= 0) && !(game.score && game.score.perfect));

// drawView shows the placement on view: its numbers, and the slider.
function drawView() {
  const v = game.view;
  ui.viewBar.hidden = !v || v.live;
  ui.viewNote.hidden = !v;
  if (!v) return;
  ui.viewStep.max = String(v.steps.length);
  ui.viewStep.value = String(v.index);
  ui.viewPrev.disabled = v.index <= 0;
  ui.viewNext.disabled = v.index >= v.steps.length;
  const step = v.index < v.steps.length ? v.steps[v.index] : null;
  if (step) {
    const j = step.moves.indexOf(step.cell);
    const total = step.visits.reduce((a, b) => a + b, 0);
    ui.statPatch.textContent = `patch ${step.patch} → cell ${step.cell} (P ${(step.priors[j] * 100).toFixed(1)}%)`;
    ui.statValue.textContent = step.value < 0 ? 'not asked (value mode)' : step.value.toFixed(3);
    ui.statVisits.textContent = `${groupDigits(step.visits[j])} of ${groupDigits(total)} to the chosen cell`;
    ui.viewNote.textContent = `Attempt ${step.attempt + 1}, placement ${step.placed + 1} of ${n()}: the outlined patch goes to the ` +
      `white cell. Heat: the policy's probability of each empty cell; n: the visits of its child.`;
  } else if (v.final) {
    ui.viewNote.textContent = v.played === false
      ? 'The answer: a complete reassembly the search met, valued above the line it played.'
      : 'The answer.';
  } else {
    ui.viewNote.textContent = 'Waiting for the first placement…';
  }
}

// ---- the person's board -----------------------------------------------------

function place(p, c) {
  if (game.view || busy()) return;
  const from = game.cells[p];
  const q = game.at[c];
  if (q === p) return;
  if (q >= 0) { // swap: q goes where p was
    game.cells[q] = from;
    if (from >= 0) game.at[from] = q;
  } else if (from >= 0) {
    game.at[from] = -1;
  }
  game.cells[p] = c;
  game.at[c] = p;
  moved();
}

function unplace(p) {
  if (game.view || busy() || game.cells[p] < 0) return;
  game.at[game.cells[p]] = -1;
  game.cells[p] = -1;
  moved();
}

function moved() {
  game.moves++;
  game.selected = -1;
  game.clock.start();
  game.score = null;
  const full = game.cells.every((c) => c >= 0);
  if (full) {
    scoreBoard();
  } else {
    const left = game.cells.filter((c) => c < 0).length;
    notify(`${left} patch${left === 1 ? '' : 'es'} to place.`);
  }
  remember();
  draw();
}

async function scoreBoard() {
  const cells = game.cells.slice();
  try {
    const sc = await api('POST', '/api/gaps/score', { puzzle: game.puzzle.puzzle, cells });
    if (game.cells.join() !== cells.join()) return; // moved meanwhile
    game.score = sc;
    if (sc.perfect) {
      game.clock.stop();
      notify(`Perfect! Every patch in place: ${plural(game.moves, 'move')}, ${formatDuration(game.clock.ms())}.`, 'victory');
    } else {
      notify(`Board full: ${sc.patches} of ${sc.cells} patches and ${sc.neighbours} of ${sc.pairs} neighbours in place. Swap patches to do better.`, 'warn');
    }
    ui.board.dataset.score = `${sc.patches}/${sc.neighbours}/${sc.perfect}`;
    draw();
  } catch (e) {
    notify(`Cannot score the board: ${e.message}`, 'error');
  }
}

// puzzles counts the puzzles asked for and set: a new puzzle's answer is
// used only when none came or was asked for after it (two quick changes
// of the grid: the first answer may arrive last).
let puzzles = 0;

function setPuzzle(pz, { cells = null, elapsedMs = 0, moves = 0 } = {}) {
  puzzles++;
  const N = pz.grid * pz.grid;
  game.puzzle = pz;
  game.cells = cells && cells.length === N ? cells.slice() : Array(N).fill(-1);
  game.at = Array(N).fill(-1);
  game.cells.forEach((c, p) => { if (c >= 0) game.at[c] = p; });
  Object.assign(game, { selected: -1, moves, clock: new Clock(elapsedMs), score: null, view: null, cursor: { board: 0, tray: 0 } });
  ui.board.dataset.name = pz.name;
  ui.board.dataset.score = '';
  remember();
  draw();
  if (game.cells.every((c) => c >= 0)) scoreBoard();
}

async function newPuzzle() {
  if (busy()) return;
  const grid = Number(ui.grid.value);
  const seed = Math.max(0, Math.floor(Number(ui.seed.value) || 0));
  const n = ++puzzles;
  try {
    const pz = await api('POST', '/api/gaps/new', { picture: game.picture, grid, seed });
    if (busy() || n !== puzzles) return; // a search started meanwhile, or a later puzzle came: it stays
    setPuzzle(pz);
    resetStats();
    notify(`New ${grid}x${grid} puzzle: ${pz.name}. Place the ${grid * grid} patches.`);
  } catch (e) {
    if (n === puzzles) notify(`Cannot make the puzzle: ${e.message}`, 'error');
  }
}

// openPuzzle draws a puzzle made before (a saved game's, a job's).
async function openPuzzle(ref, name, opts) {
  const pz = await api('POST', '/api/gaps/new', { puzzle: ref });
  pz.name = name || pz.name;
  setPuzzle(pz, opts);
}

function clearBoard() {
  if (busy() || game.view) return;
  setPuzzle(game.puzzle);
  notify('Every patch is back in the tray.');
}

// ---- pointer: drag, or tap then tap ------------------------------------------

let press = null; // {p, x, y, id, ghost, from}

function targetAt(x, y) {
  const e = document.elementFromPoint(x, y);
  if (!e) return null;
  const cell = e.closest('#board .cell');
  if (cell) return { cell: Number(cell.dataset.i) };
  if (e.closest('#tray')) return { tray: true };
  return null;
}

function onDown(ev) {
  if (game.view || busy() || !game.puzzle || ev.button > 0) return;
  const pe = ev.target.closest('.patch');
  const cell = ev.target.closest('#board .cell');
  press = { p: pe ? Number(pe.dataset.p) : -1, x: ev.clientX, y: ev.clientY, id: ev.pointerId, ghost: null,
    cell: cell ? Number(cell.dataset.i) : -1, inTray: !!ev.target.closest('#tray') };
  ev.currentTarget.setPointerCapture(ev.pointerId);
  ev.preventDefault();
}

function onMove(ev) {
  if (!press || ev.pointerId !== press.id || press.p < 0) return;
  const dx = ev.clientX - press.x, dy = ev.clientY - press.y;
  if (!press.ghost && dx * dx + dy * dy < 36) return;
  if (!press.ghost) {
    press.ghost = patchEl(press.p);
    press.ghost.classList.add('ghost');
    press.ghost.style.setProperty('--sheet', `url("${game.puzzle.patches}")`);
    document.body.append(press.ghost);
    for (const e of document.querySelectorAll(`.patch[data-p="${press.p}"]:not(.ghost)`)) e.classList.add('lifted');
  }
  press.ghost.style.left = `${ev.clientX - 32}px`;
  press.ghost.style.top = `${ev.clientY - 32}px`;
  for (const e of ui.board.querySelectorAll('.cell.target')) e.classList.remove('target');
  const t = targetAt(ev.clientX, ev.clientY);
  if (t && t.cell !== undefined) ui.board.querySelector(`.cell[data-i="${t.cell}"]`).classList.add('target');
}

function onUp(ev) {
  if (!press || ev.pointerId !== press.id) return;
  const pr = press;
  press = null;
  if (pr.ghost) {
    pr.ghost.remove();
    const t = targetAt(ev.clientX, ev.clientY);
    if (t && t.cell !== undefined) place(pr.p, t.cell);
    else if (t && t.tray) unplace(pr.p);
    draw();
    return;
  }
  tap(pr);
}

// tap: a patch in the tray picks it up; a cell takes the patch picked up,
// or picks up its own; the tray takes back a patch picked up from the board.
function tap({ p, cell, inTray }) {
  if (cell >= 0) {
    game.cursor.board = cell;
    if (game.selected >= 0 && game.selected !== game.at[cell]) {
      place(game.selected, cell);
      return;
    }
    game.selected = game.selected === game.at[cell] ? -1 : game.at[cell];
  } else if (inTray) {
    if (p >= 0) game.selected = game.selected === p ? -1 : p;
    else if (game.selected >= 0 && game.cells[game.selected] >= 0) {
      unplace(game.selected);
      return;
    }
  }
  if (game.selected >= 0) notify(`Patch ${game.selected} picked up: tap a cell to put it there.`);
  draw();
}

for (const area of [ui.board, ui.tray]) {
  area.addEventListener('pointerdown', onDown);
  area.addEventListener('pointermove', onMove);
  area.addEventListener('pointerup', onUp);
  area.addEventListener('pointercancel', () => {
    if (press && press.ghost) press.ghost.remove();
    press = null;
    draw();
  });
  area.addEventListener('focus', draw);
  area.addEventListener('blur', draw);
}

// ---- keyboard ----------------------------------------------------------------

function boardKey(ev) {
  const g = game.puzzle.grid;
  const d = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] }[ev.key];
  const c = game.cursor.board;
  if (d) {
    const r = Math.min(g - 1, Math.max(0, Math.floor(c / g) + d[0]));
    const col = Math.min(g - 1, Math.max(0, (c % g) + d[1]));
    game.cursor.board = r * g + col;
    draw();
    return true;
  }
  if (ev.key === 'Enter' || ev.key === ' ') {
    if (game.selected >= 0 && game.selected !== game.at[c]) place(game.selected, c);
    else tap({ p: -1, cell: c, inTray: false });
    return true;
  }
  if (ev.key === 'Delete' || ev.key === 'Backspace') {
    if (game.at[c] >= 0) unplace(game.at[c]);
    return true;
  }
  return false;
}

function trayKey(ev) {
  const left = game.cells.map((c, p) => (c < 0 ? p : -1)).filter((p) => p >= 0);
  const d = { ArrowLeft: -1, ArrowUp: -1, ArrowRight: 1, ArrowDown: 1 }[ev.key];
  if (d) {
    game.cursor.tray = Math.min(left.length - 1, Math.max(0, game.cursor.tray + d));
    draw();
    return true;
  }
  if ((ev.key === 'Enter' || ev.key === ' ') && left.length > 0) {
    game.selected = left[game.cursor.tray];
    notify(`Patch ${game.selected} picked up: move to a cell of the board and press Enter.`);
    ui.board.focus();
    draw();
    return true;
  }
  return false;
}

onPageKey('input, select, textarea, button', (ev) => {
  if (game.view && !game.view.live) {
    const k = { '[': -1, ']': 1, ArrowLeft: -1, ArrowRight: 1 }[ev.key];
    if (k) {
      ev.preventDefault();
      showStep(game.view.index + k);
      return;
    }
  }
  if (ev.key === 'Escape') {
    game.selected = -1;
    if (game.view && !busy()) closeView();
    draw();
    return;
  }
  if (game.puzzle && !game.view && !busy()) {
    const handled = document.activeElement === ui.tray ? trayKey(ev) : boardKey(ev);
    if (handled) {
      ev.preventDefault();
      return;
    }
  }
  const action = { n: newPuzzle, c: clearBoard, a: auto }[ev.key];
  if (action) {
    ev.preventDefault();
    action();
  }
});

// ---- auto: the search as a job -------------------------------------------------

function resetStats() {
  for (const e of [ui.statPatch, ui.statValue, ui.statVisits, ui.statAnswer, ui.statTime]) e.textContent = '–';
  ui.attemptList.replaceChildren();
}

function showStep(i) {
  const v = game.view;
  if (!v) return;
  v.index = Math.min(v.steps.length, Math.max(0, i));
  draw();
}

function closeView() {
  game.view = null;
  notify('Your board again.');
  draw();
}

async function auto() {
  if (busy() || !game.puzzle) return;
  const opt = ui.solver.selectedOptions[0];
  const name = opt.textContent;
  // The catalogue's gaps job (catalog.GapsJob): the puzzle's region as its
  // picture, cut whole; its seed shuffles the puzzle and seeds the search.
  const pz = game.puzzle.puzzle;
  const spec = {
    solver: opt.value,
    options: { reward: ui.reward.value, sims: Number(ui.sims.value), attempts: Number(ui.attempts.value), seed: String(pz.seed || 0) },
    picture: { name: '', blob: `data:image/png;base64,${pz.region}` },
    grid: pz.grid,
    centre: true,
    pace_ms: opt.value === 'mcts' ? Number(ui.pace.value) : 0,
  };
  resetStats();
  game.selected = -1;
  game.view = { live: true, steps: [], index: 0, final: null };
  notify(`${name} is searching…`, 'busy');
  await solving.run('gaps.solve', spec, { name, puzzleName: game.puzzle.name, solver: opt.value });
}

// solving is the page's Auto, run as a gaps.solve job: MCTS's every
// placement streams in (policy, visits, value), then the answer and its
// attempts.
const solving = pageJob(game.job, {
  draw,
  reset() {
    game.view = null;
  },
  progress(p, name) {
    if (!game.view) game.view = { live: true, steps: [], index: 0, final: null };
    if (p.step) {
      game.view.steps = [p.step];
      game.view.index = 0;
      const j = p.step.moves.indexOf(p.step.cell);
      notify(`${name}: attempt ${p.step.attempt + 1} of ${p.attempts}, placement ${p.step.placed + 1} of ${n()}: patch ` +
        `${p.step.patch} to cell ${p.step.cell} (P ${(p.step.priors[j] * 100).toFixed(0)}%, V ${p.step.value < 0 ? '–' : p.step.value.toFixed(2)})…`, 'busy');
    } else {
      notify(`${name} is searching…`, 'busy');
    }
    ui.statTime.textContent = formatMS(p.ms || 0);
    draw();
  },
  done: showAnswer,
});

// showAnswer shows a finished search: its answer, score and attempts, and
// the chosen attempt's placements to step through.
function showAnswer(res, name) {
  game.view = { live: false, steps: res.steps || [], final: res.cells || null, played: res.played, result: res };
  game.view.index = game.view.steps.length;
  ui.statTime.textContent = `${formatMS(res.ms)}, ${groupDigits(res.evaluations)} evaluations`;
  if (res.score) {
    const sc = res.score;
    ui.statAnswer.textContent = `${sc.patches}/${sc.cells} patches, ${sc.neighbours}/${sc.pairs} neighbours${sc.perfect ? ', perfect' : ''}`;
  }
  ui.attemptList.replaceChildren(...(res.tried || []).map((a, k) => el('li', { class: k === res.attempt ? 'chosen' : '' },
    `V ${a.value.toFixed(3)} · ${a.score.patches}/${a.score.cells} patches${a.score.perfect ? ' ✓' : ''}${k === res.attempt ? ' (chosen)' : ''}`)));
  const perfect = res.score && res.score.perfect;
  notify(`${name}: ${res.message}.${game.view.steps.length ? ' Step through its placements below the board.' : ''}`, perfect ? 'victory' : (res.stopped ? 'warn' : ''));
  draw();
}

// resumeJob finds the job of before a reload and follows it to its end.
const resumeJob = () => solving.resume(() => {
  game.view = { live: true, steps: [], index: 0, final: null };
});

// ---- pictures ------------------------------------------------------------------

function selectPicture(id) {
  game.picture = id;
  for (const b of ui.pictures.querySelectorAll('.pic')) b.setAttribute('aria-pressed', String(b.dataset.id === id));
  savePrefs();
}

async function upload(file) {
  const p = await addUpload(ui.pictures, file);
  if (!p) return;
  selectPicture(p.id);
  await newPuzzle();
}

// ---- wiring ----------------------------------------------------------------------

ui.pictures.addEventListener('click', (ev) => {
  const b = ev.target.closest('.pic');
  if (!b || busy()) return;
  selectPicture(b.dataset.id);
  newPuzzle();
});
for (const input of [ui.upload, ui.camera]) {
  input.addEventListener('change', () => {
    if (input.files.length > 0) upload(input.files[0]);
    input.value = '';
  });
}
ui.newBtn.addEventListener('click', newPuzzle);
ui.clear.addEventListener('click', clearBoard);
ui.grid.addEventListener('change', () => {
  savePrefs();
  newPuzzle();
});
ui.seed.addEventListener('change', savePrefs);
ui.auto.addEventListener('click', auto);
ui.stop.addEventListener('click', () => game.job.cancel());
ui.viewStep.addEventListener('input', () => showStep(Number(ui.viewStep.value)));
ui.viewPrev.addEventListener('click', () => showStep(game.view.index - 1));
ui.viewNext.addEventListener('click', () => showStep(game.view.index + 1));
ui.viewClose.addEventListener('click', closeView);
const describeSolver = solverNote(ui.solver, ui.solverNote, {
  more: (id) => (id === 'mcts' ? '. Each placement is shown as it is made.' : '. Only the answer is shown.'),
  changed: savePrefs,
});
for (const e of [ui.reward, ui.pace, ui.sims, ui.attempts]) e.addEventListener('change', savePrefs);

savesPanel({
  kind: 'gaps', notify,
  getState: () => ({ puzzle: game.puzzle.puzzle, name: game.puzzle.name, cells: game.cells, elapsed_ms: Math.round(game.clock.ms()) }),
  loadState: async (st) => {
    await openPuzzle(st.puzzle, st.name, { cells: st.cells, elapsedMs: st.elapsed_ms, moves: 0 });
    resetStats();
  },
});

(async function init() {
  for (const [k, e] of [['grid', ui.grid], ['seed', ui.seed], ['reward', ui.reward], ['pace', ui.pace], ['sims', ui.sims], ['attempts', ui.attempts]]) {
    const v = prefs[k];
    if (v === undefined || (e.tagName === 'SELECT' && ![...e.options].some((o) => o.value === v))) continue;
    e.value = v;
  }
  if (prefs.solver && [...ui.solver.options].some((o) => o.value === prefs.solver)) ui.solver.value = prefs.solver;
  describeSolver();
  selectPicture(prefs.picture && ui.pictures.querySelector(`.pic[data-id="${CSS.escape(prefs.picture)}"]`) ? prefs.picture : 'parrots');
  pictures().then((list) => {
    for (const p of list) addPictureButton(ui.pictures, p);
    if (prefs.picture && prefs.picture !== game.picture && ui.pictures.querySelector(`.pic[data-id="${CSS.escape(prefs.picture)}"]`)) {
      selectPicture(prefs.picture);
    }
  }).catch((e) => notify(`Cannot list the pictures: ${e.message}`, 'error'));
  // The puzzle and board of the last visit, if any.
  let kept = null;
  try {
    kept = JSON.parse(localStorage.getItem(STORE) || 'null');
  } catch {
    kept = null;
  }
  if (kept) {
    try {
      await openPuzzle(kept.puzzle, kept.name, { cells: kept.cells, elapsedMs: kept.elapsed_ms, moves: kept.moves || 0 });
      notify(`New visit, same puzzle: ${kept.name}.`);
    } catch {
      kept = null;
    }
  }
  if (await resumeJob()) return;
  if (!kept) await newPuzzle();
})();
