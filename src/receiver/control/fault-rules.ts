/** Fault injection for tests (docs/receiver.md, "Fault injection"). */

import { seededRandom } from './seeded-random.js';

export type FaultAction =
  | { status: number; retryAfter?: number }
  | { delayMillis: number }
  | { reset: true }
  | { commitThenReset: true };

export interface FaultRuleInput {
  match?: { username?: string; resource?: string };
  /** Fire at most this many times, then the rule is spent. Unlimited when absent. */
  count?: number;
  /** Chance of firing per matching request, 0–1. Always when absent. */
  probability?: number;
  /** Seed of the rule's random numbers, so probabilistic runs repeat. */
  seed?: number;
  action: FaultAction;
}

export interface FaultRule extends FaultRuleInput {
  id: string;
  fired: number;
}

export interface FaultRegistry {
  add(input: FaultRuleInput): FaultRule;
  list(): FaultRule[];
  remove(id: string): boolean;
  clear(): void;
  /** The rule that fires for this request, if any (its count is used up by this call). */
  fire(target: { username: string; resource: string }): FaultRule | undefined;
}

export function createFaultRegistry(): FaultRegistry {
  const rules: { rule: FaultRule; random: () => number }[] = [];
  let nextId = 1;
  return {
    add(input) {
      const rule: FaultRule = { ...input, id: `fault-${nextId++}`, fired: 0 };
      rules.push({
        rule,
        random: input.seed === undefined ? Math.random : seededRandom(input.seed),
      });
      return rule;
    },
    list: () => rules.map(({ rule }) => ({ ...rule })),
    remove(id) {
      const index = rules.findIndex(({ rule }) => rule.id === id);
      if (index >= 0) rules.splice(index, 1);
      return index >= 0;
    },
    clear() {
      rules.length = 0;
    },
    fire(target) {
      for (const { rule, random } of rules) {
        if (rule.match?.username !== undefined && rule.match.username !== target.username) continue;
        if (
          rule.match?.resource !== undefined &&
          rule.match.resource.toLowerCase() !== target.resource
        ) {
          continue;
        }
        if (rule.count !== undefined && rule.fired >= rule.count) continue;
        if (rule.probability !== undefined && random() >= rule.probability) continue;
        rule.fired++;
        return rule;
      }
      return undefined;
    },
  };
}
