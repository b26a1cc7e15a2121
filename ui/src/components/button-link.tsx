import { Link, type LinkProps } from "react-router";
import { Button, type ButtonProps } from "@/components/ui/button";

/** ButtonLinkProps: the Link's props, and the Button's look (variant, size, className). */
export type ButtonLinkProps = LinkProps & Pick<ButtonProps, "variant" | "size" | "className">;

/** ButtonLink is a link to another page that looks like a Button (a page header's "All packs"). */
export function ButtonLink({ variant, size, className, ...link }: ButtonLinkProps) {
  return (
    <Button asChild variant={variant} size={size} className={className}>
      <Link {...link} />
    </Button>
  );
}
