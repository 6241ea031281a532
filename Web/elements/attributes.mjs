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
    case 'length': {
      // Points (40 or 40pt) or a percentage of the view along the gradient (25%), or none.
      const trimmed = text.trim().toLowerCase();
      if (entry.allowsNone && trimmed === 'none') return null;
      const match = /^([-+]?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?)(pt|%)?$/.exec(trimmed);
      if (!match) return new Error(`expects points (40 or 40pt) or a percentage (25%)${entry.allowsNone ? ' or none' : ''}, got "${text}"`);
      const value = Number(match[1]);
      if (match[2] === '%') {
        const fraction = value / 100, { minimum, maximum } = entry.fractions;
        if (!(fraction >= minimum && fraction <= maximum)) return new Error(`must be between ${minimum * 100}% and ${maximum * 100}%, got ${text}`);
        return { fraction };
      }
      if (!(value >= entry.minimum && value <= entry.maximum)) return new Error(`must be between ${entry.minimum} and ${entry.maximum} pt, got ${text}`);
      return { points: value };
    }
    case 'color': {
      // A colour word (what it draws in light and dark comes with the table) or hex digits.
      const lower = text.trim().toLowerCase();
      const word = entry.words.find((w) => w.toLowerCase() === lower)
        ?? Object.entries(entry.aliases ?? {}).find(([alias]) => alias.toLowerCase() === lower)?.[1];
      if (word) return { light: hex(entry.colors[word].light), dark: hex(entry.colors[word].dark) };
      const rgba = hex(text.trim());
      return rgba ? { light: rgba, dark: rgba } : new Error(`must be a colour (#RGB, #RRGGBB, #RRGGBBAA or ${entry.words.join(', ')}), got "${text}"`);
    }
    case 'flag': {
      const lower = text.trim().toLowerCase();
      if (lower === '' || lower === 'true') return true;
      if (lower === 'false') return false;
      return new Error(`must be true or false, got "${text}"`);
    }
    default:
      return new Error(`has a kind (${entry.kind}) this element does not read`);
  }
}

/// `#RGB`, `#RRGGBB` or `#RRGGBBAA` (the `#` optional) as [r, g, b, a]: bytes and 0…1; else null.
export function hex(text) {
  const digits = /^#?([0-9a-f]{3}|[0-9a-f]{6}|[0-9a-f]{8})$/i.exec(text)?.[1];
  if (!digits) return null;
  const full = digits.length === 3 ? [...digits].map((d) => d + d).join('') : digits;
  const bytes = full.match(/../g).map((b) => parseInt(b, 16));
  return [bytes[0], bytes[1], bytes[2], bytes.length === 4 ? bytes[3] / 255 : 1];
}

/// An entry's default in `appearance` (an entry whose default differs by appearance has both), as
/// `parse` gives values: a length or colour read from its text; null where there is none.
export function defaultValue(entry, appearance = 'light') {
  const given = entry.defaults?.[appearance] ?? entry.default;
  if (given === undefined) return entry.kind === 'flag' ? false : null;
  if (typeof given === 'string' && (entry.kind === 'length' || entry.kind === 'color')) {
    const value = parse(entry, given);
    return value instanceof Error ? null : value;
  }
  return given;
}

/// Reports a bad value of `attribute` on the console, naming the element and the attribute, once
/// per value (an element redraws often; its console should not fill).
export function reportOnce(element, attribute, text, message) {
  element.__reported ??= new Set();
  const key = attribute + '=' + text;
  if (element.__reported.has(key)) return;
  element.__reported.add(key);
  console.error(`<${element.localName}> ${attribute} ${message}`);
}

/// Every attribute of `element` by `table`: the value given, checked, or the entry's default in
/// `appearance` (an attribute absent, or bad and reported once per value on the console).
export function read(element, table, appearance = 'light') {
  const values = {};
  for (const entry of table) {
    const text = element.getAttribute(entry.attribute);
    values[entry.name] = defaultValue(entry, appearance);
    if (text === null) continue;
    const value = parse(entry, text);
    if (value instanceof Error) {
      const fallback = entry.role === 'appearance'
        ? `the page's colour scheme (${appearance})`
        : `its default, ${JSON.stringify(entry.defaults?.[appearance] ?? entry.default ?? 'none')}`;
      reportOnce(element, entry.attribute, text, `${value.message}; drawn with ${fallback}`);
    } else {
      values[entry.name] = value;
    }
  }
  return values;
}

/// The appearance an element draws: the attribute of its table's appearance (the entry whose role is
/// `appearance`) when it is light or dark, else the page's colour scheme (`scheme`: the
/// `prefers-color-scheme: dark` media query).
export function appearanceOf(element, scheme, table) {
  const entry = table.find((e) => e.role === 'appearance');
  const own = entry ? element.getAttribute(entry.attribute)?.trim().toLowerCase() : undefined;
  return own === 'light' || own === 'dark' ? own : (scheme?.matches ? 'dark' : 'light');
}

/// A class to extend that is `HTMLElement` in a browser and an empty class elsewhere, so that a
/// module that defines an element can be imported where there is no DOM (a server rendering a page).
export const ElementBase = globalThis.HTMLElement ?? class {};

/// Defines `name` as `constructor` once, where there are custom elements.
export function define(name, constructor) {
  const registry = globalThis.customElements;
  if (registry && !registry.get(name)) registry.define(name, constructor);
}
