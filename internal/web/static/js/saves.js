// The saved-games panel, shared by the games: a name field with a Save
// button and the list of saved games with Load and Delete. The game gives
// its kind (the API prefix), how to read its state, and how to load one;
// the form, name field and list are the layout's "saves" panel unless it
// names others.

import { api, el, formatDuration, plural } from './api.js';

const byID = (id) => document.getElementById(id);

export function savesPanel({
  kind, getState, loadState, notify, form = byID('save-form'), input = byID('slot'), list = byID('saves'),
}) {
  const base = `/api/${kind}/saves`;
  const slotURL = (name) => `${base}/${encodeURIComponent(name)}`;

  async function refresh() {
    try {
      const { saves } = await api('GET', `${base}?limit=200`); // the newest 200: all of a client's (at most 100 by default)
      list.replaceChildren();
      if (saves.length === 0) {
        list.append(el('li', { class: 'empty' }, 'No saved games yet.'));
      }
      for (const s of saves) {
        const when = new Date(s.updated).toLocaleString();
        const meta = `${plural(s.moves, 'move')} · ${formatDuration(s.elapsed_ms)}${s.solved ? ' · solved' : ''}`;
        list.append(el('li', { 'data-name': s.name },
          el('span', { class: 'name', title: `saved ${when}` }, s.name, el('br'), el('span', { class: 'meta' }, meta)),
          el('button', { type: 'button', class: 'load', onclick: () => load(s.name) }, 'Load'),
          el('button', { type: 'button', class: 'delete', title: 'delete', onclick: () => remove(s.name) }, '✕')));
      }
    } catch (e) {
      notify(`Cannot list the saved games: ${e.message}`, 'error');
    }
  }

  async function save(name) {
    try {
      await api('PUT', slotURL(name), getState());
      notify(`Saved as “${name}”.`);
      await refresh();
    } catch (e) {
      notify(`Cannot save: ${e.message}`, 'error');
    }
  }

  async function load(name) {
    try {
      const saved = await api('GET', slotURL(name));
      await loadState(saved.state);
      input.value = name;
      notify(`Loaded “${name}”: ${plural(saved.moves, 'move')} played.`);
    } catch (e) {
      notify(`Cannot load “${name}”: ${e.message}`, 'error');
    }
  }

  async function remove(name) {
    if (!confirm(`Delete the saved game “${name}”?`)) return;
    try {
      await api('DELETE', slotURL(name));
      notify(`Deleted “${name}”.`);
      await refresh();
    } catch (e) {
      notify(`Cannot delete: ${e.message}`, 'error');
    }
  }

  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    const name = input.value.trim();
    if (name) save(name);
  });
  refresh();

  // The game survives a reload: its state (the same as a save's) is kept in
  // the browser as the page is left or hidden, and every few seconds;
  // restore() loads it at the next start.
  const key = `tessera.${kind}.game`;
  const keep = () => {
    try {
      const st = getState();
      if (st) localStorage.setItem(key, JSON.stringify(st));
    } catch {
      // A game that cannot be read just now (none dealt yet) is not kept.
    }
  };
  addEventListener('pagehide', keep);
  document.addEventListener('visibilitychange', () => { if (document.hidden) keep(); });
  setInterval(keep, 3000);
  // restore loads the game kept before a reload and answers whether there
  // was one (a kept game the page cannot load is dropped).
  async function restore() {
    let st = null;
    try {
      st = JSON.parse(localStorage.getItem(key) || 'null');
    } catch {
      st = null;
    }
    if (!st) return false;
    try {
      await loadState(st);
      notify('Your game, as you left it.');
      return true;
    } catch {
      localStorage.removeItem(key);
      return false;
    }
  }
  return { refresh, restore };
}
