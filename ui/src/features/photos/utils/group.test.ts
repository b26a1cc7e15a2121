// @vitest-environment node
import { describe, expect, it } from "vitest";
import type { Photo } from "@/features/photos/api/photos";
import { groupByUploader, photoCountLabel, timestampedName } from "@/features/photos/utils/group";

function photo(id: string, by: string, at: string): Photo {
  return {
    id,
    filename: `${id}.jpg`,
    notes: "",
    uploadedAt: at,
    uploadedBy: by,
    uploadedByUser: { firstName: by, lastName: "X", email: `${by}@x` },
    sha256: "",
    duplicateOf: null,
  };
}

describe("groupByUploader", () => {
  it("orders uploaders by their latest upload and photos newest first", () => {
    const groups = groupByUploader([
      photo("a1", "ann", "2026-01-01T10:00:00Z"),
      photo("b1", "bob", "2026-01-02T10:00:00Z"),
      photo("a2", "ann", "2026-01-03T10:00:00Z"),
    ]);
    expect(groups.map((g) => g.name)).toEqual(["ann X", "bob X"]);
    expect(groups[0]?.photos.map((p) => p.id)).toEqual(["a2", "a1"]);
  });
  it("keeps two deleted uploaders apart (no uploadedBy: grouped by the email kept on the photo)", () => {
    const gone = (id: string, name: string, at: string): Photo => ({
      ...photo(id, "", at),
      uploadedByUser: { firstName: name, lastName: "Gone", email: `${name}@x` },
    });
    const groups = groupByUploader([gone("c1", "cat", "2026-01-01T10:00:00Z"), gone("d1", "dan", "2026-01-02T10:00:00Z")]);
    expect(groups.map((g) => g.name)).toEqual(["dan Gone", "cat Gone"]);
  });
  it("labels counts and names captures", () => {
    expect(photoCountLabel(3)).toBe("3 photo(s)");
    expect(timestampedName(new Date("2026-11-23T04:05:06.789Z"))).toBe("photo-2026-11-23-04-05-06-789.jpg");
  });
});
