/** Model id patterns: `*` matches any run of characters; everything else is literal. */
export function compileModelPattern(pattern: string): (model: string) => boolean {
  if (!pattern.includes('*')) return (model) => model === pattern;
  const escaped = pattern.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'));
  const regex = new RegExp(`^${escaped.join('.*')}$`);
  return (model) => regex.test(model);
}
