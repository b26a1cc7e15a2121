import { useEffect, useMemo, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { Checkbox } from "@/components/ui/checkbox";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Label } from "@/components/ui/label";
import { ScrollArea } from "@/components/ui/scroll-area";
import { SignaturePad, type SignaturePadHandle } from "@/components/ui/signature-pad";
import { Spinner } from "@/components/ui/spinner";
import { useActiveTerms } from "@/features/auth/api/get-active-terms";
import {
  SIGNATURE_HEIGHT,
  SIGNATURE_PAD,
  canAcceptTerms,
  sanitizeTermsHtml,
  signatureWidth,
} from "@/features/auth/utils/terms-acceptance";
import { formatDate } from "@/lib/format";

/** TermsModalProps: open state, whether the register call runs, and the two outcomes. */
export type TermsModalProps = {
  open: boolean;
  submitting: boolean;
  onCancel: () => void;
  /** onAccept receives the signature as a PNG data URL. */
  onAccept: (signatureData: string) => void;
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

  // a fresh modal starts unticked and unsigned
  useEffect(() => {
    if (!open) {
      setRead(false);
      setAgreed(false);
      setHasSignature(false);
    }
  }, [open]);

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
  const enabled = canAcceptTerms({ read, agreed, hasSignature, submitting });

  const close = () => {
    if (!submitting) onCancel();
  };
  const clearSignature = () => {
    padRef.current?.clear();
    setHasSignature(false);
  };
  const accept = () => {
    const pad = padRef.current;
    if (!pad || pad.isEmpty() || !enabled) return;
    onAccept(pad.getCanvas().toDataURL("image/png"));
  };

  return (
    <Dialog open={open} onOpenChange={(next) => !next && close()}>
      <DialogContent
        hideClose={submitting}
        className="gap-3 sm:max-w-2xl"
        onEscapeKeyDown={(e) => submitting && e.preventDefault()}
        onPointerDownOutside={(e) => e.preventDefault()}
        onInteractOutside={(e) => e.preventDefault()}
      >
        <DialogHeader className="pr-6">
          <DialogTitle>{terms.data?.title ?? "Terms and Conditions"}</DialogTitle>
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
            <ScrollArea className="h-[400px] rounded-md border" aria-label="Terms and Conditions text">
              <div className="terms-content p-4 text-sm" dangerouslySetInnerHTML={{ __html: html }} />
            </ScrollArea>

            <div className="grid gap-3">
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

            <div className="grid gap-2">
              <div className="flex items-end justify-between gap-2">
                <div>
                  <Label id="signature-label">Digital Signature</Label>
                  <p className="mt-1 text-xs text-muted-foreground">Sign with your finger or mouse in the box below.</p>
                </div>
                <Button type="button" variant="outline" size="sm" onClick={clearSignature} disabled={submitting}>
                  Clear Signature
                </Button>
              </div>
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
            </div>
          </>
        )}

        <DialogFooter>
          <Button type="button" variant="outline" onClick={close} disabled={submitting}>
            Cancel
          </Button>
          <Button type="button" onClick={accept} disabled={!enabled}>
            {submitting ? "Processing..." : "Accept Terms & Sign"}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
