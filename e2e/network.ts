import type { BrowserContext, WebSocketRoute } from '@playwright/test';

/**
 * Playwright's offline mode does not drop an open WebSocket: going offline here also closes the
 * context's sockets, and refuses new ones until the network is back.
 */
export async function controllableNetwork(context: BrowserContext) {
  let offline = false;
  const open = new Set<WebSocketRoute>();
  await context.routeWebSocket(/\/socket\.io\//, (ws) => {
    if (offline) {
      void ws.close({ code: 1006, reason: 'offline' }).catch(() => {});
      return;
    }
    ws.connectToServer();
    open.add(ws);
  });
  return {
    async goOffline() {
      offline = true;
      await context.setOffline(true);
      await Promise.all([...open].map((ws) => ws.close({ code: 1006, reason: 'offline' }).catch(() => {})));
      open.clear();
    },
    async goOnline() {
      offline = false;
      await context.setOffline(false);
    },
  };
}
