import { PlaceholderPage } from "@/components/layouts/placeholder-page";

/** AdminPhotosRoute is the Photos screen (to be built in its feature folder). */
export function AdminPhotosRoute() {
  return <PlaceholderPage title="Photos" />;
}
