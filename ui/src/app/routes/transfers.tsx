import { useParams } from "react-router";
import { ReceivePage } from "@/features/transfers/components/receive-page";
import { SendPage } from "@/features/transfers/components/send-page";
import { TransferPage } from "@/features/transfers/components/transfer-page";
import { TransfersPage } from "@/features/transfers/components/transfers-page";

/** TransfersRoute is /packs/transfers: packs sent to and received from other cities (admins). */
export function TransfersRoute() {
  return <TransfersPage />;
}

/** SendRoute is /packs/transfers/send. */
export function SendRoute() {
  return <SendPage />;
}

/** ReceiveRoute is /packs/transfers/receive. */
export function ReceiveRoute() {
  return <ReceivePage />;
}

/** TransferRoute is /packs/transfers/:id. */
export function TransferRoute() {
  const { id = "" } = useParams();
  return <TransferPage id={id} />;
}
