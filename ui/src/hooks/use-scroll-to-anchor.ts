import * as React from "react";
import { useLocation } from "react-router";

/**
 * useScrollToAnchor scrolls the element with id into view once ready is true, when the page was
 * opened at #id (a link such as the admin Home's attention strip): a block that loads lazily
 * or waits for its data is not there when the router changes page, so the browser's own jump
 * to the anchor finds nothing. Once per arrival at the anchor.
 */
export function useScrollToAnchor(id: string, ready: boolean) {
  const { hash, key } = useLocation();
  const done = React.useRef<string | null>(null);
  React.useEffect(() => {
    if (!ready || hash !== `#${id}` || done.current === key) return;
    done.current = key;
    document.getElementById(id)?.scrollIntoView({ block: "start" });
  }, [id, ready, hash, key]);
}
