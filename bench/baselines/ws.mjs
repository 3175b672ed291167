// Baseline (the floor): raw `ws`. Each socket joins the rooms in its URL (?rooms=a,b); a broadcast
// encodes the frame once and writes it to every member: the least a server can do per recipient.
import { WebSocketServer } from 'ws';
import { broadcastServer } from './broadcast-http.mjs';

const rooms = new Map();
const server = broadcastServer((names, type, payload) => {
  // The same bytes a socket.io client receives, so clients parse the same thing.
  const frame = Buffer.from(`42${JSON.stringify([type, payload])}`);
  const sent = new Set();
  for (const name of names)
    for (const ws of rooms.get(name) ?? [])
      if (!sent.has(ws)) {
        sent.add(ws);
        ws.send(frame, { binary: false });
      }
});
const wss = new WebSocketServer({ server, perMessageDeflate: false, maxPayload: 16 * 1024 });
wss.on('connection', (ws, req) => {
  const names = (new URL(req.url, 'http://x').searchParams.get('rooms') ?? '').split(',').filter(Boolean);
  for (const name of names) {
    if (!rooms.has(name)) rooms.set(name, new Set());
    rooms.get(name).add(ws);
  }
  ws.on('close', () => names.forEach((name) => rooms.get(name)?.delete(ws)));
});
server.listen(Number(process.env.PORT), '127.0.0.1');
process.once('SIGTERM', () => {
  for (const ws of wss.clients) ws.terminate();
  wss.close();
  server.close(() => process.exit(0));
});
