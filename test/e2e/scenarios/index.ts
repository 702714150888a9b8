// Every UI scenario, and the choice of which to run (E2E_SCENARIOS).
import { PLANNED_SCENARIOS } from './planned';
import { Scenario } from './types';
import { CURRENT_SCENARIOS } from './workbench';

export const ALL_SCENARIOS: Scenario[] = [...CURRENT_SCENARIOS, ...PLANNED_SCENARIOS];

/** What runs by default: every scenario not marked `planned` (enable one by deleting its flag). */
export const DEFAULT_SCENARIOS = ALL_SCENARIOS.filter((s) => !s.planned);

/**
 * E2E_SCENARIOS unset: the default set. `all`: every scenario. `planned`: only the planned ones.
 * Otherwise a comma-separated list of ids, e.g. `sign-in,delete-file`; when every word starts
 * with `+` (`+sign-in`) they are added to the default set.
 */
export function selectScenarios(spec = process.env.E2E_SCENARIOS ?? ''): Scenario[] {
  const words = spec.split(',').map((w) => w.trim()).filter(Boolean);
  if (words.length === 0) return DEFAULT_SCENARIOS;
  if (words.includes('all')) return ALL_SCENARIOS;
  const byId = new Map(ALL_SCENARIOS.map((s) => [s.id, s]));
  const chosen = new Set<Scenario>(words.every((w) => w.startsWith('+')) ? DEFAULT_SCENARIOS : []);
  for (const word of words) {
    if (word === 'planned') ALL_SCENARIOS.filter((s) => s.planned).forEach((s) => chosen.add(s));
    else if (word === 'default') DEFAULT_SCENARIOS.forEach((s) => chosen.add(s));
    else {
      const scenario = byId.get(word.replace(/^\+/, ''));
      if (!scenario) throw new Error(`unknown scenario "${word}"; known: ${[...byId.keys()].join(', ')}`);
      chosen.add(scenario);
    }
  }
  return ALL_SCENARIOS.filter((s) => chosen.has(s));
}
