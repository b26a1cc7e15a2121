import { PlaceholderPage } from "@/components/layouts/placeholder-page";

/** AdminDropoffNotesRoute is the Driver Dropoff Notes screen (to be built in its feature folder). */
export function AdminDropoffNotesRoute() {
  return <PlaceholderPage title="Driver Dropoff Notes" description="View and manage driver battery dropoff notes and comments" />;
}
