import { useState } from "react";
import { FileTextIcon } from "lucide-react";
import { MessageScreen } from "@/components/feedback/message-card";
import { Button } from "@/components/ui/button";
import { useSignTerms } from "@/features/auth/api/sign-terms";
import { useLogout } from "@/lib/auth";
import { Lazy, loadable } from "@/lib/loadable";

// The terms modal (signature pad, sanitizer) is its own chunk, shared with registration.
const termsModal = loadable(() => import("@/features/auth/components/terms-modal").then((m) => m.TermsModal));

/**
 * ResignTerms is the blocking panel for a user an admin asked to sign the terms again
 * (mustResignTerms, spec part 2 §2): 'Updated Terms and Conditions', a button opening the
 * Terms modal and Sign Out. Once the signature is accepted the app appears.
 */
export function ResignTerms() {
  const logout = useLogout();
  const [open, setOpen] = useState(false);
  const signing = useSignTerms({ onSuccess: () => setOpen(false) });
  return (
    <>
      <MessageScreen
        icon={<FileTextIcon aria-hidden className="text-primary" />}
        title="Updated Terms and Conditions"
        description="The Terms and Conditions have changed since you last signed them. Please read and accept the updated terms and sign again to continue using SwapBay."
      >
        <div className="flex flex-col gap-2">
          <Button className="mx-auto" onClick={() => setOpen(true)} disabled={signing.isPending}>
            Review and Sign Terms
          </Button>
          <Button variant="outline" className="mx-auto" onClick={() => logout.mutate()} disabled={logout.isPending}>
            Sign Out
          </Button>
        </div>
      </MessageScreen>
      {open && (
        <Lazy
          of={termsModal}
          open
          submitting={signing.isPending}
          onCancel={() => setOpen(false)}
          onAccept={(signature) => signing.mutate(signature)}
        />
      )}
    </>
  );
}
