import { type ComponentType, type ReactNode, useEffect, useState } from "react";
import { useAfterFirstScreen } from "@/lib/first-screen-shown";

// React.lazy suspends on its first render even when the chunk is already downloaded (its
// promise settles a tick later), and React then holds the content back up to 300 ms after a
// fallback showed (Suspense's reveal throttle): the sign-in screen at / painted 300 ms after
// its chunks were in, the driver's home twice so. A Loadable renders its component at once
// when loaded, and the caller's fallback (without suspending) only while the chunk is on its way.
// It is the one way to load a component lazily besides the router's route `lazy` (eslint.config.js
// refuses React.lazy).

/** Loadable is a component in a chunk of its own: preload starts the download once. */
export type Loadable<P extends object = object> = {
  preload: () => Promise<ComponentType<P>>;
  loaded: () => ComponentType<P> | undefined;
};

/** loadable wraps a chunk's import answering its component. A failed load may be tried again. */
export function loadable<P extends object = object>(load: () => Promise<ComponentType<P>>): Loadable<P> {
  let promise: Promise<ComponentType<P>> | undefined;
  let value: ComponentType<P> | undefined;
  return {
    preload: () =>
      (promise ??= load().then(
        (c) => (value = c),
        (e: unknown) => {
          promise = undefined;
          throw e;
        },
      )),
    loaded: () => value,
  };
}

/** LoadOptions: afterFirstScreen holds the download until the first screen is shown (lib/first-screen-shown.ts). */
export type LoadOptions = { afterFirstScreen?: boolean };

/**
 * useLoadable answers of's component once its chunk is loaded (undefined until then, when
 * the caller shows its fallback), starting the download (with afterFirstScreen, once the first
 * screen at / is shown: for what that screen does not show). A chunk that fails to load (offline,
 * an old deploy's file gone) is thrown to the route's error element, as React.lazy's would be.
 */
export function useLoadable<P extends object>(of: Loadable<P>, { afterFirstScreen = false }: LoadOptions = {}): ComponentType<P> | undefined {
  const [, setLoaded] = useState<ComponentType<P>>();
  const [error, setError] = useState<unknown>();
  const component = of.loaded();
  const start = useAfterFirstScreen() || !afterFirstScreen;
  useEffect(() => {
    if (component || !start) return;
    let live = true;
    of.preload().then(
      (c) => live && setLoaded(() => c),
      (e: unknown) => live && setError(() => e ?? new Error("A part of the app failed to load")),
    );
    return () => {
      live = false;
    };
  }, [of, component, start]);
  if (error) throw error;
  return component;
}

/** LazyProps are the props of of's component, with the fallback shown while its chunk loads. */
export type LazyProps<P extends object> = { of: Loadable<P>; fallback?: ReactNode } & LoadOptions & P;

/**
 * Lazy renders of's component with the other props once its chunk is in (at once when it was
 * preloaded), fallback (nothing by default) until then: the JSX form of useLoadable, for a
 * dialog fetched when it first opens or a card below the first screen.
 */
export function Lazy<P extends object>({ of, fallback = null, afterFirstScreen, ...props }: LazyProps<P>) {
  const Component = useLoadable(of, { afterFirstScreen });
  return Component ? <Component {...(props as unknown as P)} /> : fallback;
}
