'use strict';
// Node.js baseline of the broadcast benchmark, on the `ws` library as Debian ships it
// (package node-ws). Same behaviour as Benchmarks/c/broadcast_server.c: every text
// message from any client goes, unchanged, to every open client (the sender too);
// binary messages are ignored; GET /healthz answers 200 "ok" with keep-alive.
//
//   node Benchmarks/node/broadcast_server.js [--host 127.0.0.1] [--port 9002]

const http = require('http');
let WebSocket;
try {
  WebSocket = require('/usr/share/nodejs/ws');
} catch (e) {
  WebSocket = require('ws');
}

function parseArgs(argv) {
  const opts = { host: '127.0.0.1', port: 9002 };
  for (let i = 2; i < argv.length; i++) {
    if (argv[i] === '--host' && i + 1 < argv.length) opts.host = argv[++i];
    else if (argv[i] === '--port' && i + 1 < argv.length) opts.port = Number(argv[++i]);
    else {
      console.error('usage: broadcast_server.js [--host ADDR] [--port N]');
      process.exit(2);
    }
  }
  return opts;
}

const opts = parseArgs(process.argv);

const server = http.createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/healthz') {
    res.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Length': 3 });
    res.end('ok\n');
  } else {
    res.writeHead(404, { 'Content-Type': 'text/plain', 'Content-Length': 10 });
    res.end('not found\n');
  }
});

// No compression and no per-message UTF-8 re-validation beyond what ws does by default:
// the ordinary way to run a ws broadcast server.
const wss = new WebSocket.WebSocketServer({ server, perMessageDeflate: false, clientTracking: true });

wss.on('connection', (socket) => {
  socket.on('message', (data, isBinary) => {
    if (isBinary) return;
    for (const client of wss.clients) {
      if (client.readyState === WebSocket.OPEN) client.send(data, { binary: false });
    }
  });
  socket.on('error', () => {});
});

server.listen(opts.port, opts.host, () => {
  console.log(`node ws broadcast_server listening on ${opts.host}:${opts.port} (pid ${process.pid})`);
});

for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => process.exit(0));
