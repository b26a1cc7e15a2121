import * as React from "react";
import { Label } from "@/components/ui/label";
import { Textarea } from "@/components/ui/textarea";

/**
 * CsvSource is an import dialog's CSV: a file to choose, or the text pasted (the packs import,
 * the readings import). onChange gets the whole text either way.
 */
export function CsvSource({ csv, onChange }: { csv: string; onChange: (text: string) => void }) {
  const ids = React.useId();
  const onFile = async (file: File | undefined) => {
    if (file) onChange(await file.text());
  };
  return (
    <div className="grid gap-3">
      <div className="grid gap-1.5">
        <Label htmlFor={`${ids}-file`}>CSV file</Label>
        <input id={`${ids}-file`} type="file" accept=".csv,text/csv" className="text-sm" onChange={(e) => void onFile(e.target.files?.[0])} />
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor={`${ids}-csv`}>Or paste the CSV</Label>
        <Textarea id={`${ids}-csv`} rows={5} className="font-mono text-xs" value={csv} onChange={(e) => onChange(e.target.value)} />
      </div>
    </div>
  );
}
