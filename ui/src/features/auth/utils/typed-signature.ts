// The typed signature (WCAG 2.2 SC 2.5.7: signing without dragging a pointer): the signer's
// typed name drawn in Dancing Script (SIL OFL 1.1, @fontsource/dancing-script; the licence
// ships as /licenses/DancingScript-OFL.txt) onto a canvas the size of the signature pad, and
// sent as the same PNG a drawn signature is.
import "@fontsource/dancing-script/400.css";

/** SIGNATURE_FONT is the handwriting font family of a typed signature. */
export const SIGNATURE_FONT = '"Dancing Script"';

/** MAX_TYPED_NAME is the longest typed name the server takes (the agreement's signatureText). */
export const MAX_TYPED_NAME = 100;

/** typedFontSize is the largest font size (px, 56 down to 12) at which text fits width - 24 px. */
export function typedFontSize(measure: (sizePx: number) => number, width: number): number {
  let size = 56;
  while (size > 12 && measure(size) > width - 24) size -= 2;
  return size;
}

/** loadSignatureFont waits for the handwriting font (so the canvas never draws a fallback face). */
export async function loadSignatureFont(text: string): Promise<void> {
  if (typeof document === "undefined" || !document.fonts) return;
  await document.fonts.load(`48px ${SIGNATURE_FONT}`, text || "Signature");
}

/** drawTypedSignature clears canvas and writes text in the handwriting font, centred, in black. */
export function drawTypedSignature(canvas: HTMLCanvasElement, text: string): void {
  const ctx = canvas.getContext("2d");
  if (!ctx) return;
  ctx.clearRect(0, 0, canvas.width, canvas.height);
  const name = text.trim();
  if (!name) return;
  const size = typedFontSize((px) => {
    ctx.font = `${px}px ${SIGNATURE_FONT}`;
    return ctx.measureText(name).width;
  }, canvas.width);
  ctx.font = `${size}px ${SIGNATURE_FONT}`;
  ctx.fillStyle = "black";
  ctx.textAlign = "center";
  ctx.textBaseline = "middle";
  ctx.fillText(name, canvas.width / 2, canvas.height / 2);
}

/** typedSignaturePNG renders text at width x height and returns it as a PNG data URL. */
export async function typedSignaturePNG(text: string, width: number, height: number): Promise<string> {
  await loadSignatureFont(text);
  const canvas = document.createElement("canvas");
  canvas.width = width;
  canvas.height = height;
  drawTypedSignature(canvas, text);
  return canvas.toDataURL("image/png");
}
