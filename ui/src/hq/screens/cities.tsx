import { zodResolver } from "@hookform/resolvers/zod";
import { useQuery } from "@tanstack/react-query";
import { PencilIcon, PlusIcon, Trash2Icon } from "lucide-react";
import * as React from "react";
import { useForm } from "react-hook-form";
import { DialogForm } from "@/components/dialog-form";
import { SubmitButton } from "@/components/form-body";
import { InputFormField } from "@/components/form-fields";
import { QueryStatus } from "@/components/query-status";
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from "@/components/ui/alert-dialog";
import { Button } from "@/components/ui/button";
import { Card, CardContent } from "@/components/ui/card";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { toast } from "@/hooks/use-toast";
import { errorMessage } from "@/lib/api-client";
import { formatDateTime } from "@/lib/format";
import { newIdempotencyKey } from "@/lib/idempotency";
import { type City, type CityInput, citiesQueryOptions, isHqAdmin, useDeleteCity, useMe, useSaveCity } from "@/hq/api";
import { SET_MARK, citySchema, cityValues, refusedField } from "@/hq/city-form";
import { copyStateWords, isFlagged } from "@/hq/format";
import { HqAuditList } from "@/hq/audit-list";
import { HqPageHeader } from "@/hq/shell";
import { toastError } from "@/lib/toast-error";

/**
 * CitiesScreen lists the cities head office follows, each with its copy's state and lag in
 * words; an hq_admin adds, edits and deletes them (an hq_viewer reads), and sees the Audit List
 * of the changes made in head office's data dashboard below them.
 */
export function CitiesScreen() {
  const me = useMe();
  const admin = isHqAdmin(me.data);
  const cities = useQuery({ ...citiesQueryOptions, meta: { silentError: true } });
  const [editing, setEditing] = React.useState<City | "new" | null>(null);
  const [deleting, setDeleting] = React.useState<City | null>(null);
  return (
    <>
      <HqPageHeader title="Cities" description="Each city's replica, followed into a read-only copy, and its address and token for recalls">
        {admin && (
          <Button onClick={() => setEditing("new")}>
            <PlusIcon aria-hidden />
            Add city
          </Button>
        )}
      </HqPageHeader>
      <QueryStatus
        query={cities}
        skeletonClassName="h-32 w-full"
        error="Failed to load the cities"
        alert
        empty={cities.data && cities.data.length === 0 && (admin ? "No city yet: add the first one." : "No city yet.")}
      />
      <ul className="grid gap-3 md:grid-cols-2">
        {cities.data?.map((c) => (
          <li key={c.id}>
            <CityRow city={c} admin={admin} onEdit={() => setEditing(c)} onDelete={() => setDeleting(c)} />
          </li>
        ))}
      </ul>
      <div className="mt-6">
        <HqAuditList />
      </div>
      {editing && <CityDialog city={editing === "new" ? undefined : editing} onClose={() => setEditing(null)} />}
      <DeleteCityDialog city={deleting} onClose={() => setDeleting(null)} />
    </>
  );
}

function CityRow({ city, admin, onEdit, onDelete }: { city: City; admin: boolean; onEdit: () => void; onDelete: () => void }) {
  const flagged = isFlagged(city.copy);
  return (
    <Card className="py-4">
      <CardContent className="grid gap-2 px-4 text-sm">
        <div className="flex flex-wrap items-start justify-between gap-2">
          <h2 className="text-base font-semibold">{city.name}</h2>
          {admin && (
            <div className="flex gap-2">
              <Button variant="outline" size="sm" onClick={onEdit} aria-label={`Edit ${city.name}`}>
                <PencilIcon aria-hidden />
                Edit
              </Button>
              <Button variant="outline" size="sm" onClick={onDelete} aria-label={`Delete ${city.name}`}>
                <Trash2Icon aria-hidden />
                Delete
              </Button>
            </div>
          )}
        </div>
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
          <dt className="text-muted-foreground">Copy</dt>
          <dd className={flagged ? "font-medium text-amber-700 dark:text-amber-400" : undefined}>{copyStateWords(city.copy)}</dd>
          {city.copy.lastAppliedAt && (
            <>
              <dt className="text-muted-foreground">Last change</dt>
              <dd>{formatDateTime(city.copy.lastAppliedAt)}</dd>
            </>
          )}
          <dt className="text-muted-foreground">Time zone</dt>
          <dd>{city.timeZone}</dd>
          <dt className="text-muted-foreground">Currency</dt>
          <dd>{city.currency}</dd>
          <dt className="text-muted-foreground">Address</dt>
          <dd className="break-all">{city.address}</dd>
          <dt className="text-muted-foreground">Replica</dt>
          <dd className="font-mono text-xs break-all">{city.replicaUrl}</dd>
          <dt className="text-muted-foreground">Token</dt>
          <dd>{city.tokenSet ? "Set" : "Not set"}</dd>
        </dl>
        {(city.copy.warning || city.copy.error) && (
          <p className="rounded-md border border-amber-300 bg-amber-50 p-2 text-amber-950 dark:bg-amber-950 dark:text-amber-50">
            {[city.copy.warning, city.copy.error].filter(Boolean).join(" ")}
          </p>
        )}
      </CardContent>
    </Card>
  );
}

/** CityDialog adds a city (no city) or edits one: a blank key, secret or token keeps the stored one. */
function CityDialog({ city, onClose }: { city?: City; onClose: () => void }) {
  const save = useSaveCity();
  const editing = city !== undefined;
  const form = useForm<CityInput>({ resolver: zodResolver(citySchema(editing)), defaultValues: cityValues(city) });
  const [key] = React.useState(newIdempotencyKey);
  const onSubmit = form.handleSubmit((input) =>
    save.mutate(
      { id: city?.id, input, idempotencyKey: key },
      {
        onSuccess: (saved) => {
          toast({ title: editing ? "City saved" : "City added", description: `${saved?.name ?? input.name}: its replica is being followed.` });
          onClose();
        },
        onError: (e) => {
          const field = refusedField(e);
          const message = errorMessage(e, "Failed to save the city");
          if (field) form.setError(field, { message }, { shouldFocus: true });
          else toast({ title: "Error", description: message, variant: "destructive" });
        },
      },
    ),
  );
  return (
    <Dialog open onOpenChange={(open) => !open && !save.isPending && onClose()}>
      <DialogContent className="sm:max-w-2xl">
        <DialogHeader>
          <DialogTitle>{editing ? `Edit ${city.name}` : "Add a city"}</DialogTitle>
          <DialogDescription>
            The city&apos;s replica (the one its System page replicates to), and its address with the token its master admin issued for head
            office on the System page.
          </DialogDescription>
        </DialogHeader>
        <DialogForm
          form={form}
          onSubmit={onSubmit}
          className="grid gap-4 sm:grid-cols-2"
          footerClassName="sm:col-span-2"
          onCancel={onClose}
          submit={
            <SubmitButton pending={save.isPending} pendingLabel="Saving...">
              {editing ? "Save city" : "Add city"}
            </SubmitButton>
          }
        >
          <fieldset disabled={save.isPending} className="contents">
            <InputFormField control={form.control} name="name" label="Name" autoComplete="off" />
            <InputFormField control={form.control} name="timeZone" label="Time zone" placeholder="Europe/Paris" autoComplete="off" spellCheck={false} />
            <InputFormField control={form.control} name="currency" label="Currency" placeholder="EUR" autoComplete="off" maxLength={3} spellCheck={false} />
            <InputFormField
              control={form.control}
              name="address"
              label="Address"
              type="url"
              placeholder="https://paris.example.com"
              autoComplete="off"
              spellCheck={false}
            />
            <InputFormField
              control={form.control}
              name="replicaUrl"
              label="Replica URL"
              className="sm:col-span-2"
              placeholder="s3://bucket/path?endpoint=…&region=… or file:///dir"
              autoComplete="off"
              spellCheck={false}
            />
            <InputFormField
              control={form.control}
              name="accessKeyId"
              label="Access Key ID"
              placeholder={city?.accessKeyIdSet ? SET_MARK : ""}
              autoComplete="off"
              spellCheck={false}
            />
            <InputFormField
              control={form.control}
              name="secretAccessKey"
              label="Secret Access Key"
              type="password"
              placeholder={city?.secretAccessKeySet ? SET_MARK : ""}
              autoComplete="new-password"
            />
            <InputFormField
              control={form.control}
              name="token"
              label="Head-office token"
              type="password"
              className="sm:col-span-2"
              placeholder={city?.tokenSet ? SET_MARK : "swbhq_…"}
              autoComplete="new-password"
              description={editing ? "Blank keeps the stored token, key and secret." : "The token the city's master admin issued (shown once there)."}
            />
          </fieldset>
        </DialogForm>
      </DialogContent>
    </Dialog>
  );
}

function DeleteCityDialog({ city, onClose }: { city: City | null; onClose: () => void }) {
  const del = useDeleteCity();
  const [key, setKey] = React.useState(newIdempotencyKey);
  const confirm = () => {
    if (!city) return;
    del.mutate(
      { id: city.id, idempotencyKey: key },
      {
        onSuccess: () => {
          toast({ title: "City deleted", description: `${city.name} is no longer followed; its copy is deleted.` });
          setKey(newIdempotencyKey());
          onClose();
        },
        onError: (e) => toastError(e, "Failed to delete the city"),
      },
    );
  };
  return (
    <AlertDialog open={city !== null} onOpenChange={(open) => !open && !del.isPending && onClose()}>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Delete {city?.name}?</AlertDialogTitle>
          <AlertDialogDescription>
            Head office stops following its replica and deletes its copy. The city itself, its data and its replica are not touched.
          </AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel disabled={del.isPending}>Cancel</AlertDialogCancel>
          <Button variant="destructive" onClick={confirm} disabled={del.isPending}>
            {del.isPending ? "Deleting..." : "Delete city"}
          </Button>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
