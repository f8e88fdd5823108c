'use strict';
// Node.js baseline of the Pusher fan-out benchmark, on the `ws` library as Debian ships it
// (package node-ws) and Node's own `http` and `crypto` modules. It speaks the subset of the
// Pusher Channels protocol (version 7) the benchmark uses:
//
//   WebSocket  GET /app/{key}?protocol=7  connection_established, pusher:subscribe to public
//              channels (subscription_succeeded), pusher:unsubscribe, pusher:ping -> pusher:pong;
//              unknown key -> pusher:error 4001 + close 4001; private-/presence- -> 4009.
//   HTTP       POST /apps/{id}/events  signed (auth_key, auth_timestamp within 600 s,
//              auth_version, body_md5, auth_signature = HMAC-SHA256 of
//              "POST\n/apps/{id}/events\n<sorted query>"), body {name, data, channel|channels,
//              socket_id?}; the event goes to every subscriber of each channel; reply {}.
//              GET /healthz -> 200 ok.
//
// Fan-out encodes once per publish: the event's JSON and its WebSocket frame are built once and
// the same Buffer is written to every subscriber's socket.
//
//   node Benchmarks/node/pusher_server.js [--host 127.0.0.1] [--port 9301]
//        [--app-id 1] [--key bench-key] [--secret bench-secret]

const http = require('http');
const crypto = require('crypto');
let WebSocket;
try {
  WebSocket = require('/usr/share/nodejs/ws');
} catch (e) {
  WebSocket = require('ws');
}

function parseArgs(argv) {
  const opts = { host: '127.0.0.1', port: 9301, appId: '1', key: 'bench-key', secret: 'bench-secret' };
  const names = { '--host': 'host', '--port': 'port', '--app-id': 'appId', '--key': 'key', '--secret': 'secret' };
  for (let i = 2; i < argv.length; i++) {
    const name = names[argv[i]];
    if (name && i + 1 < argv.length) opts[name] = argv[++i];
    else {
      console.error('usage: pusher_server.js [--host ADDR] [--port N] [--app-id ID] [--key KEY] [--secret SECRET]');
      process.exit(2);
    }
  }
  opts.port = Number(opts.port);
  return opts;
}

const opts = parseArgs(process.argv);
const ACTIVITY_TIMEOUT = 120;
const MAX_DATA_BYTES = 10240;
const CHANNEL_NAME = /^[A-Za-z0-9_\-=@,.;]{1,200}$/;

/** channel name -> Set of sockets */
const channels = new Map();
let nextSocket = 1;
const socketPrefix = crypto.randomInt(1, 1e9);

// ---------- WebSocket side ----------

function sendEvent(ws, event, channel, data) {
  const msg = { event };
  if (channel !== undefined) msg.channel = channel;
  if (data !== undefined) msg.data = data;
  ws.send(JSON.stringify(msg));
}

function sendErrorAndClose(ws, code, message) {
  sendEvent(ws, 'pusher:error', undefined, { message, code });
  ws.close(code, message);
}

function subscribe(ws, data) {
  const channel = data && typeof data.channel === 'string' ? data.channel : null;
  if (!channel || !CHANNEL_NAME.test(channel)) {
    sendEvent(ws, 'pusher:error', undefined, { message: 'invalid channel name', code: null });
    return;
  }
  if (channel.startsWith('private-') || channel.startsWith('presence-')) {
    sendEvent(ws, 'pusher:error', undefined, { message: 'this baseline serves public channels only', code: 4009 });
    return;
  }
  let set = channels.get(channel);
  if (!set) channels.set(channel, (set = new Set()));
  set.add(ws);
  ws.channels.add(channel);
  sendEvent(ws, 'pusher_internal:subscription_succeeded', channel, '{}');
}

function unsubscribe(ws, channel) {
  const set = channels.get(channel);
  if (set) {
    set.delete(ws);
    if (set.size === 0) channels.delete(channel);
  }
  ws.channels.delete(channel);
}

function onMessage(ws, raw, isBinary) {
  if (isBinary) {
    sendErrorAndClose(ws, 4200, 'binary frames are not supported');
    return;
  }
  let msg;
  try {
    msg = JSON.parse(raw.toString('utf8'));
  } catch (e) {
    sendEvent(ws, 'pusher:error', undefined, { message: 'malformed JSON', code: null });
    return;
  }
  if (!msg || typeof msg.event !== 'string') return;
  let data = msg.data;
  if (typeof data === 'string' && msg.event.startsWith('pusher:')) {
    try { data = JSON.parse(data); } catch (e) { /* keep the string */ }
  }
  switch (msg.event) {
    case 'pusher:ping': sendEvent(ws, 'pusher:pong', undefined, '{}'); break;
    case 'pusher:pong': break;
    case 'pusher:subscribe': subscribe(ws, data); break;
    case 'pusher:unsubscribe': if (data && typeof data.channel === 'string') unsubscribe(ws, data.channel); break;
    default: break; // client events are not part of the benchmark subset
  }
}

const wss = new WebSocket.WebSocketServer({ noServer: true, perMessageDeflate: false, clientTracking: false });

function onConnection(ws, key) {
  ws.channels = new Set();
  ws.on('error', () => {});
  ws.on('close', () => { for (const ch of [...ws.channels]) unsubscribe(ws, ch); });
  if (key !== opts.key) {
    sendErrorAndClose(ws, 4001, `unknown app key ${key}`);
    return;
  }
  ws.socketId = `${socketPrefix}.${nextSocket++}`;
  ws.on('message', (raw, isBinary) => onMessage(ws, raw, isBinary));
  sendEvent(ws, 'pusher:connection_established', undefined,
    JSON.stringify({ socket_id: ws.socketId, activity_timeout: ACTIVITY_TIMEOUT }));
}

// ---------- HTTP API ----------

function reply(res, status, body) {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}

function fail(res, status, message) { reply(res, status, { error: message, code: status }); }

/** Splits a raw query string into [key, rawValue] pairs; values stay as received. */
function rawQueryPairs(query) {
  const pairs = [];
  for (const part of query.split('&')) {
    if (!part) continue;
    const eq = part.indexOf('=');
    pairs.push(eq < 0 ? [part, ''] : [part.slice(0, eq), part.slice(eq + 1)]);
  }
  return pairs;
}

/** Checks the request signature of spec section 7; returns an error message or null. */
function checkSignature(method, path, query, body) {
  const pairs = rawQueryPairs(query);
  const params = new Map(pairs.map(([k, v]) => [k.toLowerCase(), v]));
  if (params.get('auth_key') !== opts.key) return [401, 'unknown auth_key'];
  const ts = Number(params.get('auth_timestamp'));
  if (!Number.isFinite(ts) || Math.abs(Date.now() / 1000 - ts) > 600) return [401, 'auth_timestamp outside 600 s'];
  if (params.get('auth_version') !== '1.0') return [401, 'auth_version must be 1.0'];
  const md5 = crypto.createHash('md5').update(body).digest('hex');
  if (body.length > 0 || params.has('body_md5')) {
    if (params.get('body_md5') !== md5) return [401, 'body_md5 does not match'];
  }
  const signed = pairs
    .map(([k, v]) => [k.toLowerCase(), v])
    .filter(([k]) => k !== 'auth_signature')
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  const want = crypto.createHmac('sha256', opts.secret).update(`${method}\n${path}\n${signed}`).digest();
  const got = Buffer.from(params.get('auth_signature') || '', 'hex');
  if (got.length !== want.length || !crypto.timingSafeEqual(got, want)) return [401, 'invalid signature'];
  return null;
}

/** Builds the frame once and writes the same Buffer to every subscriber of each channel. */
function publish(name, data, channelList, excludeSocketId) {
  for (const channel of channelList) {
    const set = channels.get(channel);
    if (!set) continue;
    const payload = Buffer.from(JSON.stringify({ event: name, channel, data }));
    const frame = Buffer.concat(WebSocket.Sender.frame(payload, { fin: true, rsv1: false, opcode: 1, mask: false, readOnly: false }));
    for (const ws of set) {
      // Without permessage-deflate ws writes every message straight to the socket, so writing
      // the shared frame here keeps the order with ws's own sends.
      if (ws.readyState === WebSocket.OPEN && ws.socketId !== excludeSocketId) ws._socket.write(frame);
    }
  }
}

function handleEvents(req, res, path, query, body) {
  const bad = checkSignature('POST', path, query, body);
  if (bad) return fail(res, bad[0], bad[1]);
  let ev;
  try {
    ev = JSON.parse(body.toString('utf8'));
  } catch (e) {
    return fail(res, 400, 'malformed JSON body');
  }
  if (!ev || typeof ev.name !== 'string' || typeof ev.data !== 'string') return fail(res, 400, 'name and data (a string) are required');
  if (Buffer.byteLength(ev.data) > MAX_DATA_BYTES) return fail(res, 413, 'data over 10 KB');
  const list = Array.isArray(ev.channels) ? ev.channels : typeof ev.channel === 'string' ? [ev.channel] : null;
  if (!list || list.length === 0 || list.length > 100 || !list.every((c) => typeof c === 'string' && CHANNEL_NAME.test(c))) {
    return fail(res, 400, 'channels must be 1 to 100 valid channel names');
  }
  publish(ev.name, ev.data, list, typeof ev.socket_id === 'string' ? ev.socket_id : undefined);
  reply(res, 200, {});
}

const eventsPath = `/apps/${opts.appId}/events`;

const server = http.createServer((req, res) => {
  const q = req.url.indexOf('?');
  const path = q < 0 ? req.url : req.url.slice(0, q);
  const query = q < 0 ? '' : req.url.slice(q + 1);
  if (req.method === 'GET' && path === '/healthz') {
    res.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Length': 3 });
    res.end('ok\n');
    return;
  }
  if (req.method === 'POST' && path === eventsPath) {
    const chunks = [];
    let size = 0;
    req.on('data', (c) => { size += c.length; if (size <= 1 << 20) chunks.push(c); });
    req.on('end', () => {
      if (size > 1 << 20) return fail(res, 413, 'body too large');
      handleEvents(req, res, path, query, Buffer.concat(chunks));
    });
    return;
  }
  fail(res, 404, 'not found');
});

// Publishers keep their connections between trials; Node's default closes idle ones after 5 s.
server.keepAliveTimeout = 0;
server.headersTimeout = 0;
server.requestTimeout = 0;

server.on('upgrade', (req, socket, head) => {
  const q = req.url.indexOf('?');
  const path = q < 0 ? req.url : req.url.slice(0, q);
  const m = /^\/app\/([^/]+)$/.exec(path);
  if (!m) {
    socket.end('HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
    return;
  }
  socket.setNoDelay(true);
  wss.handleUpgrade(req, socket, head, (ws) => onConnection(ws, decodeURIComponent(m[1])));
});

server.listen(opts.port, opts.host, () => {
  console.log(`node ws pusher_server listening on ${opts.host}:${opts.port} (pid ${process.pid}), app ${opts.appId} key ${opts.key}`);
});

for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => process.exit(0));
