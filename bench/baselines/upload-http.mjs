// S10's reference for what HTTP itself costs: bare node:http taking a request's body into a file,
// no framework, no tus, no database. `PUT /upload?to=<file>` answers 204 once the last byte is
// written (the app answers its last PATCH once the file is stored). `PUT /sink` reads the body the
// same way into a stream that drops it: the client and loopback TCP alone, nothing written.
// Bench use only: it writes wherever `to` says.
import { createWriteStream } from 'node:fs';
import http from 'node:http';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

const server = http.createServer(async (req, res) => {
  const url = new URL(req.url, 'http://baseline.invalid');
  if (url.pathname === '/health') return res.end('{}');
  if (req.method === 'PUT' && url.pathname === '/sink') {
    try {
      await pipeline(req, new Writable({ write: (_chunk, _encoding, done) => done() }));
      res.statusCode = 204;
    } catch {
      res.statusCode = 500;
    }
    return res.end();
  }
  if (req.method !== 'PUT' || url.pathname !== '/upload' || !url.searchParams.get('to')) {
    res.statusCode = 404;
    return res.end('{}');
  }
  try {
    await pipeline(req, createWriteStream(url.searchParams.get('to')));
    res.statusCode = 204;
  } catch (error) {
    res.statusCode = 500;
    res.write(String(error));
  }
  res.end();
});
server.keepAliveTimeout = 72_000;
server.listen(Number(process.env.PORT), '127.0.0.1');
process.once('SIGTERM', () => server.close(() => process.exit(0)));
