// Long solves as jobs: submit, follow the progress as server-sent events,
// cancel. The page remembers its running job under a key in localStorage,
// so that after a reload it can find the job again (resume), running or
// finished.

import { api } from './api.js';

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
