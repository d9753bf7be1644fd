/**
 * A strict tsconfig with skipLibCheck off, so the shipped .d.ts is checked too; `types` lists the ambient
 * types the project has (none unless it uses Node's APIs).
 */
export function consumerTsconfig(types: string[] = []): object {
  return {
    compilerOptions: {
      target: "ES2022",
      lib: ["ES2023", "DOM", "DOM.Iterable"],
      module: "NodeNext",
      moduleResolution: "NodeNext",
      strict: true,
      noUncheckedIndexedAccess: true,
      skipLibCheck: false,
      types,
      outDir: "out",
    },
    include: ["main.ts"],
  };
}
