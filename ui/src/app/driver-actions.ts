// The one registration list of the driver actions the outbox sends (features/outbox/api/actions.ts).
// Each is declared in its feature's api file; a new action adds one line here.
import { rebalanceAction, recoversAction } from "@/features/activity/api/log-activity";
import { dropoffAction } from "@/features/driver-ops/api/record-dropoff";
import { pickupAction } from "@/features/driver-ops/api/record-pickup";
import { damageAction, damagePhotoAction } from "@/features/packs/api/report-damage";
import { photoAction } from "@/features/photos/api/photos";
import { registerActions } from "@/features/outbox/api/actions";

registerActions(pickupAction, dropoffAction, rebalanceAction, recoversAction, photoAction, damagePhotoAction, damageAction);
