// Parley Web: signs in, keeps the room list and the open conversation live over the Pusher
// protocol, and sends through an outbox so a message written offline goes out exactly once.

import { h, shortTime } from "./dom.js";
import { Api, ApiError, NetworkError, devSignIn, tokenURLSignIn } from "./api.js";
import { Realtime, State } from "./realtime.js";
import { LocalState, identity, newClientID } from "./store.js";
import { Conversation, inRoom } from "./conversation.js";

const TEXT_LIMIT = 4000;
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
  thread: null, // {roomID, root, replies: Conversation} while a thread is open
  lastTypingSent: 0,
  blocked: new Set(), // user ids the signed-in user blocks: their messages, typing and reactions are hidden
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
  await loadBlocks();
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
      if (app.blocked.has(data.message.sender_id)) break;
      noteActivity(summary, data.message);
      const reading = app.current === data.room_id && document.visibilityState === "visible";
      if (data.message.sender_id !== app.me.id && !reading && data.message.seq > summary.read_seq && inRoom(data.message)) {
        summary.unread_count += 1;
      }
      renderRooms();
      break;
    }
    case "room.read": {
      const summary = app.rooms.get(data.room_id);
      if (summary) {
        summary.read_seq = Math.max(summary.read_seq, data.read_seq);
        summary.unread_count = data.unread_count;
        summary.unread_mentions = data.unread_mentions || 0;
        renderRooms();
      }
      break;
    }
    case "message.mentioned": {
      const summary = app.rooms.get(data.room_id);
      const reading = app.current === data.room_id && document.visibilityState === "visible";
      if (summary && !reading && data.seq > summary.read_seq) {
        summary.unread_mentions = (summary.unread_mentions || 0) + 1;
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
      // A blocked user's message is kept (an unblock shows it) but neither shown nor counted.
      const hidden = app.blocked.has(message.sender_id);
      if (summary && !hidden) { noteActivity(summary, message); renderRooms(); }
      stopTyping(roomID, message.sender_id);
      if (!conversation) return;
      await ensureAttachments([message]);
      await ensureUsers([message.sender_id]);
      // Kept even while the history is loading: the page fetched may predate this message.
      conversation.ingest([message]);
      dropFromOutbox(message.client_id);
      threadReceived(message);
      if (!conversation.loaded) return;
      renderConversation({ follow: message.sender_id === app.me.id ? "always" : "near" });
      if (roomID === app.current) markRead();
      return;
    }
    case "thread.updated": {
      const root = conversation && conversation.byID(data.message_id);
      if (root && data.reply_count >= (root.reply_count || 0)) {
        root.reply_count = data.reply_count;
        root.last_replier_ids = data.last_replier_ids;
        if (roomID === app.current) renderConversation();
      }
      if (app.thread && app.thread.root.id === data.message_id && data.reply_count >= (app.thread.root.reply_count || 0)) {
        app.thread.root.reply_count = data.reply_count;
        app.thread.root.last_replier_ids = data.last_replier_ids;
        renderThread();
      }
      return;
    }
    case "message.updated":
    case "message.deleted":
      threadReceived(data.message);
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
      if (!message || app.blocked.has(data.user_id)) return;
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
      if (data.user_id !== app.me.id && !app.blocked.has(data.user_id)) startTyping(roomID, data.user_id);
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
        summary.unread_mentions ? h("span", { class: "badge mentions", title: "Mentions of you", text: "@" + summary.unread_mentions }) : null,
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
  if (app.thread && app.thread.roomID !== roomID) closeThread();
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
  closeThread();
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
    for (const part of message.parts) {
      if ((part.type === "attachment" || part.type === "file") && !app.attachments.has(part.attachment_id)) ids.push(part.attachment_id);
    }
  }
  await Promise.all(ids.map(async (id) => {
    try { app.attachments.set(id, await attachmentMeta(id)); } catch { app.attachments.set(id, { failed: true }); }
  }));
}

/** An attachment's metadata with a fresh signed `download_url` (valid 300 s), stamped with when it was read. */
async function attachmentMeta(id) {
  const meta = await app.api.get(`/v1/attachments/${encodeURIComponent(id)}`);
  meta.read_at = Date.now();
  return meta;
}

/** A click on a file's download link: a signed URL read more than four minutes ago may have
 * expired, so it is read again first and the click repeated on the fresh one. */
async function freshDownload(id, anchor, event) {
  const meta = app.attachments.get(id);
  if (!meta || meta.failed || Date.now() - (meta.read_at || 0) < 240000) return;
  event.preventDefault();
  try {
    const fresh = await attachmentMeta(id);
    app.attachments.set(id, fresh);
    anchor.href = new URL(fresh.download_url, location.origin).href;
    anchor.click();
  } catch (error) {
    showComposerError(`Could not download: ${error.message}`);
  }
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

// ---------------------------------------------------------------- threads

/** Opens the thread of `message` (its root's, for a reply) over the conversation. */
async function openThread(message) {
  const roomID = message.room_id;
  const replies = new Conversation(roomID);
  replies.shows = () => true;
  app.thread = { roomID, root: message, replies };
  $("thread").hidden = false;
  $("thread-error").textContent = "";
  try {
    const root = message.parent_id ? await app.api.get(`/v1/rooms/${encodeURIComponent(roomID)}/messages/${message.parent_id}`) : message;
    const page = await app.api.get(`/v1/rooms/${encodeURIComponent(roomID)}/messages/${root.id}/replies?limit=100`);
    if (!app.thread || app.thread.replies !== replies) return;
    await ensureAttachments(page.messages);
    await ensureUsers([root.sender_id, ...page.messages.map((m) => m.sender_id), ...(root.last_replier_ids || [])]);
    app.thread.root = root;
    replies.ingest(page.messages);
    replies.hasMore = page.has_more;
  } catch (error) {
    $("thread-error").textContent = `Could not load the thread: ${error.message}`;
  }
  renderThread();
  $("thread-text").focus();
}

function closeThread() {
  app.thread = null;
  $("thread").hidden = true;
  $("thread-root").replaceChildren();
  $("thread-messages").replaceChildren();
}

/** A new or changed message: a reply of the open thread (or its root) shows there. */
function threadReceived(message) {
  const thread = app.thread;
  if (!thread || thread.roomID !== message.room_id) return;
  if (message.id === thread.root.id) thread.root = { ...message, reply_count: Math.max(message.reply_count || 0, thread.root.reply_count || 0) };
  else if (message.parent_id === thread.root.id) thread.replies.ingest([message]);
  else return;
  ensureUsers([message.sender_id]).then(renderThread);
}

const threadView = Object.create(null);

function renderThread() {
  const thread = app.thread;
  if (!thread) return;
  const rootList = new Conversation(thread.roomID);
  rootList.ingest([thread.root]);
  rootList.render($("thread-root"), [], threadView);
  const count = thread.root.reply_count || 0;
  $("thread-count").textContent = `${count} ${count === 1 ? "reply" : "replies"}`;
  $("thread-subtitle").textContent = roomName(app.rooms.get(thread.roomID)?.room || { id: thread.roomID });
  thread.replies.render($("thread-messages"), [], threadView);
  const scroller = $("thread-scroller");
  scroller.scrollTop = scroller.scrollHeight;
}

async function submitThreadReply() {
  const thread = app.thread;
  const field = $("thread-text");
  const text = field.value;
  if (!thread || !text.trim() || Array.from(text).length > TEXT_LIMIT) return;
  field.value = "";
  try {
    const reply = await app.api.post(`/v1/rooms/${encodeURIComponent(thread.roomID)}/messages`,
      { client_id: newClientID(), parent_id: thread.root.id, parts: [{ type: "text", text }] });
    $("thread-error").textContent = "";
    threadReceived(reply);
  } catch (error) {
    field.value = text;
    $("thread-error").textContent = `Not sent: ${error.message}`;
  }
}

const view = {
  get me() { return app.me.id; },
  get isAdmin() { const s = app.rooms.get(app.current); return !!s && s.role === "admin"; },
  userName,
  attachment: (id) => app.attachments.get(id),
  download: freshDownload,
  image: imageFor,
  react: (message, emoji, add) => react(message, emoji, add),
  edit: (message) => startEdit(message),
  remove: (message) => removeMessage(message),
  retry: (item) => { setOutboxState(item.client_id, "queued"); flushOutbox(); },
  discard: (item) => { dropFromOutbox(item.client_id); renderConversation(); },
  openThread: (message) => openThread(message),
  blocked: (id) => app.blocked.has(id),
  block: (message) => blockUser(message.sender_id),
};
Object.setPrototypeOf(threadView, view);
threadView.inThread = true;

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
    if (seq > summary.read_seq || summary.unread_count || summary.unread_mentions) {
      summary.read_seq = Math.max(summary.read_seq, seq);
      summary.unread_count = 0;
      summary.unread_mentions = 0;
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

// ---------------------------------------------------------------- files

/** Uploads a file of any type and sends it as a file part (images show inline, the rest as a
 * download link). The app's limits are the server's to enforce: its refusal (413 too large,
 * 415 a type the app does not take, 422 a type the bytes contradict) is shown in its words. */
async function sendFile(file) {
  const roomID = app.current;
  if (!roomID || !file) return;
  if (file.size === 0) {
    showComposerError(`“${file.name}” is empty.`);
    return;
  }
  if (!navigator.onLine) {
    showComposerError("You are offline: files can be sent once the connection is back.");
    return;
  }
  $("upload").hidden = false;
  $("upload-label").textContent = `Uploading ${file.name}…`;
  $("upload-progress").value = 0;
  try {
    const attachment = await app.api.upload(roomID, file, (fraction) => { $("upload-progress").value = fraction; });
    attachment.read_at = Date.now();
    app.attachments.set(attachment.id, attachment);
    enqueue(roomID, [{ type: "file", attachment_id: attachment.id, name: attachment.name, size: attachment.size }]);
  } catch (error) {
    showComposerError(`Could not send “${file.name}”: ${error.message}`);
  } finally {
    $("upload").hidden = true;
  }
}

// ---------------------------------------------------------------- blocks

/** The users the signed-in user blocks (docs/moderation.md): realtime events reach every
 * member, so the client hides blocked users' messages, typing and reactions itself. */
async function loadBlocks() {
  try {
    app.blocked = new Set((await app.api.get("/v1/me/blocks")).user_ids);
  } catch {
    // Not fatal: history pages leave blocked users out anyway; live events show until the next sign-in.
  }
  $("blocked-users").hidden = app.blocked.size === 0;
}

async function blockUser(userID) {
  try {
    await app.api.put(`/v1/me/blocks/${encodeURIComponent(userID)}`);
  } catch (error) {
    showComposerError(`Could not block ${userName(userID)}: ${error.message}`);
    return;
  }
  app.blocked.add(userID);
  const typing = [...app.typers.keys()].filter((key) => key.endsWith(" " + userID));
  for (const key of typing) stopTyping(key.slice(0, -(userID.length + 1)), userID);
  $("blocked-users").hidden = false;
  renderConversation();
  renderThread();
}

async function unblockUser(userID) {
  await app.api.del(`/v1/me/blocks/${encodeURIComponent(userID)}`);
  app.blocked.delete(userID);
  $("blocked-users").hidden = app.blocked.size === 0;
  // History left their messages out: read the open room's latest page again.
  const conversation = app.conversations.get(app.current);
  if (conversation) {
    const page = await app.api.get(`/v1/rooms/${encodeURIComponent(conversation.roomID)}/messages?limit=50`);
    await ensureAttachments(page.messages);
    await ensureUsers(page.messages.map((m) => m.sender_id));
    conversation.ingest(page.messages);
  }
  for (const other of app.conversations.values()) if (other !== conversation) other.loaded = false;
  renderConversation();
  renderThread();
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
  $("blocked-users").addEventListener("click", () => ask({
    title: "Blocked users", label: "Unblock user id",
    options: [...app.blocked].map((id) => ({ value: id, label: userName(id) })),
    action: async (who) => unblockUser(userIDFrom(who)),
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
    if (file) { event.preventDefault(); sendFile(file); }
  });
  $("cancel-edit").addEventListener("click", cancelEdit);
  $("attach").addEventListener("click", () => $("file").click());
  $("file").addEventListener("change", () => { sendFile($("file").files[0]); $("file").value = ""; });
  const room = $("room");
  room.addEventListener("dragover", (event) => { if (app.current) { event.preventDefault(); room.classList.add("dropping"); } });
  room.addEventListener("dragleave", () => room.classList.remove("dropping"));
  room.addEventListener("drop", (event) => {
    event.preventDefault();
    room.classList.remove("dropping");
    const file = event.dataTransfer && event.dataTransfer.files[0];
    if (file) sendFile(file);
  });
  $("older").addEventListener("click", loadOlder);
  $("thread-close").addEventListener("click", closeThread);
  $("thread-composer").addEventListener("submit", (event) => { event.preventDefault(); submitThreadReply(); });
  $("thread-text").addEventListener("keydown", (event) => {
    if (event.key === "Enter" && !event.shiftKey && !event.isComposing) { event.preventDefault(); submitThreadReply(); }
    if (event.key === "Escape") { event.preventDefault(); closeThread(); $("text").focus(); }
  });
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
