import { PlaceholderPage } from "@/components/layouts/placeholder-page";

/** AdminChargingRoute is the Charging screen (to be built in its feature folder). */
export function AdminChargingRoute() {
  return <PlaceholderPage title="Charging" />;
}
