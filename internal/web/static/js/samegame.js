// SameGame under the standard rules: click a group of two or more cells of
// one colour; it scores (n-2)^2, the cells above fall, empty columns close
// up to the left, and clearing the board adds 1,000. The board lives here;
// the server deals (the 20 standard positions, or random boards), runs the
// searches as jobs whose best line streams in, and checks saved games by
// replaying them.
//
// A board is grid[x][y]: x the column from the left, y the row from the
// bottom (as in package samegame), a colour 0..4 or -1 for empty. Its text
// form lists the rows top first, separated by '/', cells by spaces, '.'
// for empty.

import { api, notify, Clock, el, formatDuration, formatMS, groupDigits, pauseWhenHidden, playLine, solverNote, onPageKey } from './api.js';
import { savesPanel } from './saves.js';
import { Job, pageJob } from './jobs.js';

const $ = (id) => document.getElementById(id);
const ui = {
  status: $('status'), board: $('board'), score: $('score'), clicks: $('clicks'), time: $('time'), preview: $('preview'),
  deal: $('deal'), restart: $('restart'), undo: $('undo'),
  position: $('position'), dealPosition: $('deal-position'), positionsNote: $('positions-note'),
  solver: $('solver'), auto: $('auto'), stop: $('stop'), solverNote: $('solver-note'), budget: $('budget'),
  speed: $('speed'), speedOut: $('speed-out'),
  statScore: $('stat-score'), statClicks: $('stat-clicks'), statPlayouts: $('stat-playouts'), statTime: $('stat-time'),
  statMoves: $('stat-moves'),
  lineStep: $('line-step'), linePrev: $('line-prev'), lineNext: $('line-next'), lineOut: $('line-out'),
};

const game = {
  cols: 15, rows: 15,
  grid: [],
  start: '', // the board as dealt, text
  name: '', // "standard position 3", "random board, seed 7"
  history: [], // clicks: [x, y]
  past: [], // {grid, score} before each click, for undo
  score: 0,
  clock: new Clock(),
  cursor: [0, 14],
  playback: null,
  job: new Job('tessera.samegame.job'),
  // view is the best line of the running search as it streams in: its
  // clicks, and how many of them the board shows (0: the board itself).
  // follow: the step keeps to the end of the line as it grows.
  view: { moves: [], step: 0, follow: false },
};

const prefs = JSON.parse(localStorage.getItem('tessera.samegame') || '{}');
const savePrefs = () => localStorage.setItem('tessera.samegame', JSON.stringify({
  speed: ui.speed.value, solver: ui.solver.value, budget: ui.budget.value,
}));

// ---- board text and rules --------------------------------------------------

function parseLine(text) {
  const rows = text.trim().split('/').map((r) => r.trim().split(/\s+/));
  const cols = rows[0].length;
  const grid = [];
  for (let x = 0; x < cols; x++) {
    const col = [];
    for (let y = 0; y < rows.length; y++) {
      const v = rows[rows.length - 1 - y][x];
      col.push(v === '.' ? -1 : Number(v));
    }
    grid.push(col);
  }
  return { grid, cols, rows: rows.length };
}

function line(grid) {
  const rows = [];
  for (let y = game.rows - 1; y >= 0; y--) {
    rows.push(grid.map((col) => (col[y] < 0 ? '.' : String(col[y]))).join(' '));
  }
  return rows.join('/');
}

const copy = (grid) => grid.map((c) => c.slice());
const at = (grid, x, y) => (x >= 0 && x < game.cols && y >= 0 && y < game.rows ? grid[x][y] : -1);

// groupAt returns the cells of the group at (x, y): one colour, joined by
// sides.
function groupAt(grid, x, y) {
  const c = at(grid, x, y);
  if (c < 0) return [];
  const seen = new Set([x * 64 + y]);
  const cells = [[x, y]];
  for (let i = 0; i < cells.length; i++) {
    const [cx, cy] = cells[i];
    for (const [nx, ny] of [[cx + 1, cy], [cx - 1, cy], [cx, cy + 1], [cx, cy - 1]]) {
      if (at(grid, nx, ny) === c && !seen.has(nx * 64 + ny)) {
        seen.add(nx * 64 + ny);
        cells.push([nx, ny]);
      }
    }
  }
  return cells;
}

// remove takes the cells away, lets the columns fall and closes empty
// columns up to the left.
function remove(grid, cells) {
  for (const [x, y] of cells) grid[x][y] = -1;
  const cols = [];
  for (const col of grid) {
    const left = col.filter((v) => v >= 0);
    if (left.length === 0) continue;
    while (left.length < game.rows) left.push(-1);
    cols.push(left);
  }
  while (cols.length < game.cols) cols.push(Array(game.rows).fill(-1));
  return cols;
}

const isEmpty = (grid) => grid.every((col) => col[0] < 0);

function hasMove(grid) {
  for (let x = 0; x < game.cols; x++) {
    for (let y = 0; y < game.rows; y++) {
      const c = grid[x][y];
      if (c >= 0 && (at(grid, x + 1, y) === c || at(grid, x, y + 1) === c)) return true;
    }
  }
  return false;
}

const points = (n) => (n - 2) * (n - 2);

// ---- drawing ---------------------------------------------------------------

const cellEls = []; // [x][y]

function layout() {
  ui.board.style.setProperty('--cols', game.cols);
  ui.board.style.setProperty('--rows', game.rows);
  ui.board.replaceChildren();
  cellEls.length = 0;
  for (let x = 0; x < game.cols; x++) cellEls.push([]);
  for (let y = game.rows - 1; y >= 0; y--) {
    for (let x = 0; x < game.cols; x++) {
      const e = el('div', { class: 'cell', 'data-x': String(x), 'data-y': String(y) });
      cellEls[x][y] = e;
      ui.board.append(e);
    }
  }
}

const over = () => !hasMove(game.grid);

// viewGrid returns the board after the first view.step clicks of the best
// line, and the cells of the click after them; null when the board itself
// is shown.
function viewGrid() {
  const v = game.view;
  if (v.moves.length === 0) return null;
  let grid = copy(game.grid);
  for (const [x, y] of v.moves.slice(0, v.step)) {
    const cells = groupAt(grid, x, y);
    if (cells.length < 2) return null; // a line of another board
    grid = remove(grid, cells);
  }
  const next = v.step < v.moves.length ? groupAt(grid, ...v.moves[v.step]) : [];
  return { grid, next, moved: v.step > 0 };
}

function draw() {
  const view = viewGrid();
  const shown = view ? view.grid : game.grid;
  const next = new Set((view ? view.next : []).map(([x, y]) => x * 64 + y));
  ui.board.classList.toggle('viewing', view !== null && view.moved);
  for (let x = 0; x < game.cols; x++) {
    for (let y = 0; y < game.rows; y++) {
      const e = cellEls[x][y];
      const c = shown[x][y];
      e.classList.toggle('next', next.has(x * 64 + y));
      if (c < 0) e.removeAttribute('data-c');
      else e.dataset.c = String(c);
      e.classList.toggle('cursor', x === game.cursor[0] && y === game.cursor[1]);
    }
  }
  ui.board.dataset.board = line(game.grid);
  ui.board.dataset.score = String(game.score);
  ui.board.classList.toggle('over', over());
  ui.score.textContent = groupDigits(game.score);
  ui.clicks.textContent = game.history.length;
  const busy = game.playback !== null || game.job.running;
  ui.undo.disabled = game.history.length === 0 || busy;
  ui.auto.disabled = busy || over();
  ui.restart.disabled = busy;
  ui.stop.disabled = !busy;
  ui.time.textContent = formatDuration(game.clock.ms());
  const v = game.view;
  ui.lineStep.max = String(v.moves.length);
  ui.lineStep.value = String(v.step);
  ui.lineStep.disabled = ui.linePrev.disabled = ui.lineNext.disabled = v.moves.length === 0;
  ui.lineOut.textContent = v.moves.length === 0 ? 'no line yet' : `board after ${v.step} of ${v.moves.length} clicks`;
}

// setLine takes a new best line from the search.
function setLine(text) {
  const v = game.view;
  v.moves = text ? text.split(' ').map((m) => m.split(',').map(Number)) : [];
  v.step = v.follow ? v.moves.length : Math.min(v.step, v.moves.length);
  draw();
}

// viewStep shows the board after step clicks of the best line; the end of
// the line keeps following it as it grows.
function viewStep(step) {
  const v = game.view;
  v.step = Math.max(0, Math.min(v.moves.length, step));
  v.follow = v.step === v.moves.length && v.step > 0;
  draw();
}

function clearLine() {
  game.view = { moves: [], step: 0, follow: false };
}
setInterval(() => { ui.time.textContent = formatDuration(game.clock.ms()); }, 250);
pauseWhenHidden(() => game.clock, () => game.history.length > 0 && !over());

// lift marks the group under the pointer or the cursor and says what it
// would score.
function lift(x, y) {
  for (const e of ui.board.querySelectorAll('.cell.lift')) e.classList.remove('lift');
  const cells = groupAt(game.grid, x, y);
  if (cells.length < 2) {
    ui.preview.textContent = cells.length === 1 ? 'A single cell cannot be removed.' : '\u00a0';
    return;
  }
  for (const [cx, cy] of cells) cellEls[cx][cy].classList.add('lift');
  ui.preview.textContent = `${cells.length} cells: +${points(cells.length)}`;
}

// ---- playing ---------------------------------------------------------------

// click plays (x, y); by names a solver playing its line.
function click(x, y, by = null) {
  const cells = groupAt(game.grid, x, y);
  if (cells.length < 2) return false;
  game.past.push({ grid: copy(game.grid), score: game.score });
  game.history.push([x, y]);
  game.grid = remove(game.grid, cells);
  game.score += points(cells.length);
  if (isEmpty(game.grid)) game.score += 1000;
  if (!by) game.clock.start();
  if (over()) {
    game.clock.stop();
    const cleared = isEmpty(game.grid) ? 'Board cleared (+1,000)! ' : 'No group of two left. ';
    notify(`${cleared}Final score ${groupDigits(game.score)} in ${game.history.length} clicks${by ? ` by ${by}` : ''}.`, 'victory');
  } else if (!by) {
    notify(`+${points(cells.length)}`);
  }
  draw();
  lift(x, y);
  return true;
}

function userClick(x, y) {
  if (game.playback || game.job.running) return;
  if (!click(x, y)) {
    const n = groupAt(game.grid, x, y).length;
    if (n === 1) notify('A single cell cannot be removed: click a group of two or more.');
  }
}

function undo() {
  if (game.history.length === 0 || game.playback || game.job.running) return;
  const p = game.past.pop();
  game.history.pop();
  game.grid = p.grid;
  game.score = p.score;
  notify('Click taken back.');
  draw();
}

function setBoard(text, name, { history = [], elapsedMs = 0 } = {}) {
  stopPlayback();
  const b = parseLine(text);
  const resized = b.cols !== game.cols || b.rows !== game.rows || cellEls.length !== b.cols;
  Object.assign(game, { cols: b.cols, rows: b.rows, grid: b.grid, start: text, name, history: [], past: [], score: 0,
    clock: new Clock(elapsedMs), cursor: [0, b.rows - 1] });
  if (resized || cellEls.length === 0) layout();
  for (const [x, y] of history) click(x, y, 'replay');
  draw();
}

async function deal(position = 0) {
  try {
    const res = await api('POST', '/api/samegame/deal', position > 0 ? { position } : {});
    setBoard(res.board, res.name);
    notify(`New board: ${res.name}. Click groups of two or more.`);
    resetStats();
  } catch (e) {
    notify(`Cannot deal: ${e.message}`, 'error');
  }
}

function restart() {
  if (game.playback || game.job.running) return;
  setBoard(game.start, game.name);
  notify('Back to the dealt board.');
}

// ---- auto ------------------------------------------------------------------

function resetStats() {
  clearLine();
  for (const e of [ui.statScore, ui.statClicks, ui.statPlayouts, ui.statTime, ui.statMoves]) e.textContent = '–';
}

function showBest(p) {
  ui.statScore.textContent = groupDigits(p.score) + (p.cleared ? ' (cleared)' : '');
  ui.statClicks.textContent = p.clicks || '–';
  ui.statPlayouts.textContent = p.playouts ? groupDigits(p.playouts) : groupDigits(p.nodes) + ' nodes';
  ui.statTime.textContent = formatMS(p.seconds * 1000);
  ui.statMoves.textContent = p.moves || 'no line yet';
}

async function auto() {
  if (game.playback || game.job.running || over()) return;
  const opt = ui.solver.selectedOptions[0];
  const name = opt.textContent;
  resetStats();
  const spec = { board: line(game.grid), rules: 'standard', solver: opt.value, budget: { timeout_ns: Number(ui.budget.value) * 1e6 } };
  const memo = { board: spec.board, start: game.start, name, title: game.name,
    history: game.history.map(([x, y]) => `${x},${y}`).join(' ') };
  notify(`${name} is searching (${ui.budget.selectedOptions[0].textContent})…`, 'busy');
  await solving.run('samegame.solve', spec, memo);
}

// solving is the page's Auto, run as a samegame.solve job: the best line
// so far streams in, and the answer is played click by click.
const solving = pageJob(game.job, {
  draw,
  ended() {
    clearLine();
    draw();
  },
  progress(p, name, memo) {
    showBest(p);
    if (memo.board === line(game.grid) && p.moves !== game.view.moves.map(([x, y]) => `${x},${y}`).join(' ')) setLine(p.moves);
    const clicks = p.clicks ? ` in ${p.clicks} clicks` : '';
    notify(`${name}: best score so far ${groupDigits(p.score)}${clicks}…`, 'busy');
  },
  done: playAnswer,
});

// playAnswer plays a finished search's answer click by click.
function playAnswer(res, name, memo) {
  showBest(res);
  if (memo.board !== line(game.grid)) {
    notify('The board changed while the solver searched.', 'warn');
    return;
  }
  const moves = res.moves ? res.moves.split(' ').map((m) => m.split(',').map(Number)) : [];
  notify(`${name} found ${groupDigits(res.score)} points in ${res.clicks} clicks${res.optimal ? ' (proven best)' : ''}. Playing them…`);
  playLine(game, moves, {
    phases: [([x, y], n) => {
      click(x, y, name);
      if (!over()) notify(`${name}: click ${n} of ${moves.length}, score ${groupDigits(game.score)}.`);
    }],
    wait: () => 1000 / Number(ui.speed.value),
    draw,
    end: () => {
      game.playback = null;
      draw();
    },
  });
}

function stopPlayback() {
  if (game.job.running) game.job.cancel();
  if (game.playback) {
    clearTimeout(game.playback.timer);
    game.playback = null;
    notify('Auto stopped: your turn.');
    draw();
  }
}

// resumeJob finds the job of before a reload: its board and history
// again, and the search followed to its end.
const resumeJob = () => solving.resume((m) => {
  const history = m.history ? m.history.split(' ').map((s) => s.split(',').map(Number)) : [];
  setBoard(m.start, m.title, { history });
});

// ---- wiring ----------------------------------------------------------------

const cellOf = (ev) => {
  const c = ev.target.closest('.cell');
  return c ? [Number(c.dataset.x), Number(c.dataset.y)] : null;
};
ui.board.addEventListener('click', (ev) => {
  const p = cellOf(ev);
  if (p) {
    game.cursor = p;
    userClick(...p);
  }
});
ui.board.addEventListener('pointerover', (ev) => {
  const p = cellOf(ev);
  if (p) lift(...p);
});
ui.board.addEventListener('pointerleave', () => lift(-1, -1));

const arrows = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] };
onPageKey('input, select, textarea, button', (ev) => {
  const d = arrows[ev.key];
  if (d) {
    ev.preventDefault();
    game.cursor = [Math.min(game.cols - 1, Math.max(0, game.cursor[0] + d[0])), Math.min(game.rows - 1, Math.max(0, game.cursor[1] + d[1]))];
    draw();
    lift(...game.cursor);
    return;
  }
  if (ev.key === 'Enter' || ev.key === ' ') {
    ev.preventDefault();
    userClick(...game.cursor);
    return;
  }
  const action = { n: () => deal(Number(ui.position.value)), r: restart, u: undo, a: auto }[ev.key];
  if (action) {
    ev.preventDefault();
    action();
  }
});

ui.deal.addEventListener('click', () => deal(Number(ui.position.value)));
ui.dealPosition.addEventListener('click', () => deal(Number(ui.position.value)));
ui.restart.addEventListener('click', restart);
ui.undo.addEventListener('click', undo);
ui.auto.addEventListener('click', auto);
ui.lineStep.addEventListener('input', () => viewStep(Number(ui.lineStep.value)));
ui.linePrev.addEventListener('click', () => viewStep(game.view.step - 1));
ui.lineNext.addEventListener('click', () => viewStep(game.view.step + 1));
ui.stop.addEventListener('click', stopPlayback);
ui.speed.addEventListener('input', () => {
  ui.speedOut.textContent = ui.speed.value;
  savePrefs();
});
const describeSolver = solverNote(ui.solver, ui.solverNote, { changed: savePrefs });
ui.budget.addEventListener('change', savePrefs);

const saves = savesPanel({
  kind: 'samegame', notify,
  getState: () => ({
    start: game.start, board: line(game.grid), history: game.history.map(([x, y]) => `${x},${y}`).join(' '),
    name: game.name, elapsed_ms: Math.round(game.clock.ms()),
  }),
  loadState: (st) => {
    const history = st.history ? st.history.split(' ').map((s) => s.split(',').map(Number)) : [];
    setBoard(st.start, st.name, { history, elapsedMs: st.elapsed_ms });
    resetStats();
  },
});

(async function init() {
  if (prefs.speed) ui.speed.value = ui.speedOut.textContent = prefs.speed;
  if (prefs.solver && [...ui.solver.options].some((o) => o.value === prefs.solver)) ui.solver.value = prefs.solver;
  if (prefs.budget) ui.budget.value = prefs.budget;
  describeSolver();
  try {
    const { positions, note } = await api('GET', '/api/samegame/positions');
    for (let i = 1; i <= positions; i++) ui.position.append(el('option', { value: String(i) }, `standard position ${i}`));
    if (positions === 0) ui.positionsNote.textContent = `Random boards only: ${note}.`;
  } catch (e) {
    notify(`Cannot list the positions: ${e.message}`, 'error');
  }
  if (!(await resumeJob()) && !(await saves.restore())) deal(0);
})();
