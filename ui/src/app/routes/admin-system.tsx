import { PlaceholderPage } from "@/components/layouts/placeholder-page";

/** AdminSystemRoute is the System screen (to be built in its feature folder). */
export function AdminSystemRoute() {
  return <PlaceholderPage title="System" />;
}
