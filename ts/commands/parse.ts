/**
 * words splits a command line into words at spaces; "double" or 'single' quotes keep spaces
 * in a word (a file name). An unclosed quote runs to the end of the line.
 */
export function words(line: string): string[] {
  const out: string[] = [];
  const re = /"([^"]*)"?|'([^']*)'?|(\S+)/g;
  for (let m = re.exec(line); m; m = re.exec(line)) out.push(m[1] ?? m[2] ?? m[3]);
  return out;
}

/**
 * isCommandLine is whether a line is meant as a command: it starts with `/` and a name, not
 * a path (`/etc/hosts has a typo` goes to the model).
 */
export function isCommandLine(line: string): boolean {
  return /^\/[A-Za-z][\w-]*(\s|$)/.test(line.trim());
}
