import { OperatorConsole } from "../features/operator/OperatorConsole";

/** `/operator/...`: the operator console (lazy-loaded, and only for an operator's session). */
export function OperatorRoute({ pathname }: { pathname: string }) {
  return <OperatorConsole pathname={pathname} />;
}
