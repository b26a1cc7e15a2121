import { FileCheck2Icon, FileTextIcon, RotateCwIcon, SearchIcon } from "lucide-react";
import * as React from "react";
import { QueryStatus } from "@/components/query-status";
import { ResponsiveTable } from "@/components/responsive-table";
import type { Column } from "@/components/table-columns";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { Spinner } from "@/components/ui/spinner";
import { openPDF, useAgreements, useRetryPDF, type Agreement } from "@/features/terms/api/terms";
import { FAILED_PDF_MESSAGE, filterAgreements, footer, signatureLabel } from "@/features/terms/utils/agreements";
import { anchors } from "@/config/paths";
import { useScrollToAnchor } from "@/hooks/use-scroll-to-anchor";
import { toast } from "@/hooks/use-toast";
import { errorMessage } from "@/lib/api-client";
import { opensInSameTab } from "@/lib/browser";
import { formatDateTimeYear } from "@/lib/format";
import { toastError } from "@/lib/toast-error";

const NONE: Agreement[] = [];

/**
 * AgreementsTable is /admin-system block 7, the signed agreements (spec part 2 §2): search by
 * name or email; User, Email, Signed Date, Version, Signature (Drawn or Typed, issue 28), PDF
 * Status and Actions (View PDF or Retry PDF) — cards on a phone; the count and the search text
 * in the footer. Opened at #signed-agreements (the admin Home's failed-PDF link), it scrolls
 * into view once loaded.
 */
export function AgreementsTable() {
  const agreements = useAgreements();
  const [search, setSearch] = React.useState("");
  const all = agreements.data ?? NONE;
  const shown = React.useMemo(() => filterAgreements(all, search), [all, search]);
  const query = search.trim();
  useScrollToAnchor(anchors.signedAgreements, !agreements.isPending);

  // a row as a card on a phone (the table from md up)
  const card = (a: Agreement) => (
    <>
      <div className="flex items-start justify-between gap-2">
        <div className="min-w-0">
          <p className="font-medium break-words">{fullName(a)}</p>
          <p className="text-sm break-all text-muted-foreground">{a.email}</p>
        </div>
        <PDFStatusBadge agreement={a} />
      </div>
      <p className="text-xs text-muted-foreground">
        Signed {formatDateTimeYear(a.signedAt)} · Version {a.termsVersion} · {signatureLabel(a)} signature
      </p>
      <div>
        <PDFAction agreement={a} />
      </div>
    </>
  );
  const columns: Column<Agreement>[] = [
    { head: "User", className: "font-medium", cell: fullName },
    { head: "Email", className: "break-all", cell: (a) => a.email },
    { head: "Signed Date", className: "whitespace-nowrap", cell: (a) => formatDateTimeYear(a.signedAt) },
    { head: "Version", cell: (a) => a.termsVersion },
    { head: "Signature", cell: signatureLabel },
    { head: "PDF Status", cell: (a) => <PDFStatusBadge agreement={a} /> },
    { head: "Actions", cell: (a) => <PDFAction agreement={a} /> },
  ];

  return (
    <Card id={anchors.signedAgreements} role="region" aria-labelledby="agreements-title" className="scroll-mt-4">
      <CardHeader>
        <CardTitle id="agreements-title" className="flex items-center gap-2">
          <FileCheck2Icon aria-hidden className="size-5 text-primary" />
          Signed Agreements
        </CardTitle>
        <CardDescription>Every signed contractor agreement, with its PDF as the legal record.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <div className="relative max-w-sm">
          <SearchIcon aria-hidden className="pointer-events-none absolute top-1/2 left-2.5 size-4 -translate-y-1/2 text-muted-foreground" />
          <Input
            type="search"
            aria-label="Search agreements by name or email"
            placeholder="Search by name or email"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            className="pl-8"
          />
        </div>
        <QueryStatus query={agreements} skeletonClassName="h-24 w-full" error={errorMessage(agreements.error, "Failed to load the signed agreements")} alert />
        {agreements.data && shown.length === 0 && (
          <p className="py-6 text-center text-sm text-muted-foreground">{query ? "No agreements match your search" : "No signed agreements found"}</p>
        )}
        {shown.length > 0 && (
          <ResponsiveTable rows={shown} rowKey={(a) => a.id} listLabel="Signed agreements" tableLabel="Agreements table" columns={columns} card={card} />
        )}
        {agreements.data && (
          <p className="text-sm text-muted-foreground" aria-live="polite">
            {footer(shown.length, all.length, query)}
          </p>
        )}
      </CardContent>
    </Card>
  );
}

function fullName(a: Agreement): string {
  return `${a.firstName} ${a.lastName}`.trim() || a.email;
}


/** PDFStatusBadge is Available, Generating... or Failed; a failed one explains itself when clicked. */
function PDFStatusBadge({ agreement: a }: { agreement: Agreement }) {
  if (a.pdfStatus === "failed") {
    return (
      <Badge variant="destructive" asChild>
        <button type="button" title={a.pdfUrl.replace(/^ERROR:\s*/, "")} onClick={() => window.alert(FAILED_PDF_MESSAGE)}>
          Failed
        </button>
      </Badge>
    );
  }
  if (a.pdfStatus === "available") return <Badge variant="success">Available</Badge>;
  return <Badge variant="warning">Generating...</Badge>;
}

/** PDFAction is View PDF when the PDF exists, Retry PDF otherwise. */
function PDFAction({ agreement: a }: { agreement: Agreement }) {
  const retry = useRetryPDF();
  if (a.pdfStatus === "available") {
    return (
      <Button variant="outline" size="sm" onClick={() => openPDF(a.pdfUrl, opensInSameTab())} aria-label={`View PDF of ${fullName(a)}`}>
        <FileTextIcon aria-hidden /> View PDF
      </Button>
    );
  }
  const onRetry = () =>
    retry.mutate(a.id, {
      onSuccess: (answer) => toast({ title: (answer as { message?: string } | null)?.message ?? "PDF generation retried successfully" }),
      onError: (error) => toastError(error, "Failed to retry PDF generation"),
    });
  return (
    <Button variant="outline" size="sm" onClick={onRetry} disabled={retry.isPending} aria-label={`Retry PDF of ${fullName(a)}`}>
      {retry.isPending ? <Spinner label="Retrying" /> : <RotateCwIcon aria-hidden />}
      Retry PDF
    </Button>
  );
}
