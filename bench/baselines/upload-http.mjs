// S10's reference for what HTTP itself costs: bare node:http taking a request's body into a file,
// no framework, no tus, no database. `PUT /upload?to=<file>` answers 204 once the last byte is
// written (the app answers its last PATCH once the file is stored). `PUT /sink` reads the body and
// drops it: what the client and loopback TCP alone allow, the ceiling of any upload measured here.
// Bench use only: it writes wherever `to` says.
import { createWriteStream } from 'node:fs';
import http from 'node:http';
import { pipeline } from 'node:stream/promises';

const server = http.createServer(async (req, res) => {
  const url = new URL(req.url, 'http://baseline.invalid');
  if (url.pathname === '/health') return res.end('{}');
  if (req.method === 'PUT' && url.pathname === '/sink') {
    req.resume();
    req.once('end', () => {
      res.statusCode = 204;
      res.end();
    });
    return;
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
