import { queryOptions, useQuery } from "@tanstack/react-query";
import { ApiError } from "@/lib/api-client";

/** PassportRegistry is the pack as SwapBay's registry records it (the passport's "swapbay" part: public, no person). */
export type PassportRegistry = {
  serial: string;
  model: string;
  chemistry: string;
  nominalEnergyWh: number;
  manufacturer: string;
  lot: string;
  manufactured: string;
  state: string;
  stateLabel: string;
};

/**
 * Passport is GET /api/packs/{serial}/passport: the Battery Pass v1.2 attributes SwapBay holds
 * (modules/packs/passport.go). Signed out or not an admin: the public attributes only.
 */
export type Passport = {
  dataModel: string;
  restricted: boolean;
  generalProductInformation: {
    productIdentifier: string;
    batteryPassportIdentifier: string;
    batteryCategory: string;
    manufacturerInformation?: { contactName: string };
    manufacturingDate?: string;
    batteryStatus?: string;
    puttingIntoService?: string;
  };
  materialComposition?: { batteryChemistry: { shortName: string; clearName: string } };
  swapbay: PassportRegistry;
};

/** passportQueryOptions: the passport of one pack (public: a label's QR opens it signed out). */
export function passportQueryOptions(serial: string) {
  return queryOptions<Passport>({
    queryKey: ["/api/packs", encodeURIComponent(serial), "passport"],
    // the page says what went wrong itself: no data-load toast
    meta: { silentError: true },
    // an unknown serial (404) or the rate limit (429) is the answer; a lost connection is retried
    retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 2,
  });
}

/** usePassport loads the passport of one pack. */
export function usePassport(serial: string) {
  return useQuery(passportQueryOptions(serial));
}
