import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from "@/components/ui/alert-dialog";
import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";
import type { AdminUser } from "@/features/users/api/get-users";
import { useDeleteUser } from "@/features/users/api/user-actions";
import { newIdempotencyKey } from "@/lib/idempotency";
import { displayName } from "@/lib/user";

/**
 * DeleteUserDialog confirms a delete (spec part 2 §2). The server refuses while the user
 * still holds batteries, and ends the user's sessions when it deletes. user null means closed.
 */
export function DeleteUserDialog({ user, onClose }: { user: AdminUser | null; onClose: () => void }) {
  const remove = useDeleteUser();
  return (
    <AlertDialog open={user !== null} onOpenChange={(o) => !o && !remove.isPending && onClose()}>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Delete User</AlertDialogTitle>
          <AlertDialogDescription>
            Delete <strong>{user ? displayName(user) : ""}</strong> ({user?.email})? They are signed out everywhere and can no
            longer sign in. Their past movements stay in the history. This cannot be undone.
          </AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel disabled={remove.isPending}>Cancel</AlertDialogCancel>
          <Button
            variant="destructive"
            disabled={remove.isPending}
            onClick={() => user && remove.mutate({ id: user.id, idempotencyKey: newIdempotencyKey() }, { onSuccess: onClose })}
          >
            {remove.isPending && <Spinner label="Deleting" />}
            Delete
          </Button>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
