/** A resource's health state as a coloured label (docs/receiver.md, "Health"). */
export function HealthBadge({ state }: { state: string }) {
  return (
    <span class={`health health-${state}`} data-health={state}>
      {state}
    </span>
  );
}
