// Generated from Web/ by scripts/embed-web.sh; do not edit.

/// The browser client's files (path under Web/, text), embedded at build time.
enum WebAssetFiles {
    static let files: [(name: String, text: String)] = [
        ("api.js", ####"""
// The chat REST API over fetch. The token lives in memory only (never in a URL or in
// storage); a 401 asks the token source for a fresh one once; 429 waits for Retry-After.

/** An API refusal with the server's stable code and readable message. */
export class ApiError extends Error {
  constructor(status, code, message, retryAfter) {
    super(message);
    this.status = status;
    this.code = code;
    this.retryAfter = retryAfter;
  }
}

/** A request that never reached the server (offline, server down). */
export class NetworkError extends Error {}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Seconds until a JWT's `exp`, or null when it has none. */
function secondsLeft(token) {
  try {
    const payload = JSON.parse(atob(token.split(".")[1].replace(/-/g, "+").replace(/_/g, "/")));
    return typeof payload.exp === "number" ? payload.exp - Date.now() / 1000 : null;
  } catch {
    return null;
  }
}

export class Api {
  /** `fetchToken(force)` resolves to a user token; `appID` goes in X-Parley-App. */
  constructor(appID, fetchToken) {
    this.appID = appID;
    this.fetchToken = fetchToken;
    this.token = null;
  }

  async currentToken(force = false) {
    if (!force && this.token) {
      const left = secondsLeft(this.token);
      if (left === null || left > 60) return this.token;
    }
    this.token = await this.fetchToken(true);
    return this.token;
  }

  headers(token, extra) {
    const headers = { "X-Parley-App": this.appID, ...extra };
    if (token) headers.Authorization = "Bearer " + token;
    return headers;
  }

  /** Calls `method path` with an optional JSON body; resolves to the parsed JSON (or null for 204). */
  async call(method, path, body, { retries = 2, auth = true } = {}) {
    for (let attempt = 0; ; attempt++) {
      const token = auth ? await this.currentToken(attempt > 0 && this.lastStatus === 401) : null;
      const init = { method, headers: this.headers(token, body === undefined ? {} : { "Content-Type": "application/json" }) };
      if (body !== undefined) init.body = JSON.stringify(body);
      let answer;
      try {
        answer = await fetch(path, init);
      } catch (error) {
        throw new NetworkError(String(error && error.message || error));
      }
      this.lastStatus = answer.status;
      if (answer.ok) return answer.status === 204 ? null : answer.json();
      const error = await ApiError.from(answer);
      if (attempt < retries && answer.status === 401 && auth) continue;
      if (attempt < retries && answer.status === 429) {
        await sleep(Math.min(10, error.retryAfter || 1) * 1000);
        continue;
      }
      throw error;
    }
  }

  get(path) { return this.call("GET", path); }
  post(path, body) { return this.call("POST", path, body === undefined ? {} : body); }
  put(path, body) { return this.call("PUT", path, body); }
  patch(path, body) { return this.call("PATCH", path, body); }
  del(path) { return this.call("DELETE", path); }

  /** Uploads a file into a room with progress (fetch has no upload progress, XHR has). */
  async upload(roomID, file, onProgress) {
    const token = await this.currentToken();
    return new Promise((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open("POST", `/v1/rooms/${encodeURIComponent(roomID)}/attachments`);
      for (const [name, value] of Object.entries(this.headers(token, { "Content-Type": file.type || "application/octet-stream" }))) {
        xhr.setRequestHeader(name, value);
      }
      xhr.upload.onprogress = (event) => { if (event.lengthComputable) onProgress(event.loaded / event.total); };
      xhr.onerror = () => reject(new NetworkError("upload failed"));
      xhr.onload = () => {
        let body = null;
        try { body = JSON.parse(xhr.responseText); } catch { /* not JSON */ }
        if (xhr.status >= 200 && xhr.status < 300) resolve(body);
        else reject(ApiError.fromBody(xhr.status, body, Number(xhr.getResponseHeader("Retry-After")) || null));
      };
      xhr.send(file);
    });
  }
}

ApiError.from = async function (answer) {
  let body = null;
  try { body = await answer.json(); } catch { /* not JSON */ }
  return ApiError.fromBody(answer.status, body, Number(answer.headers.get("Retry-After")) || null);
};

ApiError.fromBody = function (status, body, retryAfter) {
  const error = body && body.error;
  return new ApiError(status, error && error.code || "http_" + status, error && error.message || `the server answered ${status}`, retryAfter);
};

/** Signs in by name on a `--dev` server: creates (or finds) the user, then asks for its token. */
export async function devSignIn(appID, name) {
  const api = new Api(appID, null);
  const user = await api.call("POST", "/v1/dev/users", { name }, { auth: false });
  return { user, fetchToken: async () => (await api.call("POST", "/v1/dev/token", { user_id: user.id }, { auth: false })).token };
}

/** Signs in through the app's backend: `POST tokenURL {"user_id"}` answers `{"token"}`. */
export function tokenURLSignIn(tokenURL, userID) {
  return async () => {
    let answer;
    try {
      answer = await fetch(tokenURL, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ user_id: userID }) });
    } catch (error) {
      throw new NetworkError("the token service cannot be reached");
    }
    if (!answer.ok) throw new ApiError(answer.status, "token_url", `the token service answered ${answer.status}`);
    const body = await answer.json();
    const token = body.token || body.access_token;
    if (!token) throw new ApiError(answer.status, "token_url", "the token service sent no token");
    return token;
  };
}

"""####),
        ("app.js", ####"""
// Parley Web: signs in, keeps the room list and the open conversation live over the Pusher
// protocol, and sends through an outbox so a message written offline goes out exactly once.

import { h, shortTime } from "./dom.js";
import { Api, ApiError, NetworkError, devSignIn, tokenURLSignIn } from "./api.js";
import { Realtime, State } from "./realtime.js";
import { LocalState, identity, newClientID } from "./store.js";
import { Conversation } from "./conversation.js";

const TEXT_LIMIT = 4000;
const IMAGE_TYPES = new Set(["image/png", "image/jpeg", "image/gif", "image/webp"]);
const ATTACHMENT_LIMIT = 10 * 1024 * 1024;
const TYPING_EVERY_MS = 1500;
const TYPING_SHOWN_MS = 4000;

const $ = (id) => document.getElementById(id);

const app = {
  settings: null,
  api: null,
  me: null,
  local: null,
  realtime: null,
  rooms: new Map(), // id -> RoomSummary
  users: new Map(), // id -> user
  presence: new Map(), // user id -> online
  conversations: new Map(),
  attachments: new Map(), // id -> metadata, or {failed}
  images: new Map(), // attachment id -> <img> (kept so a re-render never reloads it)
  outbox: [],
  current: null,
  typers: new Map(), // `${room} ${user}` -> expiry timer
  editing: null,
  lastTypingSent: 0,
  flushing: false,
};

// ---------------------------------------------------------------- sign-in

async function boot() {
  const answer = await fetch("/web/config.json");
  app.settings = await answer.json();
  const { dev, token_url: tokenURL } = app.settings;
  if (!dev && !tokenURL) {
    $("signin-name").disabled = true;
    $("signin-hint").textContent = "This server has no sign-in for the browser: start it with --dev, or give it --web-token-url.";
  } else if (!dev) {
    $("signin-label").textContent = "Your user id";
  }
  $("signin-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const name = $("signin-name").value.trim();
    if (name) signIn(name);
  });
  const remembered = identity.load(app.settings.app_id);
  if (remembered && (dev || tokenURL)) await signIn(remembered);
  else showSignIn();
}

function showSignIn(message) {
  $("app").hidden = true;
  $("signin").hidden = false;
  $("signin-error").textContent = message || "";
  $("signin-name").focus();
}

async function signIn(name) {
  $("signin-error").textContent = "";
  try {
    const { app_id: appID, dev } = app.settings;
    let fetchToken;
    if (dev) fetchToken = (await devSignIn(appID, name)).fetchToken;
    else fetchToken = tokenURLSignIn(app.settings.token_url, name);
    app.api = new Api(appID, fetchToken);
    app.me = await app.api.get("/v1/me");
  } catch (error) {
    identity.save(app.settings.app_id, null);
    showSignIn(`Could not sign in: ${error.message}`);
    return;
  }
  identity.save(app.settings.app_id, name);
  app.users.set(app.me.id, app.me);
  app.local = new LocalState(app.settings.app_id, app.me.id);
  app.outbox = app.local.outbox().map((item) => (item.state === "failed" ? item : { ...item, state: "queued" }));
  $("signin").hidden = true;
  $("app").hidden = false;
  $("me").textContent = app.me.name;
  $("me").title = app.me.id;
  connect();
  await loadRooms();
  performance.mark("parley:rooms-ready");
  const wanted = decodeURIComponent(location.hash.replace(/^#room=/, ""));
  if (wanted && app.rooms.has(wanted)) openRoom(wanted);
  flushOutbox();
}

function signOut() {
  identity.save(app.settings.app_id, null);
  if (app.realtime) app.realtime.stop();
  location.hash = "";
  location.reload();
}

// ---------------------------------------------------------------- realtime

function connect() {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  const url = `${scheme}//${location.host}/app/${encodeURIComponent(app.settings.app_key)}?protocol=7&client=parley-web&version=1.0`;
  app.realtime = new Realtime(url, {
    authorize: async (socketID, channel) => (await app.api.post("/v1/channels/auth", { socket_id: socketID, channel_name: channel })).auth,
    signIn: (socketID) => app.api.post("/v1/channels/user-auth", { socket_id: socketID }),
    onEvent: onRealtimeEvent,
    onState: showConnection,
    onConnected: () => {
      // After a gap (offline, server restart) catch up: rooms, the open room's history, the outbox.
      if (app.wasConnected) catchUp();
      app.wasConnected = true;
      flushOutbox();
    },
    onSubscribed: () => {},
  });
  app.realtime.start();
  window.addEventListener("online", () => flushOutbox());
}

async function catchUp() {
  try {
    await loadRooms();
    for (const conversation of app.conversations.values()) {
      if (conversation.loaded) await fillAfter(conversation);
    }
    if (app.current) {
      const conversation = app.conversations.get(app.current);
      mergeCursors(conversation, await loadCursors(app.current));
      renderConversation();
      markRead();
    }
  } catch { /* the next reconnect tries again */ }
}

function showConnection(state, detail) {
  const banner = $("banner");
  const waiting = app.outbox.filter((item) => item.state !== "failed").length;
  const queued = waiting ? ` ${waiting} message${waiting === 1 ? "" : "s"} waiting to be sent.` : "";
  let text = null;
  if (state === State.OFFLINE) text = "You are offline. What you write is kept and sent when the connection is back." + queued;
  else if (state === State.RECONNECTING) text = "Connection lost. Reconnecting…" + queued;
  else if (state === State.FAILED) text = `Disconnected: ${detail}. Reload the page to try again.`;
  else if (state === State.CONNECTING && app.wasConnected) text = "Connecting…";
  banner.hidden = !text;
  banner.textContent = text || "";
  banner.dataset.state = state;
  document.body.dataset.connection = state;
}

function onRealtimeEvent(channel, event, data) {
  if (!channel || !data) return;
  if (channel.startsWith("#server-to-user-")) return onUserEvent(event, data);
  if (!channel.startsWith("private-room-")) return;
  const roomID = channel.slice("private-room-".length);
  onRoomEvent(roomID, event, data);
}

function onUserEvent(event, data) {
  switch (event) {
    case "room.added":
      if (!app.rooms.has(data.room.id)) {
        app.rooms.set(data.room.id, { room: data.room, role: data.role, read_seq: 0, unread_count: 0, last_message: null });
        app.realtime.subscribe("private-room-" + data.room.id);
        ensureRoomNames([app.rooms.get(data.room.id)]).then(renderRooms);
      }
      break;
    case "room.removed":
      forgetRoom(data.room_id);
      break;
    case "room.activity": {
      const summary = app.rooms.get(data.room_id);
      if (!summary) { loadRooms(); break; }
      noteActivity(summary, data.message);
      const reading = app.current === data.room_id && document.visibilityState === "visible";
      if (data.message.sender_id !== app.me.id && !reading && data.message.seq > summary.read_seq) summary.unread_count += 1;
      renderRooms();
      break;
    }
    case "room.read": {
      const summary = app.rooms.get(data.room_id);
      if (summary) {
        summary.read_seq = Math.max(summary.read_seq, data.read_seq);
        summary.unread_count = data.unread_count;
        renderRooms();
      }
      break;
    }
  }
}

async function onRoomEvent(roomID, event, data) {
  const conversation = app.conversations.get(roomID);
  const summary = app.rooms.get(roomID);
  switch (event) {
    case "message.created": {
      const message = data.message;
      if (summary) { noteActivity(summary, message); renderRooms(); }
      stopTyping(roomID, message.sender_id);
      if (!conversation) return;
      await ensureAttachments([message]);
      await ensureUsers([message.sender_id]);
      // Kept even while the history is loading: the page fetched may predate this message.
      conversation.ingest([message]);
      dropFromOutbox(message.client_id);
      if (!conversation.loaded) return;
      renderConversation({ follow: message.sender_id === app.me.id ? "always" : "near" });
      if (roomID === app.current) markRead();
      return;
    }
    case "message.updated":
    case "message.deleted":
      if (conversation && conversation.bySeq.has(data.message.seq)) {
        await ensureAttachments([data.message]);
        conversation.ingest([data.message]);
        renderConversation();
      }
      if (summary && summary.last_message && summary.last_message.seq === data.message.seq) {
        summary.last_message = data.message;
        renderRooms();
      }
      return;
    case "reaction.changed": {
      const message = conversation && conversation.byID(data.message_id);
      if (!message) return;
      if (data.user_id === app.me.id) {
        const key = data.message_id + " " + data.emoji;
        if (data.action === "added") conversation.myReactions.add(key); else conversation.myReactions.delete(key);
      }
      message.reactions = data.reactions;
      renderConversation();
      return;
    }
    case "cursor.updated":
      if (conversation) {
        conversation.cursors.set(data.user_id, Math.max(conversation.cursors.get(data.user_id) || 0, data.seq));
        renderConversation();
      }
      return;
    case "typing":
      if (data.user_id !== app.me.id) startTyping(roomID, data.user_id);
      return;
    case "presence.changed":
      app.presence.set(data.user_id, data.online);
      renderRooms();
      renderHeader();
      return;
    case "member.joined":
    case "member.left":
      if (summary) {
        summary.room.member_count = Math.max(0, summary.room.member_count + (event === "member.joined" ? 1 : -1));
        if (event === "member.joined") await ensureUsers([data.user_id]);
        renderHeader();
      }
      return;
    case "room.updated":
      if (summary) { summary.room = data.room; renderRooms(); renderHeader(); }
      return;
    case "room.deleted":
    case "parley:subscription_revoked":
      forgetRoom(roomID);
      return;
  }
}

function noteActivity(summary, message) {
  if (!summary.last_message || message.seq >= summary.last_message.seq) summary.last_message = message;
  summary.room.last_activity_at = Math.max(summary.room.last_activity_at, message.created_at);
  summary.room.last_seq = Math.max(summary.room.last_seq, message.seq);
}

function forgetRoom(roomID) {
  app.rooms.delete(roomID);
  app.conversations.delete(roomID);
  app.realtime.unsubscribe("private-room-" + roomID);
  if (app.current === roomID) closeRoom();
  renderRooms();
}

// ---------------------------------------------------------------- rooms

async function loadRooms() {
  const answer = await app.api.get("/v1/me/rooms?limit=100");
  const summaries = answer.rooms;
  const seen = new Set();
  for (const summary of summaries) {
    seen.add(summary.room.id);
    app.rooms.set(summary.room.id, summary);
    app.realtime.subscribe("private-room-" + summary.room.id);
  }
  for (const id of [...app.rooms.keys()]) if (!seen.has(id)) forgetRoom(id);
  try {
    const known = await app.api.get("/v1/users?limit=100");
    for (const user of known.users) app.users.set(user.id, user);
  } catch { /* names are fetched one by one then */ }
  await ensureRoomNames(summaries);
  renderRooms();
}

async function ensureRoomNames(summaries) {
  const ids = [];
  const directs = [];
  for (const summary of summaries) {
    const other = otherUser(summary.room);
    if (other) { ids.push(other); directs.push(other); }
    if (summary.last_message) ids.push(summary.last_message.sender_id);
  }
  await ensureUsers(ids);
  await Promise.all(directs.filter((id) => !app.presence.has(id)).map(async (id) => {
    try { app.presence.set(id, (await app.api.get(`/v1/users/${encodeURIComponent(id)}/presence`)).online); } catch { /* unknown */ }
  }));
}

async function ensureUsers(ids) {
  const missing = [...new Set(ids)].filter((id) => id && !app.users.has(id));
  await Promise.all(missing.map(async (id) => {
    try { app.users.set(id, await app.api.get(`/v1/users/${encodeURIComponent(id)}`)); } catch { app.users.set(id, { id, name: id }); }
  }));
}

function otherUser(room) {
  if (room.kind !== "direct") return null;
  return room.direct_user_ids.find((id) => id !== app.me.id) || app.me.id;
}

function userName(id) {
  const user = app.users.get(id);
  return user ? user.name : id;
}

function roomName(room) {
  const other = otherUser(room);
  if (other) return userName(other);
  return room.name || room.id;
}

function preview(message) {
  if (!message) return "No messages yet";
  if (message.deleted) return "Message deleted";
  const who = message.sender_id === app.me.id ? "You" : userName(message.sender_id);
  const text = message.parts.map((p) => (p.type === "text" ? p.text : p.type === "url" ? p.url : "📷 Image")).join(" ");
  return `${who}: ${text}`;
}

function sortedRooms() {
  const activity = (s) => Math.max(s.room.last_activity_at, s.last_message ? s.last_message.created_at : 0);
  return [...app.rooms.values()].sort((a, b) => activity(b) - activity(a));
}

function renderRooms() {
  const list = $("rooms");
  const rooms = sortedRooms();
  let unread = 0;
  const items = rooms.map((summary) => {
    const room = summary.room;
    unread += summary.unread_count;
    const other = otherUser(room);
    const online = other ? app.presence.get(other) : undefined;
    const name = roomName(room);
    const label = [name, summary.unread_count ? `${summary.unread_count} unread` : null, other ? (online ? "online" : "offline") : null]
      .filter(Boolean).join(", ");
    const button = h("button", { type: "button", class: "room-button", "aria-label": label, dataset: { room: room.id },
      "aria-current": app.current === room.id ? "page" : null, onclick: () => openRoom(room.id) },
    h("span", { class: "avatar", "aria-hidden": "true", text: initials(name) },
      other ? h("span", { class: "dot" + (online ? " online" : "") }) : null),
    h("span", { class: "room-text" },
      h("span", { class: "room-line" },
        h("span", { class: "room-name", text: name }),
        h("time", { class: "room-time", text: summary.last_message ? shortTime(summary.last_message.created_at) : "" })),
      h("span", { class: "room-line" },
        h("span", { class: "room-preview", text: preview(summary.last_message) }),
        summary.unread_count ? h("span", { class: "badge", text: String(summary.unread_count) }) : null)));
    return h("li", {}, button);
  });
  list.replaceChildren(...items);
  $("no-rooms").hidden = rooms.length > 0;
  document.title = unread ? `(${unread}) Parley` : "Parley";
}

function initials(name) {
  const letters = Array.from(name.trim()).filter((c) => /\p{L}|\p{N}/u.test(c));
  return (letters[0] || "#").toUpperCase();
}

// ---------------------------------------------------------------- conversation

async function openRoom(roomID) {
  if (app.current && app.current !== roomID) saveDraftNow();
  cancelEdit();
  app.current = roomID;
  history.replaceState(null, "", "#room=" + encodeURIComponent(roomID));
  document.body.classList.add("in-room");
  let conversation = app.conversations.get(roomID);
  if (!conversation) {
    conversation = new Conversation(roomID);
    app.conversations.set(roomID, conversation);
  }
  $("messages").replaceChildren();
  $("empty").hidden = true;
  $("composer").hidden = false;
  $("text").value = app.local.draft(roomID);
  composerChanged(false);
  renderRooms();
  renderHeader();
  renderTyping();
  if (!conversation.loaded) {
    try {
      const page = await app.api.get(`/v1/rooms/${encodeURIComponent(roomID)}/messages?limit=50`);
      await ensureAttachments(page.messages);
      await ensureUsers(page.messages.map((m) => m.sender_id));
      conversation.ingest(page.messages);
      conversation.hasMore = page.has_more;
      mergeCursors(conversation, await loadCursors(roomID));
      conversation.loaded = true;
    } catch (error) {
      showComposerError(`Could not load the conversation: ${error.message}`);
    }
  }
  if (app.current !== roomID) return;
  renderConversation({ follow: "always" });
  markRead();
  if (matchMedia("(min-width: 700px)").matches) $("text").focus();
}

function closeRoom() {
  app.current = null;
  document.body.classList.remove("in-room");
  history.replaceState(null, "", location.pathname);
  $("messages").replaceChildren();
  $("empty").hidden = false;
  $("composer").hidden = true;
  $("older").hidden = true;
  renderHeader();
  renderRooms();
}

function mergeCursors(conversation, cursors) {
  for (const [user, seq] of cursors) conversation.cursors.set(user, Math.max(conversation.cursors.get(user) || 0, seq));
}

async function loadCursors(roomID) {
  const cursors = new Map();
  const answer = await app.api.get(`/v1/rooms/${encodeURIComponent(roomID)}/cursors`);
  for (const cursor of answer.cursors) cursors.set(cursor.user_id, cursor.seq);
  return cursors;
}

async function fillAfter(conversation) {
  for (let guard = 0; guard < 20; guard++) {
    const page = await app.api.get(`/v1/rooms/${encodeURIComponent(conversation.roomID)}/messages?after=${conversation.lastSeq}&limit=100`);
    await ensureAttachments(page.messages);
    await ensureUsers(page.messages.map((m) => m.sender_id));
    conversation.ingest(page.messages);
    for (const message of page.messages) dropFromOutbox(message.client_id);
    if (!page.has_more) break;
  }
  if (conversation.roomID === app.current) renderConversation({ follow: "near" });
}

async function loadOlder() {
  const conversation = app.conversations.get(app.current);
  if (!conversation || !conversation.hasMore || conversation.loadingOlder || conversation.firstSeq === null) return;
  conversation.loadingOlder = true;
  try {
    const page = await app.api.get(`/v1/rooms/${encodeURIComponent(conversation.roomID)}/messages?before=${conversation.firstSeq}&limit=50`);
    await ensureAttachments(page.messages);
    await ensureUsers(page.messages.map((m) => m.sender_id));
    const scroller = $("scroller");
    const fromBottom = scroller.scrollHeight - scroller.scrollTop;
    conversation.ingest(page.messages);
    conversation.hasMore = page.has_more;
    renderConversation();
    scroller.scrollTop = scroller.scrollHeight - fromBottom;
  } catch (error) {
    showComposerError(`Could not load older messages: ${error.message}`);
  } finally {
    conversation.loadingOlder = false;
  }
}

/** Fetches the metadata (size, signed URL) of attachments before their messages are shown,
 * so an image's box has its true aspect ratio from the first paint. */
async function ensureAttachments(messages) {
  const ids = [];
  for (const message of messages) {
    for (const part of message.parts) if (part.type === "attachment" && !app.attachments.has(part.attachment_id)) ids.push(part.attachment_id);
  }
  await Promise.all(ids.map(async (id) => {
    try { app.attachments.set(id, await app.api.get(`/v1/attachments/${encodeURIComponent(id)}`)); } catch { app.attachments.set(id, { failed: true }); }
  }));
}

function imageFor(meta, url) {
  let image = app.images.get(meta.id);
  if (!image) {
    image = h("img", { src: url.href, width: meta.width, height: meta.height, alt: "Image", loading: "lazy", decoding: "async" });
    image.style.aspectRatio = `${meta.width} / ${meta.height}`;
    app.images.set(meta.id, image);
  }
  return image;
}

const view = {
  get me() { return app.me.id; },
  get isAdmin() { const s = app.rooms.get(app.current); return !!s && s.role === "admin"; },
  userName,
  attachment: (id) => app.attachments.get(id),
  image: imageFor,
  react: (message, emoji, add) => react(message, emoji, add),
  edit: (message) => startEdit(message),
  remove: (message) => removeMessage(message),
  retry: (item) => { setOutboxState(item.client_id, "queued"); flushOutbox(); },
  discard: (item) => { dropFromOutbox(item.client_id); renderConversation(); },
};

function renderConversation({ follow = "near" } = {}) {
  const conversation = app.conversations.get(app.current);
  if (!conversation) return;
  const scroller = $("scroller");
  const nearBottom = scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight < 80;
  const pending = app.outbox.filter((item) => item.room_id === conversation.roomID && !conversation.hasClientID(item.client_id));
  conversation.render($("messages"), pending, view);
  $("older").hidden = !conversation.hasMore;
  if (follow === "always" || (follow === "near" && nearBottom)) scroller.scrollTop = scroller.scrollHeight;
}

function renderHeader() {
  const summary = app.current && app.rooms.get(app.current);
  $("invite").hidden = !summary || summary.room.kind === "direct";
  $("leave").hidden = !summary;
  if (!summary) {
    $("room-title").textContent = "Parley";
    $("room-subtitle").textContent = "";
    return;
  }
  const room = summary.room;
  $("room-title").textContent = roomName(room);
  const other = otherUser(room);
  if (other) $("room-subtitle").textContent = app.presence.get(other) ? "online" : "offline";
  else $("room-subtitle").textContent = `${room.kind === "public" ? "Public" : "Private"} room · ${room.member_count} member${room.member_count === 1 ? "" : "s"}`;
}

let readTimer = null;
function markRead() {
  clearTimeout(readTimer);
  readTimer = setTimeout(async () => {
    const roomID = app.current;
    const conversation = app.conversations.get(roomID);
    const summary = app.rooms.get(roomID);
    if (!conversation || !summary || document.visibilityState !== "visible" || !navigator.onLine) return;
    const seq = conversation.lastSeq;
    if (seq > summary.read_seq || summary.unread_count) {
      summary.read_seq = Math.max(summary.read_seq, seq);
      summary.unread_count = 0;
      renderRooms();
      try { await app.api.put(`/v1/rooms/${encodeURIComponent(roomID)}/cursor`, { seq }); } catch { /* next time */ }
    }
  }, 200);
}

// ---------------------------------------------------------------- typing

function startTyping(roomID, userID) {
  const key = roomID + " " + userID;
  clearTimeout(app.typers.get(key));
  app.typers.set(key, setTimeout(() => stopTyping(roomID, userID), TYPING_SHOWN_MS));
  ensureUsers([userID]).then(renderTyping);
}

function stopTyping(roomID, userID) {
  const key = roomID + " " + userID;
  if (!app.typers.has(key)) return;
  clearTimeout(app.typers.get(key));
  app.typers.delete(key);
  renderTyping();
}

function renderTyping() {
  const names = [];
  for (const key of app.typers.keys()) {
    const [roomID, userID] = key.split(" ");
    if (roomID === app.current) names.push(userName(userID));
  }
  let text = "";
  if (names.length === 1) text = `${names[0]} is typing…`;
  else if (names.length === 2) text = `${names[0]} and ${names[1]} are typing…`;
  else if (names.length > 2) text = "Several people are typing…";
  $("typing").textContent = text;
}

function announceTyping() {
  const now = Date.now();
  if (!app.current || now - app.lastTypingSent < TYPING_EVERY_MS || !navigator.onLine || app.realtime.state !== State.CONNECTED) return;
  app.lastTypingSent = now;
  app.api.call("POST", `/v1/rooms/${encodeURIComponent(app.current)}/typing`, {}, { retries: 0 }).catch(() => {});
}

// ---------------------------------------------------------------- composer and outbox

function composerChanged(typed) {
  const text = $("text").value;
  const length = Array.from(text).length;
  const counter = $("counter");
  counter.textContent = length > TEXT_LIMIT * 0.8 ? `${length} / ${TEXT_LIMIT}` : "";
  counter.classList.toggle("over", length > TEXT_LIMIT);
  $("send").disabled = length > TEXT_LIMIT;
  const field = $("text");
  field.style.height = "auto";
  field.style.height = Math.min(field.scrollHeight, 200) + "px";
  if (typed) {
    scheduleDraftSave();
    if (text.trim() && !app.editing) announceTyping();
  }
}

let draftTimer = null;
function scheduleDraftSave() {
  clearTimeout(draftTimer);
  draftTimer = setTimeout(saveDraftNow, 300);
}

function saveDraftNow() {
  clearTimeout(draftTimer);
  if (app.current && !app.editing) app.local.saveDraft(app.current, $("text").value);
}

function submitComposer() {
  const text = $("text").value;
  if (!text.trim() || Array.from(text).length > TEXT_LIMIT || !app.current) return;
  if (app.editing) return saveEdit(text);
  $("text").value = "";
  app.local.saveDraft(app.current, "");
  composerChanged(false);
  enqueue(app.current, [{ type: "text", text }]);
}

function enqueue(roomID, parts) {
  const item = { client_id: newClientID(), room_id: roomID, sender_id: app.me.id, parts, created_at: Date.now(), state: "queued" };
  app.outbox.push(item);
  saveOutbox();
  if (roomID === app.current) renderConversation({ follow: "always" });
  flushOutbox();
}

function saveOutbox() {
  app.local.saveOutbox(app.outbox);
  if (app.realtime) showConnection(app.realtime.state);
}

function setOutboxState(clientID, state, error) {
  const item = app.outbox.find((i) => i.client_id === clientID);
  if (!item) return;
  item.state = state;
  item.error = error;
  saveOutbox();
  if (item.room_id === app.current) renderConversation();
}

function dropFromOutbox(clientID) {
  if (!clientID) return;
  const before = app.outbox.length;
  app.outbox = app.outbox.filter((i) => i.client_id !== clientID);
  if (app.outbox.length !== before) saveOutbox();
}

let retryTimer = null;
/** Sends queued messages one at a time, in order. A network failure leaves the rest queued
 * for the next connection; the client_id makes a repeated send return the original message. */
async function flushOutbox() {
  if (app.flushing || !app.api) return;
  app.flushing = true;
  clearTimeout(retryTimer);
  try {
    for (;;) {
      const item = app.outbox.find((i) => i.state === "queued" || i.state === "sending");
      if (!item || !navigator.onLine) break;
      setOutboxState(item.client_id, "sending");
      try {
        const message = await app.api.post(`/v1/rooms/${encodeURIComponent(item.room_id)}/messages`, { client_id: item.client_id, parts: item.parts });
        await delivered(message);
      } catch (error) {
        if (error instanceof NetworkError || (error instanceof ApiError && (error.status >= 500 || error.status === 429))) {
          setOutboxState(item.client_id, "queued");
          retryTimer = setTimeout(flushOutbox, 3000);
          break;
        }
        setOutboxState(item.client_id, "failed", error.message);
      }
    }
  } finally {
    app.flushing = false;
  }
}

async function delivered(message) {
  const conversation = app.conversations.get(message.room_id);
  if (conversation && conversation.loaded) {
    await ensureAttachments([message]);
    conversation.ingest([message]);
  }
  dropFromOutbox(message.client_id);
  const summary = app.rooms.get(message.room_id);
  if (summary) { noteActivity(summary, message); renderRooms(); }
  if (message.room_id === app.current) { renderConversation({ follow: "always" }); markRead(); }
}

function startEdit(message) {
  const text = message.parts.filter((p) => p.type === "text").map((p) => p.text).join("\n");
  saveDraftNow();
  app.editing = message;
  $("editing").hidden = false;
  $("text").value = text;
  composerChanged(false);
  $("text").focus();
}

function cancelEdit() {
  if (!app.editing) return;
  app.editing = null;
  $("editing").hidden = true;
  $("text").value = app.current ? app.local.draft(app.current) : "";
  composerChanged(false);
}

async function saveEdit(text) {
  const message = app.editing;
  let replaced = false;
  const parts = [];
  for (const part of message.parts) {
    if (part.type !== "text") parts.push(part);
    else if (!replaced) { parts.push({ type: "text", text }); replaced = true; }
  }
  try {
    const edited = await app.api.patch(`/v1/rooms/${encodeURIComponent(message.room_id)}/messages/${message.id}`, { parts });
    const conversation = app.conversations.get(message.room_id);
    if (conversation) conversation.ingest([edited]);
    cancelEdit();
    renderConversation();
  } catch (error) {
    showComposerError(`Could not edit the message: ${error.message}`);
  }
}

async function removeMessage(message) {
  try {
    const deleted = await app.api.del(`/v1/rooms/${encodeURIComponent(message.room_id)}/messages/${message.id}`);
    const conversation = app.conversations.get(message.room_id);
    if (conversation && deleted && deleted.seq) { conversation.ingest([deleted]); renderConversation(); }
  } catch (error) {
    showComposerError(`Could not delete the message: ${error.message}`);
  }
}

async function react(message, emoji, add) {
  const conversation = app.conversations.get(message.room_id);
  const path = `/v1/rooms/${encodeURIComponent(message.room_id)}/messages/${message.id}/reactions/${encodeURIComponent(emoji)}`;
  try {
    const state = add ? await app.api.put(path) : await app.api.del(path);
    const key = message.id + " " + emoji;
    if (add) conversation.myReactions.add(key); else conversation.myReactions.delete(key);
    const current = conversation.byID(message.id);
    if (current && state && state.reactions) current.reactions = state.reactions;
    renderConversation();
  } catch (error) {
    showComposerError(`Could not react: ${error.message}`);
  }
}

let errorTimer = null;
function showComposerError(text) {
  $("composer-error").textContent = text;
  clearTimeout(errorTimer);
  errorTimer = setTimeout(() => { $("composer-error").textContent = ""; }, 8000);
}

// ---------------------------------------------------------------- images

async function sendImage(file) {
  const roomID = app.current;
  if (!roomID || !file) return;
  if (!IMAGE_TYPES.has(file.type)) {
    showComposerError(`“${file.name}” is not an image Parley can show (PNG, JPEG, GIF or WebP).`);
    return;
  }
  if (file.size > ATTACHMENT_LIMIT) {
    showComposerError(`“${file.name}” is larger than 10 MB.`);
    return;
  }
  if (!navigator.onLine) {
    showComposerError("You are offline: images can be sent once the connection is back.");
    return;
  }
  $("upload").hidden = false;
  $("upload-label").textContent = `Uploading ${file.name}…`;
  $("upload-progress").value = 0;
  try {
    const attachment = await app.api.upload(roomID, file, (fraction) => { $("upload-progress").value = fraction; });
    app.attachments.set(attachment.id, attachment);
    enqueue(roomID, [{ type: "attachment", attachment_id: attachment.id }]);
  } catch (error) {
    showComposerError(`Could not send “${file.name}”: ${error.message}`);
  } finally {
    $("upload").hidden = true;
  }
}

// ---------------------------------------------------------------- dialogs

function ask({ title, label, placeholder, kind = false, options = [], action }) {
  const dialog = $("dialog");
  $("dialog-title").textContent = title;
  $("dialog-label").textContent = label;
  const input = $("dialog-input");
  input.value = "";
  input.placeholder = placeholder || "";
  $("dialog-options").replaceChildren(...options.map((o) => h("option", { value: o.value, label: o.label })));
  $("dialog-kind").hidden = !kind;
  $("dialog-error").textContent = "";
  $("dialog-form").onsubmit = async (event) => {
    event.preventDefault();
    const value = input.value.trim();
    if (!value) return;
    const chosen = new FormData($("dialog-form")).get("kind");
    try {
      await action(value, chosen);
      dialog.close();
    } catch (error) {
      $("dialog-error").textContent = error.message;
    }
  };
  dialog.showModal();
  input.focus();
}

function slug(name) {
  return name.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 64);
}

function userIDFrom(text) {
  return /^[A-Za-z0-9_\-=@,.;]+$/.test(text) ? text : slug(text);
}

async function addRoom(summaryRoom, role) {
  if (!app.rooms.has(summaryRoom.id)) {
    app.rooms.set(summaryRoom.id, { room: summaryRoom, role, read_seq: 0, unread_count: 0, last_message: null });
    app.realtime.subscribe("private-room-" + summaryRoom.id);
  }
  await ensureRoomNames([app.rooms.get(summaryRoom.id)]);
  renderRooms();
  openRoom(summaryRoom.id);
}

function wireDialogs() {
  $("dialog-cancel").addEventListener("click", () => $("dialog").close());
  $("new-room").addEventListener("click", () => ask({
    title: "New room", label: "Room name", kind: true,
    action: async (name, kind) => addRoom(await app.api.post("/v1/rooms", { name, kind: kind || "private" }), "admin"),
  }));
  $("join-room").addEventListener("click", async () => {
    let options = [];
    try {
      const rooms = (await app.api.get("/v1/rooms?limit=100")).rooms.filter((r) => !app.rooms.has(r.id));
      options = rooms.map((r) => ({ value: r.id, label: r.name || r.id }));
    } catch { /* type the id then */ }
    ask({
      title: "Join a public room", label: "Room id", options,
      action: async (id) => {
        await app.api.post(`/v1/rooms/${encodeURIComponent(id)}/join`);
        await addRoom(await app.api.get(`/v1/rooms/${encodeURIComponent(id)}`), "member");
      },
    });
  });
  $("new-direct").addEventListener("click", () => ask({
    title: "Direct chat", label: "User id", placeholder: "bob",
    options: [...app.users.values()].filter((u) => u.id !== app.me.id).map((u) => ({ value: u.id, label: u.name })),
    action: async (who) => addRoom(await app.api.post("/v1/rooms/direct", { user_id: userIDFrom(who) }), "member"),
  }));
  $("invite").addEventListener("click", () => ask({
    title: "Invite to this room", label: "User id", placeholder: "bob",
    options: [...app.users.values()].filter((u) => u.id !== app.me.id).map((u) => ({ value: u.id, label: u.name })),
    action: async (who) => {
      const id = userIDFrom(who);
      await app.api.post(`/v1/rooms/${encodeURIComponent(app.current)}/members`, { user_id: id });
      await ensureUsers([id]);
    },
  }));
  $("leave").addEventListener("click", async () => {
    const roomID = app.current;
    const armed = $("leave").dataset.armed;
    if (!armed) {
      $("leave").dataset.armed = "1";
      $("leave").textContent = "Leave?";
      setTimeout(() => { delete $("leave").dataset.armed; $("leave").textContent = "Leave"; }, 4000);
      return;
    }
    try {
      await app.api.post(`/v1/rooms/${encodeURIComponent(roomID)}/leave`);
      forgetRoom(roomID);
    } catch (error) {
      showComposerError(`Could not leave: ${error.message}`);
    }
  });
}

// ---------------------------------------------------------------- wiring

function wireComposer() {
  const text = $("text");
  $("composer").addEventListener("submit", (event) => { event.preventDefault(); submitComposer(); });
  text.addEventListener("input", () => composerChanged(true));
  text.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      submitComposer();
    } else if (event.key === "Escape") {
      if (app.editing) cancelEdit();
      else focusRoomList();
    }
  });
  text.addEventListener("paste", (event) => {
    const file = [...(event.clipboardData ? event.clipboardData.files : [])][0];
    if (file) { event.preventDefault(); sendImage(file); }
  });
  $("cancel-edit").addEventListener("click", cancelEdit);
  $("attach").addEventListener("click", () => $("file").click());
  $("file").addEventListener("change", () => { sendImage($("file").files[0]); $("file").value = ""; });
  const room = $("room");
  room.addEventListener("dragover", (event) => { if (app.current) { event.preventDefault(); room.classList.add("dropping"); } });
  room.addEventListener("dragleave", () => room.classList.remove("dropping"));
  room.addEventListener("drop", (event) => {
    event.preventDefault();
    room.classList.remove("dropping");
    const file = event.dataTransfer && event.dataTransfer.files[0];
    if (file) sendImage(file);
  });
  $("older").addEventListener("click", loadOlder);
  $("scroller").addEventListener("scroll", () => { if ($("scroller").scrollTop < 40) loadOlder(); });
  $("back").addEventListener("click", () => { saveDraftNow(); closeRoom(); focusRoomList(); });
  $("signout").addEventListener("click", signOut);
  document.addEventListener("visibilitychange", () => { if (document.visibilityState === "visible") markRead(); });
  document.addEventListener("keydown", (event) => {
    if (!event.altKey || (event.key !== "ArrowUp" && event.key !== "ArrowDown")) return;
    const rooms = sortedRooms();
    if (!rooms.length) return;
    const index = rooms.findIndex((s) => s.room.id === app.current);
    const next = rooms[(index + (event.key === "ArrowDown" ? 1 : rooms.length - 1)) % rooms.length];
    event.preventDefault();
    openRoom(next.room.id);
  });
  window.addEventListener("beforeunload", saveDraftNow);
}

function focusRoomList() {
  const button = document.querySelector(`#rooms button[aria-current="page"]`) || document.querySelector("#rooms button");
  if (button) button.focus();
}

wireComposer();
wireDialogs();
boot().catch((error) => showSignIn(`Parley could not start: ${error.message}`));

"""####),
        ("conversation.js", ####"""
// One room's conversation: the messages known (by seq), the ones still in the outbox, read
// cursors, and the rendering of all of it as a list that is updated in place (an element is
// rebuilt only when what it shows changed, so images never reload and scrolling holds).

import { h, linkify, link, safeURL, clock, dayKey, dayLabel } from "./dom.js";

export const QUICK_REACTIONS = ["👍", "❤️", "😂", "🎉", "😮", "😢"];

export class Conversation {
  constructor(roomID) {
    this.roomID = roomID;
    this.bySeq = new Map();
    this.cursors = new Map(); // user id -> read seq
    this.hasMore = false;
    this.loaded = false;
    this.elements = new Map(); // key -> {signature, element}
    this.separators = new Map(); // day key -> element
    this.myReactions = new Set(); // `${messageID} ${emoji}` this user added
  }

  get firstSeq() {
    let first = Infinity;
    for (const seq of this.bySeq.keys()) first = Math.min(first, seq);
    return first === Infinity ? null : first;
  }

  get lastSeq() {
    let last = 0;
    for (const seq of this.bySeq.keys()) last = Math.max(last, seq);
    return last;
  }

  ingest(messages) {
    for (const message of messages) {
      this.bySeq.set(message.seq, message);
      // Whoever sent a message has read the room up to it (the server moves their cursor too).
      this.cursors.set(message.sender_id, Math.max(this.cursors.get(message.sender_id) || 0, message.seq));
    }
  }

  byID(id) {
    for (const message of this.bySeq.values()) if (message.id === id) return message;
    return null;
  }

  hasClientID(clientID) {
    for (const message of this.bySeq.values()) if (message.client_id === clientID) return true;
    return false;
  }

  /** The highest seq someone other than `me` has read. */
  readByOthers(me) {
    let seq = 0;
    for (const [user, read] of this.cursors) if (user !== me) seq = Math.max(seq, read);
    return seq;
  }

  /**
   * Renders into `list`: messages in seq order with day separators, then the room's
   * outbox items. `view` gives names, attachments, the signed-in user and the actions.
   */
  render(list, pending, view) {
    const ordered = [...this.bySeq.values()].sort((a, b) => a.seq - b.seq);
    const seenUpTo = this.readByOthers(view.me);
    let lastOwn = null;
    for (const message of ordered) if (message.sender_id === view.me && !message.deleted) lastOwn = message.seq;
    const nodes = [];
    let day = null;
    const items = [...ordered, ...pending.map((item) => ({ ...item, pending: true }))];
    for (const message of items) {
      const key = dayKey(message.created_at);
      if (key !== day) {
        day = key;
        nodes.push(this.separator(key, message.created_at));
      }
      let status = null;
      if (message.pending) status = message.state;
      else if (message.seq === lastOwn) status = message.seq <= seenUpTo ? "seen" : "sent";
      nodes.push(this.element(message, status, view));
    }
    const keep = new Set(nodes);
    for (const [key, entry] of this.elements) if (!keep.has(entry.element)) this.elements.delete(key);
    // Move only what is out of place: a full replace would restart running image loads.
    let cursor = list.firstChild;
    for (const node of nodes) {
      if (cursor === node) { cursor = cursor.nextSibling; continue; }
      list.insertBefore(node, cursor);
    }
    while (cursor) { const next = cursor.nextSibling; cursor.remove(); cursor = next; }
  }

  separator(key, ms) {
    let element = this.separators.get(key);
    const label = dayLabel(ms);
    if (!element || element.textContent !== label) {
      element = h("li", { class: "day", role: "separator", "aria-label": label }, h("span", { text: label }));
      this.separators.set(key, element);
    }
    return element;
  }

  element(message, status, view) {
    const key = message.pending ? "c:" + message.client_id : "s:" + message.seq;
    const signature = JSON.stringify([message.parts, message.edited_at, message.deleted, message.reactions, status, message.error,
      view.userName(message.sender_id), this.reactionKeys(message), message.parts.map((p) => p.attachment_id && !!view.attachment(p.attachment_id))]);
    const known = this.elements.get(key);
    if (known && known.signature === signature) return known.element;
    const element = this.build(message, status, view);
    if (known && known.element.classList.contains("open")) element.classList.add("open");
    this.elements.set(key, { signature, element });
    return element;
  }

  reactionKeys(message) {
    return (message.reactions || []).filter((r) => this.myReactions.has(message.id + " " + r.emoji)).map((r) => r.emoji);
  }

  build(message, status, view) {
    const own = message.sender_id === view.me;
    const classes = ["msg"];
    if (own) classes.push("own");
    if (message.deleted) classes.push("deleted");
    if (message.pending) classes.push("pending");
    const name = view.userName(message.sender_id);
    const meta = h("div", { class: "meta" },
      h("span", { class: "sender", text: own ? "You" : name }), " ",
      h("time", { dateTime: new Date(message.created_at).toISOString(), text: clock(message.created_at) }),
      message.edited_at && !message.deleted ? h("span", { class: "edited", text: " (edited)" }) : null);
    const body = h("div", { class: "body" });
    if (message.deleted) body.append(h("em", { text: "This message was deleted." }));
    else for (const part of message.parts) body.append(this.part(part, view));
    const bubble = h("div", { class: "bubble", tabIndex: 0, "aria-label": `${own ? "You" : name}, ${clock(message.created_at)}`,
      onclick: (event) => { if (!event.target.closest("a, button")) bubble.parentElement.classList.toggle("open"); } },
    meta, body, this.reactions(message, view));
    if (status) bubble.append(this.status(message, status, view));
    const element = h("li", { class: classes.join(" "), dataset: message.pending ? { clientId: message.client_id } : { seq: String(message.seq) } },
      bubble, message.pending || message.deleted ? null : this.tools(message, own, view));
    return element;
  }

  part(part, view) {
    if (part.type === "text") return h("p", { class: "text" }, linkify(part.text));
    if (part.type === "url") {
      const url = safeURL(part.url);
      return h("p", { class: "text" }, url ? link(url, part.url) : part.url);
    }
    if (part.type === "attachment") return this.attachment(part.attachment_id, view);
    return h("p", { class: "text muted", text: "(unsupported content)" });
  }

  attachment(id, view) {
    const meta = view.attachment(id);
    if (!meta) return h("p", { class: "muted", text: "Loading attachment…" });
    if (meta.failed) return h("p", { class: "muted", text: "Attachment unavailable." });
    const url = new URL(meta.download_url, location.origin);
    if (meta.content_type.startsWith("image/") && meta.width && meta.height) {
      return h("figure", { class: "image" }, view.image(meta, url));
    }
    const size = meta.size > 1048576 ? (meta.size / 1048576).toFixed(1) + " MB" : Math.ceil(meta.size / 1024) + " KB";
    return h("p", { class: "file" }, link(url, `📎 ${meta.content_type.split(";")[0]} (${size})`));
  }

  reactions(message, view) {
    const list = h("div", { class: "reactions" });
    if (message.deleted) return list;
    for (const reaction of message.reactions || []) {
      const mine = this.myReactions.has(message.id + " " + reaction.emoji);
      list.append(h("button", { type: "button", class: "chip" + (mine ? " mine" : ""), "aria-pressed": mine ? "true" : "false",
        "aria-label": `${reaction.emoji} ${reaction.count}`, onclick: () => view.react(message, reaction.emoji, !mine) },
      reaction.emoji + " " + reaction.count));
    }
    return list;
  }

  status(message, status, view) {
    const labels = { queued: "waiting to send", sending: "sending…", sent: "✓ sent", seen: "✓✓ seen", failed: "failed" };
    const line = h("div", { class: "status " + status, text: labels[status] || status });
    if (status === "failed") {
      if (message.error) line.append(": " + message.error);
      line.append(" ", h("button", { type: "button", class: "link", text: "Retry", onclick: () => view.retry(message) }),
        " ", h("button", { type: "button", class: "link", text: "Discard", onclick: () => view.discard(message) }));
    }
    return line;
  }

  tools(message, own, view) {
    const tools = h("div", { class: "tools", role: "toolbar", "aria-label": "Message actions" });
    for (const emoji of QUICK_REACTIONS) {
      tools.append(h("button", { type: "button", class: "quiet", "aria-label": "React " + emoji, text: emoji,
        onclick: () => view.react(message, emoji, !this.myReactions.has(message.id + " " + emoji)) }));
    }
    if (own && message.parts.some((p) => p.type === "text")) {
      tools.append(h("button", { type: "button", class: "quiet", text: "Edit", onclick: () => view.edit(message) }));
    }
    if (own || view.isAdmin) {
      const remove = h("button", { type: "button", class: "quiet danger", text: "Delete", onclick: () => {
        if (remove.dataset.armed) view.remove(message);
        else {
          remove.dataset.armed = "1";
          remove.textContent = "Delete?";
          setTimeout(() => { delete remove.dataset.armed; remove.textContent = "Delete"; }, 4000);
        }
      } });
      tools.append(remove);
    }
    return tools;
  }
}

"""####),
        ("dom.js", ####"""
// Small DOM helpers. User data only ever reaches the page as text nodes or as attribute
// values set through the DOM (never as HTML), and links only with http:, https: or mailto:.

/** Creates an element: `attrs` are properties or attributes, children are nodes or strings (as text). */
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") el.className = value;
    else if (key === "text") el.textContent = value;
    else if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
    else if (key === "dataset") Object.assign(el.dataset, value);
    else if (key.startsWith("aria-") || key === "role" || key === "for") el.setAttribute(key, String(value));
    else if (key in el) el[key] = value;
    else el.setAttribute(key, String(value));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    el.append(typeof child === "string" ? document.createTextNode(child) : child);
  }
}

const SAFE_SCHEMES = new Set(["http:", "https:", "mailto:"]);

/** `text` as a URL if it is an absolute http(s) or mailto URL; otherwise null. */
export function safeURL(text) {
  try {
    const url = new URL(text);
    return SAFE_SCHEMES.has(url.protocol) ? url : null;
  } catch {
    return null;
  }
}

/** A link opening in a new tab without handing it this page (rel noopener). */
export function link(url, label) {
  return h("a", { href: url.href, target: "_blank", rel: "noopener noreferrer nofollow ugc" }, label);
}

const URL_PATTERN = /\b(?:https?:\/\/|mailto:)[^\s<>"']+/gi;

/** Text as nodes, with http(s) and mailto URLs made into safe links; everything else stays text. */
export function linkify(text) {
  const nodes = [];
  let last = 0;
  for (const match of text.matchAll(URL_PATTERN)) {
    let candidate = match[0];
    // Trailing punctuation usually ends the sentence, not the URL.
    while (/[.,;:!?)\]}]$/.test(candidate)) candidate = candidate.slice(0, -1);
    const url = safeURL(candidate);
    if (!url) continue;
    if (match.index > last) nodes.push(document.createTextNode(text.slice(last, match.index)));
    nodes.push(link(url, candidate));
    last = match.index + candidate.length;
  }
  if (last < text.length) nodes.push(document.createTextNode(text.slice(last)));
  return nodes;
}

const timeFormat = new Intl.DateTimeFormat(undefined, { hour: "2-digit", minute: "2-digit" });
const dayFormat = new Intl.DateTimeFormat(undefined, { weekday: "long", day: "numeric", month: "long", year: "numeric" });
const shortDayFormat = new Intl.DateTimeFormat(undefined, { day: "numeric", month: "short" });

/** "14:05" */
export function clock(ms) {
  return timeFormat.format(new Date(ms));
}

/** A local calendar day key, for day separators. */
export function dayKey(ms) {
  const d = new Date(ms);
  return `${d.getFullYear()}-${d.getMonth()}-${d.getDate()}`;
}

/** "Today", "Yesterday" or the full date. */
export function dayLabel(ms, now = Date.now()) {
  if (dayKey(ms) === dayKey(now)) return "Today";
  if (dayKey(ms) === dayKey(now - 86400000)) return "Yesterday";
  return dayFormat.format(new Date(ms));
}

/** A room list time: the clock today, the date before. */
export function shortTime(ms, now = Date.now()) {
  return dayKey(ms) === dayKey(now) ? clock(ms) : shortDayFormat.format(new Date(ms));
}

"""####),
        ("icon.svg", ####"""
<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="8" fill="#3b5bdb"/><path d="M8 9h16a2 2 0 0 1 2 2v9a2 2 0 0 1-2 2h-9l-5 4v-4H8a2 2 0 0 1-2-2v-9a2 2 0 0 1 2-2z" fill="#fff"/></svg>

"""####),
        ("index.html", ####"""
<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>Parley</title>
<link rel="icon" href="{{BASE}}/icon.svg" type="image/svg+xml">
<link rel="stylesheet" href="{{BASE}}/style.css">
<link rel="modulepreload" href="{{BASE}}/dom.js">
<link rel="modulepreload" href="{{BASE}}/api.js">
<link rel="modulepreload" href="{{BASE}}/realtime.js">
<link rel="modulepreload" href="{{BASE}}/store.js">
<link rel="modulepreload" href="{{BASE}}/conversation.js">
<script type="module" src="{{BASE}}/app.js"></script>
</head>
<body>
<div id="banner" class="banner" role="status" aria-live="polite" hidden></div>

<main id="signin" class="signin" hidden>
  <form id="signin-form" class="card" novalidate>
    <h1><img src="{{BASE}}/icon.svg" alt="" width="28" height="28"> Parley</h1>
    <label for="signin-name" id="signin-label">Your name</label>
    <input id="signin-name" name="name" autocomplete="username" required maxlength="100" autofocus>
    <button type="submit" class="primary">Sign in</button>
    <p id="signin-error" class="error" role="alert"></p>
    <p id="signin-hint" class="hint"></p>
  </form>
</main>

<div id="app" class="app" hidden>
  <aside id="sidebar" class="sidebar" aria-label="Rooms">
    <header class="bar">
      <span id="me" class="me"></span>
      <button id="signout" type="button" class="quiet" title="Sign out">Sign out</button>
    </header>
    <div class="actions">
      <button id="new-room" type="button">New room</button>
      <button id="join-room" type="button">Join</button>
      <button id="new-direct" type="button">Direct chat</button>
    </div>
    <nav aria-label="Your rooms"><ul id="rooms" class="rooms"></ul></nav>
    <p id="no-rooms" class="hint" hidden>No rooms yet. Create one, join a public room, or start a direct chat.</p>
  </aside>

  <section id="room" class="room" aria-label="Conversation">
    <header class="bar">
      <button id="back" type="button" class="quiet back" aria-label="Back to rooms">‹</button>
      <div class="title">
        <h2 id="room-title">Parley</h2>
        <span id="room-subtitle" class="subtitle"></span>
      </div>
      <button id="invite" type="button" class="quiet" hidden>Invite</button>
      <button id="leave" type="button" class="quiet" hidden>Leave</button>
    </header>
    <div id="scroller" class="scroller">
      <p id="empty" class="hint center">Pick a room on the left, or create one.</p>
      <button id="older" type="button" class="quiet older" hidden>Load older messages</button>
      <ol id="messages" class="messages" role="log" aria-label="Messages" aria-live="polite"></ol>
    </div>
    <p id="typing" class="typing" aria-live="polite"></p>
    <p id="upload" class="upload" hidden><span id="upload-label"></span> <progress id="upload-progress" max="1" value="0"></progress></p>
    <p id="composer-error" class="error composer-error" role="alert"></p>
    <div id="editing" class="editing" hidden>
      <span>Editing message</span>
      <button id="cancel-edit" type="button" class="quiet">Cancel</button>
    </div>
    <form id="composer" class="composer" hidden>
      <button id="attach" type="button" class="quiet attach" aria-label="Attach an image" title="Attach an image">+</button>
      <input id="file" type="file" accept="image/png,image/jpeg,image/gif,image/webp" hidden>
      <label for="text" class="visually-hidden">Message</label>
      <textarea id="text" rows="1" placeholder="Message" aria-describedby="counter"></textarea>
      <span id="counter" class="counter" aria-live="polite"></span>
      <button id="send" type="submit" class="primary">Send</button>
    </form>
  </section>
</div>

<dialog id="dialog" class="dialog" aria-labelledby="dialog-title">
  <form id="dialog-form" method="dialog">
    <h3 id="dialog-title"></h3>
    <label for="dialog-input" id="dialog-label"></label>
    <input id="dialog-input" list="dialog-options" autocomplete="off">
    <datalist id="dialog-options"></datalist>
    <fieldset id="dialog-kind" class="kind">
      <legend>Who can join</legend>
      <label><input type="radio" name="kind" value="private" checked> Invited people</label>
      <label><input type="radio" name="kind" value="public"> Anyone</label>
    </fieldset>
    <p id="dialog-error" class="error" role="alert"></p>
    <div class="buttons">
      <button type="button" id="dialog-cancel" class="quiet">Cancel</button>
      <button type="submit" id="dialog-ok" class="primary">OK</button>
    </div>
  </form>
</dialog>
</body>
</html>

"""####),
        ("realtime.js", ####"""
// A small Pusher Channels (protocol 7) client: connects, answers and sends heartbeats,
// reconnects with exponential backoff and jitter, signs in (pusher:signin) and subscribes to
// private channels with signatures from the chat's auth endpoints. Events reach `onEvent`.

const PONG_TIMEOUT_MS = 30000;

/** Connection states, as shown in the banner. */
export const State = Object.freeze({
  CONNECTING: "connecting",
  CONNECTED: "connected",
  RECONNECTING: "reconnecting",
  OFFLINE: "offline",
  FAILED: "failed",
});

export class Realtime {
  /**
   * @param {string} url the WebSocket URL (`/app/{key}?protocol=7…`)
   * @param {object} hooks `authorize(socketID, channel)` → auth, `signIn(socketID)` → {auth, user_data},
   *   `onEvent(channel, event, data)`, `onState(state, detail)`, `onConnected(socketID)`, `onSubscribed(channel)`
   */
  constructor(url, hooks) {
    this.url = url;
    this.hooks = hooks;
    this.channels = new Map(); // name -> {subscribed}
    this.attempt = 0;
    this.state = State.CONNECTING;
    this.socket = null;
    this.socketID = null;
    this.stopped = false;
    this.userID = null;
    this.onOnline = () => this.reconnectNow();
    this.onOffline = () => this.goOffline();
    window.addEventListener("online", this.onOnline);
    window.addEventListener("offline", this.onOffline);
  }

  start() {
    if (!navigator.onLine) return this.goOffline();
    this.open();
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    this.clearTimers();
    window.removeEventListener("online", this.onOnline);
    window.removeEventListener("offline", this.onOffline);
    if (this.socket) this.socket.close(1000);
    this.socket = null;
  }

  setState(state, detail) {
    this.state = state;
    this.hooks.onState(state, detail);
  }

  open() {
    if (this.stopped) return;
    clearTimeout(this.retryTimer);
    this.setState(this.attempt === 0 ? State.CONNECTING : State.RECONNECTING);
    const socket = new WebSocket(this.url);
    this.socket = socket;
    socket.onmessage = (message) => { if (socket === this.socket) this.received(message.data); };
    socket.onclose = (event) => { if (socket === this.socket) this.closed(event.code); };
  }

  /** The server closed, or the network did: decide by the Pusher close code ranges. */
  closed(code) {
    this.clearTimers();
    this.socket = null;
    this.socketID = null;
    for (const channel of this.channels.values()) channel.subscribed = false;
    if (this.stopped) return;
    if (!navigator.onLine) return this.goOffline();
    if (code >= 4000 && code < 4100) {
      this.setState(State.FAILED, code === 4009 ? "signed out by the server" : `refused (${code})`);
      return;
    }
    this.attempt += 1;
    const quick = code >= 4200 && code < 4300;
    const ceiling = quick ? 1000 : Math.min(15000, 500 * 2 ** Math.min(this.attempt, 5));
    const delay = Math.round(ceiling / 2 + Math.random() * ceiling / 2);
    this.setState(State.RECONNECTING, delay);
    this.retryTimer = setTimeout(() => this.open(), delay);
  }

  goOffline() {
    clearTimeout(this.retryTimer);
    this.clearTimers();
    const socket = this.socket;
    this.socket = null;
    if (socket) socket.close(1000);
    for (const channel of this.channels.values()) channel.subscribed = false;
    this.setState(State.OFFLINE);
  }

  reconnectNow() {
    if (this.stopped || this.state === State.CONNECTED || this.state === State.FAILED) return;
    this.attempt = Math.max(1, this.attempt);
    this.open();
  }

  send(event, data, channel) {
    if (!this.socket || this.socket.readyState !== WebSocket.OPEN) return false;
    const message = { event, data };
    if (channel) message.channel = channel;
    this.socket.send(JSON.stringify(message));
    return true;
  }

  /** Any message proves the connection alive; after `activity_timeout` of silence we ping. */
  touch() {
    clearTimeout(this.activityTimer);
    clearTimeout(this.pongTimer);
    this.activityTimer = setTimeout(() => {
      this.send("pusher:ping", {});
      this.pongTimer = setTimeout(() => { if (this.socket) this.socket.close(4201); }, PONG_TIMEOUT_MS);
    }, this.activityTimeout * 1000);
  }

  clearTimers() {
    clearTimeout(this.activityTimer);
    clearTimeout(this.pongTimer);
  }

  received(text) {
    let message;
    try { message = JSON.parse(text); } catch { return; }
    let data = message.data;
    if (typeof data === "string") {
      try { data = JSON.parse(data); } catch { /* plain string data */ }
    }
    this.touch();
    switch (message.event) {
      case "pusher:connection_established":
        this.socketID = data.socket_id;
        this.activityTimeout = Math.max(10, Math.min(120, data.activity_timeout || 120));
        this.attempt = 0;
        this.touch();
        this.setState(State.CONNECTED);
        this.established();
        return;
      case "pusher:ping":
        this.send("pusher:pong", {});
        return;
      case "pusher:pong":
        return;
      case "pusher:error":
        return;
      case "pusher:signin_success":
        if (this.userID) this.subscribe("#server-to-user-" + this.userID);
        return;
      case "pusher_internal:subscription_succeeded": {
        const channel = this.channels.get(message.channel);
        if (channel) channel.subscribed = true;
        if (this.hooks.onSubscribed) this.hooks.onSubscribed(message.channel);
        return;
      }
      case "pusher:subscription_error":
        this.channels.delete(message.channel);
        return;
      default:
        if (message.event.startsWith("pusher")) return;
        this.hooks.onEvent(message.channel, message.event, data);
    }
  }

  async established() {
    const socketID = this.socketID;
    try {
      const signIn = await this.hooks.signIn(socketID);
      if (socketID !== this.socketID) return;
      this.userID = JSON.parse(signIn.user_data).id;
      this.send("pusher:signin", signIn);
    } catch { /* the room channels still work without the personal one */ }
    for (const name of this.channels.keys()) {
      if (!name.startsWith("#")) this.authorizeAndSubscribe(name, socketID);
    }
    this.hooks.onConnected(socketID);
  }

  /** Subscribes now (when connected) and after every reconnect. */
  subscribe(name) {
    if (!this.channels.has(name)) this.channels.set(name, { subscribed: false });
    if (!this.socketID) return;
    if (name.startsWith("#")) this.send("pusher:subscribe", { channel: name, auth: "" });
    else this.authorizeAndSubscribe(name, this.socketID);
  }

  async authorizeAndSubscribe(name, socketID) {
    try {
      const auth = await this.hooks.authorize(socketID, name);
      if (socketID === this.socketID && this.channels.has(name)) this.send("pusher:subscribe", { channel: name, auth });
    } catch {
      this.channels.delete(name); // not a member (any more)
    }
  }

  unsubscribe(name) {
    if (this.channels.delete(name)) this.send("pusher:unsubscribe", { channel: name });
  }

  isSubscribed(name) {
    const channel = this.channels.get(name);
    return !!(channel && channel.subscribed);
  }
}

"""####),
        ("store.js", ####"""
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

"""####),
        ("style.css", ####"""
:root {
  --bg: #f5f6f8;
  --panel: #ffffff;
  --text: #1d2129;
  --muted: #667085;
  --line: #e3e6ea;
  --accent: #3b5bdb;
  --accent-text: #ffffff;
  --own: #dbe4ff;
  --other: #ffffff;
  --danger: #c92a2a;
  --online: #2f9e44;
  --banner: #fff3bf;
  --banner-text: #5c3c00;
  color-scheme: light dark;
  font: 15px/1.4 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
}

@media (prefers-color-scheme: dark) {
  :root {
    --bg: #15171c;
    --panel: #1d2027;
    --text: #e6e8eb;
    --muted: #9aa3af;
    --line: #2c313a;
    --accent: #5c7cfa;
    --own: #27345c;
    --other: #252932;
    --danger: #ff6b6b;
    --online: #51cf66;
    --banner: #4a3b00;
    --banner-text: #ffec99;
  }
}

* { box-sizing: border-box; }
html, body { height: 100%; margin: 0; }
body { background: var(--bg); color: var(--text); overflow: hidden; }
[hidden] { display: none !important; }
button, input, textarea { font: inherit; color: inherit; }
button { cursor: pointer; border: 1px solid var(--line); background: var(--panel); border-radius: 8px; padding: 6px 12px; }
button:disabled { opacity: .5; cursor: default; }
button.primary { background: var(--accent); color: var(--accent-text); border-color: var(--accent); }
button.quiet { border-color: transparent; background: transparent; }
button.link { border: 0; padding: 0; background: none; color: var(--accent); text-decoration: underline; }
button.danger { color: var(--danger); }
:focus-visible { outline: 2px solid var(--accent); outline-offset: 2px; }
a { color: var(--accent); overflow-wrap: anywhere; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
.hint { color: var(--muted); padding: 0 16px; }
.center { text-align: center; margin-top: 20vh; }
.error { color: var(--danger); margin: 0; }
.error:empty { display: none; }
.muted { color: var(--muted); }

.banner { position: fixed; top: 0; left: 0; right: 0; z-index: 10; padding: 6px 16px; text-align: center;
  background: var(--banner); color: var(--banner-text); font-size: 14px; }
body[data-connection="offline"] .app, body[data-connection="reconnecting"] .app { padding-top: 32px; }

.signin { display: grid; place-items: center; height: 100%; padding: 16px; }
.card { background: var(--panel); border: 1px solid var(--line); border-radius: 12px; padding: 24px; width: min(360px, 100%);
  display: flex; flex-direction: column; gap: 10px; }
.card h1 { margin: 0 0 8px; font-size: 22px; display: flex; align-items: center; gap: 8px; }
input, textarea { background: var(--bg); border: 1px solid var(--line); border-radius: 8px; padding: 8px 10px; }

.app { display: grid; grid-template-columns: 300px 1fr; height: 100%; }
.sidebar { background: var(--panel); border-right: 1px solid var(--line); display: flex; flex-direction: column; min-height: 0; }
.sidebar nav { overflow-y: auto; flex: 1; }
.bar { display: flex; align-items: center; gap: 8px; padding: 10px 12px; border-bottom: 1px solid var(--line); min-height: 56px; }
.me { font-weight: 600; flex: 1; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.actions { display: flex; gap: 6px; padding: 10px 12px; flex-wrap: wrap; }
.actions button { flex: 1; font-size: 13px; padding: 6px 8px; }
.rooms { list-style: none; margin: 0; padding: 0 6px 12px; }
.room-button { display: flex; gap: 10px; width: 100%; text-align: left; border: 0; border-radius: 10px; padding: 8px; background: none; align-items: center; }
.room-button:hover { background: var(--bg); }
.room-button[aria-current="page"] { background: var(--own); }
.avatar { position: relative; flex: none; width: 38px; height: 38px; border-radius: 50%; background: var(--accent); color: var(--accent-text);
  display: grid; place-items: center; font-weight: 600; }
.dot { position: absolute; right: -1px; bottom: -1px; width: 12px; height: 12px; border-radius: 50%; background: var(--muted);
  border: 2px solid var(--panel); }
.dot.online { background: var(--online); }
.room-text { flex: 1; min-width: 0; display: flex; flex-direction: column; }
.room-line { display: flex; gap: 6px; align-items: baseline; }
.room-name { font-weight: 600; flex: 1; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.room-time { color: var(--muted); font-size: 12px; }
.room-preview { color: var(--muted); font-size: 13px; flex: 1; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.badge { background: var(--accent); color: var(--accent-text); border-radius: 10px; padding: 0 7px; font-size: 12px; font-weight: 600; }

.room { display: flex; flex-direction: column; min-width: 0; min-height: 0; position: relative; }
.room.dropping::after { content: "Drop an image to send it"; position: absolute; inset: 8px; border: 2px dashed var(--accent);
  border-radius: 12px; display: grid; place-items: center; background: color-mix(in srgb, var(--bg) 80%, transparent); }
.room .bar { background: var(--panel); }
.title { flex: 1; min-width: 0; }
.title h2 { margin: 0; font-size: 17px; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.subtitle { color: var(--muted); font-size: 13px; }
.back { display: none; font-size: 24px; line-height: 1; padding: 2px 10px; }
.scroller { flex: 1; overflow-y: auto; padding: 12px 16px; overscroll-behavior: contain; }
.older { display: block; margin: 0 auto 8px; }
.messages { list-style: none; margin: 0; padding: 0; display: flex; flex-direction: column; gap: 6px; }
.day { align-self: center; color: var(--muted); font-size: 12px; margin: 10px 0 4px; }
.day span { background: var(--panel); border: 1px solid var(--line); border-radius: 10px; padding: 2px 10px; }
.msg { display: flex; flex-direction: column; align-items: flex-start; max-width: min(560px, 85%); }
.msg.own { align-self: flex-end; align-items: flex-end; }
.bubble { background: var(--other); border: 1px solid var(--line); border-radius: 14px; padding: 6px 10px; max-width: 100%; min-width: 0; }
.own .bubble { background: var(--own); border-color: transparent; }
.pending .bubble { opacity: .75; }
.deleted .bubble { color: var(--muted); }
.meta { font-size: 12px; color: var(--muted); }
.sender { font-weight: 600; color: var(--text); }
.text { margin: 2px 0; white-space: pre-wrap; overflow-wrap: anywhere; }
.image { margin: 4px 0; }
.image img { display: block; max-width: min(320px, 100%); height: auto; border-radius: 10px; background: var(--line); }
.reactions { display: flex; flex-wrap: wrap; gap: 4px; }
.reactions:empty { display: none; }
.chip { padding: 0 8px; border-radius: 12px; font-size: 13px; }
.chip.mine { border-color: var(--accent); }
.status { font-size: 12px; color: var(--muted); text-align: right; }
.status.failed { color: var(--danger); }
.tools { display: none; gap: 2px; flex-wrap: wrap; }
.tools button { padding: 2px 6px; font-size: 14px; }
.msg:hover .tools, .msg:focus-within .tools, .msg.open .tools { display: flex; }
.typing { margin: 0; padding: 0 16px; min-height: 20px; font-size: 13px; color: var(--muted); font-style: italic; }
.composer-error, .upload { padding: 0 16px; margin: 0; font-size: 13px; }
.editing { display: flex; align-items: center; gap: 8px; padding: 0 16px; font-size: 13px; color: var(--accent); }
.composer { display: flex; align-items: flex-end; gap: 6px; padding: 8px 12px 12px; border-top: 1px solid var(--line); background: var(--panel); }
.composer textarea { flex: 1; resize: none; min-height: 40px; max-height: 200px; }
.attach { font-size: 20px; padding: 4px 10px; }
.counter { font-size: 12px; color: var(--muted); align-self: center; }
.counter.over { color: var(--danger); font-weight: 600; }

.dialog { border: 1px solid var(--line); border-radius: 12px; background: var(--panel); color: var(--text); width: min(380px, 92vw); }
.dialog form { display: flex; flex-direction: column; gap: 10px; }
.dialog h3 { margin: 0; }
.dialog .buttons { display: flex; justify-content: flex-end; gap: 8px; }
.kind { border: 1px solid var(--line); border-radius: 8px; display: flex; gap: 12px; flex-wrap: wrap; }
::backdrop { background: rgb(0 0 0 / .35); }

@media (max-width: 699px) {
  .app { grid-template-columns: 1fr; }
  .sidebar { border-right: 0; }
  body.in-room .sidebar { display: none; }
  body:not(.in-room) .room { display: none; }
  .back { display: inline-block; }
  .msg { max-width: 92%; }
  .scroller { padding: 8px 10px; }
}

"""####),
    ]
}
