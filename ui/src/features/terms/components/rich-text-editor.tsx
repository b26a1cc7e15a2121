import TextAlign from "@tiptap/extension-text-align";
import { EditorContent, useEditor, useEditorState } from "@tiptap/react";
import StarterKit from "@tiptap/starter-kit";
import {
  AlignCenterIcon,
  AlignLeftIcon,
  AlignRightIcon,
  BoldIcon,
  Heading1Icon,
  Heading2Icon,
  Heading3Icon,
  ItalicIcon,
  LinkIcon,
  ListIcon,
  ListOrderedIcon,
  RemoveFormattingIcon,
  UnderlineIcon,
} from "lucide-react";
import * as React from "react";
import { cn } from "@/lib/utils";

/** LINK_SCHEMES are the addresses a link may point at (DESIGN.md §7; the server enforces it too). */
export const LINK_SCHEMES = /^(https?:\/\/|mailto:|tel:)/i;

/**
 * RichTextEditor is the terms Content editor on tiptap (spec part 2 §2): headings, bold,
 * italic, underline, bullet and numbered lists, links (http, https, mailto, tel only), text
 * alignment and clear formatting. value is HTML; onChange gets the editor's HTML.
 */
export function RichTextEditor({
  id,
  value,
  onChange,
  invalid = false,
  disabled = false,
  labelledBy,
}: {
  id: string;
  value: string;
  onChange: (html: string) => void;
  invalid?: boolean;
  disabled?: boolean;
  labelledBy?: string;
}) {
  const editor = useEditor({
    extensions: [
      StarterKit.configure({
        heading: { levels: [1, 2, 3] },
        code: false,
        codeBlock: false,
        blockquote: false,
        horizontalRule: false,
        link: { openOnClick: false, autolink: true, protocols: ["http", "https", "mailto", "tel"], isAllowedUri: (url) => LINK_SCHEMES.test(url) },
      }),
      TextAlign.configure({ types: ["heading", "paragraph"] }),
    ],
    content: value,
    editable: !disabled,
    immediatelyRender: true,
    editorProps: {
      attributes: {
        id,
        role: "textbox",
        "aria-multiline": "true",
        ...(labelledBy ? { "aria-labelledby": labelledBy } : {}),
        "aria-invalid": invalid ? "true" : "false",
        class: "terms-content min-h-48 max-h-[28rem] overflow-y-auto px-3 py-2 focus:outline-none",
      },
    },
    onUpdate: ({ editor }) => onChange(editor.isEmpty ? "" : editor.getHTML()),
  });

  // a value set from outside (Load New 2025 Template, a reset) replaces the document
  React.useEffect(() => {
    if (!editor || editor.isDestroyed) return; // a remount hands over a new editor
    if (value !== editor.getHTML() && !(value === "" && editor.isEmpty)) {
      editor.commands.setContent(value, { emitUpdate: false });
    }
  }, [editor, value]);

  return (
    <div className={cn("rounded-md border bg-background", invalid && "border-destructive", disabled && "opacity-60")}>
      <Toolbar editor={editor} disabled={disabled} />
      <EditorContent editor={editor} />
    </div>
  );
}

function Toolbar({ editor, disabled }: { editor: ReturnType<typeof useEditor>; disabled: boolean }) {
  const state = useEditorState({
    editor,
    selector: ({ editor: e }) =>
      e
        ? {
            h1: e.isActive("heading", { level: 1 }),
            h2: e.isActive("heading", { level: 2 }),
            h3: e.isActive("heading", { level: 3 }),
            bold: e.isActive("bold"),
            italic: e.isActive("italic"),
            underline: e.isActive("underline"),
            bullet: e.isActive("bulletList"),
            ordered: e.isActive("orderedList"),
            link: e.isActive("link"),
            left: e.isActive({ textAlign: "left" }),
            center: e.isActive({ textAlign: "center" }),
            right: e.isActive({ textAlign: "right" }),
          }
        : null,
  });
  if (!editor) return null;
  const chain = () => editor.chain().focus();
  const setLink = () => {
    const current = (editor.getAttributes("link").href as string | undefined) ?? "https://";
    const url = window.prompt("Link address (http, https, mailto or tel)", current);
    if (url === null) return;
    if (url.trim() === "") {
      chain().extendMarkRange("link").unsetLink().run();
      return;
    }
    if (!LINK_SCHEMES.test(url.trim())) {
      window.alert("Links may only point to http, https, mailto or tel addresses.");
      return;
    }
    chain().extendMarkRange("link").setLink({ href: url.trim() }).run();
  };
  const buttons: { label: string; icon: React.ElementType; active?: boolean; run: () => void }[] = [
    { label: "Heading 1", icon: Heading1Icon, active: state?.h1, run: () => chain().toggleHeading({ level: 1 }).run() },
    { label: "Heading 2", icon: Heading2Icon, active: state?.h2, run: () => chain().toggleHeading({ level: 2 }).run() },
    { label: "Heading 3", icon: Heading3Icon, active: state?.h3, run: () => chain().toggleHeading({ level: 3 }).run() },
    { label: "Bold", icon: BoldIcon, active: state?.bold, run: () => chain().toggleBold().run() },
    { label: "Italic", icon: ItalicIcon, active: state?.italic, run: () => chain().toggleItalic().run() },
    { label: "Underline", icon: UnderlineIcon, active: state?.underline, run: () => chain().toggleUnderline().run() },
    { label: "Bullet list", icon: ListIcon, active: state?.bullet, run: () => chain().toggleBulletList().run() },
    { label: "Numbered list", icon: ListOrderedIcon, active: state?.ordered, run: () => chain().toggleOrderedList().run() },
    { label: "Link", icon: LinkIcon, active: state?.link, run: setLink },
    { label: "Align left", icon: AlignLeftIcon, active: state?.left, run: () => chain().setTextAlign("left").run() },
    { label: "Align center", icon: AlignCenterIcon, active: state?.center, run: () => chain().setTextAlign("center").run() },
    { label: "Align right", icon: AlignRightIcon, active: state?.right, run: () => chain().setTextAlign("right").run() },
    { label: "Clear formatting", icon: RemoveFormattingIcon, run: () => chain().unsetAllMarks().clearNodes().unsetTextAlign().run() },
  ];
  return (
    <div role="toolbar" aria-label="Formatting" className="flex flex-wrap gap-0.5 border-b bg-muted/40 p-1">
      {buttons.map((b) => (
        <button
          key={b.label}
          type="button"
          aria-label={b.label}
          title={b.label}
          aria-pressed={b.active === undefined ? undefined : !!b.active}
          disabled={disabled}
          onMouseDown={(e) => e.preventDefault()}
          onClick={b.run}
          className={cn(
            "inline-flex size-8 items-center justify-center rounded-md text-muted-foreground hover:bg-accent hover:text-foreground disabled:pointer-events-none",
            b.active && "bg-accent text-foreground",
          )}
        >
          <b.icon aria-hidden className="size-4" />
        </button>
      ))}
    </div>
  );
}
