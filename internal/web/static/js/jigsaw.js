// Jigsaw: put a picture cut into square pieces back together, moving
// pieces (Type 1) and turning them too (Type 2); several pictures make a
// mixed bag. The server cuts and scrambles (the pieces arrive as one sheet
// image), scores a layout against the truth, which stays on the server,
// and runs the solvers as jobs whose best layout of each generation
// streams in.
//
// A board is {rows, cols, cells}: cells row by row, each [piece, rot],
// piece -1 for an empty cell, rot the quarter turns clockwise of the piece
// as it is on the sheet.

import { api, notify, pictures, uploadPicture, Clock, el, formatDuration, formatMS, pauseWhenHidden, gridControls, plural, solverNote, tileState } from './api.js';
import { savesPanel } from './saves.js';
import { Job, pageJob } from './jobs.js';

const $ = (id) => document.getElementById(id);
const ui = {
  status: $('status'), board: $('board'), direct: $('direct'), neighbour: $('neighbour'), moves: $('moves'), time: $('time'),
  rotate: $('rotate'), restart: $('restart'), marks: $('marks'),
  pictures: $('pictures'), piece: $('piece'), type: $('type'), seed: $('seed'), newBtn: $('new'), upload: $('upload'),
  puzzleNote: $('puzzle-note'),
  solver: $('solver'), auto: $('auto'), stop: $('stop'), budget: $('budget'), solverNote: $('solver-note'), autoOut: $('auto-out'),
};

const game = {
  p: null, // the puzzle as the server sends it
  board: null,
  score: null,
  selected: -1,
  cursor: 0,
  moves: 0,
  clock: new Clock(),
  job: new Job('tessera.jigsaw.job'),
  scoreSeq: 0,
};

const pct = (x) => `${(100 * x).toFixed(1)}%`;

// ---- drawing ---------------------------------------------------------------

let cellEls = [];

function layout() {
  const { rows, cols } = game.board;
  ui.board.style.setProperty('--rows', rows);
  ui.board.style.setProperty('--cols', cols);
  ui.board.style.width = `min(100%, ${Math.round((720 * cols) / Math.max(rows, cols))}px)`;
  ui.board.replaceChildren();
  cellEls = [];
  for (let i = 0; i < rows * cols; i++) {
    const e = el('div', { class: 'cell', 'data-i': String(i) }, el('div', { class: 'pc' }));
    cellEls.push(e);
    ui.board.append(e);
  }
}

// setSheet sets the sheet of pieces as every piece's background: each
// piece sits in a cell of piece + 2 gutter pixels, the gutter a copy of
// its border, so scaling never shows a neighbour's pixels.
function setSheet() {
  const { p } = game;
  const sheetRows = Math.ceil(p.n / p.sheet_cols);
  const scale = (p.piece + 2 * p.gutter) / p.piece; // a sheet cell in pieces
  ui.board.style.setProperty('--sheet', `url("${p.sheet}")`);
  ui.board.style.setProperty('--sheet-w', `${p.sheet_cols * scale * 100}%`);
  ui.board.style.setProperty('--sheet-h', `${sheetRows * scale * 100}%`);
  game.sheetRows = sheetRows;
  game.sheetScale = scale;
}

// sheetPos is the background position, in percent, that shows sheet cell
// i of n (p% aligns p% of the sheet with p% of the piece).
function sheetPos(i, n) {
  const { p } = game;
  const w = n * game.sheetScale; // the sheet's size in pieces
  if (w <= 1) return 0;
  return (100 * (i * game.sheetScale + p.gutter / p.piece)) / (w - 1);
}

function draw() {
  const { p, board } = game;
  const sc = p.sheet_cols, sr = game.sheetRows;
  const wrong = new Map();
  if (game.score && ui.marks.checked) {
    for (const [i, d] of game.score.wrong) wrong.set(i, (wrong.get(i) || 0) | d);
  }
  board.cells.forEach(([piece, rot], i) => {
    const e = cellEls[i];
    const pc = e.firstChild;
    if (piece < 0) {
      pc.hidden = true;
    } else {
      pc.hidden = false;
      const r = Math.floor(piece / sc), c = piece % sc;
      pc.style.backgroundPosition = `${sheetPos(c, sc)}% ${sheetPos(r, sr)}%`;
      pc.style.transform = rot ? `rotate(${90 * rot}deg)` : '';
    }
    const w = wrong.get(i) || 0;
    e.classList.toggle('we', (w & 1) !== 0);
    e.classList.toggle('ws', (w & 2) !== 0);
    e.classList.toggle('selected', i === game.selected);
    e.classList.toggle('cursor', i === game.cursor && i !== game.selected);
    e.dataset.piece = `${piece}/${rot}`;
  });
  ui.board.dataset.board = board.cells.map(([q, r]) => `${q}/${r}`).join(' ');
  const s = game.score;
  ui.board.classList.toggle('solved', !!(s && s.perfect));
  ui.direct.textContent = s ? pct(s.direct) : '–';
  ui.neighbour.textContent = s ? pct(s.neighbor) : '–';
  ui.moves.textContent = game.moves;
  const busy = game.job.running;
  ui.auto.disabled = busy;
  ui.stop.disabled = !busy;
  ui.rotate.disabled = busy || game.selected < 0 || !p.rotate;
  ui.restart.disabled = busy;
  ui.newBtn.disabled = busy;
}
setInterval(() => { ui.time.textContent = formatDuration(game.clock.ms()); }, 250);
pauseWhenHidden(() => game.clock, () => game.moves > 0 && !(game.score && game.score.perfect));

// ---- scoring ---------------------------------------------------------------

// rescore asks the server for the board's score; answers to older boards
// are dropped.
async function rescore() {
  const seq = ++game.scoreSeq;
  try {
    const s = await api('POST', '/api/jigsaw/score', { ref: game.p.ref, board: game.board });
    if (seq !== game.scoreSeq) return;
    game.score = s;
    draw();
    if (s.perfect && game.moves > 0) {
      game.clock.stop();
      notify(`Solved! The picture is whole: ${plural(game.moves, 'move')} in ${formatDuration(game.clock.ms())}.`, 'victory');
    } else {
      ui.board.dataset.scored = String(game.moves);
    }
  } catch (e) {
    notify(`Cannot score the board: ${e.message}`, 'error');
  }
}

// ---- playing ---------------------------------------------------------------

function moved(what) {
  game.moves++;
  game.clock.start();
  draw();
  notify(what);
  rescore();
}

function swap(i, j) {
  if (i === j || game.job.running) return;
  const cells = game.board.cells;
  if (cells[i][0] < 0 && cells[j][0] < 0) return;
  [cells[i], cells[j]] = [cells[j], cells[i]];
  game.selected = -1;
  moved('Pieces swapped.');
}

function turn(i, by = 1) {
  const cells = game.board.cells;
  if (i < 0 || !game.p.rotate || game.job.running || cells[i][0] < 0) return;
  cells[i] = [cells[i][0], (cells[i][1] + by + 4) % 4];
  moved('Piece turned.');
}

// ---- puzzles ---------------------------------------------------------------

function chosenPictures() {
  return [...ui.pictures.querySelectorAll('input[type=checkbox]:checked')].map((c) => c.value);
}

function currentRef() {
  return {
    pictures: chosenPictures(), piece: Number(ui.piece.value), rotate: ui.type.value === '2',
    seed: Math.max(0, Math.floor(Number(ui.seed.value) || 0)),
  };
}

function showRef(ref) {
  for (const c of ui.pictures.querySelectorAll('input[type=checkbox]')) c.checked = ref.pictures.includes(c.value);
  if (ref.pictures.some((id) => id.includes('/'))) $('data-pictures').open = true;
  if ([...ui.piece.options].some((o) => o.value === String(ref.piece))) ui.piece.value = String(ref.piece);
  ui.type.value = ref.rotate ? '2' : '1';
  ui.seed.value = String(ref.seed);
}

async function load(ref, board = null, moves = 0, elapsed = 0) {
  notify('Cutting the pictures…', 'busy');
  try {
    const p = await api('POST', '/api/jigsaw/new', { ref });
    game.p = p;
    const b = board || p.board;
    game.board = { rows: b.rows, cols: b.cols, cells: b.cells.map((x) => x.slice()) };
    game.score = board ? null : p.score;
    Object.assign(game, { selected: -1, cursor: 0, moves, clock: new Clock(elapsed) });
    showRef(ref);
    setSheet();
    layout();
    draw();
    ui.autoOut.textContent = '';
    delete ui.autoOut.dataset.generation;
    notify(`New puzzle: ${p.name}.`);
    if (board) await rescore();
    return true;
  } catch (e) {
    notify(`Cannot make the puzzle: ${e.message}`, 'error');
    return false;
  }
}

// setBoard shows a board from the server (a solver's layout).
function setBoard(b, score) {
  const relayout = !game.board || b.rows !== game.board.rows || b.cols !== game.board.cols;
  game.board = { rows: b.rows, cols: b.cols, cells: b.cells.map((x) => x.slice()) };
  game.score = score;
  game.selected = -1;
  if (relayout) layout();
  game.cursor = Math.min(game.cursor, b.rows * b.cols - 1);
  draw();
}

// ---- pictures --------------------------------------------------------------

function addPicture(p, checked = false, into = $('own-pictures')) {
  const box = el('input', { type: 'checkbox', value: p.id, 'aria-label': p.name });
  box.checked = checked;
  const label = el('label', { class: 'jg-pic', title: p.name, 'data-id': p.id }, box);
  if (p.url) label.append(el('img', { src: p.url, alt: '' }));
  label.append(el('span', {}, p.name));
  into.append(label);
  return box;
}

async function listPictures() {
  try {
    (await pictures()).forEach((p, i) => addPicture(p, i === 0));
    const { images, note } = await api('GET', '/api/jigsaw/sets');
    for (const id of images) addPicture({ id, name: id.replace(/\.(png|jpg)$/, '') }, false, $('data-list'));
    $('data-pictures').hidden = images.length === 0;
    if (note) ui.puzzleNote.textContent = `Choose 1 picture, or 2 to 4 for a mixed bag. (${note}.)`;
  } catch (e) {
    notify(`Cannot list the pictures: ${e.message}`, 'error');
  }
}

async function upload(file) {
  try {
    const p = await uploadPicture(file);
    for (const c of ui.pictures.querySelectorAll('input:checked')) c.checked = false;
    addPicture(p, true);
    await load(currentRef());
  } catch (e) {
    notify(`Cannot use that picture: ${e.message}`, 'error');
  }
}

// ---- auto ------------------------------------------------------------------

function showProgress(pr) {
  if (pr.board) setBoard(pr.board, pr.score);
  const sc = pr.board && !pr.message.includes('direct') ? ` · direct ${pct(pr.score.direct)}, neighbour ${pct(pr.score.neighbor)}` : '';
  ui.autoOut.textContent = `${pr.message}${sc} · ${formatMS(pr.ms)}`;
  ui.autoOut.dataset.generation = String(pr.generation);
}

// solving is the page's Auto, run as a jigsaw.solve job.
const solving = pageJob(game.job, {
  draw,
  show: showProgress,
  done(res, name) {
    draw();
    showProgress(res);
    notify(`${name}: ${res.message}.`, res.score.perfect ? 'victory' : res.stopped ? 'warn' : '');
  },
});

// jigsawJob is the catalogue's jigsaw job (catalog.JigsawJob) of the
// puzzle of ref: its pictures by the server's refs, the solver, its
// options (the seed cuts the puzzle and seeds the search) and its budget.
function jigsawJob(ref, solver, ms) {
  return {
    solver,
    options: { seed: String(ref.seed) },
    budget: { timeout_ns: ms * 1e6 },
    pictures: ref.pictures.map((id) => ({ name: '', blob: id })),
    piece: ref.piece,
    type: ref.rotate ? 2 : 1,
  };
}

async function auto() {
  if (game.job.running || !game.p) return;
  const opt = ui.solver.selectedOptions[0];
  const name = opt.textContent;
  const spec = jigsawJob(game.p.ref, opt.value, Number(ui.budget.value));
  ui.autoOut.textContent = '';
  delete ui.autoOut.dataset.generation;
  notify(`${name}: solving (${ui.budget.selectedOptions[0].textContent} at most)…`, 'busy');
  await solving.run('jigsaw.solve', spec, { ref: game.p.ref, board: game.board, name });
}

// resumeJob finds the job of before a reload: its puzzle and board again,
// and the search followed to its end.
const resumeJob = () => solving.resume((m) => load(m.ref, m.board));

// ---- wiring ----------------------------------------------------------------

// Pointer: a drag from one cell to another swaps them (the piece snaps
// into the cell); a tap selects, turns or swaps.
gridControls(ui.board, game, {
  cell: (i) => cellEls[i],
  movable: (i) => game.board.cells[i][0] >= 0,
  size: () => [game.board.rows, game.board.cols],
  draw,
  swap,
  turn,
  turns: () => game.p.rotate,
  auto,
  rotateButton: ui.rotate,
  restartButton: ui.restart,
  restart() {
    setBoard(game.p.board, game.p.score);
    draw();
    notify('Back to the scramble.');
  },
});
ui.marks.addEventListener('change', draw);
ui.pictures.addEventListener('change', () => {
  const n = chosenPictures().length;
  ui.puzzleNote.textContent = n === 0 ? 'Choose at least one picture.'
    : n === 1 ? 'One picture.' : n <= 4 ? `A mixed bag of ${n} pictures.` : `${n} pictures: at most 4.`;
});
ui.newBtn.addEventListener('click', () => load(currentRef()));
ui.upload.addEventListener('change', () => {
  if (ui.upload.files.length > 0) upload(ui.upload.files[0]);
  ui.upload.value = '';
});
ui.auto.addEventListener('click', auto);
ui.stop.addEventListener('click', () => game.job.cancel());
const describeSolver = solverNote(ui.solver, ui.solverNote);

const saves = savesPanel({
  kind: 'jigsaw', notify,
  getState: () => tileState(game),
  loadState: async (st) => {
    await load(st.ref, st.board, st.moves, st.elapsed_ms);
  },
});

(async function init() {
  describeSolver();
  await listPictures();
  if (!(await resumeJob()) && !(await saves.restore())) load(currentRef());
})();
