// Long solves as jobs: submit, follow the progress as server-sent events,
// cancel. The page remembers its running job under a key in localStorage,
// so that after a reload it can find the job again (resume), running or
// finished.

import { api, notify } from './api.js';

const finished = (st) => st.state === 'done' || st.state === 'failed' || st.state === 'canceled';

// follow calls onState with each state of job id until it finishes, and
// resolves with the last one. It rejects when the job is unknown (a
// server that forgot it) or the stream fails for good. stop() closes the
// stream early (the promise then resolves with null).
export function follow(id, onState) {
  let source = null;
  let settle;
  const promise = new Promise((resolve, reject) => {
    settle = { resolve, reject };
    source = new EventSource(`/api/jobs/${encodeURIComponent(id)}/events`);
    let last = null;
    source.addEventListener('state', (ev) => {
      last = JSON.parse(ev.data);
      onState(last);
      if (finished(last)) {
        source.close();
        resolve(last);
      }
    });
    source.onerror = async () => {
      if (source.readyState !== EventSource.CLOSED) return; // it reconnects by itself
      try {
        const st = await api('GET', `/api/jobs/${encodeURIComponent(id)}`);
        if (finished(st)) {
          onState(st);
          resolve(st);
          return;
        }
        // still running: follow again (the server restarted, say)
        follow(id, onState).promise.then(resolve, reject);
      } catch (e) {
        reject(e);
      }
    };
  });
  return {
    promise,
    stop() {
      if (source) source.close();
      settle.resolve(null);
    },
  };
}

// Job is one job of a page: start or resume it, follow it, cancel it.
export class Job {
  constructor(storageKey) {
    this.key = storageKey;
    this.id = null;
    this.stream = null;
  }

  // saved returns what the page stored with its job: {id, ...}, or null.
  saved() {
    try {
      return JSON.parse(localStorage.getItem(this.key) || 'null');
    } catch {
      return null;
    }
  }

  // start submits a job and follows it; memo is stored with its id for a
  // reload. It resolves with the final state (null when stopped early).
  async start(kind, spec, memo, onState) {
    const st = await api('POST', '/api/jobs', { kind, spec });
    this.id = st.id;
    localStorage.setItem(this.key, JSON.stringify({ ...memo, id: st.id, kind }));
    onState(st);
    return this.#follow(onState);
  }

  // resume follows the stored job, if any.
  resume(onState) {
    const m = this.saved();
    if (!m) return null;
    this.id = m.id;
    return this.#follow(onState);
  }

  #follow(onState) {
    this.stream = follow(this.id, onState);
    return this.stream.promise.finally(() => {
      this.stream = null;
    });
  }

  // cancel asks the server to stop the job; its stream then ends with the
  // canceled state.
  async cancel() {
    if (!this.id) return;
    try {
      await api('DELETE', `/api/jobs/${encodeURIComponent(this.id)}`);
    } catch {
      // already forgotten: nothing to stop
    }
  }

  // forget drops the stored job: its result has been used.
  forget() {
    if (this.stream) this.stream.stop();
    this.id = null;
    localStorage.removeItem(this.key);
  }

  get running() {
    return this.stream !== null;
  }
}

// pageJob runs a page's Auto as its job and settles it the same way on
// every page: "Waiting for a free worker" while queued, the page's
// progress hook while it runs, then the page's done hook with the result,
// or "Search stopped." / "Auto failed: …" for a canceled or failed job.
// The hooks: draw() (the page's own; notify is api.js's), progress(p,
// name, memo) and done(result, name, memo), memo what run was given (the
// job's spec is the catalogue's, its result the catalogue's record, the
// same whichever worker ran it: what the page needs besides, such as the
// board it asked about, it keeps in the memo); reset() undoes what the progress showed
// before a canceled, failed or lost job is told, and ended() runs first
// whenever the page stops following its job, for whatever reason. Without
// a progress hook, show(p) draws the progress and the status line says
// "name: p.message…".
export function pageJob(job, hooks) {
  const h = {
    notify,
    reset() {},
    ended() {},
    progress(p, name) {
      h.show(p);
      notify(`${name}: ${p.message}…`, 'busy');
    },
    ...hooks,
  };
  const onState = (memo) => (st) => {
    if (st.state === 'queued') h.notify('Waiting for a free worker…', 'busy');
    if (st.progress && (st.state === 'running' || st.state === 'queued')) h.progress(st.progress, memo.name, memo);
  };
  const settle = (st, memo) => {
    h.ended();
    if (!st) {
      h.draw(); // the page stopped following: it has moved on
      return;
    }
    job.forget();
    if (st.state === 'canceled' || st.state === 'failed') {
      h.reset();
      if (st.state === 'canceled') h.notify('Search stopped.');
      else h.notify(`Auto failed: ${st.error}`, 'error');
      h.draw();
      return;
    }
    h.done(st.result, memo.name, memo);
  };
  return {
    // run submits a job of kind and follows it to its end; memo (with the
    // solver's name in memo.name) is kept for a reload.
    async run(kind, spec, memo) {
      let st;
      try {
        const running = job.start(kind, spec, memo, onState(memo));
        h.draw();
        st = await running;
      } catch (e) {
        job.forget();
        h.reset();
        h.notify(`Auto failed: ${e.message}`, 'error');
        h.draw();
        return;
      }
      settle(st, memo);
    },
    // resume finds the job stored before a reload, lets restore(memo) put
    // the page back as it was, and follows the job to its end. It answers
    // false when there is no job to find (none stored, or the server or
    // the page lost it).
    async resume(restore) {
      const m = job.saved();
      if (!m) return false;
      let st;
      try {
        const now = await api('GET', `/api/jobs/${encodeURIComponent(m.id)}`);
        if ((await restore(m)) === false) throw new Error('the job\'s puzzle is gone');
        h.notify(now.state === 'running' || now.state === 'queued'
          ? `${m.name} is still searching (found again after the reload)…` : `${m.name} had finished.`, 'busy');
        const running = job.resume(onState(m));
        h.draw();
        st = await running;
      } catch {
        job.forget(); // the server forgot it
        h.reset();
        return false;
      }
      settle(st, m);
      return true;
    },
  };
}
