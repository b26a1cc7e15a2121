import { zodResolver } from "@hookform/resolvers/zod";
import { CheckIcon, PencilIcon, XIcon } from "lucide-react";
import * as React from "react";
import { useForm } from "react-hook-form";
import * as z from "zod/mini";
import { Button } from "@/components/ui/button";
import { Hint } from "@/components/ui/hint";
import { Form, FormControl, FormField, FormItem, FormLabel, FormMessage } from "@/components/ui/form";
import { Input } from "@/components/ui/input";

/**
 * InlineEdit shows a figure with a pencil; editing turns it into a one-field form (Save,
 * Cancel, Escape) whose text parse() must accept, else `message` shows under it. onSave gets
 * the parsed number; the editor closes at once (the figures refresh a second later).
 */
export function InlineEdit({
  label,
  value,
  display,
  parse,
  message,
  step = "1",
  onSave,
  disabled = false,
}: {
  label: string;
  value: number;
  display: React.ReactNode;
  parse: (raw: string) => number | null;
  message: string;
  step?: string;
  onSave: (n: number) => void;
  disabled?: boolean;
}) {
  const [editing, setEditing] = React.useState(false);
  const hint = React.useId();
  const schema = React.useMemo(
    () =>
      z.object({
        value: z.string().check(z.refine((s) => parse(s) !== null, message)),
      }),
    [parse, message],
  );
  const form = useForm<{ value: string }>({ resolver: zodResolver(schema), defaultValues: { value: String(value) } });
  if (!editing) {
    // named by the value it shows (SC 2.5.3); what it edits is its description
    return (
      <>
        <Button
          type="button"
          variant="ghost"
          size="sm"
          className="h-auto gap-1 px-1.5 py-0.5 tabular-nums"
          aria-describedby={hint}
          disabled={disabled}
          onClick={() => {
            form.reset({ value: String(value) });
            setEditing(true);
          }}
        >
          {display}
          <PencilIcon aria-hidden className="size-3 opacity-60" />
        </Button>
        <Hint id={hint}>{`Edit ${label}`}</Hint>
      </>
    );
  }
  const submit = form.handleSubmit(({ value: raw }) => {
    const n = parse(raw);
    if (n === null) return;
    setEditing(false);
    if (n !== value) onSave(n);
  });
  return (
    <Form {...form}>
      <form
        noValidate
        onSubmit={submit}
        onKeyDown={(e) => e.key === "Escape" && setEditing(false)}
        className="inline-flex items-start gap-1"
      >
        <FormField
          control={form.control}
          name="value"
          render={({ field }) => (
            <FormItem className="gap-1">
              <FormLabel className="sr-only">{label}</FormLabel>
              <FormControl>
                <Input type="number" inputMode="decimal" step={step} min={0} className="h-8 w-16" autoFocus {...field} />
              </FormControl>
              <FormMessage className="max-w-40 text-xs" />
            </FormItem>
          )}
        />
        <Button type="submit" size="icon" variant="ghost" className="size-8" aria-label={`Save ${label}`}>
          <CheckIcon aria-hidden />
        </Button>
        <Button type="button" size="icon" variant="ghost" className="size-8" aria-label="Cancel" onClick={() => setEditing(false)}>
          <XIcon aria-hidden />
        </Button>
      </form>
    </Form>
  );
}
