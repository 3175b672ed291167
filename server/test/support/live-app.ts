import { createTestApp, type TestApp } from './app.js';
import { connect, listen, type Recorder } from './sockets.js';

/** A test app listening on a free loopback port, with tabs that close with it. */
export interface LiveTestApp extends TestApp {
  /** Its base URL. */
  url: string;
  /**
   * A tab of `who`: a real socket.io client recording what it hears, closed with the app. With
   * `after`, a tab that reconnects having applied the event of that id (and is sent what it missed).
   */
  tab(who: { token: string }, after?: number): Promise<Recorder>;
}

/**
 * createTestApp, listening, for a test file whose tests open tabs: `t = await liveTestApp()` in
 * its beforeAll and `t.close()` in its afterAll, which closes every tab `t.tab` opened, then the app.
 */
export async function liveTestApp(options?: Parameters<typeof createTestApp>[0]): Promise<LiveTestApp> {
  const t = await createTestApp(options);
  const url = await listen(t.app);
  const open: Recorder[] = [];
  return {
    ...t,
    url,
    async tab(who, after) {
      const r = await connect(
        url,
        who.token,
        after === undefined ? {} : { auth: { token: who.token, after } },
      );
      open.push(r);
      return r;
    },
    async close() {
      open.forEach((r) => r.close());
      await t.close();
    },
  };
}
