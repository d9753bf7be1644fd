import { fileURLToPath } from "node:url";
import ts from "typescript";
import { readTsConfig } from "./tsconfig-file.js";

// The server's `AppRouter` carries its context type (drizzle, PGlite, postgres.js, pino...), which a
// consumer of the published package cannot resolve. This writes a self-contained equivalent: the same
// procedures with the same input, output and error types, spelled out, over `@trpc/server`'s public types.

const CLIENT_ROOT = fileURLToPath(new URL("..", import.meta.url));

/** Prints a type as plain TypeScript, expanding every alias so nothing from the server is referenced. */
class TypePrinter {
  constructor(
    private readonly checker: ts.TypeChecker,
    private readonly program: ts.Program,
  ) {}

  print(type: ts.Type, where: string, depth = 0): string {
    if (depth > 40) throw new Error(`${where}: type too deep (recursive?)`);
    const f = type.flags;
    if (f & ts.TypeFlags.Any) throw new Error(`${where}: type is any`);
    if (f & ts.TypeFlags.Unknown) return "unknown";
    if (f & ts.TypeFlags.Never) return "never";
    if (f & ts.TypeFlags.Void) return "void";
    if (f & ts.TypeFlags.Undefined) return "undefined";
    if (f & ts.TypeFlags.Null) return "null";
    if (f & ts.TypeFlags.String) return "string";
    if (f & ts.TypeFlags.Number) return "number";
    if (f & ts.TypeFlags.Boolean) return "boolean";
    if (f & ts.TypeFlags.BigInt) return "bigint";
    if (f & ts.TypeFlags.StringLiteral && type.isStringLiteral()) return JSON.stringify(type.value);
    if (f & ts.TypeFlags.NumberLiteral && type.isNumberLiteral()) return String(type.value);
    if (f & ts.TypeFlags.BooleanLiteral) return this.checker.typeToString(type);
    if (f & ts.TypeFlags.TemplateLiteral) return this.checker.typeToString(type);
    if (type.isUnion()) return this.join(type.types, " | ", where, depth);
    if (type.isIntersection()) return this.join(type.types, " & ", where, depth);
    if (f & ts.TypeFlags.Object) return this.object(type, where, depth);
    throw new Error(`${where}: cannot print ${this.checker.typeToString(type)}`);
  }

  private join(types: readonly ts.Type[], separator: string, where: string, depth: number): string {
    // `boolean` is `true | false` inside a union: print it once, as `boolean`.
    const parts = types.map((member) => this.print(member, where, depth + 1));
    const merged =
      parts.includes("true") && parts.includes("false")
        ? ["boolean", ...parts.filter((part) => part !== "true" && part !== "false")]
        : parts;
    return `(${merged.join(separator)})`;
  }

  private object(type: ts.Type, where: string, depth: number): string {
    if (this.isFromDefaultLib(type))
      return this.checker.typeToString(type, undefined, ts.TypeFormatFlags.NoTruncation);
    if (this.checker.isArrayType(type)) {
      const [element] = this.checker.getTypeArguments(type as ts.TypeReference);
      if (!element) throw new Error(`${where}: array without element type`);
      return `Array<${this.print(element, where, depth + 1)}>`;
    }
    if (this.checker.isTupleType(type)) {
      const elements = this.checker.getTypeArguments(type as ts.TypeReference);
      return `[${elements.map((element) => this.print(element, where, depth + 1)).join(", ")}]`;
    }
    if (type.getCallSignatures().length > 0 || type.getConstructSignatures().length > 0) {
      throw new Error(`${where}: functions cannot cross the wire`);
    }
    const members: string[] = [];
    for (const info of this.checker.getIndexInfosOfType(type)) {
      const key = this.print(info.keyType, where, depth + 1);
      members.push(`[key: ${key}]: ${this.print(info.type, where, depth + 1)}`);
    }
    for (const property of this.checker.getPropertiesOfType(type)) {
      const optional = property.flags & ts.SymbolFlags.Optional ? "?" : "";
      const name = /^[A-Za-z_$][\w$]*$/.test(property.name) ? property.name : JSON.stringify(property.name);
      const propertyType = this.checker.getTypeOfSymbol(property);
      members.push(`${name}${optional}: ${this.print(propertyType, `${where}.${property.name}`, depth + 1)}`);
    }
    return `{ ${members.join("; ")} }`;
  }

  private isFromDefaultLib(type: ts.Type): boolean {
    const declarations = type.getSymbol()?.getDeclarations() ?? [];
    return (
      declarations.length > 0 &&
      declarations.every((declaration) =>
        this.program.isSourceFileDefaultLibrary(declaration.getSourceFile()),
      )
    );
  }
}

function propertyType(checker: ts.TypeChecker, type: ts.Type, name: string, where: string): ts.Type {
  const symbol = checker.getPropertyOfType(type, name);
  if (!symbol) throw new Error(`${where}: no property ${name}`);
  return checker.getTypeOfSymbol(symbol);
}

/** Prints a router record: sub-records as object types, procedures as `TRPC*Procedure<{ input; output; meta }>`. */
function printRecord(checker: ts.TypeChecker, printer: TypePrinter, record: ts.Type, path: string): string {
  const members: string[] = [];
  for (const entry of checker.getPropertiesOfType(record)) {
    const where = path === "" ? entry.name : `${path}.${entry.name}`;
    const value = checker.getTypeOfSymbol(entry);
    const def = checker.getPropertyOfType(value, "_def");
    if (!def) {
      members.push(`${entry.name}: ${printRecord(checker, printer, value, where)}`);
      continue;
    }
    const defType = checker.getTypeOfSymbol(def);
    const kind = propertyType(checker, defType, "type", where);
    const types = propertyType(checker, defType, "$types", where);
    if (!kind.isStringLiteral()) throw new Error(`${where}: procedure type is not a literal`);
    const generic = { query: "TRPCQueryProcedure", mutation: "TRPCMutationProcedure" }[kind.value];
    if (!generic) throw new Error(`${where}: ${kind.value} procedures are not supported by the client`);
    const input = printer.print(propertyType(checker, types, "input", where), `${where} input`);
    const output = printer.print(propertyType(checker, types, "output", where), `${where} output`);
    members.push(`${entry.name}: ${generic}<{ input: ${input}; output: ${output}; meta: object }>`);
  }
  return `{ ${members.join("; ")} }`;
}

/**
 * Returns the text of a declaration file exporting `AppRouter`, equivalent to the server's for a client:
 * same procedures, inputs, outputs, error shape and transformer flag; context and meta erased.
 */
export function generateRouterTypes(): string {
  const configPath = `${CLIENT_ROOT}tsconfig.json`;
  const config = readTsConfig(configPath);
  const entry = `${CLIENT_ROOT}src/types.ts`;
  const program = ts.createProgram({ rootNames: [entry], options: config.options });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(entry);
  const moduleSymbol = source && checker.getSymbolAtLocation(source);
  const exported =
    moduleSymbol && checker.getExportsOfModule(moduleSymbol).find((s) => s.name === "AppRouter");
  if (!exported) throw new Error("src/types.ts does not export AppRouter");
  const router = checker.getDeclaredTypeOfSymbol(checker.getAliasedSymbol(exported));

  const printer = new TypePrinter(checker, program);
  const def = propertyType(checker, router, "_def", "AppRouter");
  const rootTypes = propertyType(checker, propertyType(checker, def, "_config", "_def"), "$types", "_config");
  const errorShape = printer.print(propertyType(checker, rootTypes, "errorShape", "root"), "errorShape");
  const transformer = printer.print(propertyType(checker, rootTypes, "transformer", "root"), "transformer");
  const record = printRecord(checker, printer, propertyType(checker, def, "record", "_def"), "");

  const text = [
    "// Generated by scripts/router-types.ts from @keyport/server's AppRouter. Do not edit.",
    'import type { TRPCBuiltRouter, TRPCMutationProcedure, TRPCQueryProcedure } from "@trpc/server";',
    `type Root = { ctx: object; meta: object; errorShape: ${errorShape}; transformer: ${transformer} };`,
    `export type AppRouter = TRPCBuiltRouter<Root, ${record}>;`,
    "",
  ].join("\n");
  // Re-printed so the shipped declaration reads one member a line, like the rest of dist/index.d.ts.
  const parsed = ts.createSourceFile("app-router.d.ts", text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  return ts.createPrinter({ newLine: ts.NewLineKind.LineFeed }).printFile(parsed);
}
