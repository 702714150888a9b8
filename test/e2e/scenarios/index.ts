// Every UI scenario, and the choice of which to run (E2E_SCENARIOS).
import { type VsCodeTarget } from '../harness/paths';
import { FEATURE_SCENARIOS } from './features';
import { type Scenario } from './types';
import { CURRENT_SCENARIOS } from './workbench';

export const ALL_SCENARIOS: Scenario[] = [...CURRENT_SCENARIOS, ...FEATURE_SCENARIOS];

/**
 * E2E_SCENARIOS unset or `all`: every scenario. Otherwise a comma-separated list of ids,
 * e.g. `sign-in,delete-file`, run in the suite's order.
 */
export function selectScenarios(spec = process.env.E2E_SCENARIOS ?? ''): Scenario[] {
  const words = spec
    .split(',')
    .map((w) => w.trim())
    .filter(Boolean);
  if (words.length === 0 || words.includes('all')) {
    return ALL_SCENARIOS;
  }
  const byId = new Map(ALL_SCENARIOS.map((s) => [s.id, s]));
  const chosen = new Set<Scenario>();
  for (const word of words) {
    const scenario = byId.get(word);
    if (!scenario) {
      throw new Error(`unknown scenario "${word}"; known: ${[...byId.keys()].join(', ')}`);
    }
    chosen.add(scenario);
  }
  return ALL_SCENARIOS.filter((s) => chosen.has(s));
}

export interface ScenarioPlan {
  /** The scenarios that run on this VS Code, in the suite's order. */
  run: Scenario[];
  /** Those that cannot, each with the reason its SKIP line gives. */
  skipped: { scenario: Scenario; why: string }[];
}

/** Splits `scenarios` into those that run on `target` and those that say why they cannot. */
export function planScenarios(scenarios: readonly Scenario[], target: VsCodeTarget): ScenarioPlan {
  const plan: ScenarioPlan = { run: [], skipped: [] };
  for (const scenario of scenarios) {
    const why = scenario.unsupportedOn?.(target);
    if (why) {
      plan.skipped.push({ scenario, why });
    } else {
      plan.run.push(scenario);
    }
  }
  return plan;
}
