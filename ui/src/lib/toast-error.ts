import { toast } from "@/hooks/use-toast";
import { errorMessage } from "@/lib/api-client";

/** toastError is the app's failure toast: titled "Error", the server's message (fallback when it has none), in red. */
export function toastError(error: unknown, fallback: string) {
  return toast({ title: "Error", description: errorMessage(error, fallback), variant: "destructive" });
}
