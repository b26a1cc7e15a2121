import { EyeIcon, EyeOffIcon } from "lucide-react";
import * as React from "react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";

/**
 * PasswordInput is a password Input with a show/hide toggle. Its props (id, aria-*, the field's
 * value and handlers) go to the input, so it sits inside a FormControl like an Input.
 * toggleLabel names what is shown or hidden ("Show new password").
 */
export function PasswordInput({ toggleLabel, className, ...props }: React.ComponentProps<typeof Input> & { toggleLabel: string }) {
  const [visible, setVisible] = React.useState(false);
  return (
    <div className="relative">
      <Input {...props} type={visible ? "text" : "password"} className={["pr-10", className].filter(Boolean).join(" ")} />
      <Button
        type="button"
        variant="ghost"
        size="icon"
        className="absolute top-0 right-0 h-full"
        aria-label={`${visible ? "Hide" : "Show"} ${toggleLabel.toLowerCase()}`}
        aria-pressed={visible}
        onClick={() => setVisible((v) => !v)}
      >
        {visible ? <EyeOffIcon /> : <EyeIcon />}
      </Button>
    </div>
  );
}
