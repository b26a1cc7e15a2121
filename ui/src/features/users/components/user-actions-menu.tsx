import { BanIcon, CheckIcon, FileSignatureIcon, MoreHorizontalIcon, PencilIcon, Trash2Icon, XIcon } from "lucide-react";
import { Button } from "@/components/ui/button";
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuSeparator, DropdownMenuTrigger } from "@/components/ui/dropdown-menu";
import type { AdminUser } from "@/features/users/api/get-users";
import { useUpdateApproval } from "@/features/users/api/update-approval";
import { masterOnly, useForceResign, useSuspendUser, type MasterAction } from "@/features/users/api/user-actions";
import { toast } from "@/hooks/use-toast";
import { newIdempotencyKey } from "@/lib/idempotency";
import { displayName, type Role } from "@/lib/user";

/**
 * UserActionsMenu is one user's actions (spec part 2 §2): Edit, Approve, Reject, Suspend
 * (browser confirm; disabled when suspended), Force re-sign (browser confirm; the server's
 * message shown) and Delete (a confirmation dialog, opened by the page). A non-master admin
 * acting on a master admin gets the 'Access Denied' toast and no call is made.
 */
export function UserActionsMenu({
  user,
  callerRole,
  onEdit,
  onDelete,
}: {
  user: AdminUser;
  callerRole: Role | undefined;
  onEdit: (u: AdminUser) => void;
  onDelete: (u: AdminUser) => void;
}) {
  const approval = useUpdateApproval();
  const suspend = useSuspendUser();
  const resign = useForceResign();
  const name = displayName(user);

  const guarded = (action: MasterAction, run: () => void) => () => {
    const denied = masterOnly(callerRole, user, action);
    if (denied) {
      toast({ title: "Access Denied", description: denied, variant: "destructive" });
      return;
    }
    run();
  };

  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="outline" size="sm" aria-label={`Actions for ${name}`}>
          <MoreHorizontalIcon aria-hidden />
          <span className="sm:sr-only">Actions</span>
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end">
        <DropdownMenuItem onSelect={guarded("edit", () => onEdit(user))}>
          <PencilIcon aria-hidden /> Edit
        </DropdownMenuItem>
        {user.isApproved !== "approved" && (
          <DropdownMenuItem
            onSelect={guarded("edit", () =>
              approval.mutate({ userId: user.id, isApproved: "approved", idempotencyKey: newIdempotencyKey() }),
            )}
          >
            <CheckIcon aria-hidden /> Approve
          </DropdownMenuItem>
        )}
        {user.isApproved === "pending" && (
          <DropdownMenuItem
            onSelect={() => approval.mutate({ userId: user.id, isApproved: "rejected", idempotencyKey: newIdempotencyKey() })}
          >
            <XIcon aria-hidden /> Reject
          </DropdownMenuItem>
        )}
        <DropdownMenuItem
          disabled={user.isApproved === "suspended"}
          onSelect={guarded("suspend", () => {
            if (!window.confirm(`Suspend ${name}? They are signed out at once and cannot sign in until approved again.`)) return;
            suspend.mutate({ id: user.id, idempotencyKey: newIdempotencyKey() });
          })}
        >
          <BanIcon aria-hidden /> Suspend
        </DropdownMenuItem>
        <DropdownMenuItem
          onSelect={guarded("force re-sign", () => {
            if (!window.confirm(`Force ${name} to re-sign the terms and conditions at their next login?`)) return;
            resign.mutate({ id: user.id, idempotencyKey: newIdempotencyKey() });
          })}
        >
          <FileSignatureIcon aria-hidden /> Force re-sign
        </DropdownMenuItem>
        <DropdownMenuSeparator />
        <DropdownMenuItem className="text-destructive focus:text-destructive" onSelect={guarded("delete", () => onDelete(user))}>
          <Trash2Icon aria-hidden /> Delete
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
