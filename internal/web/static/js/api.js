// Calls to the server's JSON API. Every error answer is {"error": "..."};
// api throws an Error with that message (or the HTTP status when the
// answer is not JSON), and an AbortError when the signal aborts.

export async function api(method, path, body, { signal } = {}) {
  const init = { method, signal, headers: {} };
  if (body instanceof FormData) {
    init.body = body;
  } else if (body !== undefined) {
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  const res = await fetch(path, init);
  if (res.status === 204) return null;
  let data = null;
  try {
    data = await res.json();
  } catch {
    // not JSON: fall through with the status
  }
  if (!res.ok) {
    throw new Error(data && data.error ? data.error : `${res.status} ${res.statusText}`);
  }
  return data;
}

// pictures lists the pictures a page offers (the built-in ones, then the
// client's uploads, the newest first): every page of GET /api/pictures,
// which answers in pages of ?limit= (at most 200) with the next one's
// offset.
export async function pictures() {
  const all = [];
  for (let offset = 0; offset !== undefined;) {
    const page = await api('GET', `/api/pictures?offset=${offset}&limit=200`);
    all.push(...page.pictures);
    offset = page.next;
  }
  return all;
}

// notify shows text in the page's status line (the layout's #status),
// styled as kind ('busy', 'error', 'victory', or none).
export function notify(text, kind = '') {
  const status = document.getElementById('status');
  status.textContent = text;
  status.className = `status ${kind}`;
}

// uploadPicture sends a picture file to POST /api/pictures, saying so in
// the status line, and returns the picture as stored ({id, name, url}); it
// throws the API's error.
export async function uploadPicture(file) {
  const form = new FormData();
  form.append('picture', file);
  notify(`Uploading ${file.name}…`, 'busy');
  return api('POST', '/api/pictures', form);
}

// addPictureButton adds picture p to a page's picture chooser (the
// layout's "pictures" list), with a ✕ to delete it when it is an upload
// and deletable; a picture the list has is left as it is.
export function addPictureButton(list, p, deletable = false) {
  if (list.querySelector(`.pic[data-id="${CSS.escape(p.id)}"]`)) return;
  const b = el('button', { type: 'button', class: 'pic', 'data-id': p.id, 'data-url': p.url, title: p.name },
    el('img', { src: p.url, alt: p.name }));
  if (deletable && !p.builtin) {
    b.append(el('span', { class: 'del', role: 'button', title: 'delete this picture', 'data-delete': p.id }, '✕'));
  }
  list.append(b);
}

// addUpload uploads a picture file and adds it to the chooser list (see
// addPictureButton), saying so in the status line; it answers the
// picture, or null when the upload failed (the status line says why).
export async function addUpload(list, file, deletable = false) {
  try {
    const p = await uploadPicture(file);
    addPictureButton(list, p, deletable);
    notify(`Picture “${p.name}” added.`);
    return p;
  } catch (e) {
    notify(`Cannot use that picture: ${e.message}`, 'error');
    return null;
  }
}

// formatDuration writes milliseconds as m:ss, or h:mm:ss.
export function formatDuration(ms) {
  const s = Math.floor(ms / 1000);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

// Clock measures play time: it runs between start and stop, and ms() adds
// the time it was made with (a saved game's).
export class Clock {
  #base;
  #since = null;
  constructor(ms = 0) { this.#base = ms; }
  ms() { return this.#base + (this.#since === null ? 0 : performance.now() - this.#since); }
  start() { if (this.#since === null) this.#since = performance.now(); }
  stop() { this.#base = this.ms(); this.#since = null; }
}

// pauseWhenHidden stops the play clock (clock() returns it) while the page
// is hidden, another tab or a minimised window, and starts it again on
// return when playing() holds.
export function pauseWhenHidden(clock, playing) {
  document.addEventListener('visibilitychange', () => {
    if (document.hidden) clock().stop();
    else if (playing()) clock().start();
  });
}

// search makes a server call that the player may stop: game.search holds
// its AbortController meanwhile (the Stop button aborts it, the other
// buttons wait) and the status shows busy. It returns the answer, or null
// after telling the player why there is none: cancelled when stopped,
// else "what: the error". page is {notify, draw} of the game's page.
export async function search(game, page, { busy, cancelled, what }, method, path, body) {
  game.search = new AbortController();
  page.notify(busy, 'busy');
  page.draw();
  try {
    return await api(method, path, body, { signal: game.search.signal });
  } catch (e) {
    page.notify(...(e.name === 'AbortError' ? [cancelled, ''] : [`${what}: ${e.message}`, 'error']));
    return null;
  } finally {
    game.search = null;
    page.draw();
  }
}

// formatMS writes a search time: 12.3 ms, or 1.23 s.
export const formatMS = (ms) => (ms < 1000 ? `${ms.toFixed(1)} ms` : `${(ms / 1000).toFixed(2)} s`);

// groupDigits writes n with thousands separators: 1,234,567.
export const groupDigits = (n) => n.toLocaleString('en-US');

// plural writes a count with its noun: "1 move", "2 moves".
export const plural = (n, one, many = `${one}s`) => `${groupDigits(n)} ${n === 1 ? one : many}`;

// solverNote shows the chosen solver's description (its option's
// data-description, then what more(id) adds) in note, and again whenever the
// choice changes, then calls changed. It returns the function that shows it,
// for a choice the script makes.
export function solverNote(select, note, { more = () => '', changed = () => {} } = {}) {
  const describe = () => {
    note.textContent = select.selectedOptions[0].dataset.description + more(select.value);
  };
  select.addEventListener('change', () => {
    describe();
    changed();
  });
  return describe;
}

// playLine plays a line of moves that Auto found, one move at a time (the
// dust and SameGame pages): game.playback is set while it plays (draw shows
// that first), its timer the next step's, which Stop clears. A move is shown
// in phases, the functions of phases, each called (move, n) for the n-th
// move (from 1) and followed by its share of wait() ms (read at each step,
// as the speed may change). After the last move, or before a move when
// over() says the game is over, it calls end.
export function playLine(game, moves, { phases, wait, over = () => false, draw, end }) {
  let i = 0;
  const run = (k) => {
    if (k === 0 && (i >= moves.length || over())) {
      end();
      return;
    }
    phases[k](moves[i], i + 1);
    if (k === phases.length - 1) i++;
    game.playback.timer = setTimeout(() => run((k + 1) % phases.length), wait() / phases.length);
  };
  game.playback = { timer: null };
  draw();
  run(0);
}

// el makes an element with attributes and children.
export function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'class') e.className = v;
    else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v);
  }
  e.append(...children);
  return e;
}

// gridKeys wires a board of rows x cols cells to the keyboard the way the
// tile pages share: the arrows move the cursor, Space or Enter taps the
// cursor's cell, r turns clockwise and R back, a runs Auto. Keys with a
// modifier, keys typed into a control, and keys while active() is false
// are left alone.
export function gridKeys({ active, size, cursor, moveTo, tap, turn, auto }) {
  const arrows = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] };
  onPageKey('input, select, textarea, button, a', (ev) => {
    if (!active()) return;
    const [rows, cols] = size();
    const at = cursor();
    if (arrows[ev.key]) {
      ev.preventDefault();
      const [dr, dc] = arrows[ev.key];
      const r = Math.min(rows - 1, Math.max(0, Math.floor(at / cols) + dr));
      const c = Math.min(cols - 1, Math.max(0, (at % cols) + dc));
      moveTo(r * cols + c);
      return;
    }
    if (ev.key === ' ' || ev.key === 'Enter') {
      ev.preventDefault();
      tap(at);
    } else if (ev.key === 'r' || ev.key === 'R') {
      ev.preventDefault();
      turn(ev.key === 'R' ? -1 : 1);
    } else if (ev.key === 'a') {
      ev.preventDefault();
      auto();
    }
  });
}

// gridPointer wires a board's cells (elements .cell with data-i) to the
// pointer the way the tile pages share: a drag of more than 8 px from a
// cell that movable(i) allows, dropped on another cell, calls swap(from,
// to); a tap calls tap(i); a right click turn(i). While dragging, the
// dragged cell is marked .dragging (offset by --dx and --dy) and the cell
// under the pointer .target.
export function gridPointer(board, { cell, movable, swap, tap, turn }) {
  let drag = null;
  const cellAt = (x, y) => {
    const e = document.elementFromPoint(x, y)?.closest('.cell');
    return e && board.contains(e) ? e : null;
  };
  const end = () => {
    drag = null;
    for (const e of board.querySelectorAll('.target, .dragging')) {
      e.classList.remove('target', 'dragging');
      e.style.removeProperty('--dx');
      e.style.removeProperty('--dy');
    }
  };
  board.addEventListener('pointerdown', (ev) => {
    const c = ev.target.closest('.cell');
    if (!c || ev.button !== 0) return;
    drag = { from: Number(c.dataset.i), x: ev.clientX, y: ev.clientY, moved: false };
    board.setPointerCapture(ev.pointerId);
  });
  board.addEventListener('pointermove', (ev) => {
    if (!drag || !movable(drag.from)) return;
    const dx = ev.clientX - drag.x, dy = ev.clientY - drag.y;
    if (drag.moved || Math.hypot(dx, dy) > 8) {
      drag.moved = true;
      const e = cell(drag.from);
      e.classList.add('dragging');
      e.style.setProperty('--dx', `${dx}px`);
      e.style.setProperty('--dy', `${dy}px`);
      for (const t of board.querySelectorAll('.target')) t.classList.remove('target');
      cellAt(ev.clientX, ev.clientY)?.classList.add('target');
    }
  });
  board.addEventListener('pointerup', (ev) => {
    if (!drag) return;
    const d = drag;
    end();
    const to = cellAt(ev.clientX, ev.clientY);
    if (!to) return;
    const j = Number(to.dataset.i);
    if (d.moved) swap(d.from, j);
    else tap(j);
  });
  board.addEventListener('pointercancel', end);
  board.addEventListener('contextmenu', (ev) => {
    const c = ev.target.closest('.cell');
    if (!c) return;
    ev.preventDefault();
    turn(Number(c.dataset.i));
  });
}

// onPageKey calls handler with each key pressed on the page without Alt,
// Ctrl or Meta, but for keys typed into the controls that fields (a CSS
// selector) picks out.
export function onPageKey(fields, handler) {
  document.addEventListener('keydown', (ev) => {
    if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
    if (ev.target.closest(fields)) return;
    handler(ev);
  });
}

// tileState is a tile page's game as it is saved (edge-matching, jigsaw):
// the puzzle's ref and name, the board, the moves and the playing time.
export const tileState = (game) => ({
  ref: game.p.ref, board: game.board, name: game.p.name, moves: game.moves, elapsed_ms: Math.round(game.clock.ms()),
});

// gridControls wires a tile page's board to both the pointer (gridPointer)
// and the keyboard (gridKeys) over the page's game, whose cursor and
// selected fields it keeps: a drag or tap moves the cursor to its cell, the
// keys turn the selected tile, else the cursor's. A tap (or Space) while no
// job runs selects a movable tile, turns the selected one (where turns()
// says tiles turn, else lets it go), or swaps the selected one with it;
// refuse(i), when given, takes a tap that must do nothing (having said
// why). The rotate button turns the selected tile; the restart button
// starts the moves and the clock again, and restart puts the scramble back
// and draws it.
export function gridControls(board, game, { cell, movable, refuse = () => false, size, draw, swap, turn, turns = () => true, auto, rotateButton, restartButton, restart }) {
  const tap = (i) => {
    if (game.job.running || refuse(i)) return;
    if (game.selected === i) {
      if (turns()) turn(i);
      else {
        game.selected = -1;
        draw();
      }
    } else if (game.selected >= 0) swap(game.selected, i);
    else if (movable(i)) {
      game.selected = i;
      draw();
    }
  };
  rotateButton.addEventListener('click', () => turn(game.selected));
  restartButton.addEventListener('click', () => {
    game.moves = 0;
    game.clock = new Clock();
    restart();
  });
  gridPointer(board, {
    cell,
    movable,
    swap(i, j) {
      game.cursor = j;
      swap(i, j);
    },
    tap(j) {
      game.cursor = j;
      tap(j);
    },
    turn,
  });
  gridKeys({
    active: () => Boolean(game.p),
    size,
    cursor: () => game.cursor,
    moveTo(i) {
      game.cursor = i;
      draw();
    },
    tap,
    turn: (dir) => turn(game.selected >= 0 ? game.selected : game.cursor, dir),
    auto,
  });
}
