import { Link } from "react-router";
import { PageHeader } from "@/components/layouts/app-shell";
import { Badge } from "@/components/ui/badge";
import { paths } from "@/config/paths";
import { usePackModels, type PackModel } from "@/features/packs/api/get-pack-models";
import { EditPackModelDialog } from "@/features/packs/components/edit-pack-model-dialog";
import { ListStatus } from "@/features/packs/components/list-status";
import { formatPercent } from "@/features/packs/components/pack-health-format";
import { plural } from "@/features/packs/utils/plural";

/** modelFigures are a model's figures as its card reads them (an unknown figure says so). */
export function modelFigures(m: PackModel): [string, string][] {
  return [
    ["Packs", String(m.packs)],
    ["Worn", String(m.worn)],
    ["Nominal energy", m.nominalWh > 0 ? `${m.nominalWh} Wh` : "Not known"],
    ["Rated capacity", m.ratedAh > 0 ? `${m.ratedAh} Ah` : "Not known"],
    ["End-of-life threshold", formatPercent(m.threshold)],
  ];
}

/**
 * PackModelsPage is /packs/models (DESIGN.md §16): each pack model with its packs and worn
 * counts, nominal Wh, rated Ah and end-of-life threshold; admins edit them, the liaison reads.
 */
export function PackModelsPage({ admin }: { admin: boolean }) {
  const models = usePackModels();
  return (
    <>
      <Link to={paths.packs.path} className="text-sm text-muted-foreground underline-offset-4 hover:underline">
        ← All packs
      </Link>
      <PageHeader title="Pack models" description="Each model's nominal energy, rated capacity and the state of health under which its packs are worn." />
      <ListStatus query={models} error="Could not load the models." empty={(d) => d.models.length === 0 && "No pack has a model yet."}>
        {(d) => (
          <ul aria-label="Pack models" className="grid gap-3 md:grid-cols-2">
            {d.models.map((m) => (
              <li key={m.model} className="rounded-lg border bg-card p-4">
                <div className="mb-3 flex flex-wrap items-center gap-2">
                  <h2 className="min-w-0 font-semibold break-words">{m.model}</h2>
                  {!m.configured && <Badge variant="outline">Defaults</Badge>}
                  {m.worn > 0 && <Badge variant="warning">{plural(m.worn, "worn pack", "worn packs")}</Badge>}
                  {admin && (
                    <div className="ml-auto">
                      <EditPackModelDialog model={m} />
                    </div>
                  )}
                </div>
                <dl className="grid grid-cols-2 gap-x-4 gap-y-2 text-sm sm:grid-cols-3">
                  {modelFigures(m).map(([k, v]) => (
                    <div key={k} className="min-w-0">
                      <dt className="text-xs font-medium text-muted-foreground">{k}</dt>
                      <dd>{v}</dd>
                    </div>
                  ))}
                </dl>
              </li>
            ))}
          </ul>
        )}
      </ListStatus>
    </>
  );
}
