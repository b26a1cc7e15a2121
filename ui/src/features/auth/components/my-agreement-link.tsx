import { DownloadIcon } from "lucide-react";
import { Button } from "@/components/ui/button";
import { useMyAgreement } from "@/features/auth/api/get-my-agreement";
import { formatDateTimeYear } from "@/lib/format";

/** PDF_FAILED is what a signer reads when their agreement's PDF failed (spec part 2 §8). */
const PDF_FAILED = "PDF generation failed. Please contact admin to regenerate this legal document.";

/**
 * MyAgreementLink gives a signer their copy from the moment they sign (the pending screen):
 * 'Download your signed agreement' once its PDF is made, a line saying it is being prepared
 * until then, the spec's failed-PDF words when it failed (an admin retries it), nothing when
 * they have no agreement (404).
 */
export function MyAgreementLink() {
  const { data: agreement } = useMyAgreement();
  if (!agreement) return null;
  const signed = `Signed ${formatDateTimeYear(agreement.signedAt)}, version ${agreement.termsVersion}`;
  if (agreement.pdfStatus === "generating") {
    return (
      <p className="text-sm text-muted-foreground" aria-live="polite">
        {signed}. Your signed agreement is being prepared...
      </p>
    );
  }
  if (agreement.pdfStatus !== "available" || !agreement.pdfUrl) {
    return (
      <p className="text-sm text-muted-foreground" role="status">
        {signed}. {PDF_FAILED}
      </p>
    );
  }
  return (
    <div className="grid gap-1">
      <Button asChild variant="secondary" className="mx-auto">
        <a href={agreement.pdfUrl} download>
          <DownloadIcon aria-hidden />
          Download your signed agreement
        </a>
      </Button>
      <p className="text-xs text-muted-foreground">{signed}</p>
    </div>
  );
}
