import type { FollowState } from '../follow-logs.ts';

const TEXT: Record<FollowState, string> = {
  connecting: 'connecting…',
  live: 'live',
  retrying: 'reconnecting…',
  stopped: 'paused',
};

/** Whether new records are streaming in. */
export function LiveStatus(props: {
  state: FollowState;
  detail: string | undefined;
  follow: boolean;
}) {
  const state = props.follow ? props.state : 'stopped';
  return (
    <span class={`live live-${state}`} data-live={state} title={props.detail}>
      {props.detail !== undefined && state === 'stopped' && props.follow
        ? `live tail unavailable: ${props.detail}`
        : TEXT[state]}
    </span>
  );
}
