import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/**
 * WCAG 2.1 AA contrast of the console's colours (issue 39), read from the stylesheet the console
 * serves: every text colour against the background it is drawn on — 4.5:1, 3:1 for large text
 * (≥ 24 px, or ≥ 18.66 px bold). The stylesheet is ours and flat (custom properties on :root, no
 * nesting, no media-dependent colours), so its rules are read with a small parser rather than a
 * CSS engine: comments dropped, each `selector { declarations }` taken as it is written.
 */
const CSS = readFileSync(new URL('../src/http/console/static/console.css', import.meta.url), 'utf8');
const ROOT_PX = 16;

interface Rule {
  selector: string;
  decls: Map<string, string>;
}

function rulesOf(css: string): Rule[] {
  const text = css.replace(/\/\*[\s\S]*?\*\//g, '');
  const rules: Rule[] = [];
  for (const match of text.matchAll(/([^{}]+)\{([^{}]*)\}/g)) {
    const decls = new Map<string, string>();
    for (const part of match[2]!.split(';')) {
      const at = part.indexOf(':');
      if (at > 0) decls.set(part.slice(0, at).trim(), part.slice(at + 1).trim());
    }
    for (const selector of match[1]!.split(',')) rules.push({ selector: selector.trim(), decls });
  }
  return rules;
}

const rules = rulesOf(CSS);
const root = rules.find((r) => r.selector === ':root')!.decls;

/** A colour value as [r, g, b], custom properties resolved; null for `none`, `transparent`, `inherit`. */
function rgbOf(value: string): [number, number, number] | null {
  const resolved = value.replace(/var\((--[\w-]+)\)/g, (_, name: string) => {
    const found = root.get(name);
    if (!found) throw new Error(`undefined custom property ${name}`);
    return found;
  });
  const hex = /#([0-9a-f]{3}|[0-9a-f]{6})\b/i.exec(resolved)?.[1];
  if (!hex) {
    if (/^(none|transparent|inherit|currentcolor)$/i.test(resolved.trim())) return null;
    throw new Error(`colour not understood by this test: ${value}`);
  }
  const full = hex.length === 3 ? [...hex].map((c) => c + c).join('') : hex;
  return [0, 2, 4].map((i) => Number.parseInt(full.slice(i, i + 2), 16)) as [number, number, number];
}

/** WCAG 2.1 relative luminance and contrast ratio. */
function luminance([r, g, b]: [number, number, number]): number {
  const channel = (c: number) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}
function contrast(a: [number, number, number], b: [number, number, number]): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

const backgroundOf = (r: Rule) => r.decls.get('background-color') ?? r.decls.get('background');

/** Large text in WCAG's sense: 18 pt (24 px), or 14 pt (18.66 px) bold. */
function isLarge(r: Rule): boolean {
  const size = r.decls.get('font-size');
  const px = size?.endsWith('rem')
    ? Number.parseFloat(size) * ROOT_PX
    : size?.endsWith('px')
      ? Number.parseFloat(size)
      : ROOT_PX;
  const bold = Number(r.decls.get('font-weight') ?? 400) >= 700;
  return px >= 24 || (bold && px >= 18.66);
}

/**
 * Each text colour with the backgrounds it is drawn on: its own rule's background; else those of
 * the rules whose selector contains it (`.counters li.warn` for `.counters li.warn .value`), else
 * the surfaces text sits on (the page, a panel) — the header's navy for the header's rules. A rule
 * with a background and no colour draws the text it inherits (the header's white, else the ink).
 */
function pairs(): { selector: string; fg: string; bg: string; large: boolean }[] {
  const body = rules.find((r) => r.selector === 'body')!.decls;
  const header = rules.find((r) => r.selector === 'header')!.decls;
  const surfaces = [body.get('background')!, root.get('--panel')!];
  const found: { selector: string; fg: string; bg: string; large: boolean }[] = [];
  for (const rule of rules) {
    if (rule.selector === ':root') continue;
    const fg = rule.decls.get('color');
    const bg = backgroundOf(rule);
    const inHeader = rule.selector.startsWith('header');
    const large = isLarge(rule);
    if (fg && bg) found.push({ selector: rule.selector, fg, bg, large });
    else if (bg && bg !== 'none')
      found.push({
        selector: rule.selector,
        fg: inHeader ? header.get('color')! : body.get('color')!,
        bg,
        large,
      });
    else if (fg) {
      const containers = rules.filter(
        (r) =>
          r !== rule &&
          backgroundOf(r) &&
          r.selector !== 'body' &&
          rule.selector.startsWith(`${r.selector} `),
      );
      const grounds =
        containers.length > 0
          ? containers.map((r) => backgroundOf(r)!)
          : inHeader
            ? [header.get('background')!]
            : surfaces;
      for (const ground of grounds) found.push({ selector: rule.selector, fg, bg: ground, large });
    }
  }
  return found.filter((p) => rgbOf(p.fg) !== null && rgbOf(p.bg) !== null);
}

describe('console colours (WCAG 2.1 AA)', () => {
  it('computes contrast as WCAG defines it', () => {
    expect(contrast([0, 0, 0], [255, 255, 255])).toBeCloseTo(21, 5);
    expect(contrast([255, 255, 255], [255, 255, 255])).toBe(1);
    // #767676 on white is the classic 4.54:1.
    expect(contrast([0x76, 0x76, 0x76], [255, 255, 255])).toBeCloseTo(4.54, 2);
  });

  it('finds the stylesheet’s text and background pairs', () => {
    const found = pairs();
    expect(found.length).toBeGreaterThan(30);
    expect(found.map((p) => p.selector)).toEqual(
      expect.arrayContaining(['body', 'header', 'button', '.error', '.warning', '.tag', '.hint']),
    );
  });

  it('gives every text at least 4.5:1 on its background (3:1 when large)', () => {
    const failing = pairs()
      .map((p) => ({ ...p, ratio: contrast(rgbOf(p.fg)!, rgbOf(p.bg)!) }))
      .filter((p) => p.ratio < (p.large ? 3 : 4.5))
      .map((p) => `${p.selector}: ${p.fg} on ${p.bg} = ${p.ratio.toFixed(2)}:1`);
    expect(failing).toEqual([]);
  });
});
