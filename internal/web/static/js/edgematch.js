// Edge-matching: fill the board with the square tiles, turned as needed,
// so that abutting edges show the same colour and the outside shows the
// frame. The board lives here (swaps, turns, the score); the server loads
// the puzzles, runs the searches as jobs (the partial search's best board
// and the LP's matrix P stream in) and writes the bucas viewer's link.
//
// A board is a list of [piece, rot] per cell, row by row from the top
// left; piece -1 is an empty cell. Side d (N E S W = 0 1 2 3) of a placed
// tile shows side (d - rot) mod 4 of the tile as listed.

import { api, notify, Clock, el, formatDuration, formatMS, groupDigits, pauseWhenHidden, gridControls, solverNote, tileState } from './api.js';
import { savesPanel } from './saves.js';
import { Job, pageJob } from './jobs.js';

const $ = (id) => document.getElementById(id);
const ui = {
  status: $('status'), board: $('board'), score: $('score'), max: $('max'), moves: $('moves'), time: $('time'),
  rotate: $('rotate'), restart: $('restart'), exportBtn: $('export'), exportOut: $('export-out'),
  puzzle: $('puzzle'), genRow: $('gen-row'), genSize: $('gen-size'), genColours: $('gen-colours'), genSeed: $('gen-seed'),
  load: $('load'), puzzleNote: $('puzzle-note'),
  solver: $('solver'), auto: $('auto'), stop: $('stop'), budget: $('budget'), solverNote: $('solver-note'),
  autoOut: $('auto-out'), lp: $('lp'), lpImg: $('lp-img'), lpCaption: $('lp-caption'), lpIters: $('lp-iters'),
};

const game = {
  p: null, // the puzzle as the server sends it
  board: [], // [piece, rot] per cell
  start: [],
  fixed: new Set(), // cells of the hints
  selected: -1,
  cursor: 0,
  moves: 0,
  clock: new Clock(),
  job: new Job('tessera.edgematch.job'),
};

const SIDES = ['n', 'e', 's', 'w'];

// ---- rules -----------------------------------------------------------------

// side returns the colour that side d of cell i shows, or -1 if empty.
function side(board, i, d) {
  const [piece, rot] = board[i];
  if (piece < 0) return -1;
  return game.p.tiles[piece][(d - rot + 4) % 4];
}

// frameColour is the colour the outward side d of cell (r, c) must show.
function frameColour(r, c, d) {
  const { rows, cols, frame } = game.p;
  if (!frame) return 0;
  if (d === 0) return frame[c];
  if (d === 1) return frame[cols + r];
  if (d === 2) return frame[cols + rows + c];
  return frame[2 * cols + rows + r];
}

// check returns the score (matching internal edges) and, per cell and
// side, whether the edge is wrong.
function check(board) {
  const { rows, cols } = game.p;
  const bad = board.map(() => [false, false, false, false]);
  let score = 0;
  let frameErrors = 0;
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const i = r * cols + c;
      if (board[i][0] < 0) continue;
      const pairs = [];
      if (c + 1 < cols) pairs.push([1, i + 1, 3]);
      if (r + 1 < rows) pairs.push([2, i + cols, 0]);
      for (const [d, j, dj] of pairs) {
        if (board[j][0] < 0) continue;
        const a = side(board, i, d), b = side(board, j, dj);
        if (a === b && a !== 0) score++;
        else bad[i][d] = bad[j][dj] = true;
      }
      for (const [d, out] of [[0, r === 0], [1, c === cols - 1], [2, r === rows - 1], [3, c === 0]]) {
        if (out && side(board, i, d) !== frameColour(r, c, d)) {
          bad[i][d] = true;
          frameErrors++;
        }
      }
    }
  }
  const empty = board.filter(([p]) => p < 0).length;
  return { score, bad, solved: score === game.p.max && frameErrors === 0 && empty === 0 };
}

// ---- drawing ---------------------------------------------------------------

const cellEls = [];

function layout() {
  const { rows, cols } = game.p;
  ui.board.style.setProperty('--rows', rows);
  ui.board.style.setProperty('--cols', cols);
  ui.board.style.width = `min(100%, ${(620 * cols) / Math.max(rows, cols)}px)`;
  ui.board.replaceChildren();
  cellEls.length = 0;
  for (let i = 0; i < rows * cols; i++) {
    const e = el('div', { class: 'cell', 'data-i': String(i) });
    for (const s of SIDES) e.append(el('div', { class: `tri ${s}` }));
    for (const s of SIDES) e.append(el('div', { class: `bad ${s}`, hidden: '' }));
    cellEls.push(e);
    ui.board.append(e);
  }
}

function draw() {
  const res = check(game.board);
  const pal = game.p.palette;
  game.board.forEach(([piece], i) => {
    const e = cellEls[i];
    const tris = e.querySelectorAll('.tri');
    const bads = e.querySelectorAll('.bad');
    for (let d = 0; d < 4; d++) {
      const c = side(game.board, i, d);
      tris[d].style.background = c < 0 ? '#15171e' : pal[c] || '#fff';
      bads[d].hidden = !(res.bad[i][d] && piece >= 0);
    }
    e.classList.toggle('hint', game.fixed.has(i));
    e.classList.toggle('selected', i === game.selected);
    e.classList.toggle('cursor', i === game.cursor && i !== game.selected);
    e.dataset.piece = `${piece}/${game.board[i][1]}`;
  });
  ui.board.classList.toggle('solved', res.solved);
  ui.board.dataset.score = String(res.score);
  ui.board.dataset.board = game.board.map(([p, r]) => `${p}/${r}`).join(' ');
  ui.score.textContent = res.score;
  ui.max.textContent = game.p.max;
  ui.moves.textContent = game.moves;
  const busy = game.job.running;
  ui.auto.disabled = busy;
  ui.stop.disabled = !busy;
  ui.rotate.disabled = busy || game.selected < 0 || game.p.fixed;
  ui.restart.disabled = busy;
  return res;
}
setInterval(() => { ui.time.textContent = formatDuration(game.clock.ms()); }, 250);
pauseWhenHidden(() => game.clock, () => game.moves > 0);

// ---- playing ---------------------------------------------------------------

function moved() {
  game.moves++;
  game.clock.start();
  const res = draw();
  if (res.solved) {
    game.clock.stop();
    notify(`Solved! Every edge matches: ${game.moves} moves in ${formatDuration(game.clock.ms())}.`, 'victory');
  } else {
    notify(`Score ${res.score} of ${game.p.max}.`);
  }
}

function swap(i, j) {
  if (i === j || game.fixed.has(i) || game.fixed.has(j) || game.job.running) return;
  [game.board[i], game.board[j]] = [game.board[j], game.board[i]];
  game.selected = -1;
  moved();
}

function turn(i, by = 1) {
  if (i < 0 || game.fixed.has(i) || game.p.fixed || game.job.running || game.board[i][0] < 0) return;
  game.board[i] = [game.board[i][0], (game.board[i][1] + by + 4) % 4];
  moved();
}

// hintTile refuses a tap on a hint tile, saying so.
function hintTile(i) {
  if (!game.fixed.has(i)) return false;
  notify('That tile is a hint: it stays where it is.');
  return true;
}

// ---- loading ---------------------------------------------------------------

function currentRef() {
  if (ui.puzzle.value === 'gen') {
    const n = Number(ui.genSize.value);
    return { rows: n, cols: n, colours: Number(ui.genColours.value), seed: Number(ui.genSeed.value) };
  }
  return { file: ui.puzzle.value };
}

// showRef sets the puzzle menu to ref, the puzzle shown (after a reload, a
// resumed job or a loaded save, the menu agrees with the board).
function showRef(ref) {
  if (ref.file && [...ui.puzzle.options].some((o) => o.value === ref.file)) {
    ui.puzzle.value = ref.file;
  } else if (!ref.file) {
    ui.puzzle.value = 'gen';
    ui.genSize.value = ref.rows;
    ui.genColours.value = ref.colours ? ref.colours : '';
    ui.genSeed.value = ref.seed ?? 1;
  }
  ui.genRow.hidden = ui.puzzle.value !== 'gen';
}

async function load(ref, seed = 1, board = null, moves = 0, elapsed = 0) {
  try {
    const p = await api('POST', '/api/edgematch/load', { ref, seed });
    game.p = p;
    showRef(ref);
    game.fixed = new Set(p.hints.map(([, r, c]) => r * p.cols + c));
    game.start = p.board.map((x) => x.slice());
    game.board = (board || p.board).map((x) => x.slice());
    Object.assign(game, { selected: -1, cursor: 0, moves, clock: new Clock(elapsed) });
    layout();
    const res = draw();
    ui.exportOut.textContent = '';
    ui.lp.hidden = true;
    ui.lpIters.replaceChildren();
    ui.autoOut.textContent = '';
    notify(`New puzzle: ${p.name}, ${p.rows} × ${p.cols}. Score ${res.score} of ${p.max}.`);
    return true;
  } catch (e) {
    notify(`Cannot load the puzzle: ${e.message}`, 'error');
    return false;
  }
}

// ---- auto ------------------------------------------------------------------

function showProgress(pr) {
  if (pr.p) {
    ui.lp.hidden = false;
    ui.lpImg.src = pr.p;
    ui.lpCaption.textContent = `P after LP iteration ${pr.iteration}: ${groupDigits(pr.fractional)} fractional entries (cells down, pieces across; white is 1)`;
  }
  if (pr.board && pr.board.length === game.board.length) {
    game.board = pr.board.map((x) => x.slice());
    draw();
  }
  ui.autoOut.textContent = `${pr.message} · ${formatMS(pr.ms)}`;
}

// boardCells reads a record's board ("ROWS COLS/P/R P/R .../", pieces from
// 1, 0/0 an empty cell) as the page's cells ([piece from 0, turns], -1 empty).
function boardCells(text) {
  const nums = (text || '').split(/[\s/]+/).filter((x) => x !== '').map(Number).slice(2);
  const cells = [];
  for (let i = 0; i + 1 < nums.length; i += 2) cells.push([nums[i] - 1, nums[i + 1]]);
  return cells;
}

// recordMessage says what a record of the catalogue (the job's result) tells.
function recordMessage(r) {
  if (r.solved) return `Solved: all ${r.max} edges match`;
  if (r.error) return `Stopped (${r.error}): best board ${r.score} of ${r.max} edges`;
  if (r.stopped_by === 'timeout') return `Time is up: the best board has ${r.score} of ${r.max} edges matching`;
  return `Best board: ${r.score} of ${r.max} edges match`;
}

// solving is the page's Auto, run as an edgematch.solve job.
const solving = pageJob(game.job, {
  draw,
  show: showProgress,
  done(res, name) {
    const message = recordMessage(res);
    const board = boardCells(res.board);
    showProgress({ board: board.length > 0 ? board : null, message, ms: res.seconds * 1000 });
    if (res.iterates && res.iterates.length > 0) {
      // P after every LP iteration, as the source's Figure 4c
      ui.lp.hidden = false;
      ui.lpIters.replaceChildren(...res.iterates.map((src, i) => el('figure', {},
        el('img', { src, alt: `P after LP iteration ${i + 1}` }), el('figcaption', {}, String(i + 1)))));
      ui.lpCaption.textContent = `P after each of the ${res.iterates.length} LP iterations (cells down, pieces across; white is 1).`;
    }
    const r = draw();
    notify(`${name}: ${message}.`, r.solved ? 'victory' : res.error ? 'warn' : '');
  },
});

async function auto() {
  if (game.job.running) return;
  const opt = ui.solver.selectedOptions[0];
  const name = opt.textContent;
  // the catalogue's job, its puzzle named by ref (the server puts in its text)
  const spec = { ref: game.p.ref, solver: opt.value, options: { seed: '1' }, budget: { timeout_ns: Number(ui.budget.value) * 1e6 } };
  notify(`${name}: searching (${ui.budget.selectedOptions[0].textContent})…`, 'busy');
  ui.lp.hidden = true;
  await solving.run('edgematch.solve', spec, { ref: game.p.ref, board: game.board, name });
}

// resumeJob finds the job of before a reload: its puzzle and board again,
// and the search followed to its end.
const resumeJob = () => solving.resume((m) => load(m.ref, 1, m.board));

async function exportBoard() {
  try {
    const { url } = await api('POST', '/api/edgematch/bucas', { ref: game.p.ref, board: game.board });
    ui.exportOut.replaceChildren('Bucas viewer: ', el('a', { href: url, target: '_blank', rel: 'noopener noreferrer', id: 'bucas' }, url));
  } catch (e) {
    notify(`Cannot export: ${e.message}`, 'error');
  }
}

// ---- wiring ----------------------------------------------------------------

// Pointer: a drag from one tile to another swaps them; a tap selects,
// turns or swaps.
gridControls(ui.board, game, {
  cell: (i) => cellEls[i],
  movable: (i) => !game.fixed.has(i),
  refuse: hintTile,
  size: () => [game.p.rows, game.p.cols],
  draw,
  swap,
  turn,
  auto,
  rotateButton: ui.rotate,
  restartButton: ui.restart,
  restart() {
    game.board = game.start.map((x) => x.slice());
    game.selected = -1;
    const res = draw();
    notify(`Back to the scramble: score ${res.score} of ${game.p.max}.`);
  },
});
ui.exportBtn.addEventListener('click', exportBoard);
ui.auto.addEventListener('click', auto);
ui.stop.addEventListener('click', () => game.job.cancel());
ui.load.addEventListener('click', () => load(currentRef()));
ui.puzzle.addEventListener('change', () => {
  ui.genRow.hidden = ui.puzzle.value !== 'gen';
});
const describeSolver = solverNote(ui.solver, ui.solverNote);

const saves = savesPanel({
  kind: 'edgematch', notify,
  getState: () => tileState(game),
  loadState: async (st) => {
    await load(st.ref, 1, st.board, st.moves || 0, st.elapsed_ms || 0);
  },
});

(async function init() {
  describeSolver();
  ui.solver.value = 'partial';
  describeSolver();
  try {
    const { files, note } = await api('GET', '/api/edgematch/puzzles');
    for (const f of files) ui.puzzle.append(el('option', { value: f }, f.replace(/\.txt$/, '')));
    if (note) ui.puzzleNote.textContent = `Generated puzzles only: ${note}.`;
  } catch (e) {
    notify(`Cannot list the puzzles: ${e.message}`, 'error');
  }
  if (!(await resumeJob()) && !(await saves.restore())) load(currentRef());
})();
