import { PlaceholderPage } from "@/components/layouts/placeholder-page";

/** AdminConsoleRoute is the Driver Console screen (to be built in its feature folder). */
export function AdminConsoleRoute() {
  return <PlaceholderPage title="Driver Console" />;
}
