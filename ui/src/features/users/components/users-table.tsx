import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { ApprovalBadge } from "@/features/users/components/approval-badge";
import { RoleBadge } from "@/features/users/components/role-badge";
import { TermsBadge } from "@/features/users/components/terms-badge";
import { useUsers } from "@/features/users/api/get-users";
import { formatDateTime } from "@/lib/format";
import { displayName } from "@/lib/user";

/** UsersTable is the All Users table: name, email, role letter, approval, terms, registered. */
export function UsersTable() {
  const users = useUsers();
  return (
    <Card>
      <CardHeader>
        <CardTitle id="all-users-title">All Users</CardTitle>
        <CardDescription>{users.data ? `${users.data.length} user(s)` : "Everyone with an account"}</CardDescription>
      </CardHeader>
      <CardContent>
        {users.isPending && <Skeleton className="h-24 w-full" />}
        {users.data && (
          <Table aria-labelledby="all-users-title">
            <TableHeader>
              <TableRow>
                <TableHead>Name</TableHead>
                <TableHead>Email</TableHead>
                <TableHead>Role</TableHead>
                <TableHead>Status</TableHead>
                <TableHead>Terms</TableHead>
                <TableHead>Registered</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {users.data.map((u) => (
                <TableRow key={u.id}>
                  <TableCell className="font-medium">{displayName(u)}</TableCell>
                  <TableCell>{u.email}</TableCell>
                  <TableCell>
                    <RoleBadge role={u.role} />
                  </TableCell>
                  <TableCell>
                    <ApprovalBadge state={u.isApproved} />
                  </TableCell>
                  <TableCell>
                    <TermsBadge status={u.termsStatus} />
                  </TableCell>
                  <TableCell className="text-muted-foreground">{formatDateTime(u.created)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </CardContent>
    </Card>
  );
}
