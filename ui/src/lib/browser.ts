/** isSafariLike reports Safari and iOS WebKit browsers, which get one delayed query retry. */
export function isSafariLike(ua: string = navigator.userAgent): boolean {
  return (/Safari/.test(ua) && !/Chrome|Chromium|CriOS|Edg|Android/.test(ua)) || /iPhone|iPad|iPod/.test(ua);
}

/** isMobile reports phone and tablet browsers (used for diagnostics logging). */
export function isMobile(ua: string = navigator.userAgent): boolean {
  return /Android|iPhone|iPad|iPod|Mobile/i.test(ua);
}
