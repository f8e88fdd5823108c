// What the page keeps across reloads in localStorage: who signed in last (a name or user
// id, never a token), drafts per room, and the outbox of messages not yet accepted by the
// server. Keys are per app and user, so two people sharing a browser do not mix.

function read(key, fallback) {
  try {
    const text = localStorage.getItem(key);
    return text === null ? fallback : JSON.parse(text);
  } catch {
    return fallback;
  }
}

function write(key, value) {
  try {
    if (value === null || value === undefined) localStorage.removeItem(key);
    else localStorage.setItem(key, JSON.stringify(value));
  } catch { /* storage full or disabled: drafts just do not survive */ }
}

export const identity = {
  load: (appID) => read(`parley.${appID}.identity`, null),
  save: (appID, who) => write(`parley.${appID}.identity`, who),
};

export class LocalState {
  constructor(appID, userID) {
    this.prefix = `parley.${appID}.${userID}.`;
  }

  draft(roomID) { return read(this.prefix + "draft." + roomID, ""); }
  saveDraft(roomID, text) { write(this.prefix + "draft." + roomID, text ? text : null); }

  outbox() { return read(this.prefix + "outbox", []); }
  saveOutbox(items) { write(this.prefix + "outbox", items.length ? items : null); }
}

/** A client_id: random, so a retry of the same message is recognised by the server. */
export function newClientID() {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return "web-" + Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}
