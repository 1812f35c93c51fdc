import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from '@playwright/test';

export type Violation = Awaited<ReturnType<AxeBuilder['analyze']>>['violations'][number];

/** The impacts that fail a test; moderate and minor ones are printed only. */
export const FAILING_IMPACTS = new Set(['serious', 'critical']);

/**
 * axe-core's violations on the page (or inside `include`, or for `rules` only), run the fast way:
 * in the page itself (legacy mode: the app has no frames, so there is nothing to merge in a blank
 * page) and returning violations only, not every passing element. On the demo data that took
 * 35-60 % of the time of the default way, with the same violations (docs/decisions.md, 2026-11-28:
 * "axe runs in the page").
 */
export async function axeViolations(
  page: Page,
  scope: { include?: string; rules?: string[] } = {},
): Promise<Violation[]> {
  let axe = new AxeBuilder({ page }).setLegacyMode().options({ resultTypes: ['violations'] });
  if (scope.include) axe = axe.include(scope.include);
  if (scope.rules) axe = axe.withRules(scope.rules);
  return (await axe.analyze()).violations;
}

/** The serious and critical violations, each as "rule: its elements' selectors". */
export function failingViolations(violations: Violation[]): string[] {
  return violations
    .filter((violation) => FAILING_IMPACTS.has(violation.impact ?? ''))
    .map(
      (violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
    );
}
