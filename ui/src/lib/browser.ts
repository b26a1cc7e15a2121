/** isSafariLike reports Safari and iOS WebKit browsers, which get one delayed query retry. */
export function isSafariLike(ua: string = navigator.userAgent): boolean {
  return (/Safari/.test(ua) && !/Chrome|Chromium|CriOS|Edg|Android/.test(ua)) || /iPhone|iPad|iPod/.test(ua);
}

/** isMobile reports phone and tablet browsers (used for diagnostics logging). */
export function isMobile(ua: string = navigator.userAgent): boolean {
  return /Android|iPhone|iPad|iPod|Mobile/i.test(ua);
}

/**
 * opensInSameTab reports a phone or tablet, or a phone-sized window: where a new tab is a
 * poor place to open a document (spec part 2 §2, opening an agreement's PDF).
 */
export function opensInSameTab(ua: string = navigator.userAgent): boolean {
  return isMobile(ua) || window.matchMedia("(max-width: 767px), (pointer: coarse)").matches;
}
