// One room's conversation: the messages known (by seq), the ones still in the outbox, read
// cursors, and the rendering of all of it as a list that is updated in place (an element is
// rebuilt only when what it shows changed, so images never reload and scrolling holds).

import { h, linkify, link, safeURL, clock, dayKey, dayLabel } from "./dom.js";

const MENTION_ID = /[A-Za-z0-9_\-=@,.;]/;

/** The `@id` mentions of `text` that the server resolved (`mentions`), as [start, end, id]
 * triples; the syntax is docs/threads.md's (an `@` not preceded by an id character, the
 * longest run of id characters less trailing `.`, `,` or `;`). */
export function mentionRanges(text, mentions) {
  const ranges = [];
  if (!mentions || mentions.length === 0) return ranges;
  let i = 0;
  while (i < text.length) {
    if (text[i] !== "@" || (i > 0 && MENTION_ID.test(text[i - 1]))) { i++; continue; }
    let end = i + 1;
    while (end < text.length && MENTION_ID.test(text[end])) end++;
    let idEnd = end;
    while (idEnd > i + 1 && ".,;".includes(text[idEnd - 1])) idEnd--;
    const id = text.slice(i + 1, idEnd);
    if (id && mentions.includes(id)) ranges.push([i, idEnd, id]);
    i = end > i + 1 ? end : i + 1;
  }
  return ranges;
}

/** Whether a message shows in the room's history (a thread-only reply does not). */
export function inRoom(message) {
  return !message.parent_id || message.show_in_room !== false;
}

/** "12 bytes", "3 KB", "1.5 MB". */
export function byteSize(bytes) {
  if (bytes < 1024) return `${bytes} byte${bytes === 1 ? "" : "s"}`;
  if (bytes < 1048576) return Math.ceil(bytes / 1024) + " KB";
  return (bytes / 1048576).toFixed(1) + " MB";
}

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
    this.shows = inRoom; // which messages the list shows: a thread's list shows its replies
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
    // Blocked users' messages are hidden (history leaves them out; live ones are kept for an unblock).
    const ordered = [...this.bySeq.values()].filter((m) => this.shows(m) && !(view.blocked && view.blocked(m.sender_id)))
      .sort((a, b) => a.seq - b.seq);
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
      message.reply_count, message.last_replier_ids, message.mentions, message.quoted_message,
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
    else {
      if (message.quoted_message) body.append(this.quote(message.quoted_message, view));
      for (const part of message.parts) body.append(this.part(part, view, message.mentions));
    }
    if (message.parent_id && !view.inThread) meta.append(h("span", { class: "in-thread", text: " · reply in a thread" }));
    const bubble = h("div", { class: "bubble", tabIndex: 0, "aria-label": `${own ? "You" : name}, ${clock(message.created_at)}`,
      onclick: (event) => { if (!event.target.closest("a, button")) bubble.parentElement.classList.toggle("open"); } },
    meta, body, this.reactions(message, view), this.replies(message, view));
    if (status) bubble.append(this.status(message, status, view));
    const element = h("li", { class: classes.join(" "), dataset: message.pending ? { clientId: message.client_id } : { seq: String(message.seq) } },
      bubble, message.pending || message.deleted ? null : this.tools(message, own, view));
    return element;
  }

  part(part, view, mentions) {
    if (part.type === "text") return h("p", { class: "text" }, this.mentioned(part.text, mentions, view));
    if (part.type === "url") {
      const url = safeURL(part.url);
      return h("p", { class: "text" }, url ? link(url, part.url) : part.url);
    }
    if (part.type === "attachment") return this.attachment(part.attachment_id, view);
    if (part.type === "file") return this.file(part, view);
    return h("p", { class: "text muted", text: "(unsupported content)" });
  }

  /** Text with the resolved mentions marked (the signed-in user's own standing out). */
  mentioned(text, mentions, view) {
    const nodes = [];
    let last = 0;
    for (const [start, end, id] of mentionRanges(text, mentions)) {
      if (start > last) nodes.push(linkify(text.slice(last, start)));
      nodes.push(h("span", { class: "mention" + (id === view.me ? " me" : ""), dataset: { user: id }, text: text.slice(start, end) }));
      last = end;
    }
    if (last < text.length) nodes.push(linkify(text.slice(last)));
    return nodes;
  }

  quote(quoted, view) {
    if (quoted.deleted) return h("blockquote", { class: "quote", text: "Quoted message was deleted." });
    const text = quoted.parts.filter((p) => p.type === "text").map((p) => p.text).join("\n");
    return h("blockquote", { class: "quote" }, h("span", { class: "sender", text: view.userName(quoted.sender_id) + ": " }), text);
  }

  /** "3 replies · Bob, Carol" under a thread's root: opens the thread. */
  replies(message, view) {
    if (view.inThread || message.deleted || message.parent_id || !message.reply_count) return null;
    const count = message.reply_count;
    const who = (message.last_replier_ids || []).map((id) => view.userName(id)).join(", ");
    return h("button", { type: "button", class: "link replies", onclick: () => view.openThread(message),
      text: `${count} ${count === 1 ? "reply" : "replies"}${who ? " · " + who : ""}` });
  }

  attachment(id, view) {
    const meta = view.attachment(id);
    if (!meta) return h("p", { class: "muted", text: "Loading attachment…" });
    if (meta.failed) return h("p", { class: "muted", text: "Attachment unavailable." });
    const url = new URL(meta.download_url, location.origin);
    if (meta.content_type.startsWith("image/") && meta.width && meta.height) {
      return h("figure", { class: "image" }, view.image(meta, url));
    }
    return h("p", { class: "file" }, link(url, `📎 ${meta.content_type.split(";")[0]} (${byteSize(meta.size)})`));
  }

  /** A file part: images inline as before, anything else a download link with its name and size.
   * The link is the attachment's signed URL (it needs no credentials), fetched with the message. */
  file(part, view) {
    const meta = view.attachment(part.attachment_id);
    const name = part.name || (meta && meta.name) || part.attachment_id;
    const size = part.size !== undefined ? part.size : meta && meta.size;
    const label = `📎 ${name}` + (size !== undefined ? ` (${byteSize(size)})` : "");
    if (!meta) return h("p", { class: "file muted", text: label });
    if (meta.failed) return h("p", { class: "file muted", text: `${label} — unavailable` });
    const url = new URL(meta.download_url, location.origin);
    if (meta.content_type.startsWith("image/") && meta.width && meta.height) {
      return h("figure", { class: "image" }, view.image(meta, url));
    }
    const anchor = h("a", { href: url.href, download: name, rel: "noopener noreferrer nofollow", class: "download",
      title: (part.content_type || meta.content_type || "").split(";")[0], onclick: (event) => view.download(part.attachment_id, anchor, event) },
    label);
    return h("p", { class: "file" }, anchor);
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
    if (!view.inThread && !message.parent_id) {
      tools.append(h("button", { type: "button", class: "quiet", text: "Reply", onclick: () => view.openThread(message) }));
    }
    if (own && message.parts.some((p) => p.type === "text")) {
      tools.append(h("button", { type: "button", class: "quiet", text: "Edit", onclick: () => view.edit(message) }));
    }
    if (!own && view.block) {
      tools.append(h("button", { type: "button", class: "quiet", text: "Block", title: "Hide this person's messages",
        onclick: () => view.block(message) }));
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
