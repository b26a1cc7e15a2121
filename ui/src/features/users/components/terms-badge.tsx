import { Badge } from "@/components/ui/badge";
import { Tooltip, TooltipContent, TooltipTrigger } from "@/components/ui/tooltip";
import type { TermsStatus } from "@/features/users/api/get-users";

/** PDF_FAILED_ALERT is what opening a failed-PDF badge says (spec part 2 §8). */
export const PDF_FAILED_ALERT = "PDF generation failed. Please contact admin to regenerate this legal document.";

/** TermsBadge shows a user's agreement state; a failed PDF says so in its tooltip (spec part 2 §2). */
export function TermsBadge({ status }: { status?: TermsStatus }) {
  if (!status?.signed) return <Badge variant="outline">Not signed</Badge>;
  const version = status.version ? ` v${status.version}` : "";
  if (status.pdfStatus === "failed") {
    return (
      <Tooltip>
        <TooltipTrigger asChild>
          <Badge variant="destructive" asChild>
            <button type="button" onClick={() => window.alert(PDF_FAILED_ALERT)}>
              Signed{version} · PDF failed
            </button>
          </Badge>
        </TooltipTrigger>
        <TooltipContent>Terms signed but PDF generation failed</TooltipContent>
      </Tooltip>
    );
  }
  return <Badge variant="success">Signed{version}</Badge>;
}
