import ts from "typescript";

/** Reads and resolves a tsconfig (with `extends`), throwing on any problem in it. */
export function readTsConfig(configPath: string): ts.ParsedCommandLine {
  const config = ts.getParsedCommandLineOfConfigFile(
    configPath,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"));
      },
    },
  );
  if (!config) throw new Error(`cannot read ${configPath}`);
  return config;
}
