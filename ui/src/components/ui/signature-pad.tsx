import SignatureCanvasModule from "react-signature-canvas";

// react-signature-canvas ships CommonJS with an __esModule default export; depending on the
// bundler's interop the default import is the class or the module object holding it.
type SignatureCanvasClass = typeof SignatureCanvasModule;
const interop = SignatureCanvasModule as SignatureCanvasClass & { default?: SignatureCanvasClass };

/** SignaturePad is react-signature-canvas's component (a canvas driven by signature_pad). */
export const SignaturePad: SignatureCanvasClass = interop.default ?? interop;

/** SignaturePadHandle is what a ref to SignaturePad holds (clear, isEmpty, getCanvas...). */
export type SignaturePadHandle = InstanceType<SignatureCanvasClass>;
