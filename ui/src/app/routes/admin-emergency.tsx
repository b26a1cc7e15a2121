import { PlaceholderPage } from "@/components/layouts/placeholder-page";

/** AdminEmergencyRoute is the Emergency Inventory screen (to be built in its feature folder). */
export function AdminEmergencyRoute() {
  return <PlaceholderPage title="Emergency Inventory" />;
}
