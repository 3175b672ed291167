// Baseline: a bare socket.io server (the app's options) that puts each socket in the rooms named in
// its handshake and broadcasts to rooms on POST /broadcast. No auth check, no database.
import { Server } from 'socket.io';
import { broadcastServer } from './broadcast-http.mjs';

let io;
const server = broadcastServer((rooms, type, payload) => io.to(rooms).emit(type, payload));
io = new Server(server, {
  path: '/socket.io',
  serveClient: false,
  perMessageDeflate: false,
  maxHttpBufferSize: 16 * 1024,
});
io.use((socket, next) => {
  const { token, rooms } = socket.handshake.auth ?? {};
  if (typeof token !== 'string' || !Array.isArray(rooms)) return next(new Error('unauthorized'));
  socket.data.rooms = rooms.map(String);
  next();
});
io.on('connection', (socket) => void socket.join(socket.data.rooms));
server.listen(Number(process.env.PORT), '127.0.0.1');
process.once('SIGTERM', () => {
  io.local.disconnectSockets(true);
  io.close(() => process.exit(0));
});
