import { lazy, type ComponentType } from 'react';

/** A page component loaded on first use, which can also be loaded ahead (`preload`). */
export type LazyPage<P extends object> = ComponentType<P> & { preload: () => Promise<void> };

/**
 * A page in a chunk of its own. Once its chunk is loaded (by `preload` or a first render) it
 * renders at once, without suspending again: so a page loaded ahead shows no spinner at all.
 */
export function lazyPage<M, P extends object = object>(
  load: () => Promise<M>,
  pick: (module: M) => ComponentType<P>,
): LazyPage<P> {
  let loaded: ComponentType<P> | undefined;
  const preload = async () => {
    loaded ??= pick(await load());
  };
  const Lazy = lazy(async () => {
    await preload();
    return { default: loaded as ComponentType<P> };
  });
  function Page(props: P) {
    const Component = loaded ?? Lazy;
    return <Component {...props} />;
  }
  return Object.assign(Page, { preload });
}
