import { zodResolver } from "@hookform/resolvers/zod";
import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useForm } from "react-hook-form";
import { describe, expect, it, vi } from "vitest";
import * as z from "zod/mini";
import { Form, FormControl, FormField, FormItem, FormLabel, FormMessage } from "@/components/ui/form";
import { Input } from "@/components/ui/input";
import { count } from "@/lib/count";

vi.setConfig({ testTimeout: 20_000 });

const schema = z.object({ quantity: count({ min: 1, required: "Quantity is required", message: "Quantity must be a whole number" }) });

function QuantityForm({ onSubmit }: { onSubmit: (v: z.output<typeof schema>) => void }) {
  const form = useForm<z.input<typeof schema>, unknown, z.output<typeof schema>>({
    resolver: zodResolver(schema),
    defaultValues: { quantity: "" },
  });
  return (
    <Form {...form}>
      <form onSubmit={form.handleSubmit(onSubmit)} noValidate>
        <FormField
          control={form.control}
          name="quantity"
          render={({ field }) => (
            <FormItem>
              <FormLabel>Quantity</FormLabel>
              <FormControl>
                <Input {...field} />
              </FormControl>
              <FormMessage />
            </FormItem>
          )}
        />
        <button type="submit">Save</button>
      </form>
    </Form>
  );
}

describe("Form", () => {
  it("labels the control, shows the message linked to it, and submits the parsed number", async () => {
    const onSubmit = vi.fn();
    const user = userEvent.setup();
    render(<QuantityForm onSubmit={onSubmit} />);
    const input = screen.getByLabelText("Quantity");
    expect(input.getAttribute("aria-invalid")).toBeNull();

    await user.click(screen.getByRole("button", { name: "Save" }));
    expect(await screen.findByText("Quantity is required")).toBeTruthy();
    expect(input.getAttribute("aria-invalid")).toBe("true");
    expect(document.getElementById(input.getAttribute("aria-describedby") ?? "")?.textContent).toBe("Quantity is required");
    expect(onSubmit).not.toHaveBeenCalled();

    await user.type(input, "2.5");
    await user.click(screen.getByRole("button", { name: "Save" }));
    expect(await screen.findByText("Quantity must be a whole number")).toBeTruthy();

    await user.clear(input);
    await user.type(input, "7");
    await user.click(screen.getByRole("button", { name: "Save" }));
    await vi.waitFor(() => expect(onSubmit).toHaveBeenCalled());
    expect(onSubmit.mock.calls[0]?.[0]).toEqual({ quantity: 7 });
    expect(screen.queryByText(/Quantity must/)).toBeNull();
  });
});
