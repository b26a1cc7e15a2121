// The scanner's public face (issue 36): the field every battery-moving screen puts in its form
// (PackListField: one of the form's pack lists, in its slot, as tracking asks),
// and how a scanned code reads. The camera and decoder code is not imported from here: it loads
// when a scanner first opens (components/scanner-dialog.tsx, through lib/loadable).
export { PackScanField, type PackScanFieldProps } from "@/features/scan/components/pack-scan-field";
export { PackListField, type PackListFieldProps } from "@/features/scan/components/pack-list-field";
export { ScanCodesButton, type ScanCodesButtonProps } from "@/features/scan/components/scan-codes-button";
export { CodeEntry, type CodeEntryProps } from "@/features/scan/components/code-entry";
export { PackRow, type PackRowProps } from "@/features/scan/components/pack-row";
export { serialFromCode } from "@/lib/serial";
