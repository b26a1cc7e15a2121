import { RecordListCard, type RecordListCardProps } from "@/components/record-list-card";
import { useUser } from "@/lib/auth";
import { isAdminRole } from "@/lib/user";

/**
 * AdminRecordListCard is a read-only list block of /admin-system (components' RecordListCard),
 * for admins only: null for other roles, whose rows are never asked for.
 */
export function AdminRecordListCard<T>(props: Omit<RecordListCardProps<T>, "allowed">) {
  const user = useUser();
  return <RecordListCard {...props} allowed={isAdminRole(user.data?.role)} />;
}
