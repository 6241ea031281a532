// Reading an element's attributes by its generated table (registry.mjs): each value parsed by its
// kind and checked against its range or words as the engine checks it; a bad one is reported on the
// console, naming the element and the attribute, and the default is drawn instead.

/// The value of `text` for the table entry `entry`, or an Error saying what it takes.
export function parse(entry, text) {
  switch (entry.kind) {
    case 'number': {
      const value = /^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/.test(text) ? Number(text) : NaN;
      if (!Number.isFinite(value)) return new Error(`expects a number, got "${text}"`);
      if (entry.integer && !Number.isInteger(value)) return new Error(`must be a whole number, got ${text}`);
      if (value < entry.minimum || value > entry.maximum) {
        return new Error(`must be between ${entry.minimum} and ${entry.maximum}${entry.unit ? ' ' + entry.unit : ''}, got ${text}`);
      }
      return value;
    }
    case 'choice': {
      const lower = text.trim().toLowerCase();
      const word = entry.words.find((w) => w.toLowerCase() === lower)
        ?? Object.entries(entry.aliases ?? {}).find(([alias]) => alias.toLowerCase() === lower)?.[1];
      return word ?? new Error(`must be one of ${entry.words.join(', ')}, got "${text}"`);
    }
    default:
      return new Error(`has a kind (${entry.kind}) this element does not read`);
  }
}

/// Every attribute of `element` by `table`: the value given, checked, or the entry's default (an
/// attribute absent, or bad and reported once per value on the console).
export function read(element, table) {
  const values = {};
  element.__reported ??= new Set();
  for (const entry of table) {
    const text = element.getAttribute(entry.attribute);
    values[entry.name] = entry.default;
    if (text === null) continue;
    const value = parse(entry, text);
    if (value instanceof Error) {
      const key = entry.attribute + '=' + text;
      if (!element.__reported.has(key)) {
        element.__reported.add(key);
        console.error(`<${element.localName}> ${entry.attribute} ${value.message}; drawn with its default, ${JSON.stringify(entry.default)}`);
      }
    } else {
      values[entry.name] = value;
    }
  }
  return values;
}

/// A class to extend that is `HTMLElement` in a browser and an empty class elsewhere, so that a
/// module that defines an element can be imported where there is no DOM (a server rendering a page).
export const ElementBase = globalThis.HTMLElement ?? class {};

/// Defines `name` as `constructor` once, where there are custom elements.
export function define(name, constructor) {
  const registry = globalThis.customElements;
  if (registry && !registry.get(name)) registry.define(name, constructor);
}
