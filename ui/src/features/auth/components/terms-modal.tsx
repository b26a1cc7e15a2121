import { useEffect, useMemo, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { Checkbox } from "@/components/ui/checkbox";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Label } from "@/components/ui/label";
import { ScrollArea } from "@/components/ui/scroll-area";
import { SignaturePad, type SignaturePadHandle } from "@/components/ui/signature-pad";
import { Input } from "@/components/ui/input";
import { Spinner } from "@/components/ui/spinner";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { useActiveTerms } from "@/features/auth/api/get-active-terms";
import {
  SIGNATURE_HEIGHT,
  SIGNATURE_PAD,
  canAcceptTerms,
  sanitizeTermsHtml,
  signatureWidth,
} from "@/features/auth/utils/terms-acceptance";
import {
  MAX_TYPED_NAME,
  drawTypedSignature,
  loadSignatureFont,
  typedSignaturePNG,
} from "@/features/auth/utils/typed-signature";
import { formatDate } from "@/lib/format";

/** SignatureMethod is how the signer signs: drawing on the pad, or typing their name. */
export type SignatureMethod = "drawn" | "typed";

/** GivenSignature is what the modal hands over: the PNG data URL, how it was made, the typed name and the hash of the terms shown. */
export type GivenSignature = { signatureData: string; signatureMethod: SignatureMethod; signatureText?: string; termsHash?: string };

/** TermsModalProps: open state, whether the register call runs, and the two outcomes. */
export type TermsModalProps = {
  open: boolean;
  submitting: boolean;
  onCancel: () => void;
  /** onAccept receives the signature (a PNG data URL, drawn or typed). */
  onAccept: (signature: GivenSignature) => void;
};

/**
 * TermsModal shows the active terms, the two checkboxes and the signature pad (spec part 1
 * §2, §4, §9). It cannot be closed while a request runs.
 */
export function TermsModal({ open, submitting, onCancel, onAccept }: TermsModalProps) {
  const terms = useActiveTerms(open);
  const [read, setRead] = useState(false);
  const [agreed, setAgreed] = useState(false);
  const [hasSignature, setHasSignature] = useState(false);
  const [width, setWidth] = useState(() => signatureWidth(window.innerWidth));
  const padRef = useRef<SignaturePadHandle | null>(null);
  const [method, setMethod] = useState<SignatureMethod>("drawn");
  const [typedName, setTypedName] = useState("");
  const typedRef = useRef<HTMLCanvasElement | null>(null);

  // a fresh modal starts unticked and unsigned
  useEffect(() => {
    if (!open) {
      setRead(false);
      setAgreed(false);
      setHasSignature(false);
      setTypedName("");
      setMethod("drawn");
    }
  }, [open]);

  // other terms came in (a version activated or edited meanwhile: the server refused the
  // signature of the old ones): they must be read and agreed to anew
  const shownHash = terms.data?.contentHash;
  const firstHash = useRef(shownHash);
  const termsRef = useRef<HTMLDivElement | null>(null);
  useEffect(() => {
    if (firstHash.current === undefined) {
      firstHash.current = shownHash;
      return;
    }
    if (shownHash !== firstHash.current) {
      firstHash.current = shownHash;
      setRead(false);
      setAgreed(false);
      // the new text is what must be read: show it from its top (the dialog was scrolled down
      // to Accept, leaving the short new terms out of sight above an empty box) and put the
      // focus on it, instead of on the dialog once Accept turns off
      const viewport = termsRef.current?.querySelector<HTMLElement>("[data-slot=scroll-area-viewport]");
      if (viewport) {
        viewport.scrollTop = 0;
        viewport.focus({ preventScroll: true });
        viewport.closest<HTMLElement>("[role=dialog]")?.scrollTo?.({ top: 0 });
      }
    }
  }, [shownHash]);

  // the typed name's preview, redrawn once the handwriting font has loaded
  useEffect(() => {
    let live = true;
    const canvas = typedRef.current;
    if (canvas) drawTypedSignature(canvas, typedName);
    void loadSignatureFont(typedName).then(() => {
      if (live && typedRef.current) drawTypedSignature(typedRef.current, typedName);
    });
    return () => {
      live = false;
    };
  }, [typedName, width, method]);

  useEffect(() => {
    const onResize = () => setWidth(signatureWidth(window.innerWidth));
    window.addEventListener("resize", onResize);
    return () => window.removeEventListener("resize", onResize);
  }, []);

  // a resized canvas loses its drawing, so the signature must be given again
  useEffect(() => {
    padRef.current?.clear();
    setHasSignature(false);
  }, [width]);

  const html = useMemo(() => (terms.data ? sanitizeTermsHtml(terms.data.content) : ""), [terms.data]);
  const typedValid = typedName.trim() !== "";
  const enabled = canAcceptTerms({ read, agreed, hasSignature: method === "typed" ? typedValid : hasSignature, submitting });

  const close = () => {
    if (!submitting) onCancel();
  };
  const clearSignature = () => {
    padRef.current?.clear();
    setHasSignature(false);
  };
  const accept = async () => {
    if (!enabled) return;
    // the terms this modal showed: the server refuses the signature if they changed meanwhile
    const termsHash = terms.data?.contentHash;
    if (method === "typed") {
      const name = typedName.trim();
      onAccept({ signatureData: await typedSignaturePNG(name, width, SIGNATURE_HEIGHT), signatureMethod: "typed", signatureText: name, termsHash });
      return;
    }
    const pad = padRef.current;
    if (!pad || pad.isEmpty()) return;
    onAccept({ signatureData: pad.getCanvas().toDataURL("image/png"), signatureMethod: "drawn", termsHash });
  };

  return (
    <Dialog open={open} onOpenChange={(next) => !next && close()}>
      <DialogContent
        hideClose={submitting}
        className="gap-3 p-5 sm:max-w-2xl"
        onEscapeKeyDown={(e) => submitting && e.preventDefault()}
        onPointerDownOutside={(e) => e.preventDefault()}
        onInteractOutside={(e) => e.preventDefault()}
      >
        <DialogHeader className="pr-6">
          <DialogTitle className="text-base">{terms.data?.title ?? "Terms and Conditions"}</DialogTitle>
          <DialogDescription>
            {terms.data
              ? `Version ${terms.data.version} · Effective ${formatDate(terms.data.effectiveDate)}`
              : "Please read the terms, tick both boxes and sign below."}
          </DialogDescription>
        </DialogHeader>

        {terms.isPending && (
          <div className="flex h-[400px] items-center justify-center gap-2 text-sm text-muted-foreground">
            <Spinner />
            Loading terms and conditions...
          </div>
        )}
        {terms.isError && (
          <div role="alert" className="flex h-[400px] items-center justify-center text-center text-sm text-destructive">
            Failed to load terms and conditions. Please try again.
          </div>
        )}
        {terms.data && (
          <>
            <ScrollArea ref={termsRef} className="h-[400px] rounded-md border" aria-label="Terms and Conditions text">
              <div className="terms-content p-4 text-sm" dangerouslySetInnerHTML={{ __html: html }} />
            </ScrollArea>

            <div className="grid gap-2">
              <div className="flex items-start gap-2">
                <Checkbox
                  id="terms-read"
                  checked={read}
                  disabled={submitting}
                  onCheckedChange={(v) => {
                    setRead(v === true);
                    if (v !== true) setAgreed(false);
                  }}
                />
                <Label htmlFor="terms-read" className="leading-snug">
                  I have read and understood the Terms and Conditions above
                </Label>
              </div>
              <div className="flex items-start gap-2">
                <Checkbox
                  id="terms-agree"
                  checked={agreed}
                  disabled={!read || submitting}
                  onCheckedChange={(v) => setAgreed(v === true)}
                />
                <Label htmlFor="terms-agree" className="leading-snug">
                  I agree to be bound by these Terms and Conditions
                </Label>
              </div>
            </div>

            <div className="grid gap-1.5">
              <Label id="signature-label">Digital Signature</Label>
              <Tabs value={method} onValueChange={(v) => setMethod(v as SignatureMethod)}>
                <TabsList aria-labelledby="signature-label">
                  <TabsTrigger value="drawn" disabled={submitting} className="min-h-6 px-3">
                    Draw
                  </TabsTrigger>
                  <TabsTrigger value="typed" disabled={submitting} className="min-h-6 px-3">
                    Type your name
                  </TabsTrigger>
                </TabsList>
                <TabsContent value="drawn" forceMount hidden={method !== "drawn"}>
                  <div className="flex flex-wrap items-end gap-2">
                    <div className="w-fit rounded-md border border-dashed border-input bg-white">
                      <SignaturePad
                        ref={padRef}
                        {...SIGNATURE_PAD}
                        clearOnResize={false}
                        onEnd={() => setHasSignature(!(padRef.current?.isEmpty() ?? true))}
                        canvasProps={{
                          width,
                          height: SIGNATURE_HEIGHT,
                          role: "img",
                          "aria-labelledby": "signature-label",
                          className: "touch-none block",
                        }}
                      />
                    </div>
                    <Button type="button" variant="outline" size="sm" onClick={clearSignature} disabled={submitting}>
                      Clear Signature
                    </Button>
                  </div>
                </TabsContent>
                <TabsContent value="typed" className="grid gap-2">
                  <Label htmlFor="signature-typed">Type your full name</Label>
                  <Input
                    id="signature-typed"
                    value={typedName}
                    maxLength={MAX_TYPED_NAME}
                    autoComplete="name"
                    disabled={submitting}
                    onChange={(e) => setTypedName(e.target.value)}
                    className="max-w-[450px]"
                  />
                  <div className="w-fit rounded-md border border-dashed border-input bg-white">
                    <canvas
                      ref={typedRef}
                      width={width}
                      height={SIGNATURE_HEIGHT}
                      role="img"
                      aria-label={typedValid ? `Your typed signature: ${typedName.trim()}` : "Your typed signature appears here"}
                      className="block"
                    />
                  </div>
                </TabsContent>
              </Tabs>
            </div>
          </>
        )}

        <DialogFooter>
          <Button type="button" variant="outline" onClick={close} disabled={submitting}>
            Cancel
          </Button>
          <Button type="button" onClick={() => void accept()} disabled={!enabled}>
            {submitting ? "Processing..." : "Accept Terms & Sign"}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
