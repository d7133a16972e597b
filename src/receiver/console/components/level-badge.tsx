import { levelClass } from '../format.ts';

/** A log's level as sent (a custom level keeps its name) with the colour of its kind. */
export function LevelBadge({ level }: { level: string }) {
  return <span class={levelClass(level)}>{level}</span>;
}
