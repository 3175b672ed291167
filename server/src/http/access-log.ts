import type { FastifyInstance } from 'fastify';

/**
 * One compact line per answered request at `info`: method, URL, status and time in ms. It replaces
 * Fastify's two lines (whose request and reply serializers cost more than the line is worth), and
 * is not installed at all when `info` is off (LOG_LEVEL=warn and above), so it then costs nothing.
 * The one-use token of a verification link is masked: access logs are kept and shared.
 */
const INFO_OR_LOWER = new Set(['info', 'debug', 'trace']);

export function installAccessLog(app: FastifyInstance): void {
  if (!INFO_OR_LOWER.has(app.log.level)) return;
  app.addHook('onResponse', (request, reply, done) => {
    const url = request.url.includes('token=')
      ? request.url.replace(/([?&]token=)[^&]*/g, '$1…')
      : request.url;
    request.log.info(
      { method: request.method, url, status: reply.statusCode, ms: Math.round(reply.elapsedTime * 10) / 10 },
      'request',
    );
    done();
  });
}
