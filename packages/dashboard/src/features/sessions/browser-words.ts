// The first match wins: Edge and Opera also say "Chrome", Chrome also says "Safari".
const BROWSERS: ReadonlyArray<readonly [RegExp, string]> = [
  [/\bEdg(e|A|iOS)?\//, "Edge"],
  [/\bOPR\/|\bOpera\b/, "Opera"],
  [/\bFirefox\/|\bFxiOS\//, "Firefox"],
  [/\b(Headless)?Chrome\/|\bCriOS\/|\bChromium\//, "Chrome"],
  [/\bVersion\/[\d.]+.*\bSafari\//, "Safari"],
  [/^curl\//, "curl"],
];

// iPhones and Androids also say "like Mac OS X" and "Linux": they come first.
const SYSTEMS: ReadonlyArray<readonly [RegExp, string]> = [
  [/\biPhone\b|\biPad\b|\biPod\b/, "iOS"],
  [/\bAndroid\b/, "Android"],
  [/\bCrOS\b/, "ChromeOS"],
  [/\bWindows\b/, "Windows"],
  [/\bMac OS X\b|\bMacintosh\b/, "macOS"],
  [/\bLinux\b|\bX11\b/, "Linux"],
];

function firstMatch(table: ReadonlyArray<readonly [RegExp, string]>, text: string): string | undefined {
  return table.find(([pattern]) => pattern.test(text))?.[1];
}

/**
 * A session's User-Agent in a few words: "Chrome on Linux", "Safari on iOS", "Firefox"; "Unknown
 * browser" when it names nothing known or was not sent.
 * @example describeUserAgent("Mozilla/5.0 (X11; Linux x86_64) ... Chrome/131.0 Safari/537.36") // "Chrome on Linux"
 */
export function describeUserAgent(userAgent: string | null): string {
  if (userAgent === null) return "Unknown browser";
  const browser = firstMatch(BROWSERS, userAgent);
  const system = firstMatch(SYSTEMS, userAgent);
  if (browser === undefined) return system === undefined ? "Unknown browser" : `A browser on ${system}`;
  return system === undefined ? browser : `${browser} on ${system}`;
}
