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
