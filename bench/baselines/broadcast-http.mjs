// The write endpoint shared by the socket baselines: POST /broadcast {rooms, type, payload}.
// The payload gets a growing id (like the app's event ids), is sent to the rooms, then 204 is answered.
import http from 'node:http';

export function broadcastServer(send) {
  let seq = 0;
  return http.createServer((req, res) => {
    if (req.method !== 'POST' || req.url !== '/broadcast') {
      res.statusCode = req.url === '/health' ? 200 : 404;
      return res.end('{}');
    }
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      try {
        const { rooms, type, payload } = JSON.parse(Buffer.concat(chunks).toString());
        send(rooms, type, { id: ++seq, ...payload });
        res.statusCode = 204;
        res.end();
      } catch (error) {
        res.statusCode = 400;
        res.end(String(error));
      }
    });
  });
}
