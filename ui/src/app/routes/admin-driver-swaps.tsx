import { PlaceholderPage } from "@/components/layouts/placeholder-page";

/** AdminDriverSwapsRoute is the Driver Management screen (to be built in its feature folder). */
export function AdminDriverSwapsRoute() {
  return <PlaceholderPage title="Driver Management" />;
}
